"""Sources of chance: every die roll and token draw the rules ask for is answered here.

``SeededChance`` is counter based: the n-th chance answer of a game depends only on the seed
and n, so undoing a step and asking again gives the same roll (boardgame.io keeps its PRNG
state in the game state for the same reason). The session stores the seed and the count.
"""

from __future__ import annotations

from overseer.core.dice import DIE_FACES
from overseer.core.procedure import DrawToken, Pick, Roll, Token

_MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """One output of the SplitMix64 generator for state ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def uniform_below(n: int, words) -> int:
    """A uniform integer in [0, n) by rejection sampling from 64-bit words (never ``% n``)."""
    bits = max(1, (n - 1).bit_length())
    for word in words:
        candidate = word >> (64 - bits)
        if candidate < n:
            return candidate
    raise RuntimeError("the random source ran dry")  # pragma: no cover - words is endless


class SeededChance:
    """Deterministic chance from a seed; ``count`` is how many answers were given so far."""

    def __init__(self, seed: int, count: int = 0) -> None:
        self.seed = seed & _MASK
        self.count = count

    def _words(self):
        base = splitmix64(self.seed ^ (self.count * 0xD1B54A32D192ED03 & _MASK))
        i = 0
        while True:
            i += 1
            yield splitmix64(base + i)

    def _below(self, n: int) -> int:
        """``uniform_below(n, self._words())`` without the generator or the calls: every roll
        and draw of a game comes through here (``splitmix64`` written out, same words). Only
        what a right shift reads is masked to 64 bits first: a sum's and an xor's low 64 bits
        depend on their operands' low 64 bits alone. A word's last step, ``x ^ (x >> 31)``,
        changes none of its top 33 bits, so for up to 2**31 choices the candidate is read from
        ``x`` itself."""
        shift = 64 - ((n - 1).bit_length() or 1)
        if shift < 33:
            return uniform_below(n, self._words())
        mask = _MASK
        x = ((self.seed ^ self.count * 0xD1B54A32D192ED03) + 0x9E3779B97F4A7C15) & mask
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        state = (x ^ (x >> 31)) + 0x9E3779B97F4A7C16  # word 1's state (word i's: plus i - 1)
        while True:
            x = state & mask
            x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
            candidate = (((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask) >> shift
            if candidate < n:
                return candidate
            state += 1

    def __call__(self, question: Roll | DrawToken | Pick) -> int | Token | str:
        self.count += 1  # the n-th answer is drawn from the words of count n
        if isinstance(question, Roll):
            return 1 + self._below(DIE_FACES[question.die])  # ``faces``, without a property's call
        if isinstance(question, Pick):
            return question.options[self._below(len(question.options))]
        if not question.remaining:
            raise ValueError(f"the {question.pool} bag is empty")
        return question.remaining[self._below(len(question.remaining))]
