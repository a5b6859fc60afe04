"""The secrets this process holds (API keys), checked when read and blanked out of every text that leaves.

A key is the one secret the engine holds for its user (OpenClaw hands it the key of the user's
own account), and a provider's server may echo it anywhere: in an error body, a status line, a
redirect, cut in two. So every key is registered here when the settings read it
(embed.config, reflect.model), and every exit blanks what it carries before anything else
happens to the text (before a cut, which could leave most of a long key behind):

- the HTTP client's errors (endpoints.EndpointError) and the providers' (embed.remote);
- the CLI's output, human and JSON, and its error line (cli.process);
- the MCP tools' results and errors (mcp.tools), the web page (ui.app), logs (embed.base.log_notice)
  and the stderr of the long-lived servers (`blank_stderr`: `memory mcp`, `memory ui`);
- what `.memory/` records about a provider (embed.chain, embed.breaker).

`blank` replaces the key, and every piece of it of PIECE characters or more, with MARK: a
server that echoes half a key, or a message cut in the middle of one, leaves nothing a reader
could put back together. Keys shorter than PIECE are blanked where they occur whole; keys shorter
than MIN_SECRET are not registered (they would blank ordinary words).

Standard library only, and nothing at import: the CLI's cold path imports this module.
"""

from __future__ import annotations

import json
from typing import Any

PIECE = 8  # a run of this many characters of a key is blanked wherever it appears
MIN_SECRET = 4
MARK = "[key]"

_whole: list[str] = []  # registered secrets shorter than PIECE, longest first
_pieces: set[str] = set()  # every PIECE-character piece of the longer ones
_quarters: set[str] = set()  # every PIECE/2-character piece: the cheap first test (see blank)


def key_problem(value: str, variable: str) -> str | None:
    """Why `value` (read from `variable`) cannot be a key, in one line that names the variable and
    never holds the value; None when it can. A key is one printable ASCII word: whitespace (a
    trailing CR from a file saved on Windows, a newline) or a control character would end up in an
    HTTP header, where urllib refuses it with an error that quotes the whole header."""
    bad = _bad_character(value, spaces=False)
    if bad is None:
        return None
    return f"the key in {variable} holds {bad}; a key is one printable word: set {variable} again without it"


def header_problem(value: str, name: str) -> str | None:
    """Why `value` cannot be the value of the header `name` (one line, never the value), or None:
    spaces are allowed ("Bearer <token>"), line breaks and control characters are not."""
    bad = _bad_character(value, spaces=True)
    return None if bad is None else f"the value of {name} holds {bad}"


def _bad_character(value: str, spaces: bool) -> str | None:
    """'a carriage return (CR) (at its end)' for the first character that does not belong, or None."""

    def fits(ch: str) -> bool:
        return ch.isascii() and ch.isprintable() and (not ch.isspace() or (spaces and ch == " "))

    for pos, ch in enumerate(value):
        if fits(ch):
            continue
        what = {"\r": "a carriage return (CR)", "\n": "a newline", "\t": "a tab", " ": "a space"}.get(ch)
        if what is None:
            what = (f"the control character U+{ord(ch):04X}" if not ch.isprintable() else
                    "whitespace" if ch.isspace() else f"a character outside ASCII (U+{ord(ch):04X})")
        where = "at its end" if not any(fits(c) for c in value[pos:]) else "inside it"
        return f"{what} ({where})"
    return None


_SECRET_HEADER_WORDS = ("auth", "key", "token", "secret", "cookie", "password")


def is_secret_header(name: str) -> bool:
    """True for a header that carries a credential (Authorization, x-goog-api-key, X-Api-Token, ...)."""
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_HEADER_WORDS)


def register(value: str | None) -> None:
    """Remember a secret this process holds, so that `blank` finds it (and its JSON-escaped form)."""
    if not value or len(value) < MIN_SECRET:
        return
    escaped = json.dumps(value, ensure_ascii=False)[1:-1]
    for form in {value, escaped}:
        if len(form) < PIECE:
            if form not in _whole:
                _whole.append(form)
                _whole.sort(key=len, reverse=True)
            continue
        half = PIECE // 2
        _pieces.update(form[i:i + PIECE] for i in range(len(form) - PIECE + 1))
        _quarters.update(form[i:i + half] for i in range(len(form) - half + 1))


def register_credential(header_value: str) -> None:
    """Register a credential header's value: "Bearer <token>" registers the token (the scheme and
    its space are not secret, and blanking them would eat the space before an echoed token)."""
    scheme, space, token = header_value.partition(" ")
    register(token if space and scheme.isalpha() else header_value)


def holding() -> bool:
    """True when any secret is registered (nothing to blank otherwise)."""
    return bool(_whole or _pieces)


def blank(text: str) -> str:
    """`text` with every registered secret, and every piece of one PIECE characters long or longer,
    replaced by MARK (overlapping and adjacent pieces become one mark)."""
    if not (_whole or _pieces) or not text:
        return text
    for secret in _whole:
        text = text.replace(secret, MARK)
    if not _pieces or len(text) < PIECE:
        return text
    # Any PIECE-character piece of a key that starts at position p holds the half-piece that starts
    # at the next multiple of PIECE/2 at or after p: testing the half-pieces at those positions finds
    # every candidate with a quarter of the lookups, and the full test runs only around a hit.
    half = PIECE // 2
    covered: list[tuple[int, int]] = []
    last = len(text) - PIECE
    for aligned in range(0, len(text) - half + 1, half):
        if text[aligned:aligned + half] not in _quarters:
            continue
        for start in range(max(0, aligned - half + 1), min(aligned, last) + 1):
            if text[start:start + PIECE] in _pieces:
                covered.append((start, start + PIECE))
    if not covered:
        return text
    out: list[str] = []
    pos = 0
    covered.sort()
    run_start, run_end = covered[0]
    for start, end in covered[1:]:
        if start <= run_end:
            run_end = max(run_end, end)
            continue
        out += [text[pos:run_start], MARK]
        pos = run_end
        run_start, run_end = start, end
    out += [text[pos:run_start], MARK, text[run_end:]]
    return "".join(out)


def blank_data(data: Any) -> Any:
    """A copy of JSON-like `data` with `blank` applied to every string value in it; `data` itself
    when nothing is registered. The names of fields are the engine's own, never a server's words,
    and stay as they are (a piece of a key that happens to spell a field's name must not break
    the output's shape)."""
    if not (_whole or _pieces):
        return data
    if isinstance(data, str):
        return blank(data)
    if isinstance(data, dict):
        return {k: blank_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [blank_data(v) for v in data]
    return data


class BlankingWriter:
    """A text stream that blanks every write (the stderr of a long-lived server: the SDK's and
    uvicorn's logs, a traceback of an unexpected error); every other attribute is the stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(blank(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def blank_stderr() -> None:
    """Make this process's stderr a BlankingWriter (once): what a long-lived server (`memory mcp`,
    `memory ui`) starts with, before its logging captures the stream."""
    import sys

    if not isinstance(sys.stderr, BlankingWriter):
        sys.stderr = BlankingWriter(sys.stderr)


def forget_all() -> None:
    """Drop every registered secret (tests)."""
    _whole.clear()
    _pieces.clear()
    _quarters.clear()
