"""Media files as memory (issue 41): images, PDFs and voice notes under memory/ and the extra paths.

Each file becomes derived text (OCR lines, PDF pages, transcript segments with their times) plus
metadata (EXIF time, place and camera; pages; duration), cached under `.memory/media/` by the
file's content hash and the extractor's version, never written beside the user's files. The index
parses that text like Markdown, so a result cites the file and lines of its derived text
(`memory/2026-11-27-whiteboard.png#L3-L5`).

    settings    `[media]` in memory.toml (enabled, modalities, max_file_bytes, ocr, timeout)
    sniff       what a file's first bytes say it is (a .png that is no PNG is skipped)
    sidecars    a user's `photo.png.md` (wins) and an audio file's .vtt/.srt/.txt transcript
    derive      the derived Markdown of a file, its day, the header a reader sees (pure)
    cache       the extraction cache under .memory/media/
    available   which extractors this machine has, and how to add the missing ones
    extract     one file's derived text: sidecar, cache, else the worker (index time only)
    worker      the extraction process: one file at a time, bounded memory, killed on a timeout
    image, pdf  what runs inside the worker (Pillow, rapidocr or tesseract, pypdf)

Nothing here is imported by a lexical recall of a workspace without media (docs/architecture.md).
"""
