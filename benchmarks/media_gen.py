"""Media files for the media benchmark and the demo: photos of text with EXIF times and rotations,
terminal screenshots, receipts, slides in five languages, PDFs with text and scanned pages, voice
notes with transcript sidecars. Deterministic (a seeded generator); needs Pillow and pypdf
(`pip install workspace-memory[media]`).

    python benchmarks/media_gen.py OUT_WORKSPACE      # the 32 files under OUT_WORKSPACE/memory/
    python benchmarks/media_gen.py OUT --folder 1000  # also 1,000 photos of text in memory/photos/

The helpers (text_image, photo, text_pdf, scanned_pdf, wav) also make examples/ (examples/make_media.py).
"""

from __future__ import annotations

import argparse
import io
import math
import random
import struct
import wave
from pathlib import Path

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, mono: bool = False, bold: bool = False):
    """DejaVu when the machine has it (Debian's fonts-dejavu-core), else Pillow's own scalable font."""
    from PIL import ImageFont

    name = "DejaVuSansMono" if mono else "DejaVuSans"
    path = FONT_DIR / f"{name}{'-Bold' if bold else ''}.ttf"
    return ImageFont.truetype(str(path), size) if path.is_file() else ImageFont.load_default(size)


def text_image(lines: list[str], size: tuple[int, int] = (1280, 720), *, bg: str = "white", fg: str = "black",
               font_size: int = 36, mono: bool = False, title: str | None = None, margin: int = 60):
    """A picture of some lines of text (a slide, a screenshot, a whiteboard before it is photographed)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, bg)
    draw = ImageDraw.Draw(img)
    y = margin
    if title:
        draw.text((margin, y), title, fill=fg, font=font(int(font_size * 1.4), mono, bold=True))
        y += int(font_size * 2.4)
    body = font(font_size, mono)
    for line in lines:
        draw.text((margin, y), line, fill=fg, font=body)
        y += int(font_size * 1.5)
    return img


def photo(img, seed: int, tilt: float = 2.5):
    """A flat picture made to look photographed: off-white light, a slight tilt, noise and blur."""
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    img = img.convert("L").point(lambda v: 40 + v * 0.75).convert("RGB")
    img = img.rotate(rng.uniform(-tilt, tilt), resample=Image.BICUBIC, expand=True, fillcolor=(150, 150, 145))
    noise = Image.frombytes("L", img.size, rng.randbytes(img.size[0] * img.size[1])).convert("RGB")
    img = Image.blend(img, noise, 0.12)
    return img.filter(ImageFilter.GaussianBlur(0.7))


# EXIF orientation -> how the stored pixels are turned from upright (PIL rotates counter-clockwise)
_STORED_TURN = {1: 0, 3: 180, 6: 90, 8: 270}


def save_jpeg(img, path: Path, *, taken: str | None = None, offset: str | None = None, orientation: int = 1,
              camera: tuple[str, str] | None = None, gps: tuple[float, float] | None = None) -> None:
    """Save as a camera would: pixels stored turned, with the EXIF tags that say how to show them."""
    from PIL import Image

    exif = Image.Exif()
    if orientation != 1:
        img = img.rotate(_STORED_TURN[orientation], expand=True)
        exif[0x0112] = orientation
    if camera:
        exif[0x010F], exif[0x0110] = camera
    if taken:
        exif[0x0132] = taken
        sub = exif.get_ifd(0x8769)
        sub[0x9003] = taken
        if offset:
            sub[0x9011] = offset
    if gps:
        lat, lon = gps
        exif.get_ifd(0x8825).update({1: "N" if lat >= 0 else "S", 2: _dms(abs(lat)),
                                     3: "E" if lon >= 0 else "W", 4: _dms(abs(lon))})
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, "JPEG", quality=88, exif=exif)


def _dms(value: float) -> tuple[float, float, float]:
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    return (float(degrees), float(minutes), round(((value - degrees) * 60 - minutes) * 60, 2))


def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", "replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def text_pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose pages hold these lines as text (Helvetica, WinAnsi): what a word processor exports."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        stream = b"BT /F1 13 Tf 16 TL 72 760 Td " + b" ".join(_pdf_string(line) + b" Tj T*" for line in lines) + b" ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def scanned_pdf(images) -> bytes:
    """A PDF of page images and no text: what a scanner makes."""
    out = io.BytesIO()
    first, *rest = [img.convert("RGB") for img in images]
    first.save(out, "PDF", resolution=150, save_all=True, append_images=rest)
    return out.getvalue()


def joined_pdf(*documents: bytes) -> bytes:
    """The pages of several PDFs in one (a text page followed by a scanned one)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for document in documents:
        for page in PdfReader(io.BytesIO(document)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def wav(seconds: float, seed: int, rate: int = 16_000) -> bytes:
    """A voice note stand-in: a few seconds of soft tones (16 kHz mono), real WAV bytes."""
    rng = random.Random(seed)
    freqs = [rng.uniform(120, 300) for _ in range(4)]
    frames = bytearray()
    for n in range(int(seconds * rate)):
        t = n / rate
        value = sum(math.sin(2 * math.pi * f * t) for f in freqs) / len(freqs)
        frames += struct.pack("<h", int(value * 6000 * (0.5 + 0.5 * math.sin(t * 3))))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return out.getvalue()


def _screenshot(lines: list[str]):
    return text_image(lines, (1400, 60 + 44 * len(lines) + 60), bg="#1e1e1e", fg="#e6e6e6", font_size=26,
                      mono=True, margin=40)


def _receipt(lines: list[str]):
    return text_image(lines, (620, 110 + 52 * len(lines)), font_size=28, mono=True, margin=50)


def _whiteboard(title: str, lines: list[str]):
    return text_image(lines, (1600, 1000), title=title, font_size=48, margin=80)


def make(ws: Path) -> list[str]:
    """Write the benchmark's 32 media files (and their sidecars) under ws/memory/; returns their keys."""
    m = ws / "memory"
    made: list[str] = []

    def jpeg(key: str, img, **exif) -> None:
        save_jpeg(img, ws / key, **exif)
        made.append(key)

    def png(key: str, img) -> None:
        (ws / key).parent.mkdir(parents=True, exist_ok=True)
        img.save(ws / key, "PNG")
        made.append(key)

    def raw(key: str, data: bytes) -> None:
        (ws / key).parent.mkdir(parents=True, exist_ok=True)
        (ws / key).write_bytes(data)
        made.append(key)

    cam = ("Apple", "iPhone 15")
    # Whiteboard photos: EXIF times (with an offset), three of them stored sideways or upside down.
    jpeg("memory/media/IMG_4711.jpg", photo(_whiteboard("Q1 roadmap", [
        "1. Ship offline search", "2. Migrate billing to Stripe", "3. Hire two SREs"]), 1),
        taken="2026:11:24 10:12:31", offset="+01:00", camera=cam)
    jpeg("memory/media/IMG_4720.jpg", photo(_whiteboard("Retro", [
        "Deploys are too slow", "Flaky integration tests", "Action: cache docker layers in CI"]), 2),
        taken="2026:11:26 16:45:02", offset="+01:00", orientation=6, camera=cam)
    jpeg("memory/media/IMG_4733.jpg", photo(_whiteboard("Architecture", [
        "gateway -> queue -> worker pool", "Redis holds the rate limits", "Postgres for billing only"]), 3),
        taken="2026:11:27 11:03:40", offset="+01:00", orientation=3, camera=cam)
    jpeg("memory/media/IMG_4750.jpg", photo(_whiteboard("Offsite agenda", [
        "Lisbon, March 3-5", "Hotel Alfama Palace", "Day 2: strategy workshop"]), 4),
        taken="2026:12:01 09:30:00", offset="+01:00", orientation=8, camera=cam)
    jpeg("memory/media/IMG_4761.jpg", photo(_whiteboard("Backend interview loop", [
        "System design (60 min)", "Pair programming on a bug", "Values conversation"]), 5),
        taken="2026:12:03 14:20:10", offset="+01:00", camera=cam)
    jpeg("memory/2026-11-29-fridge.jpg", photo(text_image([
        "Dog sitter: Maria", "Phone 0176 5550 1234", "Walks at 8 and 18"], (1000, 700), font_size=44), 6),
        camera=cam, gps=(52.4986, 13.4031))
    # Terminal errors, screenshots named as macOS names them.
    shots = {
        "2026-11-23 at 09.14.02": ["$ python manage.py migrate", "Traceback (most recent call last):",
                                   "psycopg.OperationalError: connection to server at \"127.0.0.1\", port 5432",
                                   "failed: Connection refused"],
        "2026-11-25 at 16.40.11": ["$ npm install", "npm ERR! code ERESOLVE",
                                   "npm ERR! ERESOLVE unable to resolve dependency tree",
                                   "npm ERR! peer react@\"^18\" from react-beautiful-dnd@13.1.1"],
        "2026-11-26 at 11.02.45": ["$ cargo build", "error[E0502]: cannot borrow `cache` as mutable because",
                                   "it is also borrowed as immutable", "  --> src/store.rs:88:9"],
        "2026-11-27 at 14.30.00": ["$ kubectl get pods", "NAME            READY  STATUS            RESTARTS",
                                   "api-7d9f5c-x2k  0/1    CrashLoopBackOff  14", "Last state: OOMKilled"],
        "2026-12-01 at 10.05.33": ["$ git pull origin main", "fatal: refusing to merge unrelated histories"],
        "2026-12-02 at 17.21.09": ["$ docker run -p 8080:80 web", "docker: Error response from daemon: driver failed",
                                   "programming external connectivity: Bind for 0.0.0.0:8080 failed:",
                                   "port is already allocated."],
    }
    for stamp, lines in shots.items():
        png(f"memory/screenshots/Screenshot {stamp}.png", _screenshot(lines))
    # Receipts, photographed.
    receipts = {
        "cafe-central": (["CAFE CENTRAL WIEN", "Melange        4,90", "Sachertorte    6,50",
                          "SUMME EUR     11,40"], "2026:11:22 15:10:00"),
        "hardware": (["HOME DEPOT #4120", "Wall anchors x2  5.98", "Drill bit 8mm    4.99",
                      "Hammer          12.99", "TOTAL USD       23.97"], "2026:11:28 11:45:00"),
        "pharmacy": (["APOTHEKE AM MARKT", "Ibuprofen 400mg  7,49", "GESAMT EUR       7,49"], "2026:11:30 18:02:00"),
        "taxi": (["TAXI BERLIN", "BER Flughafen -> Kreuzberg", "Fahrpreis EUR   28,40"], "2026:12:02 22:15:00"),
        "sushi": (["SUSHI YASU", "Omakase x2     160.00", "Sake            24.00",
                   "TOTAL         184.00"], "2026:12:04 21:30:00"),
    }
    for n, (name, (lines, taken)) in enumerate(receipts.items()):
        jpeg(f"memory/receipts/receipt-{name}.jpg", photo(_receipt(lines), 10 + n, tilt=1.5),
             taken=taken, offset="+01:00", camera=cam)
    # Slides in five languages (and one in English).
    slides = {
        "quartalsziele-2027": ("Quartalsziele 2027", ["Umsatz um 15 % steigern", "Kundenzufriedenheit verbessern",
                                                      "Markteinführung in Österreich"]),
        "plan-migration": ("Plan de migration", ["Base de données vers PostgreSQL 17",
                                                 "Date limite : 15 janvier", "Responsable : équipe plateforme"]),
        "presupuesto-marketing": ("Presupuesto de marketing", ["40.000 euros para campañas en redes sociales",
                                                               "Lanzamiento en febrero"]),
        "lancio-prodotto": ("Lancio del prodotto", ["Milano, 12 febbraio", "Presentazione ai partner",
                                                    "Demo dal vivo alle 15:00"]),
        "incident-review": ("Incident review", ["Root cause: expired TLS certificate on api.example.com",
                                                "Fix: automatic renewal with cert-manager"]),
        "reuniao-equipa": ("Reunião de equipa", ["Novos horários de suporte: 8h às 20h",
                                                 "Plantão ao fim de semana por rotação"]),
    }
    for name, (title, lines) in slides.items():
        png(f"memory/slides/{name}.png", text_image(lines, title=title))
    # PDFs: text, two pages, scanned, and a text page followed by a scanned one.
    raw("memory/docs/invoice-2026-117.pdf", text_pdf([[
        "Invoice 2026-117", "Hosting services, November 2026", "Amount due: 349.00 EUR",
        "Due date: 15 December 2026"]]))
    raw("memory/docs/lease-agreement.pdf", text_pdf([
        ["Lease agreement", "Flat 3, Oranienstrasse 12, Berlin", "Monthly rent: 1,250 EUR"],
        ["Notice period: three months, in writing", "Pets allowed with the landlord's consent"]]))
    raw("memory/docs/scan-tax-office.pdf", scanned_pdf([photo(text_image([
        "Finanzamt Kreuzberg", "Your tax refund of 412 EUR", "will be paid by 20 December 2026"],
        (1240, 1754), font_size=40, margin=120), 20, tilt=1.0)]))
    raw("memory/docs/scan-warranty.pdf", scanned_pdf([photo(text_image([
        "Warranty card", "Dishwasher model SMV4", "Warranty valid until 2029"],
        (1240, 1754), font_size=40, margin=120), 21, tilt=1.0)]))
    raw("memory/docs/minutes-2026-11-30.pdf", joined_pdf(
        text_pdf([["Meeting minutes, 30 November 2026", "Attendees: Ana, Jonas, Mei", "Topic: API roadmap"]]),
        scanned_pdf([photo(text_image(["Decision: freeze API v2 until the security audit"], (1240, 1754),
                                      font_size=40, margin=120), 22, tilt=1.0)])))
    # Voice notes: WAV audio with a transcript beside it (.vtt, .srt, .txt).
    raw("memory/voice/voice-2026-11-25.wav", wav(4.0, 30))
    (m / "voice/voice-2026-11-25.wav.vtt").write_text(
        "WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nRemind me to call Kowalski the plumber\n\n"
        "00:00:03.000 --> 00:00:04.000\nabout the leaking boiler on Friday.\n", encoding="utf-8")
    raw("memory/voice/standup-2026-12-03.wav", wav(5.0, 31))
    (m / "voice/standup-2026-12-03.srt").write_text(
        "1\n00:00:00,000 --> 00:00:02,500\nStandup: Jonas is blocked on the SSO integration.\n\n"
        "2\n00:00:02,500 --> 00:00:05,000\nAna finished the export feature.\n", encoding="utf-8")
    raw("memory/voice/idea.wav", wav(3.0, 32))
    (m / "voice/idea.wav.txt").write_text("Gift idea for Mia: a pottery class in Kreuzberg.\n", encoding="utf-8")
    return made


WORDS = ["invoice", "deploy", "cache", "meeting", "budget", "release", "server", "ticket", "review", "backup",
         "gateway", "schema", "rollout", "latency", "sprint", "vendor", "contract", "onboarding", "audit", "quota"]


def folder(ws: Path, n: int, seed: int = 7) -> None:
    """`n` photos of text (800x600 JPEGs with EXIF times) in memory/photos/: the indexing-speed folder."""
    rng = random.Random(seed)
    for i in range(n):
        lines = [" ".join(rng.choice(WORDS) for _ in range(4)) + f" {rng.randint(10, 999)}" for _ in range(4)]
        img = photo(text_image(lines, (800, 600), font_size=34, margin=40), seed + i, tilt=1.5)
        day = 1 + i % 28
        save_jpeg(img, ws / "memory" / "photos" / f"IMG_{i:05d}.jpg", taken=f"2026:11:{day:02d} 12:00:00",
                  orientation=(1, 6, 3, 8)[i % 4])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--folder", type=int, default=0, help="also write this many photos to memory/photos/")
    args = ap.parse_args()
    made = make(args.out)
    if args.folder:
        folder(args.out, args.folder)
    print(f"{len(made)} media files in {args.out / 'memory'}" + (f", {args.folder} photos" if args.folder else ""))


if __name__ == "__main__":
    main()
