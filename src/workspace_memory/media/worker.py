"""The extraction worker: a child process that reads one media file at a time, with bounded memory,
and is killed when a file takes longer than its timeout.

Decoders of untrusted images and PDFs (Pillow, pypdf, OpenCV inside rapidocr) can hang, allocate
gigabytes or crash on a hostile file. They run here, never in the indexing process: the worker's
address space is capped (WORKER_MEMORY_BYTES, so an allocation fails inside it rather than the
machine swapping), a file that outruns `[media] timeout` gets the worker killed and a fresh one for
the next file, and a crash is one skipped file. The protocol is a JSON line each way:

    -> {"path": "/abs/photo.jpg", "kind": "image", "ocr": "rapidocr", "languages": "eng", "speech": null}
    <- {"ok": true, "extraction": {...}, "rss_mb": 612.4}   or   {"ok": false, "error": "..."}

    python -m workspace_memory.media.worker     (started by Worker; reads stdin until it closes)
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from typing import Any

WORKER_MEMORY_BYTES = 3 * 1024**3  # address space: OCR's peak RSS is ~0.7 GB, onnxruntime reserves more
MAX_RESPONSE_BYTES = 64 * 1024 * 1024  # a response longer than this is not read (the worker is killed)
START_TIMEOUT = 30.0  # seconds a new worker may take to say it is ready


class ExtractionFailed(Exception):
    """A file the worker could not read; `transient` when another try may succeed (a timeout)."""

    def __init__(self, message: str, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class Worker:
    """The client side: starts the worker on first use, one request at a time, restarts it after a kill."""

    def __init__(self, timeout: float, memory_bytes: int = WORKER_MEMORY_BYTES,
                 command: list[str] | None = None) -> None:
        self.timeout, self.memory_bytes = timeout, memory_bytes
        self.command = command or [sys.executable, "-m", "workspace_memory.media.worker"]
        self._proc: subprocess.Popen | None = None
        self._buffer = b""
        self.peak_rss_mb = 0.0
        self.cpu_seconds = 0.0  # the worker's, over the files it read (the first includes loading the OCR model)
        self.files = 0

    def extract(self, path: str, kind: str, ocr: str, languages: str, speech: str | None = None) -> dict[str, Any]:
        """The extraction of one file (`speech`: the speech model's folder, for a recording), or
        ExtractionFailed with a one-line reason."""
        proc = self._started()
        request = json.dumps({"path": path, "kind": kind, "ocr": ocr, "languages": languages, "speech": speech}) + "\n"
        try:
            assert proc.stdin is not None
            proc.stdin.write(request.encode("utf-8"))
            proc.stdin.flush()
        except OSError:
            self._stop()
            raise ExtractionFailed("the extraction worker stopped", transient=True) from None
        line = self._read_line(self.timeout)
        self.files += 1
        if line is None:
            timed_out = self._proc is not None and self._proc.poll() is None
            self._stop()
            if timed_out:
                raise ExtractionFailed(f"extraction took over {self.timeout:.0f} s; skipped", transient=True)
            raise ExtractionFailed("the extractor stopped on this file (out of memory or a crash); skipped")
        try:
            reply = json.loads(line)
        except ValueError:  # not our protocol: something in the worker wrote to its stdout
            self._stop()
            raise ExtractionFailed("the extractor answered garbage on this file; skipped", transient=True) from None
        self.peak_rss_mb = max(self.peak_rss_mb, float(reply.get("rss_mb") or 0))
        self.cpu_seconds += float(reply.get("cpu_s") or 0)
        if not reply.get("ok"):
            raise ExtractionFailed(str(reply.get("error") or "extraction failed"))
        return reply["extraction"]

    def close(self) -> None:
        self._stop()

    def _started(self) -> subprocess.Popen:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
        env["OMP_NUM_THREADS"] = "1"  # one core: `memory index` shares the machine with the agent
        env["WORKSPACE_MEMORY_WORKER_BYTES"] = str(self.memory_bytes)
        self._proc = subprocess.Popen(self.command,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      env=env, close_fds=True)
        self._buffer = b""
        if self._read_line(START_TIMEOUT) is None:
            self._stop()
            raise ExtractionFailed("the extraction worker did not start", transient=True)
        return self._proc

    def _read_line(self, timeout: float) -> str | None:
        """The worker's next line, or None after `timeout` seconds, at its exit, or past MAX_RESPONSE_BYTES."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or len(self._buffer) > MAX_RESPONSE_BYTES:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


# -- the worker process ----------------------------------------------------------------------------

def _limit_memory() -> None:
    import resource

    limit = int(os.environ.get("WORKSPACE_MEMORY_WORKER_BYTES") or WORKER_MEMORY_BYTES)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _handle(request: dict[str, Any], engines: dict[str, Any]) -> dict[str, Any]:
    from . import image, pdf

    kind, engine = request.get("kind"), request.get("ocr") or "none"
    if kind == "audio" and request.get("speech"):
        from .speech import transcribe

        return transcribe(str(request["path"]), str(request["speech"]), engines)
    ocr = None
    if engine != "none":
        key = f"{engine}:{request.get('languages')}"
        ocr = engines.setdefault(key, image.Ocr(engine, str(request.get("languages") or "eng")))
    if kind == "image":
        return image.extract(str(request["path"]), ocr)
    if kind == "pdf":
        return pdf.extract(str(request["path"]), ocr)
    raise ValueError(f"unknown kind {kind!r}")


def main() -> None:
    import resource

    _limit_memory()
    # The protocol keeps the real stdout; a library that prints (a C decoder, a model's banner) writes
    # to stderr (discarded by the parent) instead of into the JSON lines.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out.write(b'{"ready": true}\n')
    out.flush()
    engines: dict[str, Any] = {}
    for raw in sys.stdin.buffer:
        cpu = time.process_time()
        try:
            reply: dict[str, Any] = {"ok": True, "extraction": _handle(json.loads(raw), engines)}
        except ValueError as exc:
            reply = {"ok": False, "error": str(exc)}
        except MemoryError:
            limit = int(os.environ.get("WORKSPACE_MEMORY_WORKER_BYTES") or WORKER_MEMORY_BYTES)
            reply = {"ok": False, "error": f"needs more than the extraction worker's {limit // 1024**2:,} MB of "
                                           "memory; skipped"}
        except Exception as exc:  # a decoder's surprise is one skipped file, not a dead index
            reply = {"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        reply["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        reply["cpu_s"] = time.process_time() - cpu
        out.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
