"""Export a loaded sentence-transformers model to ONNX, checked against the model before it is kept.

The only module that imports torch (and onnx), and only when `export_onnx` is called: the first
process on a machine that needs the local model, once per model version (see `model_cache`).

The graph is transformer -> mean over real tokens -> L2 norm, which is sentence-transformers'
pipeline for all-MiniLM-L6-v2 in one piece; any other layout is refused rather than approximated.
The graph is saved already optimised by onnxruntime, with its weights as one external file that
onnxruntime memory-maps (`onnx_encoder`).
"""

from __future__ import annotations

import io
import json
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .model_cache import META, record_files
from .onnx_encoder import EXPORT_FORMAT, FILES, GRAPH, TOKENIZER, WEIGHTS, OnnxEncoder

# sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (sentence_bert_config.json).
DEFAULT_MAX_SEQ_LENGTH = 256
# The acceptance bar for an export, checked before it is published.
PARITY_MIN_COSINE = 1 - 1e-4
# Texts the export is verified on, one at a time and as one padded batch: short, long (truncated),
# accented, CJK, emoji, code, blank.
PROBES = (
    "where does Peter live?",
    "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
    "naïve café résumé — Zürich über alles",
    "東京で会いましょう。北京烤鸭很好吃。",
    "🙂🚀 shipped 🎉",
    "TypeError: Cannot read properties of undefined (reading 'sendMessage') at Bridge.forward",
    "deploy " * 300,
    "",
)

Progress = Callable[..., None]


def export_onnx(st_model: Any, out_dir: Path, identity: str, source: str,
                progress: Progress | None = None) -> tuple[dict[str, Any], OnnxEncoder]:
    """Write `model.onnx`, `model.onnx.data`, `tokenizer.json` and `meta.json` into `out_dir`.

    Returns (meta, an encoder already open on the files). Raises ValueError for a model layout the
    graph would not reproduce or when the export's vectors differ from the model's; ImportError when
    torch or onnx are missing.
    """
    import onnx
    import torch

    _check_layout(st_model)
    out_dir = Path(out_dir)
    tokenizer = st_model.tokenizer.backend_tokenizer
    tokenizer.save(str(out_dir / TOKENIZER))
    if progress:
        progress(1, 4, "exporting the embedding model to ONNX (once per machine)")
    wrapper = _pooled_encoder_class()(st_model[0].auto_model).eval()
    sample = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "tokens"} for n in names}
    axes["sentence_embedding"] = {0: "batch"}
    buffer = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        # The TorchScript tracer warns about Python branches on shapes inside transformers; the
        # parity check below is what proves the graph right for every input length.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            wrapper,
            (sample, (sample > 0).long(), torch.zeros_like(sample)),
            buffer,
            input_names=names,
            output_names=["sentence_embedding"],
            dynamic_axes=axes,
            opset_version=17,
            # The dynamo exporter needs onnxscript and is slower; the tracer handles BERT fine.
            dynamo=False,
        )
    raw = out_dir / "raw"
    raw.mkdir()
    onnx.save_model(onnx.load_model_from_string(buffer.getvalue()), str(raw / GRAPH),
                    save_as_external_data=True, all_tensors_to_one_file=True, location=WEIGHTS,
                    size_threshold=1024)
    optimize_graph(raw / GRAPH, out_dir / GRAPH)
    shutil.rmtree(raw)
    if progress:
        progress(2, 4, "checking the exported model against sentence-transformers")
    pad = tokenizer.padding or {}
    meta: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "identity": identity,
        "source": source,
        "dim": int(_embedding_dimension(st_model)),
        "max_seq_length": int(st_model.max_seq_length or DEFAULT_MAX_SEQ_LENGTH),
        "pad_id": int(pad.get("pad_id", 0)),
        "onnxruntime": _onnxruntime_version(),
    }
    encoder = OnnxEncoder(out_dir, meta)
    worst = parity(st_model, encoder)
    if worst < PARITY_MIN_COSINE:
        raise ValueError(f"ONNX export differs from sentence-transformers (min cosine {worst:.6f})")
    meta["parity_min_cosine"] = round(worst, 8)
    meta["files"] = record_files(out_dir, FILES)
    # meta.json last: its presence, with every file's hash, is what makes the folder an export.
    (out_dir / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    if progress:
        progress(3, 4, "publishing the exported model")
    return meta, encoder


def optimize_graph(source: Path, target: Path) -> None:
    """Save onnxruntime's optimised graph of `source` as `target`, weights beside it as external data.

    Each process then opens the session with optimisation off (`onnx_encoder`), which saves about
    40 ms of CPU per cold process. The extended level fuses operators (LayerNorm, Gelu, MatMul+Add)
    without the layout changes of the top level, which depend on the CPU; the weights stay one
    external file that onnxruntime memory-maps.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    opts.optimized_model_filepath = str(target)
    opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", WEIGHTS)
    opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])


def parity(st_model: Any, encoder: OnnxEncoder, texts: tuple[str, ...] | list[str] = PROBES) -> float:
    """Smallest cosine between the model's and the export's vectors, each text alone and in one batch."""
    ref = np.asarray(
        st_model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False),
        dtype=np.float32,
    )
    single = np.vstack([encoder.encode_query(text) for text in texts])
    batched = encoder.encode(list(texts))  # padded to the longest text of each batch
    return float(min(np.sum(ref * single, axis=1).min(), np.sum(ref * batched, axis=1).min()))


def _onnxruntime_version() -> str:
    import onnxruntime as ort

    return str(ort.__version__)


def _check_layout(st_model: Any) -> None:
    """Refuse models whose pipeline the exported graph would not reproduce."""
    names = [type(m).__name__ for m in st_model]
    pooling_mode = getattr(st_model[1], "pooling_mode", None) if len(names) > 1 else None
    if pooling_mode is None and len(names) > 1:  # sentence-transformers < 6 spells it as flags
        pooling_mode = "mean" if getattr(st_model[1], "pooling_mode_mean_tokens", False) else "other"
    if names != ["Transformer", "Pooling", "Normalize"] or pooling_mode != "mean":
        raise ValueError(f"cannot export model layout {names} (pooling {pooling_mode!r}) to ONNX")


def _embedding_dimension(st_model: Any) -> int:
    """The model's output size; sentence-transformers 6 renamed the method, older releases lack the new name."""
    getter = getattr(st_model, "get_embedding_dimension", None) or st_model.get_sentence_embedding_dimension
    return int(getter())


def _pooled_encoder_class() -> type:
    """Build the torch wrapper class on first use, so that importing this module never imports torch."""
    import torch
    import torch.nn.functional as F  # the conventional alias

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
