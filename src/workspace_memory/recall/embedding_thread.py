"""The thread a question's vector is computed in (recall.semantic.PendingVector).

A hybrid recall embeds its question in another thread while the lexical pools are searched.
Starting a thread per question costs the asking thread the new one's start (`Thread.start` waits
until it runs: on a loaded machine, a wait for a core and the GIL, 0.3-0.6 ms of a recall's wall
time on this project's shared machine). A process that asks a second question is a long-lived one
(the MCP server behind an agent's gateway, `memory watch`, the web UI, a benchmark), so from its
second question on one daemon thread runs every embedding, in the order asked. A process's first
question gets a thread of its own that ends with it: a `memory recall` leaves with no other thread
alive, which cli.leave needs to end it at once.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()
_questions = 0  # questions this process asked (asked())
_worker: Any = None  # queue.SimpleQueue of the jobs of the process's worker thread, once started


def asked() -> None:
    """Count a question (recall.semantic.SemanticChannel.embed_query: once per recall)."""
    global _questions
    with _lock:
        _questions += 1


def start(job: Callable[[], None]) -> None:
    """Run `job` in another thread: the process's worker from its second question on, else a daemon
    thread of its own. `job` hands its own errors on (PendingVector._run): nothing is raised here."""
    global _worker
    with _lock:
        if _questions < 2:
            jobs = None
        elif _worker is None:
            import queue

            jobs = _worker = queue.SimpleQueue()
            threading.Thread(target=_serve, args=(jobs,), name="memory-query", daemon=True).start()
        else:
            jobs = _worker
    if jobs is None:
        threading.Thread(target=job, name="memory-query", daemon=True).start()
    else:
        jobs.put(job)


def _serve(jobs: Any) -> None:  # queue.SimpleQueue
    while True:
        job = jobs.get()
        with contextlib.suppress(BaseException):  # a job hands its errors to its caller; serve the next
            job()


def _forget_worker() -> None:
    """In a forked child the worker thread does not exist (and the lock may be held by a thread that
    does not either): the next question starts a worker."""
    global _worker, _lock
    _worker, _lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_worker)
