"""Value: what a frozen dataclass gives a small record (equality, hash, repr and `replace` by its
fields), for the records a cold recall makes.

Creating a dataclass compiles its methods (3 to 6 `exec`s) when its module is imported, about a
millisecond each, and a cold `memory recall` imported two dozen of them. A subclass names its
fields in `__slots__`, in order, and takes them by those names in `__init__`; these methods read
them from there.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

# Each class's reader of its fields as a tuple: an attrgetter is a third of a generator's cost, and a
# recall hashes its terms (dictionary keys) hundreds of times.
_getters: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _getter(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    names = cls.__slots__
    if len(names) > 1:
        getter = operator.attrgetter(*names)
    elif names:
        one = operator.attrgetter(names[0])
        getter = lambda obj: (one(obj),)  # noqa: E731
    else:
        getter = lambda obj: ()  # noqa: E731
    _getters[cls] = getter
    return getter


class Value:
    """Compares, hashes and prints by the fields named in the subclass's `__slots__`."""

    __slots__ = ()

    def _values(self) -> tuple[Any, ...]:
        return (_getters.get(self.__class__) or _getter(self.__class__))(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        getter = _getters.get(self.__class__) or _getter(self.__class__)
        return getter(self) == getter(other)

    def __hash__(self) -> int:
        return hash((_getters.get(self.__class__) or _getter(self.__class__))(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"

    def as_dict(self) -> dict[str, Any]:
        """The fields by name, in order (what dataclasses.asdict gives, without copying values)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def replace(self, **changes: Any) -> Any:  # the subclass
        """A copy with some fields changed (what dataclasses.replace does; an unknown name is a TypeError)."""
        return type(self)(**self.as_dict() | changes)
