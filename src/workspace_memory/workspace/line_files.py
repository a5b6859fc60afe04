"""A Markdown file as lines, for the writers that edit it line by line (retain, forget, import).

Read under the file's write lock; written back with the same BOM and newlines, so the diff is
only the lines the writer changed. A file with bytes that cannot be decoded is refused: writing
it back would replace or drop bytes the user has.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write_text, decode_markdown, detect_newline

_BOM = "\ufeff"


@dataclass
class LineFile:
    """The lines of a file (split on LF, CR of CRLF removed), its BOM and its newline."""

    lines: list[str]
    bom: str = ""
    newline: str = "\n"

    @classmethod
    def read(cls, path: Path, key: str, refusal: str) -> LineFile:
        """Read `path`; UserError("REFUSAL: KEY:LINE: problem; fix the file first") when it does not decode."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"{refusal}: {key}: {exc.strerror or exc}") from None
        decoded = decode_markdown(data)
        if decoded.problems:
            line, problem = decoded.problems[0]
            raise UserError(f"{refusal}: {key}:{line}: {problem.split(';')[0]}; fix the file first")
        bom = _BOM if data.startswith(_BOM.encode("utf-8")) else ""
        return cls(decoded.text.replace("\r\n", "\n").split("\n"), bom, detect_newline(decoded.text))

    def write(self, path: Path) -> None:
        """Write the lines back atomically, as they were read."""
        atomic_write_text(path, self.bom + self.newline.join(self.lines))
