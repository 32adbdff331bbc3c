"""Values made when they are first read: a view's menu, what a card's tap would begin, a
page's detail texts. Each costs more than the rest of the press that builds it and is read
by few presses (a menu opened, a card tapped, CHOICE to the details), so it is made by the
first reader; equal to the tuple or dict of the same items."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Made(Mapping[K, V]):
    """A mapping made by ``make()`` when it is first read."""

    def __init__(self, make: Callable[[], Mapping[K, V]]) -> None:
        self._make: Callable[[], Mapping[K, V]] | None = make
        self._items: Mapping[K, V] = {}

    def _made(self) -> Mapping[K, V]:
        if self._make is not None:
            self._items, self._make = self._make(), None
        return self._items

    def __getitem__(self, key: K) -> V:
        return self._made()[key]

    def __len__(self) -> int:
        return len(self._made())

    def __iter__(self) -> Iterator[K]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        return self._made() == (other._made() if isinstance(other, Made) else other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self._made())!r})"


class MadeTuple(Sequence[T]):
    """A tuple made by ``make()`` when it is first read; ``length``, when known beforehand,
    answers ``len`` without making it."""

    def __init__(self, make: Callable[[], tuple[T, ...]], length: int | None = None) -> None:
        self._make: Callable[[], tuple[T, ...]] | None = make
        self._items: tuple[T, ...] = ()
        self._length = length

    def _made(self) -> tuple[T, ...]:
        if self._make is not None:
            self._items, self._make = self._make(), None
        return self._items

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._made()[index]

    def __len__(self) -> int:
        return self._length if self._length is not None else len(self._made())

    def __iter__(self) -> Iterator[T]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        return self._made() == (other._made() if isinstance(other, MadeTuple) else other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._made()!r})"
