"""Make the demo's media files (`make demo` copies them with the notes): a photo of a whiteboard, a
one-page PDF invoice and a slide in German. Deterministic; needs the media extra (Pillow, pypdf).

    python examples/make_media.py      # writes them under examples/memory/
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

from media_gen import photo, save_jpeg, text_image, text_pdf  # noqa: E402


def main() -> None:
    memory = HERE / "memory"
    board = text_image(["- forward voice messages", "- retry queue for dropped sends", "- release by Dec 15"],
                       (1600, 1000), title="warelay 1.0 plan", font_size=48, margin=80)
    save_jpeg(photo(board, 41), memory / "2025-11-25-whiteboard.jpg", taken="2025:11:25 15:30:12", offset="+01:00",
              orientation=6, camera=("Google", "Pixel 8"))
    (memory / "2025-11-29-hosting-invoice.pdf").write_bytes(text_pdf([[
        "Invoice 2025-117", "VPS for the warelay gateway, November 2025", "Amount due: 29.90 EUR",
        "Due date: 15 December 2025"]]))
    slide = text_image(["Sprachnachrichten weiterleiten", "Stabilität der Verbindung verbessern",
                        "Veröffentlichung Mitte Dezember"], title="Projektstart: Ziele")
    slide.save(memory / "slides" / "2025-11-26-projektstart.png", "PNG")
    print(f"wrote the demo's media under {memory}")


if __name__ == "__main__":
    main()
