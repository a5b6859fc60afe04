"""Batch indexing through a real server on 127.0.0.1 that speaks OpenAI's Files + Batches lifecycle
(upload, create, validating/in progress, completed, failed, expired, cancelled, result files):
a `memory index` killed with SIGKILL mid-batch resumes the same jobs, nothing completed is sent
twice, and only failures are sent again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

import recall_ws as R
from conftest import clean_env, memory_executable, run_memory
from http_fixtures import JsonServer, send_json
from provider_servers import DIM, bag_of_words

KEY = "sk-batch-test-0b7f33"
KEY_VAR = "WM_BATCH_TEST_KEY"
ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None, KEY_VAR: KEY}


class BatchServer(JsonServer):
    """/v1/files, /v1/batches, /v1/files/ID/content and /v1/embeddings. `hold` keeps batches in
    progress; `outcome` is how they end; texts containing `fail_word` fail line by line."""

    def __init__(self) -> None:
        self.hold = False
        self.outcome = "completed"
        self.fail_word: str | None = None
        self.files: dict[str, list[dict]] = {}
        self.batches: dict[str, dict] = {}
        self.calls: Counter[str] = Counter()
        self.sync_texts: list[str] = []
        super().__init__()

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: bytes) -> None:
        if handler.headers.get("Authorization") != f"Bearer {KEY}":
            return send_json(handler, 401, {"error": {"message": "bad key"}})
        if method == "POST" and path == "/v1/files":
            self.calls["upload"] += 1
            assert b'name="purpose"\r\n\r\nbatch' in body
            content = body.split(b'filename="embeddings.jsonl"', 1)[1].split(b"\r\n\r\n", 1)[1].rsplit(b"\r\n--", 1)[0]
            fid = f"file-{len(self.files)}"
            self.files[fid] = [json.loads(line) for line in content.decode().splitlines()]
            return send_json(handler, 200, {"id": fid, "object": "file", "purpose": "batch"})
        if method == "POST" and path == "/v1/batches":
            self.calls["create"] += 1
            req = json.loads(body)
            assert req["endpoint"] == "/v1/embeddings" and req["completion_window"] == "24h"
            bid = f"batch_{len(self.batches)}"
            self.batches[bid] = {"id": bid, "input_file_id": req["input_file_id"], "status": "validating"}
            return send_json(handler, 200, self.batches[bid])
        if method == "GET" and path.startswith("/v1/batches/"):
            self.calls["poll"] += 1
            batch = self.batches[path.rsplit("/", 1)[1]]
            if batch["status"] not in ("validating", "in_progress"):
                return send_json(handler, 200, batch)
            batch["status"] = "in_progress" if self.hold else self.outcome
            if batch["status"] in ("completed", "expired"):
                batch["output_file_id"] = self._output(batch)
            return send_json(handler, 200, batch)
        if method == "GET" and path.startswith("/v1/files/") and path.endswith("/content"):
            self.calls["download"] += 1
            lines = self.files[path.split("/")[3]]
            raw = "\n".join(json.dumps(line) for line in lines).encode()
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(raw)))
            handler.end_headers()
            handler.wfile.write(raw)
            return None
        if method == "POST" and path == "/v1/embeddings":
            req = json.loads(body)
            self.sync_texts += req["input"]
            data = [{"index": i, "embedding": bag_of_words(t, DIM)} for i, t in enumerate(req["input"])]
            return send_json(handler, 200, {"data": data, "usage": {"total_tokens": 3}})
        return send_json(handler, 404, {"error": {"message": f"no route {method} {path}"}})

    def _output(self, batch: dict) -> str:
        out = []
        for line in self.files[batch["input_file_id"]]:
            text = line["body"]["input"]
            if self.fail_word and self.fail_word in text.lower():
                out.append({"custom_id": line["custom_id"], "response": None,
                            "error": {"code": "server_error", "message": "failed"}})
            else:
                out.append({"custom_id": line["custom_id"], "response": {"status_code": 200, "body": {
                    "data": [{"index": 0, "embedding": bag_of_words(text, DIM)}], "usage": {"total_tokens": 5}}}})
        if batch["status"] == "expired":
            out = out[: len(out) // 2]  # an expired batch returns what it finished
        fid = f"file-out-{len(self.files)}"
        self.files[fid] = out
        return fid

    def uploaded(self) -> list[str]:
        """custom_ids of every uploaded line (the texts each batch was asked to embed)."""
        return [line["custom_id"] for fid, lines in self.files.items() if not fid.startswith("file-out")
                for line in lines]


@pytest.fixture
def server() -> Iterator[BatchServer]:
    srv = BatchServer()
    yield srv
    srv.close()


def workspace(tmp_path: Path, server: BatchServer, extra: str = "") -> Path:
    toml = (f'[embedding]\nprovider = "openai"\n\n[embedding.openai]\nbase_url = "{server.base_url}"\n'
            f'api_key_env = "{KEY_VAR}"\ndimensions = {DIM}\n\n[embedding.batch]\nmin_texts = 10\n'
            f"job_texts = 15\npoll_interval = 0.1\n{extra}")
    return R.build(tmp_path / "ws", toml=toml)


def index(ws: Path, *args: str) -> str:
    code, out, err = run_memory(ws, "index", *args, now=R.NOW, env=ENV)
    assert code == 0, err
    assert KEY not in out + err
    return err


def jobs(ws: Path) -> dict:
    path = ws / ".memory" / "batch-jobs.json"
    return json.loads(path.read_text()) if path.exists() else {}


def test_a_killed_index_resumes_its_jobs_and_pays_nothing_twice(tmp_path, server):
    ws = workspace(tmp_path, server)
    server.hold = True
    cmd = [memory_executable(), "--workspace", str(ws), "--now", R.NOW, "index"]
    proc = subprocess.Popen(cmd, env=clean_env(ENV), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(jobs(ws)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # a few polls of jobs that stay in progress
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    assert len(jobs(ws)) == 2 and (server.calls["upload"], server.calls["create"]) == (2, 2)  # concurrency 2
    assert server.calls["poll"] >= 2
    recorded = {job["id"] for job in jobs(ws).values()}

    server.hold = False
    index(ws)
    assert server.calls["create"] == 3  # the third job only: the two recorded ones were polled, not re-sent
    assert recorded <= set(server.batches)
    sent = server.uploaded()
    assert len(sent) == len(set(sent)), "a text was submitted twice"
    assert server.sync_texts == [] and jobs(ws) == {}
    for path in (ws / ".memory").rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes(), path
    answer = json.loads(run_memory(ws, "recall", "invoice rounding bug", "--json", now=R.NOW, env=ENV)[1])
    assert answer["space"] == f"openai/text-embedding-3-small/{DIM}" and answer["mode"] == "hybrid"
    assert server.sync_texts == ["invoice rounding bug"]  # the question, as an ordinary request
    index(ws)  # nothing left: no new job, no request
    assert server.calls["create"] == 3 and server.sync_texts == ["invoice rounding bug"]


@pytest.mark.parametrize("outcome", ["completed", "expired", "failed", "cancelled"])
def test_only_what_failed_is_sent_again(tmp_path, server, outcome):
    ws = workspace(tmp_path, server)
    server.outcome, server.fail_word = outcome, "invoice"
    err = index(ws)
    batch_lines = {line["custom_id"]: line["body"]["input"] for fid, lines in server.files.items()
                   if not fid.startswith("file-out") for line in lines}
    done = {line["custom_id"] for fid, lines in server.files.items() if fid.startswith("file-out")
            for line in lines if line["response"]}
    assert sorted(server.sync_texts) == sorted(t for h, t in batch_lines.items() if h not in done)
    if outcome == "completed":
        assert server.sync_texts and all("invoice" in t.lower() for t in server.sync_texts)
    else:
        assert f"{outcome}:" in err and "ordinary requests" in err
    assert jobs(ws) == {}


def test_without_waiting_the_jobs_are_collected_by_the_next_index(tmp_path, server):
    ws = workspace(tmp_path, server, "wait = false\n")
    server.hold = True
    err = index(ws)
    assert "still running" in err and len(jobs(ws)) == 2
    status = json.loads(run_memory(ws, "status", "--json", now=R.NOW, env=ENV)[1])["embedding_space"]
    assert len(status["batch_jobs"]) == 2 and all(j["texts"] == 15 for j in status["batch_jobs"])
    server.hold = False
    ws_toml = ws / "memory.toml"
    ws_toml.write_text(ws_toml.read_text().replace("wait = false\n", ""))
    index(ws)
    assert jobs(ws) == {} and server.calls["create"] == 3 and server.sync_texts == []


def test_no_batch_and_small_indexes_use_ordinary_requests(tmp_path, server):
    ws = workspace(tmp_path, server)
    index(ws, "--no-batch")
    assert server.calls["upload"] == 0 and len(server.sync_texts) > 20
