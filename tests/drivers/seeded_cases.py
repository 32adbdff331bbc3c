"""The long fuzz runs' driver: many cases of a property from a seeded ``random.Random``, far
cheaper a case than a Hypothesis example (which stays for the short, shrinking runs)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

LONG_CASES = 100_000


def every_case(seed: int, make: Callable[[random.Random], tuple[Any, ...]],
               check: Callable[..., None], cases: int = LONG_CASES) -> None:
    """``cases`` cases from ``make(rng)`` through ``check``; a failure names its case."""
    rng = random.Random(seed)
    for n in range(cases):
        case = make(rng)
        try:
            check(*case)
        except Exception as err:
            raise AssertionError(f"case {n} of seed {seed} failed: {case!r}") from err
