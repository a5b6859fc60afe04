"""The façade's vector channel for one recall: the embedder, its fallback, the vectors (a mixin of Memory)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..errors import ProviderUnavailable
from .following import RECALL_EMBED_BUDGET

if TYPE_CHECKING:
    from ..embed.base import Embedder
    from ..index.base import Store, VectorIndex


class RecallVectors:
    """What a hybrid or semantic recall needs before it runs: the channel, with notices."""

    def _semantic_channel(self, mode: str, store: Store):  # (SemanticChannel | None, notices)
        """The vector channel for this recall over `store`, or None (lexical) with the reason in notices."""
        from ..recall.semantic import SemanticChannel

        required = mode in ("semantic", "hybrid")
        embedder, notices = self.embedder(required=required)
        if embedder is None:
            return None, notices
        try:
            vectors, more = self._vectors_for_recall(embedder, store)
        except ProviderUnavailable as exc:
            vectors, more = self._fall_back(exc, store)
            if vectors is None and (required or self.embedding_config.explicit):
                raise
            if vectors is None:
                return None, [*notices, *more, f"{exc}; using lexical search"]
            embedder = self._embedder[0]
        channel = SemanticChannel(vectors, embedder, semantic_only=mode == "semantic", settings=self.recall_settings,
                                  measured=self._measured_calibration(embedder))
        return channel, notices + more

    def _fall_back(self, exc: ProviderUnavailable, store: Store) -> tuple[VectorIndex | None, list[str]]:
        """After the recorded space's provider failed in a recall: the next one of the fallback chain
        that works, and the notices saying so; (None, []) when there is none (the caller decides)."""
        from ..embed.chain import handing_on, run_chain, start_of

        cfg = self.embedding_config
        nxt = start_of(cfg, self.workspace.state_dir) + 1
        if nxt >= len(cfg.chain):
            return None, []
        try:
            embedder, result, notices, _ = run_chain(cfg, self.workspace.state_dir,
                                                    lambda emb: self._vectors_for_recall(emb, store), nxt)
        except ProviderUnavailable as last:
            return None, [handing_on(exc, cfg.chain[nxt]), str(last)]
        self._embedder = embedder, self._embedder[1]
        if result is None:
            return None, [handing_on(exc, cfg.chain[nxt]), *notices]
        return result[0], [handing_on(exc, cfg.chain[nxt]), *notices, *result[1]]

    def _vectors_for_recall(self, embedder: Embedder, store: Store) -> tuple[VectorIndex, list[str]]:
        """The vectors, after embedding new entries for at most RECALL_EMBED_BUDGET seconds.

        New or changed entries since the last `memory index` are embedded unless that would load
        torch (MiniLM without its ONNX export: a recall never does); what is left is found by
        keywords and embedded by `memory index`.
        """
        from ..embed import prepare_embedder

        # MiniLM's ONNX export (made if this machine has none), USE's tokenizer (likewise).
        prepared = prepare_embedder(embedder)
        vectors = store.vectors(embedder)
        heavy = getattr(embedder, "needs_torch", lambda: False)()  # MiniLM without its export: not in a recall
        # A remote provider's retries get the question's deadline, not the minutes `memory index` allows.
        deadline = getattr(embedder, "query_timeout", None)
        encode = functools.partial(embedder.embed_documents, budget=deadline) if deadline else None
        update = vectors.update(encode=encode, embed=not heavy, budget=RECALL_EMBED_BUDGET)
        notices = prepared + list(update.notices)
        if update.embedded and self.store.built_with() is None:
            self._record_model(embedder)  # the first vectors of this index (`memory index` records too)
        if update.missing:
            why = (f"{update.embedded} embedded within the recall's {RECALL_EMBED_BUDGET:g} s budget" if not heavy
                   else "no fast encoder in this process")
            notices.append(f"{update.missing} new text(s) not embedded yet ({why}); they are found by keywords "
                           "until `memory index` embeds them")
        return vectors, notices

    # -- the calibration of a model without fitted constants (embed.calibration) ----------------------
    def _calibrate(self, embedder: Embedder, changed: bool) -> None:
        """Measure the cosine scale of the space `memory index` just completed, when it has no
        record yet, or the workspace has grown or shrunk since (embed.calibration.needs_measuring).
        An index that did not change (`changed` False) only reads the record: the entries are
        counted only after a change.

        Every space is measured, fitted constants or not (the record costs ~0.1 s and shows in
        `.memory/calibration.json` what recall would use if the model had none)."""
        if not self.checkout:
            return
        from ..embed import calibration

        state_dir, identity = self.workspace.state_dir, embedder.identity()
        if not changed and not calibration.outdated(state_dir, identity):
            return
        sample, entries = self.store.vectors(embedder).sample(calibration.SAMPLE)
        if calibration.needs_measuring(state_dir, identity, entries):
            calibration.record(state_dir, identity, sample, entries)

    def _measured_calibration(self, embedder: Embedder) -> tuple[float, float] | None:
        """The measured (floor, ceiling) of the embedder's space, read only for a model without fitted
        constants (recall.semantic.calibration_of); None when there is no record (no checkout, no
        `memory index` yet, or too few entries): then MiniLM's constants apply."""
        if getattr(embedder, "calibration", None) or not self.checkout:
            return None
        from ..embed.calibration import stored

        return stored(self.workspace.state_dir, embedder.identity())
