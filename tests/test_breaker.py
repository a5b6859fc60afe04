"""A provider that fails or stalls is skipped for a cool-down (embed.breaker), so concurrent searches
pay its timeout once; and a first index gets the indexing budget from its first request on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import provider_stall
from conftest import run_memory as run_any
from provider_servers import serving
from workspace_memory.embed.breaker import MAX_COOLDOWN, STATE_FILE, Breaker, read_states
from workspace_memory.errors import ProviderTimeout, ProviderUnavailable

REMOTE = {"MEMORY_EMBED_PROVIDER": None}  # the workspace's memory.toml decides


def run_memory(ws: Path, *args: str) -> tuple[int, str, str]:
    return run_any(ws, *args, env=REMOTE)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_skips_tries_once_after_the_cool_down_and_closes_on_success(tmp_path: Path) -> None:
    clock = Clock()
    breaker = Breaker("openai", "https://api.example/v1", tmp_path, 30, clock=clock)
    breaker.check(3)  # closed: nothing happens
    breaker.failed("timed out after 3s", timeout=True)
    with pytest.raises(ProviderTimeout, match=r"openai embeddings skipped for 30 s more \(circuit breaker, open "
                                              r"since it failed 0 s ago: timed out after 3s\)"):
        breaker.check(3)
    clock.now += 31
    breaker.check(3)  # the trial
    with pytest.raises(ProviderTimeout):  # the others skip while the trial runs
        breaker.check(3)
    breaker.failed("HTTP 500 Internal Server Error", timeout=False)  # the trial failed: 60 s now
    clock.now += 59
    with pytest.raises(ProviderUnavailable, match="HTTP 500") as info:
        breaker.check(3)
    assert not isinstance(info.value, ProviderTimeout)  # a 500 stays an error for a provider chosen alone
    clock.now += 2
    breaker.check(3)
    breaker.succeeded()
    breaker.check(3)
    assert json.loads((tmp_path / STATE_FILE).read_text()) == {}


def test_another_process_sees_the_open_breaker_through_the_file(tmp_path: Path) -> None:
    clock = Clock()
    one = Breaker("gemini", "https://g.example", tmp_path, 30, clock=clock)
    other = Breaker("gemini", "https://g.example", tmp_path, 30, clock=clock)  # as in a second process
    elsewhere = Breaker("gemini", "https://other.example", tmp_path, 30, clock=clock)
    one.failed("connection refused", timeout=False)
    other.failed("connection refused", timeout=False)  # the same episode: no longer cool-down
    with pytest.raises(ProviderUnavailable, match="skipped for 30 s more"):
        other.check(3)
    elsewhere.check(3)  # another base_url is another provider
    states = read_states(tmp_path, {"gemini": "https://g.example"}, now=clock.now)
    assert states["gemini"]["state"] == "open" and states["gemini"]["failures_in_a_row"] == 1
    assert states["gemini"]["reason"] == "connection refused"
    assert "g.example" not in (tmp_path / STATE_FILE).read_text()  # no URL written down


def test_the_cool_down_doubles_up_to_its_limit_and_zero_turns_it_off(tmp_path: Path) -> None:
    clock = Clock()
    breaker = Breaker("voyage", "https://v.example", None, 30, clock=clock)
    for _ in range(8):
        clock.now += MAX_COOLDOWN + 1 if breaker._state else 0
        breaker.check(3) if breaker._state else None
        breaker.failed("timed out", timeout=True)
    assert breaker._state["open_until"] - clock.now == MAX_COOLDOWN
    off = Breaker("voyage", "https://v.example", None, 0, clock=clock)
    off.failed("timed out", timeout=True)
    off.check(3)


def test_six_concurrent_searches_over_mcp_pay_a_stalled_providers_timeout_once(tmp_path: Path) -> None:
    report = provider_stall.mcp_case(tmp_path, searches=6, query_timeout=1.0, stall_seconds=15)
    assert report["errors"] == 0
    assert report["stalled_requests"] == 1, report  # the first search asked; the breaker kept the others off it
    assert report["breaker_notices"] == 5, report
    # One timeout plus their own work (slack for a busy machine); without the breaker it is six timeouts.
    assert report["last"] <= report["bound"] + 1.5, report


def test_separate_recall_processes_share_the_breaker_and_status_shows_it(tmp_path: Path) -> None:
    with provider_stall.stalling(15) as provider:
        ws = provider_stall.make_workspace(tmp_path / "ws", provider.base_url, query_timeout=1.0, cooldown=30)
        assert run_memory(ws, "index")[0] == 0
        provider.stalled = True
        code, out, _ = run_memory(ws, "recall", "invoice batch", "--json")
        assert code == 0 and provider.stalled_requests == 1
        assert any("timed out after 1s" in n for n in json.loads(out)["notices"])
        code, out, _ = run_memory(ws, "recall", "billing", "--json")
        assert code == 0 and provider.stalled_requests == 1  # skipped: no request at all
        [notice] = [n for n in json.loads(out)["notices"] if "circuit breaker" in n]
        assert notice.startswith("remote embeddings skipped for ") and "using lexical search" in notice
        status = json.loads(run_memory(ws, "status", "--json")[1])
        breaker = status["embedding_space"]["breakers"]["remote"]
        assert breaker["state"] == "open" and breaker["failures_in_a_row"] == 1
        assert breaker["reason"].startswith("timed out after 1s")
        human = run_memory(ws, "status")[1]
        assert "circuit breaker" in human and "remote open until" in human
        provider.stalled = False
        assert run_memory(ws, "index")[0] == 0  # `memory index` always tries; its success closes the breaker
        status = json.loads(run_memory(ws, "status", "--json")[1])
        assert status["embedding_space"]["breakers"]["remote"] == {"state": "closed"}


def test_a_first_index_learns_the_dimension_on_the_indexing_budget(tmp_path: Path) -> None:
    """Three 500s before the first answer take 3.5 s of backoff: past a 1 s query deadline, within
    total_timeout. With no `dimensions` set, the first request is the probe of the vector length."""
    with serving() as server:
        ws = provider_stall.make_workspace(tmp_path / "ws", server.base("remote"), query_timeout=1.0, cooldown=30)
        toml = (ws / "memory.toml").read_text().replace(f"dimensions = {provider_stall.DIM}\n", "")
        (ws / "memory.toml").write_text(toml)
        server.script = [500, 500, 500]
        code, out, err = run_memory(ws, "index", "--json")
        assert code == 0, err
        assert "unavailable" not in out + err
        assert len(server.requests) >= 4 and server.requests[3]["body"]["input"] == ["dimension probe"]


@pytest.mark.parametrize(("status", "opens"), [(500, True), (401, True), (429, True), (400, False), (422, False)])
def test_which_failures_open_the_breaker(status: int, opens: bool) -> None:
    from workspace_memory.embed.remote import RemoteEmbedder

    with serving() as server:
        server.script = [status]
        embedder = RemoteEmbedder(server.base("remote"), "m", retries=0, dimensions=8)
        with pytest.raises(ProviderUnavailable):
            embedder.embed_query("hello")
        assert (embedder.breaker.describe()["state"] == "open") is opens
        embedder.breaker.succeeded()
