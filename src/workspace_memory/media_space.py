"""The media space (issue 41, "remote, when chosen"): images and voice notes embedded as themselves
by Gemini's multimodal gemini-embedding-2, beside the offline text.

    [media]
    enabled = true
    embedding = "gemini"                    # default "none": no media file leaves the machine
    embedding_model = "gemini-embedding-2"  # OpenClaw's own choice for multimodal memory
    embedding_dimensions = 768              # optional (the model's default: 3072)
    [embedding.gemini]                      # the connection: base_url, api_key_env, timeouts
    # key: GEMINI_API_KEY or GOOGLE_API_KEY (or the variable api_key_env names)

`memory index` (after the text is indexed) sends each image and recording that has no vector in
this space yet (embed.media: the file's name as a text part, its bytes inline) and keeps the vectors
in `.memory/media/space/<model>-<dim>.npz`, keyed by the file's content hash (a rename costs
nothing; an unchanged file is not read again: its size and mtime say so). A failure is one notice;
what was embedded before stays.

A hybrid or semantic recall (never a lexical one) embeds the question as text in the same space
(within the provider's `query_timeout`, in a thread while the lexical pools run) and takes the
files nearest to it: their entries join the candidates with a `media` cosine, and for those media
entries the vector part of the fusion is the better of the text and the media space's
(recall.semantic.SemanticChannel.relevance). A provider that fails or is slow leaves the rest of the
recall as it was, with a notice.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from .embed.config import EmbeddingConfig
    from .embed.media import MediaEmbedder
    from .index.base import Filters, Store
    from .media.settings import MediaSettings
    from .workspace.layout import Workspace

# What is sent as each content type (media.sniff): the MIME type OpenClaw detects and sends.
MIME = {"jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp", "heic": "image/heic",
        "heif": "image/heif", "wav": "audio/wav", "mp3": "audio/mpeg", "ogg": "audio/ogg", "flac": "audio/flac",
        "m4a": "audio/mp4", "aac": "audio/aac"}
MAX_FILES_A_QUESTION = 50  # the nearest files whose entries join a recall


def settings_of(ws: Workspace) -> MediaSettings | None:
    """The workspace's `[media]` when it embeds media files remotely, else None (importing nothing)."""
    if "media" not in ws.config:
        return None
    from .media.settings import media_settings

    settings = media_settings(ws.config)
    return settings if settings.embedded else None


def index_space(ws: Workspace, cfg: EmbeddingConfig) -> list[str]:
    """`memory index`'s step for the space (nothing when `[media] embedding` is "none"): notices."""
    settings = settings_of(ws)
    return update(ws, settings, cfg) if settings is not None else []


def embedder(settings: MediaSettings, cfg: EmbeddingConfig, state_dir: Path) -> MediaEmbedder:
    from .embed.media import MediaEmbedder

    return MediaEmbedder.from_config(cfg, settings.embedding_model, settings.embedding_dimensions, state_dir)


def space_path(state_dir: Path, media: MediaEmbedder) -> Path:
    provider, model, dim = media.identity().split("/")
    return state_dir / "media" / "space" / f"{provider}-{model}-{dim}.npz"


def load(path: Path) -> dict[str, Any]:
    """The stored space: parallel arrays keys, sizes, mtimes, hashes, vectors (empty when none)."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in ("keys", "sizes", "mtimes", "hashes", "vectors")}
    except (OSError, ValueError, KeyError):  # none yet, or damaged: embedded again
        return {}


def update(ws: Workspace, settings: MediaSettings, cfg: EmbeddingConfig) -> list[str]:
    """`memory index`: embed the media files that have no vector in the space; notices."""
    import numpy as np

    from .embed.media import split
    from .errors import ProviderUnavailable
    from .files import atomic_write_bytes

    try:
        media = embedder(settings, cfg, ws.state_dir)
    except ProviderUnavailable as exc:
        return [f"media space: {exc}"]
    path = space_path(ws.state_dir, media)
    old = load(path)
    known = {(str(k), int(s), int(m)): str(h) for k, s, m, h in
             zip(old.get("keys", ()), old.get("sizes", ()), old.get("mtimes", ()), old.get("hashes", ()), strict=True)}
    by_hash = dict(zip((str(h) for h in old.get("hashes", ())), old.get("vectors", ()), strict=True))
    rows, todo, notices = _scan(ws, settings, known, by_hash)
    done = 0
    for group in split(todo, _size):  # read a request's files at a time: 1,000 photos are never in memory at once
        try:
            files = [(label, mime, _read(file, settings.max_file_bytes)) for _, label, mime, file in group]
            vectors = media.embed_files(files)
        except (ProviderUnavailable, OSError) as exc:
            notices.append(f"media space: {exc}; {len(todo) - done} file(s) not embedded (the next `memory index` "
                           "tries again)")
            break
        for (digest, *_), vector in zip(group, vectors, strict=True):
            by_hash[digest] = vector
        done += len(group)
    if done:
        notices.append(f"media space: {done} file(s) embedded by {media.identity()}")
    rows = [r for r in rows if r[3] in by_hash]
    if not rows and not old:
        return notices
    buf = io.BytesIO()
    dim = len(next(iter(by_hash.values()))) if by_hash else 0
    np.savez(buf, keys=np.array([r[0] for r in rows], dtype=str), sizes=np.array([r[1] for r in rows], np.int64),
             mtimes=np.array([r[2] for r in rows], np.int64), hashes=np.array([r[3] for r in rows], dtype=str),
             vectors=np.array([by_hash[r[3]] for r in rows], np.float32).reshape(len(rows), dim))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buf.getvalue())
    return notices


def _size(item: tuple[str, str, str, Path]) -> int:
    try:
        return item[3].stat().st_size
    except OSError:
        return 0


def _read(path: Path, limit: int) -> bytes:
    data = path.read_bytes()
    if len(data) > limit:
        raise OSError(f"{path.name} grew past max_file_bytes while indexing")
    return data


def _scan(ws: Workspace, settings: MediaSettings, known: dict[tuple[str, int, int], str],
          by_hash: dict[str, Any]) -> tuple[list[tuple[str, int, int, str]], list[tuple[str, str, str, Path]], list[str]]:
    """(the files of the space: key, size, mtime, hash; those to embed: hash, label, MIME, path; notices)."""
    import hashlib

    from .media import sniff
    from .workspace.layout import MEDIA_SUFFIXES

    suffixes = tuple(s for m in settings.embedded for s in MEDIA_SUFFIXES[m])
    rows: list[tuple[str, int, int, str]] = []
    todo: list[tuple[str, str, str, Path]] = []
    queued: set[str] = set()
    skipped = 0
    for mf in ws.markdown_files(media=suffixes):
        if not mf.key.lower().endswith(suffixes):
            continue
        try:
            st = os.stat(mf.path)
        except OSError:
            continue
        digest = known.get((mf.key, st.st_size, st.st_mtime_ns))
        if digest is None or digest not in by_hash:
            if st.st_size > settings.max_file_bytes or st.st_size == 0:
                skipped += 1
                continue
            try:
                data = Path(mf.path).read_bytes()[: settings.max_file_bytes + 1]
            except OSError:
                continue
            kind = sniff.content_type(data[: sniff.HEAD_BYTES])
            if kind not in MIME or len(data) > settings.max_file_bytes:
                skipped += 1  # not what its name says, or grown past the limit: never sent
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest not in by_hash and digest not in queued:
                queued.add(digest)
                todo.append((digest, f"{sniff.MODALITY[kind].capitalize()} file: {mf.key}", MIME[kind], Path(mf.path)))
        rows.append((mf.key, st.st_size, st.st_mtime_ns, digest))
    notices = [f"media space: {skipped} file(s) not sent (over max_file_bytes, empty, or not a known image or "
               "audio format)"] if skipped else []
    return rows, todo, notices


class MediaChannel:
    """A recall's view of the space: the question embedded as text, the nearest files' entries."""

    def __init__(self, media: MediaEmbedder, keys: list[str], vectors: np.ndarray, store: Store) -> None:
        self.media, self.keys, self.vectors, self.store = media, keys, vectors, store
        self.problem: str | None = None  # why the space was not searched (a notice)

    @classmethod
    def open(cls, ws: Workspace, cfg: EmbeddingConfig, store: Store) -> MediaChannel | None:
        """The workspace's space when `[media] embedding` is chosen and `memory index` has filled it."""
        from .errors import ProviderUnavailable

        settings = settings_of(ws)
        if settings is None:
            return None
        try:
            media = embedder(settings, cfg, ws.state_dir)
        except ProviderUnavailable:
            return None  # `memory index` and `memory status` say why
        stored = load(space_path(ws.state_dir, media))
        if not len(stored.get("keys", ())):
            return None
        return cls(media, [str(k) for k in stored["keys"]], stored["vectors"], store)

    def cosines(self, qvec: np.ndarray | None, filters: Filters) -> dict[int, float]:
        """The entries of the files nearest to the question (`qvec`, from embed_query): id -> cosine."""
        if qvec is None or len(qvec) != self.vectors.shape[1]:
            return {}
        import numpy as np

        scores = self.vectors @ qvec
        best: dict[str, float] = {}
        for i in np.argsort(-scores)[: MAX_FILES_A_QUESTION]:
            best.setdefault(self.keys[i], float(scores[i]))
        return {cid: best[path] for cid, path in self.store.entries_in(list(best), filters).items()}

    def embed_query(self, text: str) -> np.ndarray | None:
        """The question in the media space; None (and `problem` set) when the provider fails."""
        from .errors import ProviderUnavailable

        try:
            return self.media.embed_query(text)
        except ProviderUnavailable as exc:
            self.problem = f"media space not searched: {exc}"
            return None
