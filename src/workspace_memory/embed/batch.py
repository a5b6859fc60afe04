"""Batch indexing through OpenAI's Files + Batches API and Gemini's asynchronous batch embeddings,
resumable (`[embedding.batch]`).

A big first index through `openai` or `gemini` is cheaper as batch jobs (half the price) and is not
bound by the per-minute limits. `memory index` with at least `min_texts` texts to embed:

1. cuts the texts into jobs of `job_texts`, uploads each as a JSONL file (one request a line, keyed
   by the text's hash) and creates a batch, at most `concurrency` jobs in flight; each job id is
   written to `.memory/batch-jobs.json` as soon as the batch exists;
2. polls every `poll_interval` seconds; a finished job's results go into the embedding cache at
   once (so a later kill loses nothing), the lines that failed, and every text of a job that failed,
   expired or was cancelled, are embedded again by ordinary requests (only those);
3. an interrupted `memory index` (Ctrl-C, SIGKILL) finds the recorded jobs of this space and polls
   them instead of submitting their texts again: nothing completed is paid twice. With `wait =
   false`, or past `timeout_minutes`, the jobs stay recorded and the next `memory index` collects.

What is left unembedded is embedded synchronously by the index, as without batches.

    openai   POST /v1/files (multipart/form-data, purpose batch), POST /v1/batches, GET /v1/batches/ID,
             GET /v1/files/ID/content; lines {custom_id, method, url, body} -> {custom_id, response}
    gemini   POST /upload/v1beta/files?uploadType=multipart (multipart/related), POST
             /v1beta/models/M:asyncBatchEmbedContent {batch: {displayName, inputConfig: {file_name}}},
             GET /v1beta/batches/ID, GET /download/v1beta/files/ID:download?alt=media;
             lines {key, request: EmbedContentRequest} -> {key, response: {embedding: {values}}}
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..endpoints import JsonEndpoint, parse_json
from .remote import RemoteEmbedder

JOBS_FILE = "batch-jobs.json"
DONE = "completed"
ENDED = frozenset({"failed", "expired", "cancelled"})  # an expired batch may still have partial output
BATCH_PROVIDERS = ("openai", "gemini")


class BatchReport:
    """What one run did: jobs submitted and resumed, texts embedded by jobs and re-sent, jobs left."""

    def __init__(self) -> None:
        self.submitted = 0
        self.resumed = 0
        self.embedded = 0
        self.resent = 0
        self.pending = 0
        self.notices: list[str] = []


def pending_jobs(state_dir: Path) -> list[dict[str, Any]]:
    """The recorded jobs (status shows them): id, space, how many texts."""
    return [{"id": job["id"], "space": job["space"], "texts": len(job["hashes"])} for job in _read(state_dir).values()]


def run_batches(embedder: RemoteEmbedder, items: list[tuple[str, str]], put: Callable[[Mapping[str, np.ndarray]], None],
                state_dir: Path, settings: Any, progress: Callable[..., None] | None = None,
                sleep: Callable[[float], None] = time.sleep) -> BatchReport:
    """Embed (hash, text) `items` through batch jobs, `put` each job's {hash: vector} as it arrives."""
    report = BatchReport()
    api = OpenAIBatches() if embedder.provider == "openai" else GeminiBatches()
    space = embedder.identity()
    wanted = dict(items)
    state = _read(state_dir)
    in_flight = {key: job for key, job in state.items() if job.get("space") == space}
    report.resumed = len(in_flight)
    claimed = {h for job in in_flight.values() for h in job["hashes"]}
    todo = [(h, t) for h, t in items if h not in claimed]
    queue = [todo[i : i + settings.job_texts] for i in range(0, len(todo), settings.job_texts)]
    deadline = time.monotonic() + settings.timeout_minutes * 60
    total, done = len(items), 0
    while in_flight or queue:
        while queue and len(in_flight) < settings.concurrency:
            chunk = queue.pop(0)
            key = hashlib.sha256("\n".join([space, *(h for h, _ in chunk)]).encode()).hexdigest()[:24]
            job = api.submit(embedder, chunk)
            job.update(space=space, hashes=[h for h, _ in chunk])
            state[key] = in_flight[key] = job
            _write(state_dir, state)  # before polling: a kill from here on resumes this job
            report.submitted += 1
        if not settings.wait:
            break
        for key, job in list(in_flight.items()):
            status, output = api.poll(embedder, job["id"])
            if status != DONE and status not in ENDED:
                continue
            got = api.results(embedder, output, set(job["hashes"])) if output else {}
            put(got)
            report.embedded += len(got)
            failed = [(h, wanted[h]) for h in job["hashes"] if h not in got and h in wanted]
            if failed:  # only what failed is sent again, as ordinary requests
                put(dict(zip([h for h, _ in failed], embedder.embed_documents([t for _, t in failed]), strict=True)))
                report.resent += len(failed)
                report.notices.append(f"batch {job['id']} {status}: {len(failed)} text(s) embedded by ordinary "
                                      "requests instead")
            done += len(job["hashes"])
            del in_flight[key], state[key]
            _write(state_dir, state)
            if progress:
                progress(done, total, "embedding (batch jobs)")
        if in_flight:
            if time.monotonic() >= deadline:
                break
            sleep(settings.poll_interval)
    report.pending = len(in_flight)
    if report.pending:
        report.notices.append(f"{report.pending} batch job(s) still running; `memory index` collects them later "
                              "(their ids are in .memory/batch-jobs.json)")
    return report


class OpenAIBatches:
    """OpenAI's Files + Batches API."""

    def submit(self, embedder: RemoteEmbedder, chunk: list[tuple[str, str]]) -> dict[str, Any]:
        """Upload the JSONL file and create the batch; {"id": batch id, "file": input file id}."""
        lines = []
        for h, text in chunk:
            _, body = embedder.wire.request(embedder.model, embedder.split([text])[0], "document", embedder.dimensions)
            body["input"] = body["input"][0]
            lines.append(json.dumps({"custom_id": h, "method": "POST", "url": "/v1/embeddings", "body": body}))
        data, content_type = _form({"purpose": "batch"}, "embeddings.jsonl", "\n".join(lines).encode("utf-8"))
        endpoint = embedder.endpoint
        upload = embedder.call(lambda t: parse_json(endpoint.send("POST", "files", data, content_type=content_type,
                                                                  timeout=t)))
        batch = embedder.call(lambda t: endpoint.post("batches", {"input_file_id": upload["id"],
                                                                  "endpoint": "/v1/embeddings",
                                                                  "completion_window": "24h"}, timeout=t))
        return {"id": str(batch["id"]), "file": str(upload["id"])}

    def poll(self, embedder: RemoteEmbedder, job_id: str) -> tuple[str, str | None]:
        """(status: completed | failed | expired | cancelled | anything else = running, output file id)."""
        info = embedder.call(lambda t: embedder.endpoint.get(f"batches/{job_id}", timeout=t))
        return str(info.get("status", "")), info.get("output_file_id")

    def results(self, embedder: RemoteEmbedder, output: str, hashes: set[str]) -> dict[str, np.ndarray]:
        """{hash: vector} of the output lines that succeeded (a failed or damaged line is left out)."""
        raw = embedder.call(lambda t: embedder.endpoint.send("GET", f"files/{output}/content", None, timeout=t))
        found = {}
        for rec in _lines(raw):
            response = rec.get("response") or {}
            try:
                vector = response["body"]["data"][0]["embedding"] if response.get("status_code") == 200 else None
            except (KeyError, IndexError, TypeError):
                continue
            if vector is not None:
                found[rec.get("custom_id")] = vector
                embedder.tokens += embedder.wire.used_tokens(response["body"]) or 0
        return _checked(embedder, found, hashes)


class GeminiBatches:
    """Gemini API's asynchronous batch embeddings, with a file of requests (as OpenClaw sends them)."""

    @staticmethod
    def _root(embedder: RemoteEmbedder) -> tuple[JsonEndpoint, str]:
        """An endpoint at the server's root (uploads and downloads live outside /v1beta), and the version."""
        root, _, version = embedder.base_url.rpartition("/")
        return JsonEndpoint(root, headers=embedder.endpoint.headers, timeout=embedder.timeout), version

    def submit(self, embedder: RemoteEmbedder, chunk: list[tuple[str, str]]) -> dict[str, Any]:
        """Upload the JSONL file (multipart/related: metadata, then the file) and create the batch."""
        lines = []
        for h, text in chunk:
            _, body = embedder.wire.request(embedder.model, embedder.split([text])[0], "document", embedder.dimensions)
            lines.append(json.dumps({"key": h, "request": body["requests"][0]}))
        boundary = uuid.uuid4().hex
        data = (f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
                + json.dumps({"file": {"display_name": "workspace-memory-embeddings"}})
                + f"\r\n--{boundary}\r\nContent-Type: application/jsonl\r\n\r\n").encode() \
            + "\n".join(lines).encode("utf-8") + f"\r\n--{boundary}--\r\n".encode()
        root, version = self._root(embedder)
        upload = embedder.call(lambda t: parse_json(root.send(
            "POST", f"upload/{version}/files?uploadType=multipart", data,
            content_type=f"multipart/related; boundary={boundary}", timeout=t)))
        name = (upload.get("file") or {}).get("name") or upload.get("name")
        if not name:
            raise embedder.unavailable("the batch file upload answered without a file name")
        model = embedder.model if embedder.model.startswith("models/") else f"models/{embedder.model}"
        batch = embedder.call(lambda t: embedder.endpoint.post(
            f"{model}:asyncBatchEmbedContent",
            {"batch": {"displayName": "workspace-memory-embeddings", "inputConfig": {"file_name": name}}}, timeout=t))
        return {"id": str(batch["name"]), "file": str(name)}

    def poll(self, embedder: RemoteEmbedder, job_id: str) -> tuple[str, str | None]:
        """The batch's state (top level, else in `metadata`) as OpenAI's words, and its responses file."""
        info = embedder.call(lambda t: embedder.endpoint.get(job_id, timeout=t))
        state = info.get("state") or (info.get("metadata") or {}).get("state") or ""
        done = info.get("output") or info.get("response") or {}
        output = done.get("responsesFile") or (done.get("output") or {}).get("responsesFile")
        words = {"BATCH_STATE_SUCCEEDED": DONE, "BATCH_STATE_FAILED": "failed", "BATCH_STATE_CANCELLED": "cancelled",
                 "BATCH_STATE_EXPIRED": "expired"}
        return words.get(str(state), "running"), output

    def results(self, embedder: RemoteEmbedder, output: str, hashes: set[str]) -> dict[str, np.ndarray]:
        root, version = self._root(embedder)
        raw = embedder.call(lambda t: root.send("GET", f"download/{version}/{output}:download?alt=media", None,
                                                timeout=t))
        found = {}
        for rec in _lines(raw):
            values = ((rec.get("response") or {}).get("embedding") or {}).get("values")
            if isinstance(values, list):
                found[rec.get("key")] = values
        return _checked(embedder, found, hashes)


def _lines(raw: bytes) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL answer; a damaged line is skipped (its text counts as failed)."""
    out = []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out


def _checked(embedder: RemoteEmbedder, found: Mapping[Any, Any], hashes: set[str]) -> dict[str, np.ndarray]:
    """Only the job's own keys, their vectors checked and normalised like any answer's."""
    keys = [k for k in found if k in hashes]
    if not keys:
        return {}
    return dict(zip(keys, embedder.to_array([found[k] for k in keys]), strict=True))


def _form(fields: Mapping[str, str], filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with `fields` and one file part named "file"."""
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                 "Content-Type: application/jsonl\r\n\r\n".encode() + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _read(state_dir: Path) -> dict[str, dict[str, Any]]:
    from ..files import read_json_object

    return read_json_object(state_dir / JOBS_FILE)


def _write(state_dir: Path, state: Mapping[str, Any]) -> None:
    """Atomically (files.write_json_object); ids and hashes only, never a key or a text."""
    path = state_dir / JOBS_FILE
    if not state:
        path.unlink(missing_ok=True)
        return
    from ..files import write_json_object

    write_json_object(path, dict(state))
