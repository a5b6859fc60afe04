"""Inside the extraction worker: a PDF's pages as text (pypdf; BSD, unlike PyMuPDF's AGPL), and a
scanned page's images read by OCR, bounded by pages.

A PDF of thousands of pages is read up to MAX_PAGES (the rest said in a warning); at most
MAX_OCR_PAGES scanned pages are read by OCR, each from its first few images; an encrypted PDF that
opens without a password is read, one that needs a password is skipped.
"""

from __future__ import annotations

import re
from typing import Any

MAX_PAGES = 300
MAX_OCR_PAGES = 20  # OCR is about a second a page: a 300-page scan would outrun the timeout
MAX_IMAGES_PER_PAGE = 4
MIN_TEXT_CHARS = 16  # a page with less text than this is taken for a scan
MAX_TEXT_CHARS = 1_000_000  # of all pages together; the rest is left out with a warning
PARAGRAPH_LINES = 6  # a page's lines without blank lines between them are grouped this many at a time
_SENTENCE_END = re.compile(r"[.!?:;。！？]$")


def extract(path: str, ocr: Any) -> dict[str, Any]:  # ocr: image.Ocr | None
    from importlib import metadata

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    from . import image

    warnings: list[str] = []
    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("encrypted PDF that needs a password; skipped")
        total = len(reader.pages)
        info = reader.metadata
        title = str(info.title).strip() if info is not None and info.title else None
    except PdfReadError as exc:
        raise ValueError(f"damaged PDF ({exc})") from None
    meta: dict[str, Any] = {"format": "pdf", "pages": total}
    if title:
        meta["title"] = title[:200]
    if total > MAX_PAGES:
        warnings.append(f"PDF has {total:,} pages; only the first {MAX_PAGES} are indexed")
    pages, used, ocr_pages, ocr_used = [], 0, 0, False
    for number in range(1, min(total, MAX_PAGES) + 1):
        page = reader.pages[number - 1]
        try:
            text = page.extract_text() or ""
        except Exception as exc:  # pypdf raises many types on a broken page; the rest still count
            warnings.append(f"page {number} could not be read ({type(exc).__name__})")
            text = ""
        paragraphs = paragraphs_of(text)
        scanned = False
        if len(text.strip()) < MIN_TEXT_CHARS and ocr is not None:
            if ocr_pages >= MAX_OCR_PAGES:
                if ocr_pages == MAX_OCR_PAGES:
                    warnings.append(f"only the first {MAX_OCR_PAGES} scanned pages are read by OCR")
                    ocr_pages += 1
            else:
                ocr_pages += 1
                paragraphs += _page_images_text(page, ocr, number, warnings, image)
                scanned = ocr_used = True
        size = sum(len(line) for p in paragraphs for line in p)
        if used + size > MAX_TEXT_CHARS:
            warnings.append(f"text after page {number - 1} left out (over {MAX_TEXT_CHARS:,} characters)")
            break
        used += size
        if paragraphs:
            pages.append({"page": number, "paragraphs": paragraphs, "ocr": scanned})
    extractor = f"pypdf {metadata.version('pypdf')}" + (f" and {ocr.name()}" if ocr_used else "")
    return {"kind": "pdf", "extractor": extractor, "blocks": pages, "meta": meta, "warnings": warnings,
            "error": None}


def _page_images_text(page: Any, ocr: Any, number: int, warnings: list[str], image: Any) -> list[list[str]]:
    """The text of a scanned page: OCR of its first images (each checked as any image is)."""
    import io

    found: list[list[str]] = []
    try:
        images = list(page.images)[:MAX_IMAGES_PER_PAGE]
    except Exception as exc:  # an image pypdf cannot list: the page is skipped, not the PDF
        warnings.append(f"page {number}: images could not be read ({type(exc).__name__})")
        return found
    for item in images:
        try:
            img, _ = image.open_image(io.BytesIO(item.data))
        except ValueError:
            try:
                img = item.image.convert("RGB")  # raw pixel data pypdf decodes itself
                img.thumbnail((image.OCR_MAX_SIDE, image.OCR_MAX_SIDE))
            except Exception as exc:
                warnings.append(f"page {number}: an image could not be decoded ({type(exc).__name__})")
                continue
        found += ocr.paragraphs(img)
    return found


def paragraphs_of(text: str) -> list[list[str]]:
    """A page's text as paragraphs: blank lines split it, and a run of lines without one is cut after
    a line that ends a sentence once it has PARAGRAPH_LINES // 2 lines, and always at PARAGRAPH_LINES (pure)."""
    paragraphs: list[list[str]] = []
    for block in re.split(r"\n\s*\n", text):
        current: list[str] = []
        for line in block.split("\n"):
            line = " ".join(line.split())
            if not line:
                continue
            current.append(line)
            if len(current) >= PARAGRAPH_LINES or (len(current) >= PARAGRAPH_LINES // 2
                                                   and _SENTENCE_END.search(line)):
                paragraphs.append(current)
                current = []
        if current:
            paragraphs.append(current)
    return paragraphs
