"""What the shell (app/shell.py) needs of a game beyond its rules to play it on the five buttons:
one ``Flow`` per game, made by the game's table module (app/catacombs.py, ...) and listed in
app/flows.py. The shell calls nothing game-specific except through it.

A flow's functions take the game's state as the session holds it (``Session.state``) and the
display names ``labels`` made of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from overseer.app import forms
from overseer.app.local import Ask, LocalProcedure
from overseer.app.menu import MenuItem, OpensForm
from overseer.core.moves import Move
from overseer.core.procedure import ChooseOne, Question, Step
from overseer.games import GameSpec
from overseer.screens.render import Screen, detail_rows, wrap

# App-level menu actions (the shell's own, not the rules'): the party screen, a new game, who
# rolls the dice from now on (``Session.set_dice``).
PARTY = "gadget.party"
NEW_GAME = "gadget.new_game"
DICE_MODE = "gadget.dice"
APP_ACTIONS = (PARTY, NEW_GAME, DICE_MODE)
DICE = {"pico": "The Pico's", "seeded": "The gadget's", "table": "Our own dice"}


@dataclass(frozen=True)
class NewGame:
    """What a new game's questions decided: the setup (a format 2 document for
    ``Session.new``, naming its game), who rolls the dice, the actions that begin the game, and
    each party member's (or player's) seat."""

    setup: dict[str, Any]
    dice: str
    first: tuple[dict[str, Any], ...]
    seats: dict[str, int] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return str(self.setup["game"])


def dice_form(now: str, pico: bool) -> LocalProcedure:
    """Who rolls the dice from here on: the mode in force first (OK keeps it), then the
    others (the Pico's before the gadget's on a box that has them)."""
    order = ("pico", "seeded", "table") if pico else ("seeded", "table", "pico")
    modes = (now, *(d for d in order if d != now))
    names = {d: DICE[d] + (" (now)" if d == now else "") for d in modes}
    mode = yield Ask(ChooseOne("Dice from now on?", modes, "gadget_dice"), names=names)
    return {"do": DICE_MODE, "dice": mode}


Names = Mapping[str, str]
MakeForm = Callable[[], LocalProcedure]
TapActions = dict[tuple[str, str], Mapping[str, Any] | OpensForm | str]


@dataclass(frozen=True)
class Flow:
    """A game at the table.

    - ``game``, ``label``: its name in the store and on the new-game question;
    - ``wizard(seats, pico)``: the new game's questions, a local procedure ending in a
      ``NewGame`` (``seats``: the box's seat LEDs; ``pico``: the Pico's dice are there);
    - ``labels(state)``: display names by id; ``relabel(step, state, names)``,
      ``relabel_text`` and ``relabel_question(question, state, names, trace)``: the rules'
      words with those names;
    - ``default_seats(state, seats)``: the seats of a game whose store kept none;
    - ``cards(state)``: a tapped card's option id by (card kind, card id);
    - ``menu(state, legal, over)``: the menu's items (the legal moves, then the app's own);
    - ``form_of(name, state, names)``: how to (re)start the form a menu item opens, and its
      title; None when it has none now (a form kept across a restart is then dropped);
    - ``title``, ``idle_key(state, last action)``, ``status``: the screen between actions;
    - ``party_pages(state, names, heading)``: the party (or players') screen;
    - ``tap_actions(state, legal)``: what a tapped card begins with no question waiting, or
      why it cannot now;
    - ``lights(state, seats, question)``: the game's own seat lights (seat -> ``on``, ``dim``,
      ``pulse``) with ``seats`` (id -> seat) and the question waiting; none by default;
    - ``card_options(state)``: the options a tapped card names when it names several (a
      monster's card: its pieces); none by default;
    - ``new_setup(setup, store)``: a new game's setup (the wizard's) as it is stored, given
      what the store holds (Conquest: the cards the table has read off before);
    - ``taps_skip_reading``: a tapped card is taken on any page, the steps not read yet
      skipped (Conquest: a turn's recap); else the steps are read first;
    - ``on_glass(step)``: the step gets pages of its own on the glass (Conquest leaves off the
      steps that only say back what the table just told it: a card tapped, a miss); every
      step is in the log all the same;
    - ``back_leaves(action)``: BACK on a question the rules ask inside the action under way (by
      its name) takes that action back, as BACK leaves a form (a pack's reports: an answer
      the rules refuse there leaves nothing else to do but another answer); else BACK shows
      the steps before the question;
    - ``likely(state, question)``: the row a rules question's cursor starts on, its likely
      answer (OK answers it in one press); the first row by default.
    """

    game: str
    label: str
    spec: GameSpec
    wizard: Callable[[tuple[int, ...], bool], LocalProcedure]
    labels: Callable[[Any], dict[str, str]]
    option_names: Callable[[Any, Question | None], dict[str, str]]
    default_seats: Callable[[Any, tuple[int, ...]], dict[str, int]]
    cards: Callable[[Any], dict[tuple[str, str], str]]
    menu: Callable[[Any, list[Move[Any]], bool], tuple[MenuItem, ...]]
    form_of: Callable[[str, Any, Names], tuple[MakeForm, str] | None]
    title: Callable[[Any], str]
    idle_key: Callable[[Any, str | None], str]
    status: Callable[[Any, Names], tuple[str, ...]]
    party_pages: Callable[[Any, Names, str], tuple[Screen, ...]]
    tap_actions: Callable[[Any, list[Move[Any]]], TapActions]
    lights: Callable[[Any, Mapping[str, int], Question | None], dict[int, str]] = (
        lambda state, seats, question: {})
    card_options: Callable[[Any], dict[tuple[str, str], tuple[str, ...]]] = (
        lambda state: {})
    new_setup: Callable[[dict[str, Any], Any], dict[str, Any]] = (
        lambda setup, store: setup)
    taps_skip_reading: bool = False
    on_glass: Callable[[Step], bool] = lambda step: True
    back_leaves: Callable[[str | None], bool] = lambda action: False
    likely: Callable[[Any, Question], int] = lambda state, question: 0
    relabel: Callable[[Step, Any, Names], Step] = lambda step, state, names: step
    relabel_text: Callable[[str, Any, Names], str] = lambda text, state, names: text
    relabel_question: Callable[[Question, Any, Names, Sequence[Step]], Question] = (
        lambda question, state, names, trace: question)


def party_screens(blocks: Sequence[tuple[str, str, Sequence[str]]]) -> tuple[Screen, ...]:
    """Pages of a players' screen: each block (heading, key word, lines) wrapped and paged
    (the key word on its first page only), every page numbered of them all."""
    parts: list[tuple[str, str, tuple[str, ...]]] = []
    for heading, key, lines in blocks:
        rows = [row for line in lines for row in wrap(line)]
        room = detail_rows(Screen(heading, key=key))
        parts.append((heading, key, tuple(rows[:room])))
        per = detail_rows(Screen(heading))
        parts += [(heading, "", tuple(rows[n:n + per])) for n in range(room, len(rows), per)]
    return tuple(Screen(h, lines, key=key, page=(n + 1, len(parts)))
                 for n, (h, key, lines) in enumerate(parts))


def move_forms(spec: GameSpec, custom: Mapping[str, Callable[[Any, Names], LocalProcedure]],
               prompts: Mapping[str, Mapping[str, str]], short: Mapping[str, str]
               ) -> Callable[[str, Any, Names], tuple[MakeForm, str] | None]:
    """A flow's ``form_of`` where every form is a move's: its ``custom`` form, else the
    generic one with the move's ``prompts``, titled by its ``short`` label (the rules refuse
    the completed action, with their reason, when the move cannot be played)."""
    def form_of(name: str, state: Any, names: Names) -> tuple[MakeForm, str] | None:
        move = spec.moves.moves.get(name)
        if move is None:
            return None
        own = custom.get(name)
        make: MakeForm = (lambda: own(state, names)) if own is not None else \
            (lambda: forms.named_form(move, state, names, prompts.get(name)))
        return make, short.get(name, move.label)
    return form_of


def no_option_names(state: Any, question: Question | None) -> dict[str, str]:
    """A flow's ``option_names`` where every option is named by ``labels``."""
    return {}
