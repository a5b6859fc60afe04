"""Inside the extraction worker: an image's metadata (Pillow: EXIF time with its offset, GPS, camera,
orientation) and its text (rapidocr, or Debian's tesseract), bounded.

An image is opened only after its header says it has at most MAX_PIXELS pixels (a decompression
bomb is refused before a pixel is decoded), a JPEG is decoded at a reduced scale when it is much
larger than OCR needs, the picture is turned upright from its EXIF orientation (a sideways photo
read 0.38 of its text before, 1.00 after, in issue 41's measurement) and scaled to OCR_MAX_SIDE.
"""

from __future__ import annotations

import subprocess
from typing import Any

MAX_PIXELS = 64_000_000  # 64 MP: every phone camera's full size; a bigger image is refused
OCR_MAX_SIDE = 1280  # px: text detection cost grows with the pixels; 1280 keeps a slide's 30 px text
MIN_SCORE = 0.5  # rapidocr's own threshold for a recognised line
_EXIF_IFD, _GPS_IFD = 0x8769, 0x8825


def open_image(path_or_file: Any, max_side: int = OCR_MAX_SIDE):  # -> (PIL.Image, meta)
    """The picture upright, RGB, at most `max_side` pixels on its longer side, and its metadata.

    Raises ValueError with a one-line reason for a bomb, a truncated or an unreadable image."""
    import warnings

    from PIL import Image, ImageOps, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    warnings.simplefilter("error", Image.DecompressionBombWarning)
    _heif()
    try:
        img = Image.open(path_or_file)
        width, height = img.size
        if width * height > MAX_PIXELS:
            raise ValueError(f"image is {width:,}×{height:,} pixels, over {MAX_PIXELS:,} (a decompression bomb); "
                             "skipped")
        meta = metadata(img)
        if img.format == "JPEG":
            img.draft("RGB", (max_side, max_side))  # decode at 1/2, 1/4 or 1/8 scale: less time and memory
        img.load()
        img = ImageOps.exif_transpose(img)
        img = img.convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ValueError(f"image is over {MAX_PIXELS:,} pixels (a decompression bomb); skipped") from None
    except UnidentifiedImageError:
        if _is_heif(path_or_file):
            raise ValueError("HEIC/HEIF images are read with pillow-heif (pip install pillow-heif); "
                             "skipped") from None
        raise ValueError("not a readable image") from None
    except (OSError, SyntaxError, EOFError) as exc:  # truncated data, a broken header
        raise ValueError(f"damaged image ({exc})") from None
    img.thumbnail((max_side, max_side))
    return img, meta


def _heif() -> None:
    """HEIC/HEIF (iPhone photos) open through pillow-heif when it is installed (not part of the media
    extra: its wheels bundle libheif and x265, whose licenses a user chooses for themselves)."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return
    register_heif_opener()


def _is_heif(path_or_file: Any) -> bool:
    if not isinstance(path_or_file, str):
        return False
    with open(path_or_file, "rb") as fh:
        return fh.read(12)[4:8] == b"ftyp"


def metadata(img: Any) -> dict[str, Any]:
    """Format, size, taken (ISO time with its offset when the camera wrote one), camera, GPS."""
    meta: dict[str, Any] = {"format": (img.format or "").lower() or None, "width": img.size[0],
                            "height": img.size[1]}
    try:
        exif = img.getexif()
        sub = exif.get_ifd(_EXIF_IFD)
        gps = exif.get_ifd(_GPS_IFD)
        if exif.get(0x0112) in (5, 6, 7, 8):  # stored turned a quarter: the size as the photo is seen
            meta["width"], meta["height"] = meta["height"], meta["width"]
    except Exception:  # a broken EXIF block is no reason to lose the picture's text
        return meta
    taken = sub.get(0x9003) or sub.get(0x9004) or exif.get(0x0132)
    if isinstance(taken, str) and len(taken) >= 19 and taken[:4].isdigit():
        iso = taken[:10].replace(":", "-") + "T" + taken[11:19]
        offset = sub.get(0x9011) or sub.get(0x9010)
        if isinstance(offset, str) and len(offset) == 6 and offset[0] in "+-":
            iso += offset
        meta["taken"] = iso
    camera = " ".join(str(exif.get(tag, "")).strip("\x00 ") for tag in (0x010F, 0x0110)).strip()
    if camera:
        meta["camera"] = camera[:80]
    position = _gps(gps)
    if position:
        meta["gps"] = position
    return meta


def _gps(gps: Any) -> list[float] | None:
    try:
        lat = _degrees(gps[2]) * (-1 if gps.get(1) == "S" else 1)
        lon = _degrees(gps[4]) * (-1 if gps.get(3) == "W" else 1)
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError):
        return None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return [round(lat, 6), round(lon, 6)]


def _degrees(dms: Any) -> float:
    d, m, s = (float(x) for x in dms)
    return d + m / 60 + s / 3600


class Ocr:
    """One OCR engine, loaded on first use and kept for the worker's life (rapidocr loads in ~1 s)."""

    def __init__(self, engine: str, languages: str = "eng") -> None:
        self.engine, self.languages = engine, languages
        self._rapid: Any = None

    def name(self) -> str:
        if self.engine == "rapidocr":
            from importlib import metadata

            return f"rapidocr {metadata.version('rapidocr')}"
        return f"tesseract ({self.languages})"

    def paragraphs(self, img: Any) -> list[list[str]]:
        """The image's text as paragraphs of lines, top to bottom."""
        if self.engine == "tesseract":
            return self._tesseract(img)
        return group_lines(self._rapidocr_lines(img))

    def _rapidocr_lines(self, img: Any) -> list[tuple[float, float, float, str]]:
        import numpy as np

        if self._rapid is None:
            import logging

            from rapidocr import RapidOCR

            self._rapid = RapidOCR(params={
                "Global.log_level": "error", "Global.use_cls": False,  # upright already (EXIF)
                "Det.limit_type": "max", "Det.limit_side_len": OCR_MAX_SIDE,
                "EngineConfig.onnxruntime.intra_op_num_threads": 1,  # one core: indexing shares the machine
                "EngineConfig.onnxruntime.inter_op_num_threads": 1})
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        out = self._rapid(np.asarray(img)[:, :, ::-1])  # BGR, as OpenCV reads
        if out.boxes is None or out.txts is None:
            return []
        lines = []
        for box, text, score in zip(out.boxes, out.txts, out.scores, strict=False):
            if score >= MIN_SCORE and text.strip():
                ys = [float(p[1]) for p in box]
                lines.append((min(ys), max(ys), float(min(p[0] for p in box)), text.strip()))
        return lines

    def _tesseract(self, img: Any) -> list[list[str]]:
        import io

        buffer = io.BytesIO()
        img.save(buffer, "PNG")
        done = subprocess.run(["tesseract", "stdin", "stdout", "-l", self.languages], input=buffer.getvalue(),
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise ValueError(f"tesseract failed: {done.stderr.decode('utf-8', 'replace').strip()[:200]}")
        text = done.stdout.decode("utf-8", "replace")
        return [[line for line in block.split("\n") if line.strip()]
                for block in text.split("\n\n") if block.strip()]


def group_lines(boxes: list[tuple[float, float, float, str]]) -> list[list[str]]:
    """OCR boxes (top, bottom, left, text) -> paragraphs of lines (pure).

    Boxes whose heights overlap by half are one line, left to right (a receipt's item and its
    price); a gap between lines over 0.9 of the median line height starts a paragraph (a slide's
    title and its bullets, a whiteboard's sections)."""
    if not boxes:
        return []
    rows: list[list[tuple[float, float, float, str]]] = []
    for box in sorted(boxes):
        if rows:
            top = min(b[0] for b in rows[-1])
            bottom = max(b[1] for b in rows[-1])
            overlap = min(bottom, box[1]) - max(top, box[0])
            if overlap > 0.5 * min(bottom - top, box[1] - box[0]):
                rows[-1].append(box)
                continue
        rows.append([box])
    heights = sorted(max(b[1] for b in row) - min(b[0] for b in row) for row in rows)
    median = heights[len(heights) // 2] or 1.0
    paragraphs: list[list[str]] = []
    last_bottom = None
    for row in rows:
        top = min(b[0] for b in row)
        if last_bottom is None or top - last_bottom > 0.9 * median:
            paragraphs.append([])
        paragraphs[-1].append(" ".join(b[3] for b in sorted(row, key=lambda b: b[2])))
        last_bottom = max(b[1] for b in row)
    return paragraphs


def extract(path: str, ocr: Ocr | None) -> dict[str, Any]:
    """An image's extraction (derive's shape): metadata, and its text when `ocr` is given."""
    img, meta = open_image(path)
    blocks = ocr.paragraphs(img) if ocr is not None else []
    return {"kind": "image", "extractor": ocr.name() if ocr is not None else None, "blocks": blocks,
            "meta": meta, "warnings": [], "error": None}
