"""Where a question's vector is computed (recall.embedding_thread): a process's first question in a thread
of its own that ends with it (a `memory recall` then leaves at once), every later one in one worker."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from workspace_memory.recall import embedding_thread
from workspace_memory.recall.semantic import PendingVector


@pytest.fixture
def fresh_process(monkeypatch):
    monkeypatch.setattr(embedding_thread, "_questions", 0)
    monkeypatch.setattr(embedding_thread, "_worker", None)


def ask(text: str, threads: list[threading.Thread], fail: bool = False) -> PendingVector:
    def embed(query: str) -> np.ndarray:
        threads.append(threading.current_thread())
        if fail:
            raise RuntimeError("the model is gone")
        return np.full(3, float(len(query)), dtype=np.float32)

    embedding_thread.asked()
    return PendingVector(embed, text)


def test_the_first_question_has_a_thread_of_its_own_that_ends_with_it(fresh_process) -> None:
    threads: list[threading.Thread] = []
    assert ask("abc", threads).result().tolist() == [3.0, 3.0, 3.0]
    first = threads[0]
    assert first is not threading.current_thread()
    first.join(timeout=10)
    assert not first.is_alive(), "a one-question process is left with no other thread"


def test_later_questions_share_one_worker_which_outlives_a_failure(fresh_process) -> None:
    threads: list[threading.Thread] = []
    ask("a", threads).result()
    assert ask("ab", threads).result().tolist() == [2.0] * 3
    with pytest.raises(RuntimeError, match="the model is gone"):
        ask("abc", threads, fail=True).result()
    assert ask("abcd", threads).result().tolist() == [4.0] * 3
    worker = threads[1]
    assert threads[2:] == [worker, worker] and worker is not threads[0]
    assert worker.is_alive() and worker.daemon
