"""The local model run by onnxruntime and `tokenizers`: documents and queries, no torch.

Importing sentence-transformers (torch + transformers) costs about 5 s; onnxruntime, `tokenizers`
and numpy import in about 0.15 s. The export (`onnx_export`, the only module that needs torch)
puts mean pooling and L2 normalisation into the graph, so this module only tokenises, pads and runs
the session, and its vectors match sentence-transformers' within 1e-4 cosine (checked when the
export is made, and by a test).

The weights are stored as ONNX external data (`model.onnx.data`), which onnxruntime memory-maps
instead of copying out of a protobuf: a session opens in ~0.1 s instead of ~0.3 s, and the pages
are the OS's file cache, shared by every process using the model.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

# Bump when the exported graph or meta.json changes meaning (onnx_export writes it, this module reads
# it): the cache key changes with it, so an old export is never opened by new code.
EXPORT_FORMAT = 3
GRAPH = "model.onnx"
WEIGHTS = "model.onnx.data"
TOKENIZER = "tokenizer.json"
FILES = (GRAPH, WEIGHTS, TOKENIZER)
# A batch holds at most this many texts, and at most this many tokens once padded: sorting by
# length and cutting batches by tokens keeps padding (wasted work) low, and small batches keep the
# working set in the CPU caches. Measured on this project's 2-core machine (benchmarks/embed_speed.py).
MAX_BATCH = 64
TOKEN_BUDGET = 4096


def default_threads() -> int:
    """Threads for one session: the CPUs this process may use (onnxruntime's default counts physical cores)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class OnnxEncoder:
    """Tokenizer + onnxruntime session for one published export (see `model_cache`)."""

    def __init__(self, directory: Path, meta: dict[str, Any], threads: int | None = None) -> None:
        """Open the export in `directory`; raises ImportError without onnxruntime/tokenizers, and
        another exception (ValueError, RuntimeError, onnxruntime's own) when its files are broken."""
        import onnxruntime as ort  # deferred: a lexical command never pays for it
        from tokenizers import Tokenizer

        self.directory = Path(directory)
        self.dim = int(meta["dim"])
        self.max_seq_length = int(meta["max_seq_length"])
        self.pad_id = int(meta.get("pad_id", 0))
        self.tokenizer = Tokenizer.from_file(str(self.directory / TOKENIZER))
        # tokenizer.json carries its own fixed padding/truncation, which sentence-transformers
        # overrides: truncate to max_seq_length, and pad per batch (done below, by hand).
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        self.tokenizer.no_padding()

        opts = ort.SessionOptions()
        opts.log_severity_level = 3  # warnings about unused initialisers are noise for users
        # The export saved the graph optimised (onnx_export.optimize_graph): doing it again per process
        # would cost ~40 ms of CPU for the same graph.
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        opts.intra_op_num_threads = threads or default_threads()
        opts.inter_op_num_threads = 1
        # Idle worker threads would otherwise spin after every run, taking the other core from
        # SQLite and the HNSW index in the same process; batches lose nothing measurable.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(self.directory / GRAPH), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self.session.get_inputs()}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts: float32 (len(texts), dim), L2-normalised, as sentence-transformers would."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        # sentence-transformers strips each input before tokenising; do the same.
        ids = [e.ids for e in self.tokenizer.encode_batch([str(t).strip() for t in texts])]
        for batch in token_batches([len(x) for x in ids]):
            width = max(len(ids[i]) for i in batch)
            input_ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                input_ids[row, : len(ids[i])] = ids[i]
                mask[row, : len(ids[i])] = 1
            feed = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(mask)}
            (vectors,) = self.session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
            out[batch] = vectors
        return out

    def encode_query(self, text: str) -> np.ndarray:
        """One query -> (dim,)."""
        return self.encode([text])[0]


def token_batches(lengths: Sequence[int], max_batch: int = MAX_BATCH, budget: int = TOKEN_BUDGET) -> Iterator[list[int]]:
    """Indices grouped shortest first, each group at most `max_batch` long and `budget` padded tokens."""
    batch: list[int] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        # Sorted ascending, so the newest text is the longest of the batch it joins.
        if batch and (len(batch) >= max_batch or (len(batch) + 1) * lengths[i] > budget):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch
