"""Values made when they are first read: a view's menu, what a card's tap would begin, a
page's detail texts. Each costs more than the rest of the press that builds it and is read
by few presses (a menu opened, a card tapped, CHOICE to the details), so it is made by the
first reader; equal to the tuple or dict of the same items."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
C = TypeVar("C", bound=Mapping[Any, Any] | tuple[Any, ...])


class _Later(Generic[C]):
    """``make()`` called at the first read, its value kept (and ``make`` let go)."""

    def __init__(self, make: Callable[[], C], empty: C) -> None:
        self._make: Callable[[], C] | None = make
        self._items = empty

    def _made(self) -> C:
        if self._make is not None:
            self._items, self._make = self._make(), None
        return self._items

    def __iter__(self) -> Iterator[Any]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        return self._made() == (other._made() if isinstance(other, _Later) else other)

    def __repr__(self) -> str:
        made = self._made()
        return f"{type(self).__name__}({dict(made) if isinstance(made, Mapping) else made!r})"


class Made(_Later[Mapping[K, V]], Mapping[K, V]):
    """A mapping made by ``make()`` when it is first read."""

    def __init__(self, make: Callable[[], Mapping[K, V]]) -> None:
        super().__init__(make, {})

    def __getitem__(self, key: K) -> V:
        return self._made()[key]

    def __len__(self) -> int:
        return len(self._made())


class MadeTuple(_Later[tuple[T, ...]], Sequence[T]):
    """A tuple made by ``make()`` when it is first read; ``length``, when known beforehand,
    answers ``len`` without making it."""

    def __init__(self, make: Callable[[], tuple[T, ...]], length: int | None = None) -> None:
        super().__init__(make, ())
        self._length = length

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._made()[index]

    def __len__(self) -> int:
        return self._length if self._length is not None else len(self._made())
