"""The box without its hardware, for the terminal simulator: adapters of the ports in
``app.ports`` that keep what they were asked to show and put what the simulator's user does
(tap a card, roll) into the inbox. They behave as the real ones do, refusals included.
"""

from __future__ import annotations

from collections import deque

from PIL import Image

from overseer.core.chance import SeededChance
from overseer.core.procedure import Roll
from overseer.ports.events import FACES, Die, Rolled, SetLeds, Tap, UnknownTap
from overseer.ports.inbox import Inbox
from overseer.ports.ports import check_glass_image, light_modes

SEATS = (1, 2, 3, 4)  # as in hardware/pins.toml, [[pi.seat_led]]


class MemoryGlass:
    """A Glass that keeps every image shown (``shown``) and the last one (``image``)."""

    def __init__(self) -> None:
        self.shown: list[Image.Image] = []

    @property
    def image(self) -> Image.Image | None:
        return self.shown[-1] if self.shown else None

    def show(self, image: Image.Image) -> None:
        self.shown.append(check_glass_image(image).copy())

    def close(self) -> None:
        pass  # nothing to release


class SimLeds:
    """Leds that keep each seat's mode (``modes``: seat -> off, on, dim or pulse)."""

    def __init__(self, seats: tuple[int, ...] = SEATS) -> None:
        self.seats = seats
        self.modes: dict[int, str] = dict.fromkeys(seats, "off")

    def set(self, lights: SetLeds) -> None:
        """Bad lights (a seat the box has not, an unknown mode) raise and change nothing."""
        self.modes = light_modes(lights, self.seats)

    def close(self) -> None:
        self.modes = dict.fromkeys(self.seats, "off")


class _Source:
    """What the simulated sources share: the inbox they put into, once started."""

    def __init__(self) -> None:
        self._inbox: Inbox | None = None

    def start(self, inbox: Inbox) -> None:
        self._inbox = inbox

    def close(self) -> None:
        self._inbox = None

    def _put(self, item: Tap | UnknownTap | Rolled) -> None:
        if self._inbox is None:
            raise RuntimeError(f"{type(self).__name__} is not started: start(inbox) first")
        self._inbox.put(item)


class SimTags(_Source):
    """A card reader worked by hand: ``tap`` a card by its ids, or an ``unknown`` tag."""

    def tap(self, game: str, kind: str, card: str) -> None:
        for name, value in (("game", game), ("kind", kind), ("card", card)):
            if not value:
                raise ValueError(f"a tapped card needs its {name}")
        self._put(Tap(game, kind, card))

    def unknown(self, uid: str) -> None:
        """A tag that names no card (``uid`` as the reader reports it, hex)."""
        if not uid:
            raise ValueError("a tag has a UID")
        self._put(UnknownTap(uid))


def _die(die: Die | str) -> Die:
    try:
        return Die(die)
    except ValueError:
        names = ", ".join(d.value for d in Die)
        raise ValueError(f"unknown die {die!r}: the dice are {names}") from None


class SeededDice(_Source):
    """Dice rolled by the gadget from a seed, at once: the n-th roll depends only on the seed
    and n (``chance.SeededChance``), so a run of the simulator can be repeated."""

    def __init__(self, seed: int, count: int = 0) -> None:
        super().__init__()
        self._chance = SeededChance(seed, count)

    def request(self, die: Die, request: int) -> None:
        die = _die(die)
        self._put(Rolled(die, self._face(die), request))

    def roll(self, die: Die) -> None:
        """The ROLL button: a roll nobody asked for (request 0)."""
        die = _die(die)
        self._put(Rolled(die, self._face(die), 0))

    def _face(self, die: Die) -> int:
        face = self._chance(Roll(die, "simulated Pico roll"))
        assert isinstance(face, int)
        return face


class TableDice(_Source):
    """The table's own dice: a request waits (``waiting``) until the table says the face it
    rolled (``answer``); ``roll`` is a roll nobody asked for."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting: deque[tuple[Die, int]] = deque()

    @property
    def waiting(self) -> list[tuple[Die, int]]:
        """The requests not answered yet, oldest first: (die, request)."""
        return list(self._waiting)

    def request(self, die: Die, request: int) -> None:
        self._waiting.append((_die(die), request))

    def answer(self, face: int) -> None:
        """The face the table rolled for the oldest waiting request."""
        if not self._waiting:
            raise ValueError("no roll was asked for")
        die, request = self._waiting[0]
        self._put(Rolled(die, _check_face(die, face), request))
        self._waiting.popleft()

    def roll(self, die: Die, face: int) -> None:
        die = _die(die)
        self._put(Rolled(die, _check_face(die, face), 0))


def _check_face(die: Die, face: int) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= FACES[die]:
        raise ValueError(f"the {die.value} die has faces 1 to {FACES[die]}, not {face!r}")
    return face
