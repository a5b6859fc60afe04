"""The embedding space of one workspace's index: which embedder, and its vectors brought up to date
for `memory index` or for one recall, with the fallback chain and what the index records.

`api.Memory` holds one `VectorSpace` (`Memory.vector_space`) and asks it for the vectors a recall
searches; the recall pipeline then gets them as a channel (recall.semantic). So a recall's walk goes
down (api → index → embed) and comes back, and the façade never calls into embed/ itself.

Nothing here is imported by a lexical recall (docs/architecture.md, "The cold path"): the façade
imports this module when a recall or an index first needs an embedder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..errors import ProviderUnavailable

if TYPE_CHECKING:
    from ..embed.base import Embedder
    from ..embed.config import EmbeddingConfig
    from ..workspace.layout import Workspace
    from .base import Store, VectorIndex

# What `memory index` may do before the vectors are updated, per embedder: batch jobs of a big
# backlog (spaces.batch_jobs, the pipelines layer). Returns (notices, jobs still running).
BeforeUpdate = Callable[["Embedder", Any], tuple[list[str], int]]


class VectorSpace:
    """The embedder of one workspace's index (built once, from `[embedding]` and the environment)
    and its vectors in `store`. `checkout`: the workspace's files are here (a store-only Memory
    records nothing under `.memory/`). The façade's policies: `recall_budget`, the seconds a recall
    may spend embedding new entries (api.RECALL_EMBED_BUDGET); `index_wait`, the seconds `memory
    index` waits for another writer."""

    def __init__(self, workspace: Workspace, store: Store, checkout: bool = True, *, recall_budget: float,
                 index_wait: float) -> None:
        self.workspace = workspace
        self.store = store
        self.checkout = checkout
        self.recall_budget = recall_budget
        self.index_wait = index_wait
        self._embedder: tuple[Embedder | None, list[str]] | None = None  # (embedder, its notices), once built

    # -- which embedder ------------------------------------------------------------------
    @cached_property
    def config(self) -> EmbeddingConfig:
        """`[embedding]` of memory.toml with its environment twins, checked."""
        import os
        from dataclasses import replace

        from ..embed.config import EmbeddingConfig
        from ..errors import UserError

        try:
            cfg = EmbeddingConfig.from_mapping(self.workspace.config.get("embedding"), os.environ)
        except ValueError as exc:
            raise UserError(f"memory.toml [embedding]: {exc}") from None
        # Trigger: no model named in the settings, and the index was built with another local model
        # than today's default. Why: a new default must not silently re-embed (inside a recall) or
        # change the results of an existing workspace. Outcome: the index keeps its model until
        # `memory index --rebuild`, and `embedder()` adds a notice saying so.
        if not cfg.model_set and cfg.provider in ("auto", "local"):
            built = self.store.built_with()
            if built is not None and built.lower() != cfg.model.lower():
                cfg = replace(cfg, model=built)
        return cfg

    def embedder(self, required: bool = False) -> tuple[Embedder | None, list[str]]:
        """The configured embedder, or None with a notice when `auto` finds no model.

        `required` (an explicit --mode semantic/hybrid) turns "no model" into an error.
        An explicitly configured provider that cannot load always raises ProviderUnavailable.
        """
        if self._embedder is None:
            from ..embed.chain import build_from, start_of

            # The space the index was built with first (a fallback's, after the primary failed).
            cfg = self.config
            embedder, notices, _ = build_from(cfg, self.workspace.state_dir, start_of(cfg, self.workspace.state_dir))
            self._use(embedder, notices)
        assert self._embedder is not None
        embedder, notices = self._embedder
        if embedder is None and required:
            reason = notices[0] if notices else "embedding provider is 'none'"
            raise ProviderUnavailable(f"semantic recall unavailable: {reason}")
        return embedder, list(notices)

    @property
    def loaded(self) -> Embedder | None:
        """The embedder when one was built already (a recall or an index used it), else None."""
        return self._embedder[0] if self._embedder is not None else None

    def forget(self) -> None:
        """Choose the embedder again on next use (`memory index --rebuild` re-chooses the model)."""
        self.__dict__.pop("config", None)
        self._embedder = None

    def _use(self, embedder: Embedder | None, notices: list[str]) -> None:
        kept = self.kept_model_notice()
        self._embedder = embedder, ([kept] if kept and embedder is not None else []) + notices

    def kept_model_notice(self) -> str | None:
        """The notice when the index keeps a model other than today's default (see `config`)."""
        cfg = self.config
        if cfg.model_set or cfg.provider not in ("auto", "local") or cfg.model.lower() == cfg.default_model.lower():
            return None
        return (f"this index was built with {cfg.model}; the default model is now {cfg.default_model} "
                "(`memory index --rebuild` switches to it)")

    def describe(self) -> dict[str, Any] | None:
        """Provider, model, dimensions, chain and fallback in use, tokens sent (embed.chain.describe);
        None when the embedder cannot be built."""
        from ..embed.chain import describe

        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable:
            return None
        return describe(self.config, embedder, self.workspace.state_dir)

    def label(self) -> tuple[str | None, list[str]]:
        """("provider/model" of the embedder recall would use, or None; its notices about the model)."""
        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable:
            return None, []
        if embedder is None:
            return None, []
        kept = self.kept_model_notice()
        return f"{embedder.provider}/{embedder.model}", [kept] if kept else []

    # -- what the index records ------------------------------------------------------------
    def record_model(self, embedder: Embedder) -> None:
        """Tell the store which local model made its vectors (other providers are not recorded)."""
        if embedder.provider == "local":
            self.store.record_model(embedder.model)

    def record_space(self, embedder: Embedder, reason: str | None) -> None:
        """Record the space the vectors were made in, and its tokens, in `.memory/embedding.json`
        (embed.chain), for a remote provider or a chain; a local-only workspace keeps no such file."""
        from ..embed.config import REMOTE_PROVIDERS

        if self.checkout and (len(self.config.chain) > 1 or embedder.provider in REMOTE_PROVIDERS):
            from ..embed.chain import write_space

            write_space(self.workspace.state_dir, embedder, reason)

    # -- `memory index` ----------------------------------------------------------------------
    def index(self, progress: Any = None, before_update: BeforeUpdate | None = None,
              changed: bool = True) -> tuple[list[str], int | None]:
        """Bring the vectors up to date after a sync: the provider first, then each fallback
        (embed.chain), so `memory index` moves back to the provider when it can, and measure the
        space's cosine scale when it is complete (`changed`: the sync changed entries). Returns
        (notices, the texts embedded by this call), None for the count when no vectors were updated."""
        from ..embed.chain import run_chain

        def attempt(embedder: Embedder) -> tuple[list[str], Any]:
            # A remote provider's first request gets the indexing budget, not a recall's deadline.
            ready = getattr(embedder, "ready_for_index", None)
            if ready is not None:
                ready()
            # The model loads here (and is exported to ONNX, once per machine), inside the progress bar.
            from ..embed import prepare_embedder

            prepared = prepare_embedder(embedder, progress)
            pending = 0
            if before_update is not None:
                more, pending = before_update(embedder, progress)
                prepared += more
            # Jobs still running hold their texts: embedding them now would pay twice. What is left
            # waits for the next `memory index`, which collects the jobs first.
            return prepared, self.store.vectors(embedder).update(progress=progress, wait=self.index_wait,
                                                                 embed=not pending)

        cfg = self.config
        try:
            embedder, result, notices, pos = run_chain(cfg, self.workspace.state_dir, attempt)
        except ProviderUnavailable as exc:
            if cfg.explicit:
                raise
            return [f"{exc}; the index has no vectors yet"], None
        self._use(embedder, notices)
        assert self._embedder is not None
        out = list(self._embedder[1])
        if embedder is None or result is None:
            return out, None
        prepared, update = result
        out += prepared
        self.record_space(embedder, notices[-1] if pos else None)
        out += update.notices
        self.record_model(embedder)  # what this index is built with, until the next --rebuild
        if not update.missing:
            self.calibrate(embedder, changed=changed or bool(update.embedded))
        return out, update.embedded

    # -- the calibration of a model without fitted constants (embed.calibration) ----------------------
    def calibrate(self, embedder: Embedder, changed: bool) -> None:
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

    def measured_calibration(self, embedder: Embedder) -> tuple[float, float] | None:
        """The measured (floor, ceiling) of the embedder's space, read only for a model without fitted
        constants (recall.semantic.calibration_of); None when there is no record (no checkout, no
        `memory index` yet, or too few entries): then MiniLM's constants apply."""
        if getattr(embedder, "calibration", None) or not self.checkout:
            return None
        from ..embed.calibration import stored

        return stored(self.workspace.state_dir, embedder.identity())

    # -- one recall ----------------------------------------------------------------------------
    def for_recall(self, mode: str, store: Store) -> tuple[tuple[Embedder, VectorIndex] | None, list[str]]:
        """The embedder and the vectors of `store` (this index, or a view across workspaces) a
        `mode` recall searches, or None (lexical) with the reason in the notices."""
        required = mode in ("semantic", "hybrid")
        embedder, notices = self.embedder(required=required)
        if embedder is None:
            return None, notices
        try:
            vectors, more = self._vectors_for_recall(embedder, store)
        except ProviderUnavailable as exc:
            found, more = self._fall_back(exc, store)
            if found is None and (required or self.config.explicit):
                raise
            if found is None:
                return None, [*notices, *more, f"{exc}; using lexical search"]
            embedder, vectors = found
        return (embedder, vectors), notices + more

    def _fall_back(self, exc: ProviderUnavailable, store: Store) -> tuple[tuple[Embedder, VectorIndex] | None,
                                                                          list[str]]:
        """After the recorded space's provider failed in a recall: the next one of the fallback chain
        that works, and the notices saying so; (None, notices) when there is none (the caller decides)."""
        from ..embed.chain import handing_on, run_chain, start_of

        cfg = self.config
        nxt = start_of(cfg, self.workspace.state_dir) + 1
        if nxt >= len(cfg.chain):
            return None, []
        try:
            embedder, result, notices, _ = run_chain(cfg, self.workspace.state_dir,
                                                    lambda emb: self._vectors_for_recall(emb, store), nxt)
        except ProviderUnavailable as last:
            return None, [handing_on(exc, cfg.chain[nxt]), str(last)]
        assert self._embedder is not None
        self._embedder = embedder, self._embedder[1]
        if result is None or embedder is None:
            return None, [handing_on(exc, cfg.chain[nxt]), *notices]
        return (embedder, result[0]), [handing_on(exc, cfg.chain[nxt]), *notices, *result[1]]

    def _vectors_for_recall(self, embedder: Embedder, store: Store) -> tuple[VectorIndex, list[str]]:
        """The vectors, after embedding new entries for at most `recall_budget` seconds.

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
        update = vectors.update(encode=encode, embed=not heavy, budget=self.recall_budget)
        notices = prepared + list(update.notices)
        if update.embedded and self.store.built_with() is None:
            self.record_model(embedder)  # the first vectors of this index (`memory index` records too)
        if update.missing:
            why = (f"{update.embedded} embedded within the recall's {self.recall_budget:g} s budget" if not heavy
                   else "no fast encoder in this process")
            notices.append(f"{update.missing} new text(s) not embedded yet ({why}); they are found by keywords "
                           "until `memory index` embeds them")
        return vectors, notices
