"""A light query encoder for cold processes: the local model's weights exported once to ONNX.

Why: importing sentence-transformers (torch + transformers) takes about 5 s here, and `memory recall`
runs as a fresh process each time, with a 1.5 s budget. onnxruntime + `tokenizers` + numpy import in
about 0.15 s and encode one query in a few milliseconds, giving the same vectors (cosine >= 1 - 1e-4).

The export runs in a process that has the full model loaded anyway (the indexer calls
`ensure_query_encoder` after embedding). It writes `<state_dir>/models/<name>-<key>/` with
`model.onnx`, `tokenizer.json` and `meta.json`, in a temporary folder renamed into place only after
its output has been checked against sentence-transformers, so a reader never sees half an export.
The folder name is keyed by the model identity and the export format: a different model, or a
change to how we export, lands in a new folder instead of being confused with the old one.

This module must not import torch, transformers or sentence_transformers at import time or on the
loading/encoding path; only `export_query_encoder` imports torch, and only when called.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .local import LocalEmbedder

log = logging.getLogger(__name__)

# Bump when the exported graph or meta.json changes meaning: old exports are then ignored.
EXPORT_FORMAT = 1
# sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (sentence_bert_config.json).
DEFAULT_MAX_SEQ_LENGTH = 256
# The acceptance bar for an export, checked before it is published.
PARITY_MIN_COSINE = 1 - 1e-4
# Texts the export is verified on: short, long (truncated), accented, CJK, emoji, empty.
_PROBES = (
    "where does Peter live?",
    "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
    "naïve café résumé — Zürich über alles",
    "東京で会いましょう。北京烤鸭很好吃。",
    "deploy " * 300,
    "",
)

_cache_lock = threading.Lock()
_loaded: dict[Path, OnnxQueryEncoder] = {}


def encoder_dir(state_dir: Path, identity: str, name: str = "query-encoder") -> Path:
    """Where the export for `identity` lives: `<state_dir>/models/<name>-<12 hex of the key>`."""
    key = hashlib.sha256(f"{identity}|onnx-format={EXPORT_FORMAT}".encode()).hexdigest()[:12]
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "model"
    return Path(state_dir) / "models" / f"{safe}-{key}"


class OnnxQueryEncoder:
    """Tokenizer (`tokenizers`) + transformer (onnxruntime); mean pooling and L2 norm are in the graph."""

    def __init__(self, directory: Path) -> None:
        """Load an export; raises OSError/ValueError/RuntimeError when it is missing or broken."""
        import onnxruntime as ort  # deferred: only a semantic query pays for it
        from tokenizers import Tokenizer

        self.directory = Path(directory)
        meta = json.loads((self.directory / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != EXPORT_FORMAT:
            raise ValueError(f"{self.directory}: export format {meta.get('format')!r} != {EXPORT_FORMAT}")
        self.identity: str = meta["identity"]
        self.dim: int = int(meta["dim"])
        self.max_seq_length: int = int(meta["max_seq_length"])

        self.tokenizer = Tokenizer.from_file(str(self.directory / "tokenizer.json"))
        # tokenizer.json ships with fixed padding/truncation to 128 that sentence-transformers
        # overrides; reproduce what it actually does: truncate to max_seq_length, pad to the longest.
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        self.tokenizer.enable_padding(
            pad_id=int(meta.get("pad_id", 0)), pad_token=meta.get("pad_token", "[PAD]")
        )

        opts = ort.SessionOptions()
        opts.log_severity_level = 3  # warnings about unused initialisers are noise for users
        # Idle worker threads would otherwise spin for a while after each run, stealing the cores
        # from torch in an indexing process that has both loaded; a query loses nothing measurable.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(self.directory / "model.onnx"), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self.session.get_inputs()}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts: float32 (len(texts), dim), L2-normalised, as sentence-transformers would."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # sentence-transformers strips each input before tokenising; do the same.
        encodings = self.tokenizer.encode_batch([str(t).strip() for t in texts])
        feed = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        (out,) = self.session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
        return np.asarray(out, dtype=np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        """One query -> (dim,)."""
        return self.encode([text])[0]


def load_query_encoder(
    state_dir: Path, identity: str, name: str = "query-encoder"
) -> OnnxQueryEncoder | None:
    """The exported encoder for `identity`, or None when there is none (or it cannot be used).

    None is not an error: the caller falls back to sentence-transformers, which is slower to start
    but gives the same vectors. Loaded once per process.
    """
    directory = encoder_dir(state_dir, identity, name)
    with _cache_lock:
        if directory in _loaded:
            return _loaded[directory]
        if not (directory / "meta.json").is_file():
            return None
        try:
            encoder = OnnxQueryEncoder(directory)
        except ImportError:
            return None  # onnxruntime or tokenizers not installed: the slow path still works
        except Exception as exc:  # a damaged export must never break recall
            log.warning("ignoring query encoder at %s: %s", directory, exc)
            return None
        if encoder.identity != identity:
            return None
        _loaded[directory] = encoder
        return encoder


def query_encoder_ready(state_dir: Path, identity: str, name: str = "query-encoder") -> bool:
    """Cheap check (no imports, no loading) that an export exists and onnxruntime is installed."""
    import importlib.util

    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("tokenizers") is None:
        return False
    return (encoder_dir(state_dir, identity, name) / "meta.json").is_file()


def ensure_query_encoder(embedder: LocalEmbedder, state_dir: Path) -> Path | None:
    """Export the embedder's model for fast queries unless a valid export already exists.

    Returns the export folder, or None when exporting is impossible here (onnx/onnxruntime missing,
    or the export failed its parity check); the reason is logged, and queries keep working through
    sentence-transformers. Meant to be called after indexing, when the full model is loaded anyway.
    """
    identity = embedder.identity()
    directory = encoder_dir(state_dir, identity, embedder.model_slug)
    if (directory / "meta.json").is_file():
        return directory
    try:
        return export_query_encoder(embedder.sentence_transformer(), directory, identity)
    except ImportError as exc:
        log.info("fast query encoder not built (%s); install 'workspace-memory[local]'", exc)
    except Exception as exc:  # exporting is an optimisation; indexing must not fail because of it
        log.warning("fast query encoder not built: %s", exc)
    return None


def export_query_encoder(st_model: Any, directory: Path, identity: str) -> Path:
    """Export a (Transformer, mean Pooling, Normalize) sentence-transformers model to `directory`.

    Raises ValueError for another model layout (another pooling would need another graph) or when
    the export's vectors differ from the model's; ImportError when torch/onnx/onnxruntime are missing.
    """
    import torch  # only the exporting (indexing) process ever pays for torch here

    _check_layout(st_model)
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=directory.parent))
    try:
        tokenizer = st_model.tokenizer.backend_tokenizer
        tokenizer.save(str(tmp / "tokenizer.json"))
        wrapper = _pooled_encoder_class()(st_model[0].auto_model).eval()
        sample = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.long)
        names = ["input_ids", "attention_mask", "token_type_ids"]
        axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "tokens"} for n in names}
        axes["sentence_embedding"] = {0: "batch"}
        with torch.no_grad(), warnings.catch_warnings():
            # The TorchScript tracer warns about Python branches on shapes inside transformers; the
            # parity check below is what proves the graph right for every input length.
            warnings.simplefilter("ignore")
            torch.onnx.export(
                wrapper,
                (sample, (sample > 0).long(), torch.zeros_like(sample)),
                str(tmp / "model.onnx"),
                input_names=names,
                output_names=["sentence_embedding"],
                dynamic_axes=axes,
                opset_version=17,
                # The dynamo exporter needs onnxscript and is slower; the tracer handles BERT fine.
                dynamo=False,
                external_data=False,
            )
        pad = tokenizer.padding or {}
        meta = {
            "format": EXPORT_FORMAT,
            "identity": identity,
            "dim": int(_embedding_dimension(st_model)),
            "max_seq_length": int(st_model.max_seq_length or DEFAULT_MAX_SEQ_LENGTH),
            "pad_id": int(pad.get("pad_id", 0)),
            "pad_token": str(pad.get("pad_token", "[PAD]")),
        }
        # meta.json is what marks a folder as complete, so write it before parity can read it.
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        worst = _parity(st_model, OnnxQueryEncoder(tmp))
        if worst < PARITY_MIN_COSINE:
            raise ValueError(f"ONNX export differs from sentence-transformers (min cosine {worst:.6f})")
        meta["parity_min_cosine"] = round(worst, 8)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        if directory.exists() and not (directory / "meta.json").is_file():
            shutil.rmtree(directory, ignore_errors=True)  # leftovers of a crashed, pre-rename export
        try:
            os.replace(tmp, directory)
        except OSError:
            # Another indexer published the same export first; theirs is as good as ours.
            if not (directory / "meta.json").is_file():
                raise
        return directory
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _check_layout(st_model: Any) -> None:
    """Refuse models whose pipeline the exported graph would not reproduce."""
    names = [type(m).__name__ for m in st_model]
    pooling_mode = getattr(st_model[1], "pooling_mode", None) if len(names) > 1 else None
    if pooling_mode is None and len(names) > 1:  # sentence-transformers < 6 spells it as flags
        pooling_mode = "mean" if getattr(st_model[1], "pooling_mode_mean_tokens", False) else "other"
    if names != ["Transformer", "Pooling", "Normalize"] or pooling_mode != "mean":
        raise ValueError(f"cannot export model layout {names} (pooling {pooling_mode!r}) for fast queries")


def _embedding_dimension(st_model: Any) -> int:
    """The model's output size; sentence-transformers 6 renamed the method, older releases lack the new name."""
    getter = getattr(st_model, "get_embedding_dimension", None) or st_model.get_sentence_embedding_dimension
    return int(getter())


def _parity(st_model: Any, encoder: OnnxQueryEncoder) -> float:
    """Smallest cosine between the model's and the export's vectors over the probe texts."""
    ref = st_model.encode(
        list(_PROBES), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    # One at a time, as queries are encoded (and without padding every probe to the longest one).
    got = np.vstack([encoder.encode_query(text) for text in _PROBES])
    return float(np.min(np.sum(np.asarray(ref, dtype=np.float32) * got, axis=1)))


def _pooled_encoder_class() -> type:
    """Build the torch wrapper class on first use, so that importing this module never imports torch."""
    import torch
    import torch.nn.functional as F  # noqa: N812 (the conventional alias)

    class PooledEncoder(torch.nn.Module):
        """transformer -> mean over real tokens -> L2 norm: sentence-transformers' pipeline in one graph."""

        def __init__(self, auto_model: torch.nn.Module) -> None:
            super().__init__()
            self.auto_model = auto_model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            # Keywords, not positions: transformers 5 changed BertModel.forward's positional order.
            tokens = self.auto_model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )[0]
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            # Same clamp as sentence-transformers' Pooling, so an all-padding row cannot divide by 0.
            mean = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return F.normalize(mean, p=2, dim=1)

    return PooledEncoder
