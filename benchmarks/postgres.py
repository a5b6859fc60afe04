"""The Postgres store at scale, against SQLite on the same workspace.

    python benchmarks/postgres.py --store-url postgresql://... --workdir DIR
        [--workspaces 100] [--days 385] [--big-days 3850] [--embed fake|none] [--clients 1,2,4,8] [--seconds 15]
        [--only recall] [--rounds 20] [--src BASE/src --src NEW/src] [--src-rounds 3]

Workspaces come from benchmarks/workspace_gen.py (~26 entries a day). `--workspaces` small ones of
`--days` days each (100 x 385 days is about 1M entries in all) and one big workspace of
`--big-days` days (3,850 days: about 100k entries), which is also indexed into SQLite to compare.

Embeddings: the deterministic `fake` provider (64 dimensions, hashed words), so that what is
measured is the store and not a model. Every workspace is generated from the same seed, so their
texts repeat: the first workspace embeds them and every other one finds them in the embedding
cache the database shares (SQLite's cache is per workspace: the big workspace embeds its own).
Logs repeat every 365 days (workspace_gen's unique_days), so a workspace embeds at most a year
of distinct texts; its entries and vectors are as many as a real one's.

Measured, each with the machine's load average (other work shares these 2 cores):
1. index throughput (entries/s): the big workspace into SQLite and into Postgres; the small ones
   into Postgres with 2 indexers side by side;
2. recall p50/p95, one client: the big workspace on SQLite and on Postgres (the ratio is the target:
   Postgres <= 2x SQLite), and across every workspace of the database;
3. recalls/s with 1..8 clients (processes) on the big workspace, each store;
4. recall p50/p95 on the big workspace and across all, with 8 clients while 2 indexers re-index
   small workspaces (a file changed, `memory index`, again) the whole time.

The target is also measured with both stores interleaved: `--rounds` rounds of every query in
one process, each query on SQLite and then on Postgres, so that both stores' timings see the
same load (p50/p95 of each and the ratio). `--only recall` measures that alone, on the big
workspace (indexed into both stores first if it is not yet).

With `--only recall` and `--src` (repeatable), that measurement runs `--src-rounds` times per source
tree, in turn, each in a child process with the tree first on PYTHONPATH, so that two versions see
the same load. Each tree gets its own copy of the big workspace (`WORKDIR/src<i>/big`, its own
workspace in the database and its own SQLite index), indexed before its first round. The report
gives each tree's medians of the p50/p95 and of the CPU time per recall of this process (Postgres's
own CPU is not in it), with the ratio to the first tree's.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import alternate, child_env, pct, show_medians
from workspace_gen import generate

QUERIES = ["reconnect logic", "who owns the onboarding flow", "Prefers green tea", "In Lisbon for backups",
           "release notes after Atlas ships", "error budgets", "database migrations Falcon", "Works on Harbor",
           "the deploy pipeline risk", "Peter async updates", "timeoutSize", "the WhatsApp bridge summary"]
NOW = "2025-12-01T09:00"


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def env_for(url: str | None, root: Path, embed: str) -> dict[str, str]:
    """Settings for one workspace: its name in the database is "<workdir>-<folder>"."""
    env = {"MEMORY_EMBED_PROVIDER": embed}
    if url:
        env |= {"MEMORY_STORE_URL": url, "MEMORY_STORE_WORKSPACE": f"{root.parent.name}-{root.name}"}
    return env


def _open(root: Path, env: dict[str, str]):
    for key in ("MEMORY_STORE_URL", "MEMORY_STORE_WORKSPACE"):
        os.environ.pop(key, None)
    os.environ.update(env)
    from workspace_memory.api import Memory

    mem = Memory.open(str(root), NOW)
    _ = mem.store, mem.embedding_config  # settled now: another Memory of this process may change the environment
    return mem


def index(root: Path, env: dict[str, str]) -> tuple[int, float]:
    """(entries, seconds) of a full index of `root` with these settings."""
    mem = _open(root, env)
    started = time.perf_counter()
    mem.index()
    seconds = time.perf_counter() - started
    chunks = mem.status()["chunks"]
    mem.close()
    return chunks, seconds


def _index_many(job: tuple[list[str], str, str]) -> tuple[int, float]:
    roots, url, embed = job
    total, seconds = 0, 0.0
    for root in roots:
        n, s = index(Path(root), env_for(url, Path(root), embed))
        total, seconds = total + n, seconds + s
    return total, seconds


def _client(job: tuple[str, dict[str, str], str, float, bool]) -> list[float]:
    """One recall client: recalls for `seconds`, returns each recall's seconds."""
    root, env, mode, seconds, everywhere = job
    from workspace_memory.recall.query import RecallRequest

    mem = _open(Path(root), env)
    mem.recall(RecallRequest(QUERIES[0], k=10, mode=mode, all_workspaces=everywhere))  # warm: connection, caches
    out: list[float] = []
    deadline = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        mem.recall(RecallRequest(QUERIES[n % len(QUERIES)], k=10, mode=mode, all_workspaces=everywhere))
        out.append(time.perf_counter() - t0)
        n += 1
    mem.close()
    return out


def _reindexer(job: tuple[list[str], str, str, float]) -> int:
    """Change a file of each small workspace in turn and index it, until the deadline; returns syncs done."""
    roots, url, embed, seconds = job
    deadline = time.perf_counter() + seconds
    done = 0
    while time.perf_counter() < deadline:
        root = Path(roots[done % len(roots)])
        note = root / "memory" / "bench-churn.md"
        note.write_text(f"# churn\n\n- Reindex pass {done} at {time.time():.3f}.\n", encoding="utf-8")
        index(root, env_for(url, root, embed))
        done += 1
    return done


def clients(pool: mp.pool.Pool, n: int, root: Path, env: dict[str, str], mode: str, seconds: float,
            everywhere: bool = False) -> list[float]:
    results = pool.map_async(_client, [(str(root), env, mode, seconds, everywhere)] * n)
    return [x for part in results.get() for x in part]


def interleaved(root: Path, url: str, embed: str, mode: str, rounds: int) -> dict:
    """Both stores in one process, query by query (SQLite, then Postgres): p50/p95 of each under the same load."""
    from workspace_memory.recall.query import RecallRequest

    mems = {"sqlite": _open(root, env_for(None, root, embed)), "postgres": _open(root, env_for(url, root, embed))}
    for mem in mems.values():  # warm: connections, caches, every query once
        for query in QUERIES:
            mem.recall(RecallRequest(query, k=10, mode=mode))
    seconds: dict[str, list[float]] = {name: [] for name in mems}
    cpu: dict[str, list[float]] = {name: [] for name in mems}
    before = load()
    for _ in range(rounds):
        for query in QUERIES:
            for name, mem in mems.items():
                t0, c0 = time.perf_counter(), time.process_time()
                mem.recall(RecallRequest(query, k=10, mode=mode))
                seconds[name].append(time.perf_counter() - t0)
                cpu[name].append(time.process_time() - c0)
    for mem in mems.values():
        mem.close()
    out: dict = {name: summary(values) | {"cpu_p50_ms": round(pct(cpu[name], 0.5) * 1000, 2)}
                 for name, values in seconds.items()}
    out["postgres_over_sqlite_p50"] = round(out["postgres"]["p50_ms"] / out["sqlite"]["p50_ms"], 2)
    out["postgres_over_sqlite_p95"] = round(out["postgres"]["p95_ms"] / out["sqlite"]["p95_ms"], 2)
    out["load_before"], out["load_after"] = before, load()
    return out


def compare_sources(args: argparse.Namespace) -> None:
    """--only recall once per source tree, in turn, --src-rounds times; prints medians and ratios."""
    generated = args.workdir / "generated"
    if not (generated / "memory").is_dir():
        generate(generated, args.big_days, 50, unique_days=365)
    passed = ["--only", "recall", "--store-url", args.store_url, "--embed", args.embed, "--rounds", str(args.rounds),
              "--big-days", str(args.big_days), *(["--mode", args.mode] if args.mode else [])]

    def run(src: str) -> dict[str, float]:
        work = args.workdir / f"src{args.src.index(src)}"
        if not (work / "big" / "memory").is_dir():
            shutil.copytree(generated, work / "big", ignore=shutil.ignore_patterns(".memory"))
        out = work / "report.json"
        cmd = [sys.executable, __file__, *passed, "--workdir", str(work), "--out", str(out)]
        subprocess.run(cmd, check=True, capture_output=True, env=child_env(src))
        got = json.loads(out.read_text())["recall_big_interleaved"]
        return {f"{store}_{key}": got[store][key] for store in ("sqlite", "postgres")
                for key in ("p50_ms", "p95_ms", "cpu_p50_ms")}

    print(f"load before: {load()}")
    show_medians(alternate(args.src, args.src_rounds, run))
    print(f"load after: {load()}")


def summary(seconds: list[float]) -> dict[str, float]:
    return {"n": len(seconds), "p50_ms": round(pct(seconds, 0.5) * 1000, 1),
            "p95_ms": round(pct(seconds, 0.95) * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store-url", required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--workspaces", type=int, default=100)
    parser.add_argument("--days", type=int, default=385)
    parser.add_argument("--big-days", type=int, default=3850)
    parser.add_argument("--embed", default="fake", choices=["fake", "none"])
    parser.add_argument("--mode", default=None, help="recall mode (default: hybrid with --embed fake)")
    parser.add_argument("--clients", default="1,2,4,8")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", choices=["recall"], default=None,
                        help="recall: only the big workspace, both stores interleaved in one process")
    parser.add_argument("--rounds", type=int, default=20, help="--only recall: rounds of every query")
    parser.add_argument("--src", action="append", default=[], metavar="DIR",
                        help="--only recall: a source tree to measure (repeatable: in turn, --src-rounds times)")
    parser.add_argument("--src-rounds", type=int, default=3)
    args = parser.parse_args()
    if args.src:
        if args.only != "recall":
            raise SystemExit("--src goes with --only recall")
        compare_sources(args)
        return
    mode = args.mode or ("hybrid" if args.embed == "fake" else "lexical")
    url = args.store_url
    report: dict = {"settings": {k: str(v) for k, v in vars(args).items() if k != "store_url"} | {"mode": mode}}

    big = args.workdir / "big"
    if args.only == "recall":
        if not (big / "memory").is_dir():
            generate(big, args.big_days, 50, unique_days=365)
        for env in (env_for(None, big, args.embed), env_for(url, big, args.embed)):
            index(big, env)  # brings either store up to date (nothing to do when it is)
        report["recall_big_interleaved"] = interleaved(big, url, args.embed, mode, args.rounds)
        write(report, args.out)
        return
    small = [args.workdir / f"ws{i:03d}" for i in range(args.workspaces)]
    # Texts repeat every 365 days (unique_days): embedding costs minutes, not hours, and the
    # entries and vectors are as many as a real workspace's.
    if not (big / "memory").is_dir():
        generate(big, args.big_days, 50, unique_days=365)
    for root in small:
        if not (root / "memory").is_dir():
            generate(root, args.days, 50, unique_days=365)
    print(f"generated: big {args.big_days} days, {len(small)} x {args.days} days; {load()}", flush=True)

    ctx = mp.get_context("spawn")
    with ctx.Pool(10) as pool:
        # 1. indexing
        n, s = index(big, env_for(None, big, args.embed))
        report["index_big_sqlite"] = {"chunks": n, "seconds": round(s, 1), "chunks_per_s": round(n / s), "load": load()}
        print("index big, SQLite:", report["index_big_sqlite"], flush=True)
        n, s = index(big, env_for(url, big, args.embed))
        report["index_big_postgres"] = {"chunks": n, "seconds": round(s, 1), "chunks_per_s": round(n / s),
                                        "load": load()}
        print("index big, Postgres:", report["index_big_postgres"], flush=True)
        halves = [[str(r) for r in small[0::2]], [str(r) for r in small[1::2]]]
        started = time.perf_counter()
        parts = pool.map(_index_many, [(h, url, args.embed) for h in halves if h])
        wall = time.perf_counter() - started
        total = sum(p[0] for p in parts)
        report["index_small_postgres_2_indexers"] = {"workspaces": len(small), "chunks": total,
                                                     "seconds": round(wall, 1), "chunks_per_s": round(total / wall),
                                                     "load": load()}
        print("index small, Postgres, 2 indexers:", report["index_small_postgres_2_indexers"], flush=True)

        # 2-3. recall, 1..8 clients, each store
        curve: dict = {}
        for store, env in (("sqlite", env_for(None, big, args.embed)), ("postgres", env_for(url, big, args.embed))):
            for k in [int(c) for c in args.clients.split(",")]:
                seconds = clients(pool, k, big, env, mode, args.seconds)
                curve.setdefault(store, {})[k] = summary(seconds) | {
                    "recalls_per_s": round(len(seconds) / args.seconds, 1), "load": load()}
                print(f"recall big, {store}, {k} client(s):", curve[store][k], flush=True)
        report["recall_big_curve"] = curve
        one = curve["postgres"][1]["p50_ms"] / curve["sqlite"][1]["p50_ms"]
        report["postgres_over_sqlite_p50_one_client"] = round(one, 2)
        report["recall_big_interleaved"] = interleaved(big, url, args.embed, mode, args.rounds)
        print("recall big, both stores interleaved:", report["recall_big_interleaved"], flush=True)
        all_one = clients(pool, 1, big, env_for(url, big, args.embed), mode, args.seconds, everywhere=True)
        report["recall_all_workspaces_one_client"] = summary(all_one) | {"load": load()}
        print("recall across all workspaces, 1 client:", report["recall_all_workspaces_one_client"], flush=True)

        # 4. under load: 8 clients (4 on the big workspace, 4 across all) while 2 indexers churn
        span = args.seconds * 2
        churn = pool.map_async(_reindexer, [(h, url, args.embed, span) for h in halves if h])
        mine = pool.map_async(_client, [(str(big), env_for(url, big, args.embed), mode, span, False)] * 4)
        everywhere = pool.map_async(_client, [(str(big), env_for(url, big, args.embed), mode, span, True)] * 4)
        mine_s = [x for p in mine.get() for x in p]
        all_s = [x for p in everywhere.get() for x in p]
        report["under_load"] = {"one_workspace": summary(mine_s), "all_workspaces": summary(all_s),
                                "reindex_passes": sum(churn.get()), "load": load()}
        print("8 clients + 2 indexers:", report["under_load"], flush=True)
    write(report, args.out)


def write(report: dict, out: Path | None) -> None:
    print(json.dumps(report, indent=2))
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
