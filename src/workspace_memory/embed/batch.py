"""Batch indexing through OpenAI's Files + Batches API, resumable (`[embedding.batch]`).

A big first index through `openai` is cheaper as batch jobs (half the price) and is not bound by
the per-minute limits. `memory index` with at least `min_texts` texts to embed:

1. cuts the texts into jobs of `job_texts`, uploads each as a JSONL file (one `/v1/embeddings`
   request a line, `custom_id` = the text's hash) and creates a batch, at most `concurrency` jobs
   in flight; each job id is written to `.memory/batch-jobs.json` as soon as the batch exists;
2. polls every `poll_interval` seconds; a finished job's results go into the embedding cache at
   once (so a later kill loses nothing), the lines that failed, and every text of a job that failed,
   expired or was cancelled, are embedded again by ordinary requests (only those);
3. an interrupted `memory index` (Ctrl-C, SIGKILL) finds the recorded jobs of this space and polls
   them instead of submitting their texts again: nothing completed is paid twice. With `wait =
   false`, or past `timeout_minutes`, the jobs stay recorded and the next `memory index` collects.

What is left unembedded is embedded synchronously by the index, as without batches. Gemini's
asynchronous batch embeddings are not implemented (gemini always uses ordinary requests).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..endpoints import parse_json
from .remote import RemoteEmbedder

JOBS_FILE = "batch-jobs.json"
DONE = "completed"
ENDED = frozenset({"failed", "expired", "cancelled"})  # an expired batch may still have partial output
BATCH_PROVIDERS = ("openai",)


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
            job = _submit(embedder, chunk)
            job.update(space=space, hashes=[h for h, _ in chunk])
            state[key] = in_flight[key] = job
            _write(state_dir, state)  # before polling: a kill from here on resumes this job
            report.submitted += 1
        if not settings.wait:
            break
        for key, job in list(in_flight.items()):
            info = embedder.call(lambda t, job=job: embedder.endpoint.get(f"batches/{job['id']}", timeout=t))
            status = str(info.get("status", ""))
            if status != DONE and status not in ENDED:
                continue
            got = _results(embedder, info, set(job["hashes"]))
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


def _submit(embedder: RemoteEmbedder, chunk: list[tuple[str, str]]) -> dict[str, Any]:
    """Upload the JSONL file and create the batch; {"id": batch id, "file": input file id}."""
    lines = []
    for h, text in chunk:
        _, body = embedder.wire.request(embedder.model, embedder.split([text])[0], "document", embedder.dimensions)
        body["input"] = body["input"][0]
        lines.append(json.dumps({"custom_id": h, "method": "POST", "url": "/v1/embeddings", "body": body}))
    data, content_type = _multipart({"purpose": "batch"}, "embeddings.jsonl", "\n".join(lines).encode("utf-8"))
    endpoint = embedder.endpoint
    upload = embedder.call(lambda t: parse_json(endpoint.send("POST", "files", data, content_type=content_type, timeout=t)))
    batch = embedder.call(lambda t: endpoint.post("batches", {"input_file_id": upload["id"], "endpoint": "/v1/embeddings",
                                                              "completion_window": "24h"}, timeout=t))
    return {"id": str(batch["id"]), "file": str(upload["id"])}


def _results(embedder: RemoteEmbedder, info: Mapping[str, Any], hashes: set[str]) -> dict[str, np.ndarray]:
    """{hash: vector} of the lines of the output file that succeeded (none without an output file)."""
    output = info.get("output_file_id")
    if not output:
        return {}
    raw = embedder.call(lambda t: embedder.endpoint.send("GET", f"files/{output}/content", None, timeout=t))
    keys, rows = [], []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            rec = json.loads(line)
            response = rec.get("response") or {}
            vector = response["body"]["data"][0]["embedding"] if response.get("status_code") == 200 else None
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            continue  # a damaged line counts as failed: its text is sent again
        if vector is not None and rec.get("custom_id") in hashes:
            keys.append(rec["custom_id"])
            rows.append(vector)
            used = embedder.wire.used_tokens(response["body"])
            embedder.tokens += used or 0
    if not rows:
        return {}
    return dict(zip(keys, embedder.to_array(rows), strict=True))


def _multipart(fields: Mapping[str, str], filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with `fields` and one file part named "file"."""
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                 "Content-Type: application/jsonl\r\n\r\n".encode() + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _read(state_dir: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads((state_dir / JOBS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(state_dir: Path, state: Mapping[str, Any]) -> None:
    """Atomically (temp file + rename); ids and hashes only, never a key or a text."""
    path = state_dir / JOBS_FILE
    if not state:
        path.unlink(missing_ok=True)
        return
    tmp = state_dir / f".{JOBS_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
