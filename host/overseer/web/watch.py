"""The gadget seen from the page: a watcher the shell calls after every input (in the gadget's
thread) that publishes what changed to the feed, and keeps what the pages read (``Live``).

What it publishes, in the order the table saw it (web/feed.py carries it):

- ``game``: a game is followed (its id, game and title; null in a new game's questions): the
  page starts again;
- ``step``: a trace step, with its rulebook section, its "!" (``verified`` false), and its
  round and activation (the character acting) for the log's groups;
- ``action``: the table began an action (a heroes' side move, NEXT AI PIECE);
- ``answer``: a question answered, its answer and who gave it (button, card, Pico dice,
  phone); answers given before the page began following are listed, without their place
  among the steps (``earlier``);
- ``cut``: an undo: the steps from ``steps`` on and the answers from log event ``head`` on
  are gone;
- ``ask``: the question waiting (null: none), with its options, and whether a phone may
  answer it (a question whose answer is a player's secret, ``Table.secret_answers``: without
  its options, which would tell by what is gone from them what was drawn);
- ``glass``: the screen on the glass changed: its text and, while pages follow, its ``bits`` (a
  screen showing the pairing code is replaced by ``HIDDEN``: a page never shows the code; the
  glass of a secret question by ``SECRET``);
- ``party``: the game changed: the party and story pages fetch themselves again.

The cost on the gadget's thread is one pass over what changed, whatever the number of phones:
each event is made and encoded once, for every page.
"""

from __future__ import annotations

import binascii
import secrets
import threading
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image

from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Pick,
    Question,
    Roll,
    YesNo,
)
from overseer.ports.events import Input, Press, Remote, Rolled, Tap
from overseer.ports.ports import kept_frame
from overseer.screens import pages
from overseer.screens.render import Screen, frame_bytes, render
from overseer.session.events import Event
from overseer.web import party, wire
from overseer.web.feed import Feed

BY = {Press: "button", Tap: "card", Rolled: "Pico dice", Remote: "phone"}
PHONE_QUESTIONS = (ChooseOne, ChooseSome, Pick, YesNo, EnterNumber, Roll)  # no DrawToken
PICTURES = 64  # the glass's bits and JSON kept, by screen
HIDDEN = Screen(title="Phones", key="Pairing", lines=(
    "The code is on the box's", "glass: type it in below."))  # the page's glass, for a screen
# that shows the pairing code
SECRET = Screen(title="A player's secret", lines=(
    "A card drawn: its list", "is on the box's glass."))  # the page's glass while a question
# whose answer is a player's secret waits (Table.secret_answers: a draw into a hand)


@dataclass(frozen=True)
class Record:
    """The game's record as the pages read it: what it was built from and its log up to the
    head (the story is folded from it, in the server's thread)."""

    game_id: int
    game: str
    setup: dict[str, Any]
    dice: str
    seed: int | None
    log: list[Event]  # the watcher's list: only appended to (an undo makes a new one)
    length: int  # the record is its first ``length`` events
    names: dict[str, str] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return self.log[:self.length]


class Live:
    """What the pages read now; written by the watcher, read by the server (under ``lock``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.game: dict[str, Any] | None = None
        self.screen: Screen | None = None
        self.screen_v = 0
        self.question: dict[str, Any] | None = None
        self.party: dict[str, Any] | None = None
        self.record: Record | None = None
        self.code: str | None = None  # the pairing code of the game followed
        # each player's secret hand (Table.hands: player -> card id -> name; None: no hand the
        # box knows), for that player's own phone only (web/hands.py); the players by name
        self.hands: dict[str, dict[str, str]] | None = None
        self.players: dict[str, str] = {}
        self.private = False  # the game's export holds a secret (a hand) until the game is over


def new_code() -> str:
    """A pairing code: six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


def question_data(game: str, question: Question, asked: int, names: dict[str, str],
                  answers: bool) -> dict[str, Any]:
    """A question as the page shows it (and a phone answers it)."""
    out: dict[str, Any] = {"asked": asked, "key": question.key, "kind": type(question).__name__,
                           "short": pages.short_prompt(game, question),
                           "prompt": pages.full_prompt(question),
                           "phone": answers and isinstance(question, PHONE_QUESTIONS)}
    if isinstance(question, ChooseOne | ChooseSome | Pick):
        out["options"] = [{"value": v, "label": label} for v, label in
                          zip(question.options, pages.option_labels(question, names),
                              strict=True)]
    elif isinstance(question, YesNo):
        out["options"] = [{"value": True, "label": "Yes"}, {"value": False, "label": "No"}]
    elif isinstance(question, EnterNumber):
        out["low"], out["high"] = question.low, question.high
    elif isinstance(question, Roll):
        out["low"], out["high"] = 1, question.faces
    elif isinstance(question, DrawToken):
        out["phone"] = False
    return out


def answer_label(question: dict[str, Any] | None, value: Any) -> str:
    """An answer in words, by the options of the question it answered."""
    if question is not None and "options" in question:
        labels = {repr(o["value"]): o["label"] for o in question["options"]}
        if isinstance(value, list):
            return ", ".join(labels.get(repr(v), str(v)) for v in value) or "none"
        return labels.get(repr(value), str(value))
    if isinstance(value, dict) and "value" in value:  # a damage token
        return f"token {value['value']}" + (" (reset)" if value.get("reset") else "")
    return str(value)


def picture(image: Image.Image) -> str:
    """The glass's picture as its bits, in base64: the Pico's own frame (MONO_VLSB, 8 pages of
    128 bytes, bit 0 of a page's byte its top row), the one a screen's picture carries
    (``ports.kept_frame``: packed once a screen for the Pico and the page alike), else packed
    here; the page draws it on a canvas (a PNG would cost the box seven times as much)."""
    frame = kept_frame(image)
    return binascii.b2a_base64(frame if frame is not None else frame_bytes(image),
                               newline=False).decode()


def pairing_text(code: str, where: str | None) -> str:
    """What the glass says of the pairing code: at a game's start, and when a phone asks."""
    at = " at " + where.removeprefix("http://").rstrip("/") if where else ""
    return f"Code {code} pairs a phone{at}."  # one page on the glass: one OK puts it away


def _shows(screen: Screen, code: str) -> bool:
    """The pairing code is on ``screen`` (the digits may wrap from one line to the next)."""
    return code in "".join((screen.title, screen.key, *screen.lines, *screen.rows))


def screen_text(screen: Screen) -> dict[str, Any]:
    """The glass's screen in words."""
    rows = [("> " if n == screen.cursor else "  ") + label
            + (" [x]" if screen.selected and n in screen.selected else "")
            for n, label in enumerate(screen.rows)]
    return {"title": screen.title, "key": screen.key, "mark": screen.mark,
            "lines": list(screen.lines), "rows": rows,
            "number": screen.number}


class Watcher:
    """Follows a Gadget (``gadget.watchers.append(watcher)``) into a Feed and a Live."""

    def __init__(self, feed: Feed, live: Live, answers: bool = False) -> None:
        self.feed, self.live, self.answers = feed, live, answers
        self.where: str | None = None  # the page's address, said with the pairing code
        self.told = False  # the glass said a game's code (and where the page is)
        self.game_id: int | None | bool = False  # False: nothing followed yet
        self.steps = 0  # trace steps published
        self.groups: list[tuple[int | None, str]] = []  # (round, actor) of each step published
        self.head = 0
        self.events: list[Event] = []
        self.asked: tuple[int, bool] | None = None
        self.question: dict[str, Any] | None = None
        self.screen: Screen | None = None
        self.table_move: str | None = None  # the group the next steps open (a table's move)
        self.menu: Any = None  # the last menu seen, and its labels by action name
        self.labels: dict[str, str] = {}
        # the glass's bits and JSON by screen (Watcher._kept), the last PICTURES
        self.pictures: dict[Screen, tuple[str, str | None]] = {}

    def __call__(self, gadget: Any, item: Input | None) -> None:
        session = gadget.session
        game_id = session.id if session is not None else None
        if game_id != self.game_id:
            self._new_game(gadget, session)
        if session is not None:
            self._game(gadget, session, BY.get(type(item), "table"))
        self._question(gadget)
        view = gadget.app.view if gadget.app is not None else None
        if view is not None and view.menu and view.menu is not self.menu:
            self.menu = view.menu
            self.labels = {str(item.action.get("do")): item.label for item in view.menu}
        if gadget.screen is not self.screen and gadget.screen is not None:
            self.screen = gadget.screen
            secret = self.question is not None and self.question.get("secret", False)
            self._glass(SECRET if secret else gadget.screen, None if secret else gadget.image)
        self.feed.wake()

    def _glass(self, screen: Screen, image: Image.Image | None) -> None:
        """The glass changed: its text, and while pages follow its bits (the same bits for
        every page, kept by screen: a screen comes back when a cursor moves back). A screen
        with the pairing code on it is shown as ``HIDDEN``: the code is for the table's eyes."""
        with self.live.lock:
            code = self.live.code
            if code is not None and _shows(screen, code):
                screen, image = HIDDEN, None
            self.live.screen = screen
            self.live.screen_v += 1
            version = self.live.screen_v
        glass: dict[str, Any] = {"v": version, **screen_text(screen)}
        if not self.feed.followed:  # nobody follows: neither bits nor JSON made
            self.feed.publish("glass", glass, wake=False, encode=wire.glass)
            return
        bits, fields = self._kept(screen, image, glass)
        self.feed.publish("glass", glass, wake=False, bits=bits, encode=wire.glass
                          if fields is None else partial(wire.glass_again, fields))

    def _kept(self, screen: Screen, image: Image.Image | None, glass: dict[str, Any]
              ) -> tuple[str, str | None]:
        """The bits of ``screen`` and its JSON after ``v`` (``wire.glass_fields``; None: the
        json way), made once a screen, the last PICTURES kept."""
        try:
            kept = self.pictures.get(screen)
        except TypeError:  # a screen with a list in it: not kept
            return picture(image if image is not None else render(screen)), None
        if kept is None:
            try:
                fields: str | None = wire.glass_fields(glass)
            except (TypeError, KeyError):
                fields = None
            kept = self.pictures[screen] = (
                picture(image if image is not None else render(screen)), fields)
            if len(self.pictures) > PICTURES:
                del self.pictures[next(iter(self.pictures))]
        return kept

    def _new_game(self, gadget: Any, session: Any) -> None:
        self.game_id = session.id if session is not None else None
        self.steps, self.groups, self.head, self.events = 0, [], 0, []
        self.asked, self.question, self.table_move = None, None, None
        game = None if session is None else {
            "id": session.id, "game": session.game, "title": gadget.playing.table.label}
        code = new_code() if session is not None else None
        with self.live.lock:
            self.live.game, self.live.code = game, code
            self.live.question = self.live.party = self.live.record = self.live.hands = None
            self.live.players, self.live.private = {}, False
        self.feed.publish("game", game, wake=False)
        if session is None:
            return
        if self.answers and code is not None:
            gadget.tell("Phones", pairing_text(code, self.where))  # OK puts it away
            self.told = True
        earlier = session.log.slice(0, session.head)
        self.events = list(earlier)
        self.head = session.head
        secret = gadget.playing.table.secret_answers
        listed = [{"seq": n, "key": e.data.get("key"),
                   "answer": secret.get(e.data.get("key")) or answer_label(
                       None, e.data.get("value")), "by": e.data.get("source", "table")}
                  for n, e in enumerate(earlier) if e.kind == "answer"]
        if listed:
            self.feed.publish("earlier", listed, wake=False)

    def _game(self, gadget: Any, session: Any, by: str) -> None:
        head = session.head
        changed = head != self.head
        trace = session.runner.trace
        if head < self.head:
            self.events = self.events[:head]  # a new list: the records out keep theirs
            self.head = head
            self.steps = min(self.steps, len(trace))
            del self.groups[self.steps:]
            self.feed.publish("cut", {"steps": self.steps, "head": head}, wake=False)
        elif head > self.head:
            new = session.log.slice(self.head, head)
            secret = gadget.playing.table.secret_answers  # a player's secret: not named
            for seq, event in enumerate(new, self.head):
                if event.kind == "action":
                    do = str(event.data.get("do", ""))
                    if do != session.spec.main_move:
                        # the table's own move: its steps are a group of their own, under the
                        # menu's label for it
                        self.table_move = "The table: " + self.labels.get(
                            do, do.replace("_", " "))
                    self.feed.publish("action", {"seq": seq, "do": event.data.get("do")},
                                      wake=False, encode=wire.action)
                elif event.kind == "answer":
                    source, key = event.data.get("source"), event.data.get("key")
                    self.feed.publish("answer", {
                        "seq": seq, "key": key,
                        "question": (self.question or {}).get("prompt", ""),
                        "answer": secret.get(key) or answer_label(self.question,
                                                                  event.data.get("value")),
                        "by": "Pico dice" if source == "pico" else by}, wake=False,
                        encode=wire.answer)
            self.events.extend(new)
            self.head = head
        if len(trace) > self.steps:
            self._steps(gadget, trace)
        if changed or self.live.party is None:
            self._state(gadget, session)

    def _steps(self, gadget: Any, trace: Any) -> None:
        start = self.steps
        steps = gadget.playing.as_read(trace[start:])
        round_, actor = self.groups[-1] if self.groups else (None, "")
        if self.table_move is not None:
            actor, self.table_move = self.table_move, None
        kinds = gadget.playing.table.spec.kinds  # a step that opens a group: an activation, a turn
        for n, step in enumerate(steps, start):
            if step.kind == kinds.round_kind:
                round_ = step.data.get("round", round_)
            if step.kind in kinds.target_ends:
                actor = step.text
                if round_ is None and step.kind == kinds.actor_kind:
                    round_ = 1  # the first round says no "round" step
            self.groups.append((round_, actor))
            self.feed.publish("step", {"n": n, "kind": str(step.kind), "rule": step.rule,
                                       "text": step.text,
                                       "verified": step.data.get("verified") is not False,
                                       "round": round_, "actor": actor}, wake=False,
                              encode=wire.step)
        self.steps = start + len(steps)

    def _state(self, gadget: Any, session: Any) -> None:
        table = gadget.playing.table
        names = table.labels(session.state)
        summary = party.summary(session.spec, session.state, names, gadget.playing.seats)
        record = Record(session.id, session.game, session.setup, session.dice_at_start,
                        session.seed, self.events, len(self.events), dict(names))
        hands = table.hands(session.state)
        players = {p: names.get(p, p) for p in hands} if hands is not None else {}
        with self.live.lock:
            self.live.party, self.live.record = summary, record
            self.live.hands, self.live.players = hands, players
            self.live.private = bool(table.secret) and not session.finished
        self.feed.publish("party", {"head": session.head, "finished": session.finished},
                          wake=False, encode=wire.party)  # the pages fetch the page again

    def _question(self, gadget: Any) -> None:
        view = gadget.app.view if gadget.app is not None else None
        question = view.question if view is not None else None
        asked = (view.asked if view is not None else 0, question is None)
        if asked == self.asked:
            return
        self.asked = asked
        data = None if question is None or view is None else question_data(
            view.game, question, view.asked, dict(view.names), self.answers)
        if data is not None and question is not None \
                and question.key in gadget.playing.table.secret_answers:
            data.pop("options", None)  # what a draw could be: gone from the next, it was drawn
            data["phone"], data["secret"] = False, True
        self.question = data
        with self.live.lock:
            self.live.question = data
        self.feed.publish("ask", data, wake=False, encode=wire.ask)
