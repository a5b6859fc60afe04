"""Media files in a sync (issue 41): their content hash, their extraction and their rows.

The indexer (index/indexer.py) hands each changed media file here. Its rows are those of its
derived document (media.derive), parsed like any Markdown, so entries, citations (`photo.png#L4`),
the lexical and vector channels, export and the Postgres store treat them like notes. The day is
the photo's EXIF time, else a date in its name, its day folder or its file time.

A sync that may not extract (a recall's) indexes a new image or PDF by name, with the hash
`pending:<sha256>`; the next `memory index` (or `memory watch`) scans such files again, extracts
them and replaces the rows. A file over `[media] max_file_bytes`, whose content is not what its
name says, or that a user describes in `photo.png.md`, is indexed by name and metadata only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..media.settings import PENDING, modality

if TYPE_CHECKING:
    from ..media.extract import Extractor
    from ..media.settings import MediaSettings
    from ..workspace.layout import MarkdownFile, Workspace
    from .base import Progress
    from .rows import DocumentRows


def media_settings_of(ws: Workspace) -> MediaSettings | None:
    """The workspace's `[media]` settings when it has a `[media]` table (else None, importing nothing)."""
    if "media" not in ws.config:
        return None
    from ..media.settings import media_settings

    return media_settings(ws.config)


class MediaIndexing:
    """The media side of one sync: which keys are media, their digests, the extractor (worker) it started."""

    def __init__(self, ws: Workspace, settings: MediaSettings, extract: bool) -> None:
        self.ws, self.settings, self.extract = ws, settings, extract
        self.suffixes = settings.suffixes()
        self._extractor: Extractor | None = None
        self._digests: dict[str, str] = {}

    @property
    def extractor(self) -> Extractor:
        """Made on first use: a sync that finds no changed media file imports nothing more."""
        if self._extractor is None:
            from ..media.extract import Extractor

            self._extractor = Extractor(self.ws.state_dir, self.settings, may_extract=self.extract)
        return self._extractor

    def fingerprint(self) -> dict[str, Any]:
        """What shapes the media rows: the settings, how documents are derived, which extractors are
        here (installing the media extra rebuilds, so files indexed by name only get their text)."""
        from ..media.available import engines, speech_engine
        from ..media.derive import DOCUMENT_VERSION

        speech = speech_engine(self.settings) if self.settings.speech != "none" else None
        return {**(self.settings.fingerprint() or {}), "version": DOCUMENT_VERSION,
                "extractors": engines(self.settings.ocr) + ([speech[0]] if speech else [])}

    def handles(self, key: str) -> bool:
        return bool(self.suffixes) and key.lower().endswith(self.suffixes)

    def prepare(self, candidates: list[tuple[MarkdownFile, int, int]], known: dict[str, tuple],
                progress: Progress | None) -> None:
        """Extract the changed images and PDFs before their rows are written (`memory index` only),
        one at a time, with a progress line: an index of 1,000 photos takes minutes, not a transaction."""
        if not self.extract:
            return
        read = ("image", "pdf", "audio") if self.settings.speech != "none" else ("image", "pdf")
        todo = [mf for mf, _, _ in candidates if self.handles(mf.key) and modality(mf.key) in read]
        for n, mf in enumerate(todo, 1):
            digest = self.digest(mf)
            old = known.get(mf.key)
            if digest and not digest.startswith(PENDING) and (old is None or old[2] != digest):
                self._extraction(mf, digest)
            if progress:
                progress(n, len(todo), label=f"reading media (OCR, PDF text{', speech' if len(read) == 3 else ''})")

    def digest(self, mf: MarkdownFile) -> str | None:
        """The hash the files row keeps (media.extract.Extractor.digest); None when the file cannot be read."""
        if mf.key not in self._digests:
            try:
                self._digests[mf.key] = self.extractor.digest(str(mf.path), str(modality(mf.key)))
            except OSError:
                return None
        return self._digests[mf.key]

    def rows(self, mf: MarkdownFile, mtime_ns: int, digest: str, date_order: str | None,
             languages: tuple[str, ...]) -> tuple[DocumentRows, str, str]:
        """(rows, derived text, the hash to keep) of one media file."""
        from ..files import DecodedText
        from ..media import derive
        from ..workspace.layout import file_role
        from .rows import document_rows

        extraction = self._extraction(mf, digest)
        if extraction.get("transient") and not digest.startswith(PENDING):
            digest = PENDING + digest  # a timeout or a crash of the worker: the next `memory index` tries again
        name = mf.key.rsplit("/", 1)[-1]
        text = derive.document(name, extraction)
        meta = extraction.get("meta") or {}
        day, day_from = derive.media_day(meta, mf.key, mtime_ns)
        role = file_role(mf.key)
        if role == "note" and day is not None:
            role = "daily"  # a dated photo or voice note ages like the day's log it belongs to
        problems = [(1, f"{extraction['error']}; indexed by name and metadata only")] if extraction.get("error") else []
        problems += [(1, str(w)) for w in extraction.get("warnings") or []]
        rows = document_rows(mf.key, role, day, DecodedText(text, problems), date_order, languages)
        media = {"kind": extraction.get("kind"), "extractor": extraction.get("extractor"), "day_from": day_from,
                 **{k: v for k, v in meta.items() if k in ("taken", "camera", "gps", "pages", "duration", "format")}}
        rows.file["meta"] = json.dumps({"media": media}, sort_keys=True)
        rows.file["title"] = name
        return rows, text, digest

    def _extraction(self, mf: MarkdownFile, digest: str) -> dict[str, Any]:
        return self.extractor.extraction(str(mf.path), str(modality(mf.key)), digest)

    def notices(self) -> list[str]:
        """One line on what this sync extracted (files, seconds, the worker's peak memory)."""
        if self._extractor is None:
            return []
        done = self.extractor.extracted
        if not done:
            return []
        return [f"media: read {done:,} file(s) in {self.extractor.seconds:.1f} s, "
                f"{self.extractor.cpu_seconds:.1f} s CPU (extraction worker peak RSS {self.extractor.peak_rss_mb:,.0f} MB)"]

    def close(self) -> None:
        if self._extractor is not None:
            self._extractor.close()
