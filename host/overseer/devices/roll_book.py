"""The link's roll book: the roll requests made and not answered yet, without I/O, a clock or a
lock (``pico_link.PicoLink`` holds its lock around it and passes ``now``).

A request gets the next roll_id (1..65535 on the wire), waits to be sent (``unsent``), then for
its answer until its deadline. It ends once, whichever comes first: answered (``answered``),
refused by the Pico (an ERROR heard before the ACK that settles it: ``refused`` then
``settled``), past its deadline (``expire``) or the link gone (``fail_all``). After a handshake
every open request goes again, oldest first (``send_again``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from overseer.devices import protocol as p
from overseer.devices.link_events import TIMEOUT, RollFailed

ROLL_TIMEOUT = 5.0  # a roll request unanswered this long fails (the tumble takes ~0.6 s)


@dataclass(frozen=True)
class _Roll:
    die: p.Die
    deadline: float


class RollBook:
    """The open roll requests; see the module's docstring."""

    def __init__(self, timeout: float = ROLL_TIMEOUT) -> None:
        self.timeout = timeout
        self._open: dict[int, _Roll] = {}  # by roll_id, oldest first
        self.open = self._open  # read by the link at every pass: truthy when a roll is open
        self.unsent_ids: deque[int] = deque()  # open requests not sent yet: truthy when any
        self._count = 0
        self._refusals: list[str] = []  # the Pico's roll refusals heard since the last ACK

    def __len__(self) -> int:
        return len(self._open)

    def ask(self, die: p.Die, now: float) -> int:
        """A new request, open until ``now`` plus the timeout: its roll_id."""
        roll_id = self._next_id()
        self._open[roll_id] = _Roll(die, now + self.timeout)
        self.unsent_ids.append(roll_id)
        return roll_id

    def refuse_now(self, die: p.Die, reason: str) -> RollFailed:
        """A request made when the link has stopped: numbered, and failed at once."""
        return RollFailed(die, self._next_id(), reason)

    def unsent(self) -> list[tuple[int, p.Die]]:
        """The open requests not sent yet (taken: they are sent now)."""
        if not self.unsent_ids:
            return []
        rolls = [(r, self._open[r].die) for r in self.unsent_ids if r in self._open]
        self.unsent_ids.clear()
        return rolls

    def send_again(self) -> None:
        """A handshake: every open request is sent again, oldest first."""
        self.unsent_ids = deque(self._open)

    def answered(self, roll_id: int) -> bool:
        """The answer to ``roll_id`` came: True if it was open (it is no more), False for a
        late or repeated answer."""
        return self._open.pop(roll_id, None) is not None

    def refused(self, reason: str) -> None:
        """The Pico refused a roll request it is acting on (its ERROR comes before the ACK)."""
        self._refusals.append(reason)

    def forget_refusals(self) -> None:
        """A new handshake: refusals heard before it settle nothing."""
        self._refusals.clear()

    @property
    def refusals(self) -> bool:
        """Refusals were heard since the last ACK (``settled`` has something to do)."""
        return bool(self._refusals)

    def settled(self, requests: Iterable[int]) -> list[RollFailed]:
        """An ACK settled these roll requests (oldest first): the refusals heard before it are
        theirs, in order (a refusal with no request settled was a dropped press's)."""
        failed = [RollFailed(roll.die, roll_id, reason)
                  for reason, roll_id in zip(self._refusals, requests, strict=False)
                  if (roll := self._open.pop(roll_id, None)) is not None]
        self._refusals.clear()
        return failed

    def expire(self, now: float) -> list[RollFailed]:
        """The open requests whose deadline has come (closed)."""
        late = [r for r, roll in self._open.items() if roll.deadline <= now]
        return [RollFailed(self._open.pop(r).die, r, TIMEOUT) for r in late]

    def fail_all(self, reason: str) -> list[RollFailed]:
        """Every open request, failed (the link went down)."""
        failed = [RollFailed(roll.die, r, reason) for r, roll in self._open.items()]
        self._open.clear()
        return failed

    def deadline(self) -> float:
        """The earliest deadline of an open request (infinity: none)."""
        return min((roll.deadline for roll in self._open.values()), default=float("inf"))

    def _next_id(self) -> int:
        self._count += 1
        return p.wire_id(self._count)
