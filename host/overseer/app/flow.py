"""What the shell (app/shell.py) needs of a game beyond its rules to play it on the five buttons:
one ``Table`` per game, a subclass made in the game's table module (app/catacombs.py, ...) and
kept in its record (``GameSpec.table``, the registry: overseer/app/registry/). The shell calls
nothing game-specific except through it.

The base class holds what every game shares: the menu (the legal moves the table reports, in
the game's ``order``, by their ``short`` labels, then the app's own items), the forms a menu
item opens (the game's own ``forms``, else the move table's generic form with the game's
``prompts``), and plain defaults for the rest. A game overrides the hooks it needs.

One policy for a move the rules do not allow now (``move.available``): its menu item opens no
form, the press goes straight to the rules, which refuse it with their reason before a single
question is asked (nothing changes). A game may still list such a move (``shown_refused``) so
that the table hears why it cannot be done.

A table's methods take the game's state as the session holds it (``Session.state``) and the
display names ``names`` made of it (``labels``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from overseer import games
from overseer.app import forms
from overseer.app.books import correct_form
from overseer.app.local import Ask, LocalProcedure
from overseer.app.menu import MenuItem, OpensForm
from overseer.app.story import Story
from overseer.core.books import CORRECT
from overseer.core.moves import Move
from overseer.core.params import fields
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
    each party member's (or player's) seat; ``hidden``: the moves this game's menu does not
    offer (a single room's: Start campaign)."""

    setup: dict[str, Any]
    dice: str
    first: tuple[dict[str, Any], ...]
    seats: dict[str, int] = field(default_factory=dict)
    hidden: tuple[str, ...] = ()

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


def confirmed(prompt: str, name: str) -> LocalProcedure:
    """A move asked to be sure of: Yes begins it, No nothing (``None``)."""
    sure = yield Ask(ChooseOne(prompt, ("no", "yes"), "form_confirm"),
                     names={"no": "No", "yes": "Yes"})
    return {"do": name} if sure == "yes" else None


Names = Mapping[str, str]
MakeForm = Callable[[], LocalProcedure]
TapActions = dict[tuple[str, str], Mapping[str, Any] | OpensForm | str]
OwnForm = Callable[[Any, Names], LocalProcedure]


class Table:
    """A game at the table. A subclass sets ``game`` and ``label`` (its name in the store and
    on the new-game question) and overrides what its game needs:

    - ``wizard(seats, pico)``: the new game's questions, a local procedure ending in a
      ``NewGame`` (``seats``: the box's seat LEDs; ``pico``: the Pico's dice are there);
    - ``labels(state)``: display names by id (the rules' ``names`` by default): the shell draws
      the rules' steps, questions and refusals with them (their templates and facts:
      ``Step.at_table``, ``procedure.shown``, ``RulesError.drawn``);
      ``option_names(state, question)``: names for a rules question's options beside them;
    - the menu: ``order`` (the moves' order; others after them, as the rules list them),
      ``short`` (labels that fit the list), ``offered(move, state)`` (a legal move the menu
      shows: one whose form has something to ask), ``shown_refused(state)`` (moves listed though
      the rules refuse them now), ``rank(move, state)``, ``own_items(state, over)``;
    - the forms: ``forms`` (a move's own form by move name; ``correct``, the books'
      correction, has the one form every game shares, of its record's ``books``), ``prompts``
      (the generic form's shorter prompts, by move and field), ``confirm(name, state,
      names)`` (a move asked to be sure of first), ``taps(state, question)`` (cards whose tap
      answers a generic form's question);
    - ``default_seats(state, seats)``: the seats of a game whose store kept none;
    - ``cards(state)``: a tapped card's option id by (card kind, card id);
      ``card_options(state)``: the options a tapped card names when it names several;
    - ``title``, ``idle_key(state, last action)``, ``status``: the screen between actions;
    - ``party_pages(state, names, heading)``: the party (or players') screen;
    - ``tap_actions(state, legal)``: what a tapped card begins with no question waiting, or
      why it cannot now;
    - ``lights(state, seats, question)``: the game's own seat lights (seat -> ``on``, ``dim``,
      ``pulse``) with ``seats`` (id -> seat) and the question waiting;
    - ``new_setup(setup, store)``: a new game's setup (the wizard's) as it is stored, given
      what the store holds;
    - ``taps_skip_reading``: a tapped card is taken on any page, the steps not read yet
      skipped; else the steps are read first, unless every step left to read is of a kind in
      ``taps_skip`` (the result of the table's own entry, say: a hit, its gold);
    - ``on_glass(step)``: the step gets pages of its own on the glass (every step is in the
      log all the same);
    - ``back_leaves(action)``: BACK on a question the rules ask inside the action under way
      takes that action back, as BACK leaves a form; else BACK shows the steps before it;
    - ``likely(state, question)``: the row a rules question's cursor starts on;
    - ``asked(question, state)``: the question as the glass asks it, its words already with
      the table's names (Conquest leaves a hand's cards off a list and says some short);
    - the web page for the table's phones: ``page(state, names, seats)`` (the party page,
      less ``secret``), ``story(spec, record)`` (the story page; None: no story),
      ``secret_answers`` (the questions whose answer is a player's secret, by key: what the
      page says instead of the answer; their options and their glass are not sent either),
      ``hands(state)`` (each player's hand, for that player's own phone).
    """

    game: str = ""
    label: str = ""
    party_label = "Party"  # the menu's item for ``party_pages`` ("Summary" once over)
    order: tuple[str, ...] = ()
    short: Mapping[str, str] = {}
    prompts: Mapping[str, Mapping[str, str]] = {}
    forms: Mapping[str, OwnForm] = {}
    taps_skip_reading = False
    taps_skip: frozenset[str] = frozenset()

    @property
    def spec(self) -> GameSpec:
        """The game's record (its rules, data, cards...)."""
        return games.get(self.game)

    # ----------------------------------------------------------------------- new game, names

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        raise NotImplementedError(f"{type(self).__name__} has no new-game questions")

    def new_setup(self, setup: dict[str, Any], store: Any) -> dict[str, Any]:
        return setup

    def labels(self, state: Any) -> dict[str, str]:
        return self.spec.names(state)

    def option_names(self, state: Any, question: Question | None) -> dict[str, str]:
        return {}

    def default_seats(self, state: Any, seats: tuple[int, ...]) -> dict[str, int]:
        return {}

    def cards(self, state: Any) -> dict[tuple[str, str], str]:
        return {}

    def card_options(self, state: Any) -> dict[tuple[str, str], tuple[str, ...]]:
        return {}

    # ----------------------------------------------------------------------- the menu

    def offered(self, move: Move[Any], state: Any) -> bool:
        """A legal move the menu shows: its own form, or a generic one with something to
        ask (a move with no parameters has its button or its item: ``forms.askable``)."""
        return self.own_form(move.name) is not None or forms.askable(move, state)

    def shown_refused(self, state: Any) -> tuple[str, ...]:
        """Moves the menu lists though the rules refuse them now, so that the table hears
        why (a press says the rules' reason, and nothing changes); none by default."""
        return ()

    def rank(self, move: Move[Any], state: Any) -> Any:
        """Where a move comes in the menu: its place in ``order``, else after them."""
        return self.order.index(move.name) if move.name in self.order else len(self.order)

    def own_items(self, state: Any, over: bool) -> tuple[MenuItem, ...]:
        """The app's items after the moves: the party (the summary once over), a new game."""
        return (MenuItem("Summary" if over else self.party_label, {"do": PARTY}),
                MenuItem("New game", {"do": NEW_GAME}))

    def menu(self, state: Any, legal: list[Move[Any]], over: bool) -> tuple[MenuItem, ...]:
        """The menu's items: the moves offered (and those shown though refused), ranked; then
        the app's own."""
        moves = [m for m in legal if self.offered(m, state)]
        known = {m.name for m in moves}
        table = self.spec.moves.moves
        moves += [table[n] for n in self.shown_refused(state) if n not in known]
        moves.sort(key=lambda m: self.rank(m, state))
        items = [MenuItem(self.short.get(m.name, m.label), {"do": m.name}) for m in moves]
        return (*items, *self.own_items(state, over))

    # ----------------------------------------------------------------------- the forms

    def confirm(self, name: str, state: Any, names: Names) -> str | None:
        """The question a move is confirmed with first (None: begun at once)."""
        return None

    def taps(self, state: Any, question: Question) -> dict[tuple[str, str], Any]:
        """The cards whose tap answers a question of a generic form; none by default."""
        return {}

    def form_of(self, name: str, state: Any, names: Names) -> tuple[MakeForm, str] | None:
        """How to (re)start the form a menu item opens, and its title; None when it has none:
        not a move, a move the rules do not allow now (the press reaches the rules, which
        refuse it before any question; a form kept across a restart is dropped), or a move
        with nothing to ask (it goes straight to the session)."""
        move = self.spec.moves.moves.get(name)
        if move is None or not move.available(state):
            return None
        title = self.short.get(name, move.label)
        prompt = self.confirm(name, state, names)
        if prompt is not None:
            return (lambda: confirmed(prompt, name)), title
        own = self.own_form(name)
        if own is not None:
            return (lambda: own(state, names)), title
        if not fields(move.params):
            return None
        return (lambda: self.generic_form(move, state, names)), title

    def own_form(self, name: str) -> OwnForm | None:
        """A move's own form: the game's (``forms``), else for ``correct`` the form every game's
        books share (app/books.py, of ``GameSpec.books``); None: the generic form."""
        own = self.forms.get(name)
        books = self.spec.books
        if own is None and name == CORRECT and books is not None:
            return lambda state, names: correct_form(books(state), names)
        return own

    def generic_form(self, move: Move[Any], state: Any, names: Names) -> LocalProcedure:
        """The move table's own form (app/forms.py), each question with its names ("None"
        for an optional choice's none), the game's shorter prompt by field, and the cards
        whose tap answers it."""
        names = {**names, forms.NONE: "None"}
        prompts = self.prompts.get(move.name, {})
        proc = forms.form(move, state)
        try:
            question = next(proc)
            while True:
                if question.key in prompts:
                    question = dataclasses.replace(question, prompt=prompts[question.key])
                question = proc.send((yield Ask(question, names=names,
                                                cards=self.taps(state, question))))
        except StopIteration as stop:
            return stop.value

    # ----------------------------------------------------------------------- the glass

    def title(self, state: Any) -> str:
        return self.label

    def where(self, state: Any) -> str:
        """Where the game is, for the store's list ("" by default)."""
        return ""

    def result(self, state: Any, names: Names) -> str:
        """How the game ended, as the table reads it (the game's names for the ids)."""
        return self.spec.result(state) or ""

    def idle_key(self, state: Any, last: str | None) -> str:
        return "Game over" if self.spec.is_over(state) else self.label

    def status(self, state: Any, names: Names) -> tuple[str, ...]:
        return ()

    def party_pages(self, state: Any, names: Names, heading: str) -> tuple[Screen, ...]:
        return (Screen(heading, ("Nothing to show",)),)

    def tap_actions(self, state: Any, legal: list[Move[Any]]) -> TapActions:
        return {}

    def lights(self, state: Any, seats: Mapping[str, int],
               question: Question | None) -> dict[int, str]:
        return {}

    def on_glass(self, step: Step) -> bool:
        return True

    # ----------------------------------------------------------------------- the web page

    secret: frozenset[str] = frozenset()  # what the page never shows (the state's keys)
    # The answers the page never names, by question key: what it says instead (Conquest: the
    # card a player drew, which goes into a secret hand).
    secret_answers: Mapping[str, str] = {}

    def cards_read(self, store: Any, when: Callable[[str], str]) -> str:
        """The cards the table read off the physical cards at ``store``, as records of the
        game's card data with a comment line first (``overseer games cards``; ``when``: a
        store time in words); "" for none, or a game that keeps none."""
        return ""

    def hands(self, state: Any) -> dict[str, dict[str, str]] | None:
        """Each player's secret hand as the box knows it (player id -> card id -> the card's
        name, in the order drawn), for that player's own phone only (web/hands.py); None: the
        game has no hand the box knows."""
        return None

    def page(self, state: Any, names: Names, seats: Mapping[str, int]) -> dict[str, Any]:
        """The web page's party content (JSON-able): the state as the record writes it,
        less ``secret``."""
        return {"state": {k: v for k, v in self.spec.state_dict(state).items()
                          if k not in self.secret}}

    def story(self, spec: GameSpec, record: Any) -> Story | None:
        """The web page's story of a game's record (web/watch.py's ``Record``); none by
        default."""
        return None

    def back_leaves(self, action: str | None) -> bool:
        return False

    def likely(self, state: Any, question: Question) -> int:
        return 0

    def asked(self, question: Question, state: Any) -> Question:
        return question


def table(game: str) -> Table:
    """The table of a registered game (``games.GAMES``)."""
    found = games.get(game).table
    if not isinstance(found, Table):
        raise TypeError(f"game {game!r} has no table (its record's table is {found!r})")
    return found


def tables() -> dict[str, Table]:
    """Every registered game's table, in the registry's order."""
    return {name: table(name) for name in games.GAMES}


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
