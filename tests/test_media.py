"""Images, PDFs and voice notes as memory (issue 41, src/workspace_memory/media, docs/media.md).

The pure parts (content types, transcripts, days, OCR line grouping, PDF paragraphs, settings) are
tested on data; the rest on a real workspace indexed by the real extractors (Pillow, rapidocr with
the models in its wheel, pypdf) in the real worker process, with every bad input the issue names.
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import wave
import zlib
from datetime import date
from pathlib import Path

import pytest

from conftest import assert_one_line_error, index_db, recall_json, run_memory, run_ok
from workspace_memory.media import derive, sidecars, sniff
from workspace_memory.media.image import group_lines
from workspace_memory.media.pdf import paragraphs_of
from workspace_memory.media.settings import MediaSettings

PIL = pytest.importorskip("PIL", reason="the media extra (pip install 'workspace-memory[media]')")
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

NOW = "2026-12-06T12:00"
MEDIA_ON = "[media]\nenabled = true\n"


# -- pure --------------------------------------------------------------------------------------

def test_a_file_is_what_its_bytes_say() -> None:
    assert sniff.content_type(b"\xff\xd8\xff\xe0" + b"\0" * 20) == "jpeg"
    assert sniff.content_type(b"\x89PNG\r\n\x1a\n" + b"\0" * 20) == "png"
    assert sniff.content_type(b"RIFF\0\0\0\0WAVEfmt ") == "wav"
    assert sniff.content_type(b"%PDF-1.7\n") == "pdf"
    assert sniff.content_type(b"\0\0\0\x18ftypheic") == "heic"
    assert sniff.content_type(b"hello world") is None
    assert sniff.mismatch("image", b"%PDF-1.4") == "content is pdf, not an image"
    assert sniff.mismatch("image", b"\x89PNG\r\n\x1a\n") is None


def test_transcripts_are_read_as_timed_segments() -> None:
    vtt = "WEBVTT\n\nNOTE a comment\n\n00:00:01.500 --> 00:00:03.000\n<v Ana>Call the plumber\n\n" \
          "01:02:03.000 --> 01:02:05.000\nabout the boiler.\n"
    assert sidecars.parse_cues(vtt) == [(1.5, "Call the plumber"), (3723.0, "about the boiler.")]
    srt = "1\n00:00:00,000 --> 00:00:02,000\nFirst line\nsecond line\n\n2\n00:00:02,000 --> 00:00:04,000\nNext.\n"
    assert sidecars.parse_cues(srt) == [(0.0, "First line second line"), (2.0, "Next.")]
    # Cues end mid-sentence; a sentence keeps the time of its first cue.
    assert derive.join_segments([(1.5, "Call the plumber"), (3.0, "about the boiler."), (9.0, "Then")]) == \
        [(1.5, "Call the plumber about the boiler."), (9.0, "Then")]
    assert derive.clock(3723) == "1:02:03" and derive.clock(4.2) == "0:04"


def test_a_media_files_day_is_its_photo_time_then_its_name_then_its_folder_then_its_file_time() -> None:
    mtime = int(1_700_000_000 * 1e9)  # 2023-11-14
    assert derive.media_day({"taken": "2026-11-24T10:12:31+01:00"}, "memory/2025-01-01.jpg", mtime) == \
        (date(2026, 11, 24), "taken")
    assert derive.media_day({}, "memory/shots/Screenshot 2026-11-23 at 09.14.02.png", mtime) == \
        (date(2026, 11, 23), "name")
    assert derive.media_day({}, "memory/IMG_20261127_140200.jpg", mtime) == (date(2026, 11, 27), "name")
    assert derive.media_day({}, "memory/2026-11-27/board.png", mtime) == (date(2026, 11, 27), "folder")
    assert derive.media_day({}, "memory/board.png", mtime) == (date(2023, 11, 14), "file time")
    assert derive.media_day({}, "memory/IMG_4711.jpg", mtime)[1] == "file time"  # 4711 is no date


def test_ocr_boxes_become_lines_and_paragraphs() -> None:
    boxes = [(10, 40, 0, "Q1 roadmap"),  # a title
             (100, 130, 0, "Melange"), (102, 128, 300, "4,90"),  # one receipt line in two boxes
             (140, 170, 0, "Sachertorte"), (141, 169, 300, "6,50")]
    assert group_lines(boxes) == [["Q1 roadmap"], ["Melange 4,90", "Sachertorte 6,50"]]
    assert group_lines([]) == []


def test_pdf_text_becomes_paragraphs() -> None:
    assert paragraphs_of("Invoice 17\nAmount due: 349 EUR\n\nThanks") == [["Invoice 17", "Amount due: 349 EUR"],
                                                                         ["Thanks"]]
    long = "\n".join(f"line {n}" for n in range(14))
    assert [len(p) for p in paragraphs_of(long)] == [6, 6, 2]


def test_the_derived_document_names_the_file_and_what_read_it() -> None:
    extraction = {"kind": "image", "extractor": "rapidocr 3.10.0", "blocks": [["# not a heading", "Hire two SREs"]],
                  "meta": {"format": "jpeg", "width": 800, "height": 600, "taken": "2026-11-24T10:12:31+01:00",
                           "camera": "Apple iPhone 15", "gps": [52.4986, -13.4031]}}
    text = derive.document("IMG_1.jpg", extraction)
    assert text.splitlines() == [
        "# Image · rapidocr",
        "IMG_1.jpg: Image (jpeg, 800×600); taken 2026-11-24 10:12 +01:00; Apple iPhone 15; "
        "GPS 52.49860 N 13.40310 W; text derived by rapidocr 3.10.0.", "", "\\# not a heading", "Hire two SREs"]
    assert derive.label_of_entry("Image · rapidocr") == "image, text by rapidocr"
    assert derive.label_of_entry("PDF · pypdf + rapidocr > Page 2") == "pdf, text by pypdf + rapidocr"
    assert derive.label_of_entry("Audio") == "audio, name only"
    assert derive.label_of_entry("Notes") is None


@pytest.mark.parametrize("table, message", [
    ({"enabled": "yes"}, "enabled must be true or false"),
    ({"modalities": ["video"]}, "modalities must be a list of image, audio, pdf"),
    ({"max_file_bytes": 0}, "max_file_bytes must be a whole number"),
    ({"ocr": "easyocr"}, "ocr must be one of: rapidocr, tesseract, none"),
    ({"timeout": 0}, "timeout must be a number of seconds"),
    ({"colour": 1}, "unknown key 'colour'"),
])
def test_a_bad_media_table_is_refused_by_name(table: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MediaSettings.from_config({"media": table})


def test_modalities_follow_openclaws_names() -> None:
    every = MediaSettings.from_config({"media": {"enabled": True, "modalities": ["all"]}})
    assert ".heic" in every.suffixes() and ".m4a" in every.suffixes() and ".pdf" in every.suffixes()
    images = MediaSettings.from_config({"media": {"enabled": True, "modalities": ["image"]}})
    assert ".png" in images.suffixes() and ".pdf" not in images.suffixes()
    assert MediaSettings.from_config({}).suffixes() == ()  # off by default, as OpenClaw's multimodal


# -- files for the workspace -------------------------------------------------------------------

def _font(size: int):
    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    return ImageFont.truetype(str(path), size) if path.is_file() else ImageFont.load_default(size)


def text_picture(lines: list[str], size: tuple[int, int] = (1000, 400), font_size: int = 40) -> Image.Image:
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    for n, line in enumerate(lines):
        draw.text((40, 40 + n * int(font_size * 1.6)), line, fill="black", font=_font(font_size))
    return img


def jpeg_with_exif(img: Image.Image, taken: str, orientation: int = 1) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x0132] = taken
    exif.get_ifd(0x8769)[0x9003] = taken
    exif.get_ifd(0x8769)[0x9011] = "+01:00"
    stored = img.rotate({1: 0, 6: 90}[orientation], expand=True)
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=90, exif=exif)
    return out.getvalue()


def png_bytes(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def text_pdf(lines: list[str], pages: int = 1) -> bytes:
    """A PDF with `lines` as text on its first page and `pages - 1` blank pages after it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from media_gen import text_pdf as make

    return make([lines] + [[] for _ in range(pages - 1)])


def bomb_png(width: int, height: int) -> bytes:
    """A valid PNG header claiming `width`×`height` pixels over a few bytes of data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def wav_bytes(seconds: float, claimed_frames: int | None = None) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\0\0" * int(seconds * 8000))
    data = out.getvalue()
    if claimed_frames is not None:  # a header that says hours while the file holds a second
        data = data[:40] + struct.pack("<I", claimed_frames * 2) + data[44:]
    return data


def encrypted_pdf(lines: list[str]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf(lines))))
    writer.encrypt("s3cret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def scanned_pdf(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PDF", resolution=100)
    return out.getvalue()


def write(root: Path, key: str, data: bytes | str) -> None:
    path = root / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


@pytest.fixture(scope="module")
def media_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace of notes, good media files and every bad input the issue names, indexed once."""
    pytest.importorskip("pypdf")
    pytest.importorskip("rapidocr")
    root = tmp_path_factory.mktemp("media") / "ws"
    write(root, "MEMORY.md", "# Core\n\n- prefers short answers\n")
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/2026-11-24.md", "# 2026-11-24\n\n- Kickoff meeting in the big room.\n")
    write(root, "memory/media/IMG_1.jpg", jpeg_with_exif(text_picture(["Zanzibar budget approved",
                                                                       "Hire two SREs"]),
                                                         "2026:11:24 10:12:31", orientation=6))
    write(root, "memory/shots/terminal.png", png_bytes(text_picture(["ECONNREFUSED 127.0.0.1:5432"])))
    write(root, "memory/docs/invoice.pdf", text_pdf(["Invoice 117", "Amount due: 349.00 EUR for Quokka hosting"]))
    write(root, "memory/docs/scan.pdf", scanned_pdf(text_picture(["Warranty valid until 2029", "Dishwasher SMV4"])))
    write(root, "memory/voice/note.wav", wav_bytes(1.0))
    write(root, "memory/voice/note.wav.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nCall Kowalski the plumber.\n")
    write(root, "memory/2026-11-27-board.png", png_bytes(text_picture(["Unreadable scrawl"])))
    write(root, "memory/2026-11-27-board.png.md", "# Board\n\nThe board says: Wombat launch on Friday.\n")
    # bad inputs
    write(root, "memory/bad/corrupt.png", b"\x89PNG\r\n\x1a\n" + os.urandom(3000))
    write(root, "memory/bad/truncated.jpg", jpeg_with_exif(text_picture(["cut"]), "2026:11:01 00:00:00")[:1500])
    write(root, "memory/bad/bomb.png", bomb_png(60_000, 60_000))
    write(root, "memory/bad/notapng.png", text_pdf(["I am a PDF"]))
    with open(root / "memory/bad/huge.png", "wb") as fh:  # 11 MiB, sparse: over the 10 MiB default
        fh.write(b"\x89PNG\r\n\x1a\n")
        fh.truncate(11 * 1024 * 1024)
    write(root, "memory/bad/locked.pdf", encrypted_pdf(["Secret plans"]))
    write(root, "memory/bad/many.pdf", text_pdf(["Page one of many"], pages=400))
    write(root, "memory/bad/hours.wav", wav_bytes(1.0, claimed_frames=10 * 3600 * 8000))
    write(root, "memory/bad/empty.jpg", b"")
    run_ok(root, "index", now=NOW)
    return root


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in (root / "memory").rglob("*"))


# -- found by their text, cited like Markdown ---------------------------------------------------

def test_a_photo_is_found_by_its_text_and_cited_with_its_day(media_ws: Path) -> None:
    result = recall_json(media_ws, "Zanzibar budget", now=NOW)["results"][0]
    assert result["path"] == "memory/media/IMG_1.jpg"  # stored sideways: turned upright by its EXIF orientation
    assert result["source"].startswith("memory/media/IMG_1.jpg#L")
    assert result["timestamp"] == "2026-11-24"  # the EXIF time is the entry's day
    assert result["derived"] == "image, text by rapidocr"
    page = json.loads(run_ok(media_ws, "get", result["source"], "--json", now=NOW))
    assert "Zanzibar" in page["text"] and page["derived"].startswith("text derived from this image by rapidocr")
    whole = run_ok(media_ws, "get", "memory/media/IMG_1.jpg", now=NOW)
    assert "Image (jpeg, 1000×400); taken 2026-11-24 10:12 +01:00" in whole  # its size as it is seen


def test_a_time_question_finds_the_photo_of_that_day(media_ws: Path) -> None:
    paths = [r["path"] for r in recall_json(media_ws, "what was on the whiteboard on November 24?", now=NOW)["results"]]
    assert "memory/media/IMG_1.jpg" in paths[:3]


def test_screenshots_pdfs_scans_and_voice_notes_are_found_by_their_text(media_ws: Path) -> None:
    for query, path in [("ECONNREFUSED 5432", "memory/shots/terminal.png"),
                        ("Quokka hosting amount due", "memory/docs/invoice.pdf"),
                        ("dishwasher warranty", "memory/docs/scan.pdf"),
                        ("Kowalski plumber", "memory/voice/note.wav")]:
        top = recall_json(media_ws, query, now=NOW)["results"][0]
        assert top["path"] == path, (query, top)
    scan = recall_json(media_ws, "dishwasher warranty", now=NOW)["results"][0]
    assert "pypdf" in scan["derived"] and "rapidocr" in scan["derived"]
    got = run_ok(media_ws, "get", "memory/docs/scan.pdf", now=NOW)
    assert "## Page 1 (scanned, read by OCR)" in got
    voice = run_ok(media_ws, "get", "memory/voice/note.wav", now=NOW)
    assert "- [0:00] Call Kowalski the plumber." in voice and "transcript note.wav.vtt" in voice


def test_a_users_sidecar_wins_over_the_derived_text(media_ws: Path) -> None:
    top = recall_json(media_ws, "Wombat launch", now=NOW)["results"][0]
    assert top["path"] == "memory/2026-11-27-board.png.md"
    assert not recall_json(media_ws, "Unreadable scrawl", now=NOW)["results"]  # not read: the sidecar speaks for it


def test_nothing_is_written_beside_the_users_files(media_ws: Path) -> None:
    listed = _files(media_ws)
    assert not [f for f in listed if f.endswith((".json", ".txt")) and "voice" not in f], listed
    assert list((media_ws / ".memory" / "media").rglob("*.json"))  # the cache lives in .memory/


# -- bad inputs: one line each, a skip, never a crash ---------------------------------------------

def test_every_bad_file_is_one_warning_and_the_rest_is_indexed(media_ws: Path) -> None:
    status = json.loads(run_ok(media_ws, "status", "--json", now=NOW))
    by_path: dict[str, list[str]] = {}
    for w in status["warnings"]:
        by_path.setdefault(w["path"], []).append(w["message"])
    assert "not a readable image" in by_path["memory/bad/corrupt.png"][0]
    assert "damaged image" in by_path["memory/bad/truncated.jpg"][0]
    assert "over 64,000,000 pixels (a decompression bomb)" in by_path["memory/bad/bomb.png"][0]
    assert "content is pdf, not an image" in by_path["memory/bad/notapng.png"][0]
    assert "over [media] max_file_bytes 10,485,760" in by_path["memory/bad/huge.png"][0]
    assert "encrypted PDF that needs a password" in by_path["memory/bad/locked.pdf"][0]
    assert any("400 pages; only the first 300" in m for m in by_path["memory/bad/many.pdf"])
    assert "no transcript" in by_path["memory/bad/hours.wav"][0]
    assert "not a known image format" in by_path["memory/bad/empty.jpg"][0]
    assert all(len(messages) <= 2 for messages in by_path.values())
    # Each is still an entry, found by its name and metadata.
    assert recall_json(media_ws, "bomb", now=NOW)["results"][0]["path"] == "memory/bad/bomb.png"
    hours = run_ok(media_ws, "get", "memory/bad/hours.wav", now=NOW)
    assert "10:00:00" in hours  # the header's duration, read without decoding an hour of audio
    assert "Page one of many" in run_ok(media_ws, "get", "memory/bad/many.pdf", "--lines", "8", now=NOW)


def test_doctor_says_what_to_do_about_a_skipped_file(media_ws: Path) -> None:
    code, out, err = run_memory(media_ws, "doctor", "--json", now=NOW)
    findings = json.loads(out)["findings"]
    skipped = [f for f in findings if f["code"] == "media-skipped"]
    assert {f["path"] for f in skipped} >= {"memory/bad/corrupt.png", "memory/bad/locked.pdf"}
    assert "Traceback" not in err


def test_a_read_is_confined_like_markdown(media_ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.png"
    outside.write_bytes(png_bytes(text_picture(["secret"])))
    for path in (str(outside), "../elsewhere.png", "bank/x.png", ".memory/x.png"):
        assert_one_line_error(*run_memory(media_ws, "get", path, now=NOW))


# -- cache, renames, recalls that never extract -------------------------------------------------

def test_a_rename_costs_nothing_and_a_recall_never_extracts(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr")
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/a.png", png_bytes(text_picture(["Platypus gateway config"])))
    first = run_memory(root, "index", now=NOW)
    assert first[0] == 0 and "media: read 1 file" in first[2], first
    (root / "memory/a.png").rename(root / "memory/b.png")
    second = run_memory(root, "index", now=NOW)
    assert second[0] == 0 and "media: read" not in second[2], second  # the cache, by content hash
    assert recall_json(root, "Platypus", now=NOW)["results"][0]["path"] == "memory/b.png"
    # A new image seen first by a recall: indexed by its name, its text waits for `memory index`.
    write(root, "memory/new-echidna.png", png_bytes(text_picture(["Narwhal deploy checklist"])))
    assert recall_json(root, "echidna", now=NOW)["results"][0]["path"] == "memory/new-echidna.png"
    assert not recall_json(root, "Narwhal", now=NOW)["results"]
    with index_db(root) as db:
        assert db.execute("SELECT hash FROM files WHERE path = 'memory/new-echidna.png'").fetchone()[0] \
            .startswith("pending:")
    page = json.loads(run_ok(root, "get", "memory/new-echidna.png", "--json", now=NOW))
    assert "next `memory index`" in page["derived"]
    run_ok(root, "index", now=NOW)
    assert recall_json(root, "Narwhal", now=NOW)["results"][0]["path"] == "memory/new-echidna.png"


def test_a_transcript_written_later_is_picked_up(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/2026-12-01-memo.wav", wav_bytes(0.5))
    run_ok(root, "index", now=NOW)
    assert not recall_json(root, "pottery class", now=NOW)["results"]
    write(root, "memory/2026-12-01-memo.txt", "Gift idea for Mia: a pottery class.\n")
    run_ok(root, "index", now=NOW)
    top = recall_json(root, "pottery class", now=NOW)["results"][0]
    assert top["path"] == "memory/2026-12-01-memo.wav" and top["timestamp"] == "2026-12-01"


def test_media_off_indexes_no_media_and_reads_none(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "memory/2026-12-01-memo.wav", wav_bytes(0.5))
    write(root, "memory/2026-12-01-memo.txt", "Gift idea for Mia: a pottery class.\n")
    write(root, "memory/2026-12-01.md", "# Notes\n\n- nothing\n")
    run_ok(root, "index", now=NOW)
    with index_db(root) as db:
        assert [r[0] for r in db.execute("SELECT path FROM files")] == ["memory/2026-12-01.md"]
    assert_one_line_error(*run_memory(root, "get", "memory/2026-12-01-memo.wav", now=NOW))


def test_without_the_ocr_engine_images_are_found_by_name_and_status_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace_memory.api import Memory
    from workspace_memory.media import available

    real = available.has_module
    monkeypatch.setattr(available, "has_module", lambda name: False if name == "rapidocr" else real(name))
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/IMG_9.jpg", jpeg_with_exif(text_picture(["Capybara"]), "2026:11:20 08:00:00"))
    mem = Memory.open(str(root), now=NOW)
    mem.index()
    status = mem.status()
    assert status["media"]["extractors"]["ocr"] is None
    assert any("pip install 'workspace-memory[media]'" in n for n in status["notices"])
    page = mem.get("memory/IMG_9.jpg")
    assert "taken 2026-11-20 08:00" in page.text and "Capybara" not in page.text
    assert any(f.code == "media-extractor" for f in mem.doctor().findings)


# -- the worker: a timeout kills it, a memory cap bounds it -------------------------------------

def test_a_file_that_takes_too_long_gets_the_worker_killed() -> None:
    from workspace_memory.media.worker import ExtractionFailed, Worker

    hang = [sys.executable, "-c", "import sys, time; print('{}', flush=True); sys.stdin.readline(); time.sleep(60)"]
    worker = Worker(timeout=1.0, command=hang)
    with pytest.raises(ExtractionFailed, match="took over 1 s") as failed:
        worker.extract("/nowhere.png", "image", "none", "eng")
    assert failed.value.transient
    assert worker._proc is None  # killed; the next file starts a fresh worker
    worker.close()


def test_a_worker_over_its_memory_cap_fails_the_file_not_the_index(tmp_path: Path) -> None:
    from workspace_memory.media.worker import ExtractionFailed, Worker

    path = tmp_path / "big.png"
    Image.new("L", (8000, 7000), 255).save(path)  # 56 MP: allowed, but 168 MB once decoded as RGB
    worker = Worker(timeout=60, memory_bytes=150 * 1024 * 1024)
    with pytest.raises(ExtractionFailed, match="more than the extraction worker's 150 MB"):
        worker.extract(str(path), "image", "none", "eng")
    worker.close()
    fine = Worker(timeout=60)
    assert fine.extract(str(path), "image", "none", "eng")["meta"]["width"] == 8000
    fine.close()


# -- both stores --------------------------------------------------------------------------------

def test_a_voice_note_is_an_entry_on_every_store(store: str, workspace: Path) -> None:
    (workspace / "memory.toml").write_text(MEDIA_ON, encoding="utf-8")
    write(workspace, "memory/2026-12-02-voice.wav", wav_bytes(0.5))
    write(workspace, "memory/2026-12-02-voice.wav.srt",
          "1\n00:00:00,000 --> 00:00:01,000\nStandup: Jonas is blocked on the SSO integration.\n")
    run_ok(workspace, "index", now=NOW)
    top = recall_json(workspace, "blocked SSO integration", now=NOW)["results"][0]
    assert top["path"] == "memory/2026-12-02-voice.wav" and top["derived"].startswith("audio, text by transcript")
    assert "Jonas is blocked" in run_ok(workspace, "get", top["source"], now=NOW)
    if store == "postgres":  # a machine without the checkout reads the derived text from the store
        from pg_fixtures import store_env

        elsewhere = workspace.parent / "elsewhere"
        page = json.loads(run_ok(elsewhere, "get", top["source"], "--json", now=NOW, env=store_env(workspace)))
        assert "Jonas is blocked" in page["text"] and page["derived"].startswith("text derived from this wav file")


# -- memory ui: the picture beside its text ----------------------------------------------------

def test_the_memory_browser_shows_the_image_beside_its_text(media_ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    from test_ui import fetch, serving

    with serving(media_ws, monkeypatch) as base:
        code, _, body = fetch(base + "/file/memory/media/IMG_1.jpg")
        assert code == 200 and '<img src="/media/memory/media/IMG_1.jpg"' in body and "Zanzibar" in body
        assert "text derived from this image by rapidocr" in body
        with urllib.request.urlopen(base + "/media/memory/media/IMG_1.jpg", timeout=30) as resp:
            assert resp.headers["Content-Type"] == "image/jpeg" and resp.read()[:3] == b"\xff\xd8\xff"
        for refused in ("/media/memory/bad/notapng.png", "/media/memory/2026-11-24.md", "/media/..%2F..%2Fetc%2Fpasswd",
                        "/media/memory/bad/huge.png"):
            assert fetch(base + refused)[0] == 404, refused


# -- forget --purge reaches the derived text ----------------------------------------------------

def test_a_purge_reaches_the_derived_text_and_transcripts_but_not_the_users_image(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr")
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/2026-12-01.md", "# Notes\n\n- rotated the database password today\n")
    image = png_bytes(text_picture(["db password Kx9secretQ2"]))
    write(root, "memory/shot.png", image)
    write(root, "memory/memo.wav", wav_bytes(0.5))
    write(root, "memory/memo.wav.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nthe token is Kx9secretQ2 now.\n")
    run_ok(root, "index", now=NOW)
    assert {r["path"] for r in recall_json(root, "Kx9secretQ2", now=NOW)["results"]} == {"memory/shot.png", "memory/memo.wav"}
    plan = json.loads(run_ok(root, "forget", "--purge", "Kx9secretQ2", "--json", now=NOW))
    assert plan["media_entries"] == 1 and plan["media_transcripts"] == ["memory/memo.wav.vtt"]
    assert "memory/memo.wav.vtt" not in plan["copies"]  # read with [media], and purged
    run_ok(root, "forget", "--purge", "Kx9secretQ2", "--yes", "--json", now=NOW)
    assert not recall_json(root, "Kx9secretQ2", now=NOW)["results"]
    leftovers = [p for p in (root / ".memory").rglob("*") if p.is_file() and b"Kx9secretQ2" in p.read_bytes()]
    assert not leftovers, leftovers
    assert (root / "memory/shot.png").read_bytes() == image  # the user's image is theirs
    assert "[purged]" in (root / "memory/memo.wav.vtt").read_text(encoding="utf-8")
    assert "[purged]" in run_ok(root, "get", "memory/shot.png", now=NOW)
    run_ok(root, "index", now=NOW)  # unchanged: not read again, the purged text stays
    assert not recall_json(root, "Kx9secretQ2", now=NOW)["results"]


def test_an_iphone_photo_without_pillow_heif_says_what_to_install(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr")
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/IMG_0001.heic", b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + os.urandom(200))
    run_ok(root, "index", now=NOW)
    warnings = json.loads(run_ok(root, "status", "--json", now=NOW))["warnings"]
    assert [w["path"] for w in warnings] == ["memory/IMG_0001.heic"]
    from workspace_memory.media.available import has_module

    if not has_module("pillow_heif"):  # with it, these random bytes are a damaged HEIC: one line too
        assert "HEIC/HEIF images are read with pillow-heif (pip install pillow-heif)" in warnings[0]["message"]


def test_memory_watch_reads_a_new_voice_note_and_its_transcript(tmp_path: Path) -> None:
    """The watcher marks media files and transcripts; its sync (index_changes) reads them, a read's never."""
    from workspace_memory.api import Memory
    from workspace_memory.workspace.layout import Workspace
    from workspace_memory.workspace.watch import Watcher

    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON)
    write(root, "memory/2026-12-01.md", "# Notes\n")
    watcher = Watcher(Workspace.open(root))
    watcher.start()
    try:
        assert watcher.settle(timeout=5)
        watcher.take()
        write(root, "memory/memo.wav", wav_bytes(0.5))
        write(root, "memory/memo.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nBuy oat milk for the office.\n")
        assert watcher.settle(timeout=5)
        changes = watcher.take()
        assert changes.keys >= {"memory/memo.wav"}
        (root / "memory/notes.txt").write_text("not a transcript of anything")
        assert watcher.settle(timeout=5)
        assert not watcher.take()
    finally:
        watcher.stop()
    mem = Memory.open(str(root), now=NOW)
    mem.index_changes(changes)
    with index_db(root) as db:
        texts = [r[0] for r in db.execute("SELECT text FROM chunks WHERE path = 'memory/memo.wav'")]
    assert "- [0:00] Buy oat milk for the office." in texts


def test_debians_tesseract_when_chosen(tmp_path: Path) -> None:
    """`ocr = "tesseract"` with a language pack: the photo's text, and what read it, in the document."""
    import shutil

    if shutil.which("tesseract") is None and not os.environ.get("CI"):
        pytest.skip("tesseract-ocr is not installed (.ci/run installs it)")
    root = tmp_path / "ws"
    write(root, "memory.toml", MEDIA_ON + 'ocr = "tesseract"\ntesseract_languages = "eng+deu"\n')
    write(root, "memory/slide.png", png_bytes(text_picture(["Quartalsziele: Umsatz steigern", "Axolotl budget"])))
    run_ok(root, "index", now=NOW)
    top = recall_json(root, "Axolotl", now=NOW)["results"][0]
    assert top["path"] == "memory/slide.png" and top["derived"] == "image, text by tesseract"
    assert "Quartalsziele" in run_ok(root, "get", "memory/slide.png", now=NOW)


def test_mcp_search_and_get_on_a_media_file(media_ws: Path) -> None:
    """Over the real MCP server (stdio): a search result cites the photo and says what read it;
    memory_get on the citation returns the derived text, marked as derived (the output schema holds)."""
    import anyio
    from mcp import Client

    from test_mcp import call, stdio

    async def session() -> None:
        async with Client(stdio(media_ws)) as client:
            error, found = await call(client, "memory_search", query="Zanzibar budget")
            assert not error
            top = found["results"][0]
            assert top["path"] == "memory/media/IMG_1.jpg" and top["derived"] == "image, text by rapidocr"
            error, page = await call(client, "memory_get", path=top["source"])
            assert not error and "Zanzibar" in page["text"]
            assert page["derived"].startswith("text derived from this image by rapidocr")
            error, message = await call(client, "memory_get", path="memory/../../x.png")
            assert error

    anyio.run(session)


def test_a_worker_that_prints_garbage_fails_the_file_not_the_index() -> None:
    from workspace_memory.media.worker import ExtractionFailed, Worker

    chatty = [sys.executable, "-c", "import sys; print('{}', flush=True); sys.stdin.readline(); print('hello', flush=True)"]
    worker = Worker(timeout=10, command=chatty)
    with pytest.raises(ExtractionFailed, match="garbage"):
        worker.extract("/nowhere.png", "image", "none", "eng")
    worker.close()


def test_a_bad_media_table_is_one_line_for_every_command(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "memory.toml", "[media]\nenabled = true\nocr = \"easyocr\"\n")
    write(root, "memory/a.png", png_bytes(text_picture(["x"])))
    for args in (("index",), ("recall", "x", "--json"), ("status",), ("get", "memory/a.png")):
        line = assert_one_line_error(*run_memory(root, *args, now=NOW))
        assert "memory.toml [media] ocr must be one of: rapidocr, tesseract, none" in line, (args, line)
