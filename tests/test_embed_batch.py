"""Batch indexing through a real server on 127.0.0.1 that speaks OpenAI's Files + Batches and Gemini's
asynchronous batch lifecycles (upload, create, pending/in progress, completed, failed, expired,
cancelled, result files):
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
from pg_fixtures import use_postgres
from provider_servers import DIM, bag_of_words

KEY = "sk-batch-test-0b7f33"
KEY_VAR = "WM_BATCH_TEST_KEY"
ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None, KEY_VAR: KEY}


class BatchServer(JsonServer):
    """OpenAI (/v1/files, /v1/batches, /v1/files/ID/content) and Gemini (/upload/v1beta/files,
    :asyncBatchEmbedContent, /v1beta/batches/ID, /download/v1beta/files/ID:download) batch lifecycles,
    plus each provider's ordinary requests. `hold` keeps batches running; `outcome` is how they end
    (completed, failed, expired with half the output, cancelled); texts containing `fail_word`
    fail line by line."""

    GEMINI_STATES = {"completed": "BATCH_STATE_SUCCEEDED", "failed": "BATCH_STATE_FAILED",
                     "expired": "BATCH_STATE_EXPIRED", "cancelled": "BATCH_STATE_CANCELLED"}

    def __init__(self) -> None:
        self.hold = False
        self.outcome = "completed"
        self.fail_word: str | None = None
        self.inputs: dict[str, list[tuple[str, str]]] = {}  # input file -> [(key, text)]
        self.outputs: dict[str, list[tuple[str, bool]]] = {}  # output file -> [(key, succeeded)]
        self.batches: dict[str, dict] = {}
        self.calls: Counter[str] = Counter()
        self.sync_texts: list[str] = []
        super().__init__()

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: bytes) -> None:
        gemini = "v1beta" in path
        sent = handler.headers.get("x-goog-api-key") if gemini else handler.headers.get("Authorization")
        if sent != (KEY if gemini else f"Bearer {KEY}"):
            return send_json(handler, 401, {"error": {"message": "bad key"}})
        if method == "POST" and path in ("/v1/files", "/upload/v1beta/files?uploadType=multipart"):
            return self._upload(handler, body, gemini)
        if method == "POST" and (path == "/v1/batches" or path.endswith(":asyncBatchEmbedContent")):
            return self._create(handler, json.loads(body), gemini)
        if method == "GET" and (path.startswith(("/v1/batches/", "/v1beta/batches/"))):
            return self._poll(handler, path.split("/", 2)[2] if gemini else path.rsplit("/", 1)[1], gemini)
        if method == "GET" and (path.endswith("/content") or path.endswith(":download?alt=media")):
            self.calls["download"] += 1
            fid = path.split("/v1beta/", 1)[1].removesuffix(":download?alt=media") if gemini else path.split("/")[3]
            lines = [({"key": k, "response": {"embedding": {"values": bag_of_words(self._text(k), DIM)}} if ok
                       else {"error": {"message": "failed"}}}) if gemini else
                     ({"custom_id": k, "response": {"status_code": 200, "body": {"data": [
                         {"index": 0, "embedding": bag_of_words(self._text(k), DIM)}], "usage": {"total_tokens": 5}}}}
                      if ok else {"custom_id": k, "response": None, "error": {"message": "failed"}})
                     for k, ok in self.outputs[fid]]
            raw = "\n".join(json.dumps(line) for line in lines).encode()
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(raw)))
            handler.end_headers()
            handler.wfile.write(raw)
            return None
        if method == "POST" and (path == "/v1/embeddings" or path.endswith(":batchEmbedContents")):
            req = json.loads(body)
            texts = [r["content"]["parts"][0]["text"] for r in req["requests"]] if gemini else req["input"]
            self.sync_texts += texts
            if gemini:
                return send_json(handler, 200, {"embeddings": [{"values": bag_of_words(t, DIM)} for t in texts]})
            data = [{"index": i, "embedding": bag_of_words(t, DIM)} for i, t in enumerate(texts)]
            return send_json(handler, 200, {"data": data, "usage": {"total_tokens": 3}})
        if method == "POST" and path.endswith(":embedContent"):
            text = json.loads(body)["content"]["parts"][0]["text"]
            self.sync_texts.append(text)
            return send_json(handler, 200, {"embedding": {"values": bag_of_words(text, DIM)}})
        return send_json(handler, 404, {"error": {"message": f"no route {method} {path}"}})

    def _upload(self, handler: BaseHTTPRequestHandler, body: bytes, gemini: bool) -> None:
        self.calls["upload"] += 1
        if gemini:  # multipart/related: the metadata part, then the file
            content = body.split(b"Content-Type: application/jsonl\r\n\r\n", 1)[1].rsplit(b"\r\n--", 1)[0]
        else:
            assert b'name="purpose"\r\n\r\nbatch' in body
            content = body.split(b'filename="embeddings.jsonl"', 1)[1].split(b"\r\n\r\n", 1)[1].rsplit(b"\r\n--", 1)[0]
        lines = [json.loads(line) for line in content.decode().splitlines()]
        fid = f"files/in-{len(self.inputs)}" if gemini else f"file-{len(self.inputs)}"
        if gemini:
            assert all(line["request"]["taskType"] == "RETRIEVAL_DOCUMENT" for line in lines)
            self.inputs[fid] = [(line["key"], line["request"]["content"]["parts"][0]["text"]) for line in lines]
            return send_json(handler, 200, {"file": {"name": fid}})
        assert all(line["url"] == "/v1/embeddings" and line["method"] == "POST" for line in lines)
        self.inputs[fid] = [(line["custom_id"], line["body"]["input"]) for line in lines]
        return send_json(handler, 200, {"id": fid, "object": "file", "purpose": "batch"})

    def _create(self, handler: BaseHTTPRequestHandler, req: dict, gemini: bool) -> None:
        self.calls["create"] += 1
        if gemini:
            source, bid = req["batch"]["inputConfig"]["file_name"], f"batches/b-{len(self.batches)}"
        else:
            assert req["endpoint"] == "/v1/embeddings" and req["completion_window"] == "24h"
            source, bid = req["input_file_id"], f"batch_{len(self.batches)}"
        self.batches[bid] = {"input": source, "status": "validating"}
        if gemini:
            return send_json(handler, 200, {"name": bid, "done": False, "metadata": {"state": "BATCH_STATE_PENDING"}})
        return send_json(handler, 200, {"id": bid, "input_file_id": source, "status": "validating"})

    def _poll(self, handler: BaseHTTPRequestHandler, bid: str, gemini: bool) -> None:
        self.calls["poll"] += 1
        batch = self.batches[bid]
        if batch["status"] in ("validating", "in_progress"):
            batch["status"] = "in_progress" if self.hold else self.outcome
            if batch["status"] in ("completed", "expired"):
                batch["output"] = self._output(batch)
        if not gemini:
            return send_json(handler, 200, {"id": bid, "status": batch["status"],
                                            **({"output_file_id": batch["output"]} if "output" in batch else {})})
        state = self.GEMINI_STATES.get(batch["status"], "BATCH_STATE_RUNNING")
        answer = {"name": bid, "done": state != "BATCH_STATE_RUNNING", "metadata": {"state": state}}
        if "output" in batch:
            answer["response"] = {"responsesFile": batch["output"]}
        return send_json(handler, 200, answer)

    def _output(self, batch: dict) -> str:
        out = [(k, not (self.fail_word and self.fail_word in text.lower())) for k, text in self.inputs[batch["input"]]]
        if batch["status"] == "expired":
            out = out[: len(out) // 2]  # an expired batch returns what it finished
        gemini = batch["input"].startswith("files/")
        fid = f"files/out-{len(self.outputs)}" if gemini else f"file-out-{len(self.outputs)}"
        self.outputs[fid] = out
        return fid

    def _text(self, key: str) -> str:
        return next(t for lines in self.inputs.values() for k, t in lines if k == key)

    def uploaded(self) -> list[str]:
        """The keys of every uploaded line (the texts the batches were asked to embed)."""
        return [k for lines in self.inputs.values() for k, _ in lines]

    def succeeded(self) -> set[str]:
        return {k for lines in self.outputs.values() for k, ok in lines if ok}


@pytest.fixture
def server() -> Iterator[BatchServer]:
    srv = BatchServer()
    yield srv
    srv.close()


PROVIDERS = ["openai", "gemini"]
SPACES = {"openai": f"openai/text-embedding-3-small/{DIM}", "gemini": f"gemini/gemini-embedding-001/{DIM}"}


def workspace(tmp_path: Path, server: BatchServer, provider: str, extra: str = "") -> Path:
    base = server.base_url if provider == "openai" else f"http://127.0.0.1:{server.port}/v1beta"
    toml = (f'[embedding]\nprovider = "{provider}"\n\n[embedding.{provider}]\nbase_url = "{base}"\n'
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


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_killed_index_resumes_its_jobs_and_pays_nothing_twice(tmp_path, server, provider):
    ws = workspace(tmp_path, server, provider)
    server.hold = True
    cmd = [memory_executable(), "--workspace", str(ws), "--now", R.NOW, "index"]
    proc = subprocess.Popen(cmd, env=clean_env(ENV), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60  # a bound on waiting for the events, never a figure asserted
        while (len(jobs(ws)) < 2 or server.calls["poll"] < 2) and time.monotonic() < deadline:
            time.sleep(0.05)  # both jobs recorded, and polled at least twice while they stay in progress
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
    assert answer["space"] == SPACES[provider] and answer["mode"] == "hybrid"
    assert server.sync_texts == ["invoice rounding bug"]  # the question, as an ordinary request
    index(ws)  # nothing left: no new job, no request
    assert server.calls["create"] == 3 and server.sync_texts == ["invoice rounding bug"]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("outcome", ["completed", "expired", "failed", "cancelled"])
def test_only_what_failed_is_sent_again(tmp_path, server, provider, outcome):
    ws = workspace(tmp_path, server, provider)
    server.outcome, server.fail_word = outcome, "invoice"
    err = index(ws)
    texts = {k: t for lines in server.inputs.values() for k, t in lines}
    done = server.succeeded()
    assert sorted(server.sync_texts) == sorted(t for k, t in texts.items() if k not in done)
    if outcome == "completed":
        assert server.sync_texts and all("invoice" in t.lower() for t in server.sync_texts)
    else:
        assert f"{outcome}:" in err and "ordinary requests" in err
    assert jobs(ws) == {}
    answer = json.loads(run_memory(ws, "recall", "invoice rounding bug", "--json", now=R.NOW, env=ENV)[1])
    assert "rounding" in answer["results"][0]["content"] and answer["space"] == SPACES[provider]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_without_waiting_the_jobs_are_collected_by_the_next_index(tmp_path, server, provider):
    ws = workspace(tmp_path, server, provider, "wait = false\n")
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


def test_batch_jobs_and_the_estimate_work_on_postgres(tmp_path, server, pg_url):
    """The backlog goes through the store's port (IndexWriter.texts_without_vectors and
    put_embeddings), so a Postgres store estimates and embeds through batch jobs as SQLite does."""
    ws = use_postgres(workspace(tmp_path, server, "openai"), pg_url)
    code, out, err = run_memory(ws, "index", "--estimate", "--json", now=R.NOW, env=ENV)
    assert code == 0, err
    estimate = json.loads(out)
    assert estimate["provider"] == "openai" and estimate["texts"] > 20 and server.calls["upload"] == 0
    index(ws)
    assert server.calls["create"] == -(-estimate["texts"] // 15) and server.sync_texts == []  # 15 texts a job
    assert sorted(set(server.uploaded())) == sorted(server.uploaded()) and len(server.uploaded()) == estimate["texts"]
    code, out, err = run_memory(ws, "index", "--estimate", "--json", now=R.NOW, env=ENV)
    assert code == 0 and json.loads(out)["texts"] == 0, err


def test_no_batch_and_small_indexes_use_ordinary_requests(tmp_path, server):
    ws = workspace(tmp_path, server, "openai")
    index(ws, "--no-batch")
    assert server.calls["upload"] == 0 and len(server.sync_texts) > 20
