"""Rules as procedures that ask questions and leave a trace.

A rules procedure is a generator. It yields two kinds of things:

* a ``Step``: a line of the trace (what was decided, why, by which rule); the driver sends
  back ``None``;
* a question (``Roll``, ``DrawToken``, ``Pick``, ``ChooseOne``, ``ChooseSome``, ``YesNo``,
  ``EnterNumber``): the driver sends back the answer.

Chance questions (``Roll``, ``DrawToken``, ``Pick``) are answered by a chance source (seeded,
scripted, the Pico's dice, or the players' physical dice); table questions by the players. The same
procedure therefore serves the gadget, the terminal, scenario files and simulations.

``Runner`` drives one procedure at a time over a game state and is the single place where
answers enter the rules; the session log records exactly what the runner was fed.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from overseer.core.dice import DIE_FACES, Die  # noqa: F401  (re-exported: the rules' dice)

# --------------------------------------------------------------------------- words
# A sentence of the rules as data: a template with a ``{place}`` for each fact, and the facts.
# A fact is a value written as it is (words, a number: anything but a tuple), or a ``Ref``: an
# id the table names (the lettered "Orc A", a room's or a card's name) with the rules' own
# words for it ("Orc (orc-1)", "heal-1"). The
# rules' text is the template in their own words (``words``): the trace's, the scenario
# files', the exports' and the logs'. The screens draw it with the table's names (``named``);
# a fact whose id the table has no name for reads as the rules wrote it.

Ref = tuple[str, str]  # (id, the rules' words for it)
Fact = Any  # a Ref, or a value written as it is
Facts = dict[str, Fact]


def words(template: str, facts: Mapping[str, Fact]) -> str:
    """The template in the rules' own words."""
    return template.format_map({k: v[1] if v.__class__ is tuple else v for k, v in facts.items()})


def named(template: str, facts: Mapping[str, Fact], names: Mapping[str, str]) -> str:
    """The template with the table's names for the ids of its facts."""
    return template.format_map({k: names.get(v[0], v[1]) if v.__class__ is tuple else v
                                for k, v in facts.items()})


class Step:
    """One line of the trace: a decision and the rule behind it, as data: ``Step(kind, rule,
    template, data, facts)``. ``text`` is the template in the rules' own words for the facts
    (made when first read: a step is made often, its text read seldom); a step without facts
    is its text (no ``{place}`` is filled). ``drawn`` and ``at_table``: the table's names.
    ``text`` given: the rules' words, where they say more than the template (see below).

    Not a dataclass: the text is worked out on demand. Not frozen: a trace line is made often
    and never changed."""

    __slots__ = ("kind", "rule", "template", "data", "facts", "_text")

    def __init__(self, kind: str, rule: str, template: str,
                 data: dict[str, Any] | None = None, facts: Facts | None = None,
                 text: str | None = None) -> None:
        self.kind = kind  # a member of the game's StepKind (rules/<game>/kinds.py)
        self.rule = rule  # a section of the game's rulebook module (rules/<game>/rulebook.py)
        self.template = template
        self.data = {} if data is None else data
        self.facts = facts
        # ``text``: the rules' words where they say more than the table reads (an id beside a
        # name the table letters; a card drawn into a hand, which the glass does not name)
        self._text = template if facts is None else text

    @property
    def text(self) -> str:
        """The rules' words: what the trace, the scenario files, the exports and logs hold."""
        text = self._text
        if text is None:
            assert self.facts is not None
            text = self._text = words(self.template, self.facts)
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.kind, self.rule, self.text, self.data) == (
            other.kind, other.rule, other.text, other.data)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return (f"Step(kind={self.kind!r}, rule={self.rule!r}, text={self.text!r}, "
                f"data={self.data!r})")

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.kind, "rule": self.rule, "text": self.text, **self.data}

    def drawn(self, names: Mapping[str, str]) -> str:
        """The step's sentence with the table's names."""
        facts = self.facts
        return self.template if facts is None else named(self.template, facts, names)

    def at_table(self, names: Mapping[str, str]) -> Step:
        """The step as the table reads it: a copy with the names drawn in (the trace keeps
        the rules' words), or the step itself when that changes nothing."""
        if self.facts is None:
            return self
        text = self.drawn(names)
        return self if text == self.text else Step(self.kind, self.rule, text, self.data)


# --------------------------------------------------------------------------- questions
# Not frozen, like ``Step``: a question is made for every roll and choice and never changed
# (a frozen dataclass sets each field through ``object.__setattr__``, several times slower).

class ChanceKey(StrEnum):
    """The keys the chance questions have unless a game gives its own."""

    ROLL = "roll"
    TOKEN = "token"
    PICK = "pick"


@dataclass(slots=True)
class Roll:
    """Roll a die: ``d12``, ``rune`` (the black Rune Die) or ``location`` (the red Location
    Die). Answer: the face, 1..faces."""

    die: Die
    purpose: str
    key: str = ChanceKey.ROLL
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = True

    @property
    def faces(self) -> int:
        return DIE_FACES[self.die]

    def check(self, answer: Any) -> int:
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise AnswerError(self, answer, f"a whole number from 1 to {self.faces}")
        if not 1 <= answer <= DIE_FACES[self.die]:  # ``faces``, without a property's call
            raise AnswerError(self, answer, f"a {self.die} face, 1 to {self.faces}")
        return answer


TOKEN_MOST = 9  # the highest value a token drawn at the table may have (the bags' values
# are not printed: a value above it, or below 0, is a typing slip, never a token)


class Token(NamedTuple):
    """A drawn token: its value and whether it shows the reset icon. A named tuple, so that
    finding a token in a bag (``in``, ``remove``) compares in C: a draw checks its token is
    still in the bag."""

    value: int
    reset: bool = False

    def label(self) -> str:
        return f"{self.value}{' (reset)' if self.reset else ''}"


@dataclass(slots=True)
class DrawToken:
    """Draw one token from a bag. ``remaining`` is the bag's content when the engine tracks
    it, or empty in physical-token mode (then the players draw and enter what they drew).
    Answer: a ``Token``."""

    pool: str
    purpose: str
    remaining: tuple[Token, ...] = ()
    key: str = ChanceKey.TOKEN
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = True

    def check(self, answer: Any) -> Token:
        if not isinstance(answer, Token):
            raise AnswerError(self, answer, "a token (value and reset icon)")
        if self.remaining and answer not in self.remaining:
            raise AnswerError(self, answer, f"a token still in the {self.pool} bag")
        value = answer.value
        if not isinstance(value, int) or isinstance(value, bool) \
                or not 0 <= value <= TOKEN_MOST or not isinstance(answer.reset, bool):
            raise AnswerError(self, answer, f"a token of the {self.pool} bag: a value from 0 to "
                              f"{TOKEN_MOST}, and a reset icon or not")
        return answer


@dataclass(slots=True)
class Pick:
    """Draw one of ``options`` blind (a card from a shuffled deck, a tile from a face-down
    stack). A shuffle is a run of picks. Answer: the id drawn. ``physical``: the players draw
    the real thing at the table and say (or tap) what they drew; else the gadget draws it
    from its seed."""

    pool: str
    purpose: str
    options: tuple[str, ...]
    key: str = ChanceKey.PICK
    physical: bool = False
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = True

    def check(self, answer: Any) -> str:
        if answer not in self.options:
            raise AnswerError(self, answer, f"one of {', '.join(self.options)}")
        return answer


@dataclass(slots=True)
class ChooseOne:
    """Pick one of ``options`` (ids). Answer: the chosen id."""

    prompt: str
    options: tuple[str, ...]
    key: str
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = False

    def check(self, answer: Any) -> str:
        if answer not in self.options:
            raise AnswerError(self, answer, f"one of {', '.join(self.options)}")
        return answer


@dataclass(slots=True)
class ChooseSome:
    """Pick any number of ``options`` (ids), none included. Answer: a tuple of ids."""

    prompt: str
    options: tuple[str, ...]
    key: str
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = False

    def check(self, answer: Any) -> tuple[str, ...]:
        options = self.options
        if not isinstance(answer, (list, tuple)):
            raise AnswerError(self, answer, f"a list drawn from {', '.join(options)}")
        chosen = tuple([a for a in options if a in answer])
        if len(chosen) != len(answer):  # an answer not among the options, or one twice
            if [a for a in answer if a not in options]:
                raise AnswerError(self, answer, f"a list drawn from {', '.join(options)}")
            raise AnswerError(self, answer, "a list without repeats")
        return chosen


@dataclass(slots=True)
class YesNo:
    prompt: str
    key: str
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = False

    def check(self, answer: Any) -> bool:
        if not isinstance(answer, bool):
            raise AnswerError(self, answer, "yes or no (true/false)")
        return answer


@dataclass(slots=True)
class EnterNumber:
    """A number the players read off a physical component (a poison card's value...)."""

    prompt: str
    key: str
    low: int = 0
    high: int = 99
    said: dict[str, str] | None = None  # a template for some of its words (``shown``)
    facts: Facts | None = None
    chance = False

    def check(self, answer: Any) -> int:
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise AnswerError(self, answer, f"a whole number from {self.low} to {self.high}")
        if not self.low <= answer <= self.high:
            raise AnswerError(self, answer, f"a number from {self.low} to {self.high}")
        return answer


def roll(die: Die, template: str, facts: Facts, key: str = ChanceKey.ROLL) -> Roll:
    """A roll whose purpose is ``template`` in the rules' words for ``facts``."""
    return Roll(die, words(template, facts), key, {"purpose": template}, facts)


Question = Roll | DrawToken | Pick | ChooseOne | ChooseSome | YesNo | EnterNumber
Procedure = Generator[Step | Question, Any, Any]
CHANCE = (Roll, DrawToken, Pick)  # the questions a chance source may answer


def describe(question: Question) -> str:
    """The question as the table reads it."""
    if isinstance(question, Roll):
        die = "D12" if question.die == Die.D12 else f"{question.die} die"
        return f"Roll the {die} ({question.purpose})"
    if isinstance(question, DrawToken):
        return f"Draw a token from the {question.pool} bag ({question.purpose})"
    if isinstance(question, Pick):
        return f"Draw from the {question.pool} ({question.purpose})"
    return question.prompt


def shown(question: Question, names: Mapping[str, str]) -> Question:
    """The question with the table's names in its words (``said``); its options and key as
    they are, so the answer is the rules' own."""
    templates, facts = question.said, question.facts
    if not templates or facts is None:
        return question
    return replace(question, **{field: named(template, facts, names)
                                for field, template in templates.items()})


class AnswerError(ValueError):
    """An answer that does not fit its question. Nothing was applied."""

    def __init__(self, question: Question, answer: Any, wanted: str) -> None:
        super().__init__(f"{describe(question)} [{question.key}]: got {answer!r}, wanted {wanted}")
        self.question = question
        self.answer = answer


class RulesError(ValueError):
    """An action the rules refuse in the current state (playing out of turn, ...).
    Raised before anything changed. ``template`` and ``facts``: the message as data, for the
    table's names (``refusal``)."""

    def __init__(self, message: str, template: str | None = None,
                 facts: Facts | None = None) -> None:
        super().__init__(message)
        self.template = template
        self.facts = facts

    def drawn(self, names: Mapping[str, str]) -> str:
        """The message with the table's names."""
        if self.template is None or self.facts is None:
            return str(self)
        return named(self.template, self.facts, names)


class Said(str):
    """Words of the rules that are also data: the string is the rules' own words, ``template``
    and ``facts`` let the table draw them with its names (a move's reason why not, passed on
    as a string by the code between)."""

    template: str
    facts: Facts

    def __new__(cls, template: str, facts: Facts) -> Said:
        said = super().__new__(cls, words(template, facts))
        said.template, said.facts = template, facts
        return said


def refused(why: str) -> RulesError:
    """A refusal for ``why``, with its facts when it is ``Said``."""
    if isinstance(why, Said):
        return RulesError(str(why), why.template, why.facts)
    return RulesError(why)


def refusal(template: str, **facts: Fact) -> RulesError:
    """A refusal whose message is ``template`` in the rules' words for ``facts``."""
    return RulesError(words(template, facts), template, facts)


# --------------------------------------------------------------------------- driving


class Game(Protocol):
    """What a game offers the runner: a procedure per action, over a mutable state."""

    def start(self, state: Any, action: dict[str, Any]) -> Procedure: ...


class Runner:
    """Drives procedures over one state. Feed it actions and answers; it collects the trace.

    ``pending`` is the question waiting for an answer, or ``None`` when the current action is
    finished. Chance questions are answered by ``chance`` when one is given; otherwise they
    wait for an answer like any other question (physical dice, scripted dice).
    """

    def __init__(
        self,
        game: Game,
        state: Any,
        chance: Callable[[Roll | DrawToken | Pick], Any] | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.chance = chance
        self.trace: list[Step] = []
        self.pending: Question | None = None
        self.result: Any = None
        self.on_step = on_step
        self._proc: Procedure | None = None

    @property
    def busy(self) -> bool:
        return self._proc is not None

    def begin(self, action: dict[str, Any]) -> Question | None:
        """Start an action. Raises ``RulesError`` (state unchanged) if the rules refuse it."""
        if self._proc is not None:
            raise RulesError(f"finish the current action first ({describe(self.pending)})"
                             if self.pending else "an action is still running")
        self._proc = self.game.start(self.state, action)
        return self._advance(None)

    def answer(self, value: Any) -> Question | None:
        """Answer the pending question. Raises ``AnswerError`` (nothing applied) on a bad one."""
        if self.pending is None:
            raise RulesError("no question is waiting for an answer")
        checked = self.pending.check(value)
        return self._advance(checked)

    def _advance(self, value: Any) -> Question | None:
        proc = self._proc
        assert proc is not None
        self.pending = None  # answered (or the action just began): the next one comes below
        send, keep, on_step, chance = proc.send, self.trace.append, self.on_step, self.chance
        try:
            while True:
                try:
                    item = send(value)
                except StopIteration as stop:
                    self._proc = None
                    self.result = stop.value
                    return None
                if isinstance(item, Step):  # most items: a trace line
                    keep(item)
                    if on_step is not None:
                        on_step(item)
                    value = None
                elif chance is not None and isinstance(item, CHANCE):
                    value = item.check(chance(item))
                else:
                    self.pending = item
                    return item
        except BaseException:
            # A refused action (RulesError is raised before any change) or a failure in the
            # answering source: the procedure is over either way.
            self._proc = None
            raise
