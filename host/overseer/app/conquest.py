"""Catacombs Conquest at the table: what the shell (app/shell.py) needs beyond the rules to run a
game on the five buttons and the card reader.

- ``wizard``: the new game's questions (how many players, each one's team and seat, the health
  per team, the optional rules, how the cards are told to the box, the first team), ending in a
  ``NewGame`` whose first action is ``start``;
- the turn: a card tapped with no question waiting plays it for the player whose disc the
  turn tracker shows (``tap_actions``), or says why not; the menu's "Play a card" chooses it;
- ``lights``: the turn tracker on the seat LEDs (the seat of the disc acting next on, the other
  team's next disc dim); when a retained armour card may block a shot, the defenders' seats
  pulse;
- ``labels``: players, discs and cards by their names on every screen (the rules' steps and
  questions name them as facts, drawn with these names);
- the party screen: the pools and the bank, the hands and decks, the retained armour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from overseer.app import forms
from overseer.app.flow import NewGame, Table, TapActions
from overseer.app.local import Ask, LocalProcedure
from overseer.core.moves import Move
from overseer.core.procedure import ChooseOne, EnterNumber, Question, RulesError, Step
from overseer.loaders.conquest import card_records
from overseer.loaders.conquest import default as default_cards
from overseer.rules.conquest import end
from overseer.rules.conquest.cards import ABILITIES, ONE_DAMAGE, SHOTS, Card, shot_label
from overseer.rules.conquest.decks import COUNTED, hand_options
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.play import Play, check_play
from overseer.rules.conquest.state import TEAM_NAMES, TEAMS, ConquestState, other
from overseer.screens import conquest as screens
from overseer.screens.render import Screen, detail_rows, wrap
from overseer.session.session import LogError, Session, SessionError
from overseer.session.store import StoreError

GAME = "conquest"
CARD = "card"  # the kind of a Conquest card's tag (devices/tags.py)
HEALTH = (1, 11)  # the health per team the rules take (rules/conquest/setup.py)
DEFAULT_HEALTH = 8  # Conquest: Team Setup

SHORT = {"play": "Play a card", "start": "Start the game", "correct": "Correct the books",
         "reread": "Read next card again"}


# --------------------------------------------------------------------------- names


def player_name(player: str) -> str:
    """``p3`` (the wizard's ids) is "Player 3"; another id is itself."""
    wizard = len(player) == 2 and player[0] == "p" and player[1].isdigit()
    return f"Player {player[1]}" if wizard else player


def disc_name(disc: str) -> str:
    """``skull2`` is "Skull 2"."""
    return f"{disc[:-1].capitalize()} {disc[-1]}"


def card_name(state: ConquestState, card_id: str) -> str:
    """A card by its printed name, else its id in words ("Sword 05")."""
    card = state.cards[card_id]
    return card.name if card.name != "unknown" else card_id.replace("-", " ").capitalize()


# The rules' option ids in words: shots, abilities, the end of a shot sequence, none.
WORDS = {**{s: shot_label(s) for s in SHOTS},
         ONE_DAMAGE: "Melee or ranged: 1", f"target_{ONE_DAMAGE}": "Target ranged: 1",
         **{a: a.replace("_", " ").capitalize() for a in (*ABILITIES, "other")},
         "end": "End of the card", "none": "None"}


IN_HAND = "a card in hand"  # what the glass calls a card a hand holds: hands are secret


def in_hands(state: ConquestState) -> set[str]:
    """Every card some hand holds (with ``draws`` ``counted``: the box's stand-ins)."""
    return set().union(*state.hands.values())


def labels(state: ConquestState) -> dict[str, str]:
    """Display names by id: the teams, the players, the discs and the cards; a card in a hand
    is not named (the glass is the whole table's, a hand its player's secret)."""
    names = dict(TEAM_NAMES)
    names.update(WORDS)
    hidden = in_hands(state)
    names.update((c, IN_HAND if c in hidden else card_name(state, c)) for c in state.cards)
    names.update((p, player_name(p)) for p in state.players)
    names.update((d, disc_name(d)) for d in state.controller)
    return names


# The questions whose options are the cards of a hand: the glass does not list them, it asks
# for a tap (the hidden options are answered by a tapped card: GameView.tap_answers).
FROM_HAND = {Key.POWER_WAVE: "Tap the card to discard", Key.SURPRISE_ATTACK:
             "Tap the card to play", Key.CORRECT_OUT: "Tap the card that left the hand"}


# The questions whose short form on the title bar is all the table needs: no page of the whole
# prompt before them (one press less each; the card was just tapped, the shot just flicked, the
# target just named; a second flick follows its own "Flick again" page).
SAID_SHORT = (Key.HITS, Key.SHOT_HIT, Key.ABILITY, Key.ARMOUR_ICON, Key.HIT)


def on_glass(step: Step) -> bool:
    """Whether a step gets pages on the glass: not the ones that only say back what the table
    just did or told (a card tapped to play or drawn, its facts, a target named, a shot that
    hit nothing); the log has them all."""
    if step.kind in (StepKind.PLAY, StepKind.CARD_FACTS, StepKind.TARGET):
        return False
    if step.kind == StepKind.DRAW:
        return not step.data.get("card")  # a draw tapped is said; a counted one is not
    return not (step.kind == StepKind.SHOT and not step.data.get("hits"))


def _private(question: Question, state: ConquestState) -> Question:
    """A question over a hand's cards with the cards left off its list (a tap answers)."""
    if question.key not in FROM_HAND or not isinstance(question, ChooseOne):
        return question
    shown = tuple(o for o in question.options if o not in state.cards)
    words = FROM_HAND[Key(question.key)]
    return replace(question, options=shown,
                   prompt=f"{question.prompt} {words}" + (", or None." if shown else "."))


def asked(question: Question, state: ConquestState) -> Question:
    """The question as the glass asks it (its words already with the table's names): the
    cards of a hand left off a list (``_private``); a question the title bar says short
    enough by its short form."""
    question = _private(question, state)
    if question.key in SAID_SHORT and isinstance(getattr(question, "prompt", None), str):
        return replace(question, prompt=screens.SHORT[Key(question.key)])
    return question


# --------------------------------------------------------------------------- likely answers


def _most(values: Sequence[str], options: Sequence[Any]) -> int:
    """The row of the value more than half of ``values`` are (else the first row)."""
    counts = Counter(v for v in values if v in options)
    top = next((v for v, n in counts.items() if 2 * n > len(values)), None)
    return 0 if top is None else list(options).index(top)


def likely(state: ConquestState, question: Question) -> int:
    """The row a card's fact asked of the table starts on: what most (more than half) of the
    cards whose fact is known (printed in the data, or read off the card at this table) show;
    else the first row (the shot that hit, of a card whose sequence is not printed: the
    end, no more hits)."""
    cards = state.cards.values()
    options: Sequence[Any] = getattr(question, "options", (True, False))
    if question.key == Key.ARMOUR_ICON:
        shown = [c.armour == "yes" for c in cards if c.armour in ("yes", "no")]
        return _most(["yes" if a else "no" for a in shown], ("yes", "no"))
    if question.key == Key.ABILITY:
        return _most([c.ability for c in cards if c.ability != "unknown"], options)
    return 0


# --------------------------------------------------------------------------- seats, lights


def default_seats(state: ConquestState, seats: tuple[int, ...]) -> dict[str, int]:
    """Seats when none were kept: the players in order, each disc at its player's."""
    out = dict(zip(state.players, seats, strict=False))
    out.update((d, out[p]) for d, p in state.controller.items() if p in out)
    return out


def lights(state: ConquestState, seats: Mapping[str, int],
           question: Question | None) -> dict[int, str]:
    """The turn trackers: the seat of the disc acting next on, the other team's next disc dim.
    When the defenders may spend a retained armour card, their seats pulse."""
    team = state.team_to_act
    if team is None or state.over is not None:
        return {}
    lit: dict[int, str] = {}
    waiting = seats.get(state.next_disc(other(team)))
    if waiting is not None:
        lit[waiting] = "dim"
    acting = seats.get(state.next_disc(team))
    if acting is not None:
        lit[acting] = "on"
    if question is not None and question.key == Key.ARMOUR:
        for disc in state.team_discs(other(team)):
            if disc in seats:
                lit[seats[disc]] = "pulse"
    return lit


# --------------------------------------------------------------------------- new game


TEAM_LABELS = {"sword": "Sword Team", "skull": "Skull Team"}
OFF_ON = {"off": "Off", "on": "On"}
DRAWS = {"tapped": "Tap each draw", "counted": "Tap plays only"}
FIRST = {"pico": "The Pico's D12", "seeded": "The box's D12", "table": "Our own D12",
         "sword": "Sword first", "skull": "Skull first"}


def _team_for(n: int, count: int, players: dict[str, str]) -> str | None:
    """The team player ``n`` (of ``count``) must join, or None when the table chooses: each
    team has one or two players."""
    have = {t: sum(1 for v in players.values() if v == t) for t in TEAMS}
    left = count - n + 1  # this player and the ones after
    for team in TEAMS:
        if have[team] == 2 or (have[other(team)] == 0 and left == 1):
            return other(team)
    return None


def _seat(n: int, taken: set[int], seats: tuple[int, ...]) -> LocalProcedure:
    free = [s for s in seats if s not in taken]
    if len(free) == 1:
        return free[0]
    options = {f"seat-{s}": f"Seat {s}" for s in free}
    picked = yield Ask(ChooseOne(f"Player {n}: seat?", tuple(options), "new_seat"),
                       names=options, seats={f"seat-{s}": s for s in free})
    return int(picked.removeprefix("seat-"))


def _choice(prompt: str, key: str, names: Mapping[str, str]) -> LocalProcedure:
    return (yield Ask(ChooseOne(prompt, tuple(names), key), names=names))


def wizard(seats: tuple[int, ...], pico: bool) -> LocalProcedure:
    """The new game's questions, in order; returns a ``NewGame``."""
    counts = {str(n): f"{n} players" for n in range(2, 5) if n <= len(seats)}
    count = int((yield from _choice("How many players?", "new_players", counts)))
    players: dict[str, str] = {}
    seat_of: dict[str, int] = {}
    for n in range(1, count + 1):
        player = f"p{n}"
        team = _team_for(n, count, players)
        if team is None:
            team = yield from _choice(f"Player {n}: team?", "new_team", TEAM_LABELS)
        players[player] = team
        seat_of[player] = yield from _seat(n, set(seat_of.values()), seats)
    health = yield Ask(EnterNumber("Health per team?", "new_health", *HEALTH),
                       start=DEFAULT_HEALTH)
    draw_at_end = yield from _choice("Draw at turn's end?", "new_draw_at_end", OFF_ON)
    last_stand = yield from _choice("Last stand?", "new_last_stand", OFF_ON)
    draws = yield from _choice("The cards drawn?", "new_draws", DRAWS)
    order = ("pico", "seeded", "table") if pico else ("seeded", "table", "pico")
    first = yield from _choice("First team?", "new_first",
                               {k: FIRST[k] for k in (*order, "sword", "skull")})
    setup: dict[str, Any] = {"players": players, "health": health,
                             "draw_at_end": draw_at_end == "on",
                             "last_stand": last_stand == "on", "draws": draws}
    if first in TEAMS:
        setup["first"] = first
    discs: dict[str, int] = {}
    for team in TEAMS:
        members = [p for p, t in players.items() if t == team]
        # Conquest: Three or Four Players - disc 1 is the team's first player's, disc 2 its
        # last's (a lone player runs both), as rules/conquest/setup.py deals them.
        discs[f"{team}1"], discs[f"{team}2"] = seat_of[members[0]], seat_of[members[-1]]
    return NewGame({"format": 2, "game": GAME, "setup": setup},
                   "seeded" if first in TEAMS else first, ({"do": "start"},),
                   {**seat_of, **discs})


# --------------------------------------------------------------------------- the play form


def play_form(state: ConquestState, names: Mapping[str, str]) -> LocalProcedure:
    """The card to play, tapped (the player is the one the tracker shows). The glass does not
    list the hand: the question has no options to choose, only the cards a tap gives."""
    player = state.acting_player()
    assert player is not None
    options = tuple(hand_options(state, player))
    card = yield Ask(ChooseOne(f"{names.get(player, player)}: tap the card", (),
                               "form_card"),
                     names=names, cards={(CARD, c): c for c in options})
    return {"do": "play", "player": player, "card": card}


FORMS: dict[str, Callable[[ConquestState, Mapping[str, str]], LocalProcedure]] = {
    "play": play_form,
}


# --------------------------------------------------------------------------- the glass


def title(state: ConquestState) -> str:
    team = state.team_to_act
    if state.over is not None:
        return "Game over"
    if team is None or not state.started:
        return "Conquest"
    return f"Turn {state.turn_number}: {disc_name(state.next_disc(team))}"


def idle_key(state: ConquestState, last: str | None) -> str:
    """Whose turn it is (the player whose disc the tracker shows)."""
    if state.over is not None:
        return "Game over"
    player = state.acting_player()
    return "Set up" if player is None else player_name(player)


def pools_line(state: ConquestState) -> str:
    return f"Sword {state.pools['sword']} Skull {state.pools['skull']} Bank {state.bank}"


def status(state: ConquestState, names: Mapping[str, str]) -> tuple[str, ...]:
    """What to do now, and the pools."""
    player = state.acting_player()
    if player is None:
        return (pools_line(state),)
    hand = len(state.hands[player])
    if player in state.stunned:
        todo = "Stunned: tap a card to discard it, then one Rush shot"
    else:
        todo = f"Tap a card: {hand} in hand"
    return todo, pools_line(state)


def _team_lines(state: ConquestState, team: str, names: Mapping[str, str]) -> list[str]:
    lines = [f"{names.get(p, p)}: {len(state.hands[p])} in hand"
             for p in state.team_players(team)]
    lines.append(f"Deck {len(state.decks[team])}  Discards {len(state.discards[team])}")
    armour = [names.get(c, c) for c in state.retained[team]]
    lines.append(f"Armour: {', '.join(armour) if armour else 'none'}")
    return lines


def party_pages(state: ConquestState, names: Mapping[str, str], heading: str
                ) -> tuple[Screen, ...]:
    """The pools and the bank (and the result), then each team's hands, deck, discards and
    retained armour, a page each (long pages go on over more)."""
    first = [f"Sword Team {state.pools['sword']}", f"Skull Team {state.pools['skull']}",
             f"Health Bank {state.bank}"]
    if state.stunned:
        first.append("Stunned: " + ", ".join(names.get(p, p) for p in state.stunned))
    over = end.result(state)
    pages: list[tuple[str, list[str]]] = [("Health", first)]
    if over:
        pages.insert(0, ("Result", [over]))
    pages += [(TEAM_NAMES[t], _team_lines(state, t, names)) for t in TEAMS]
    out: list[tuple[str, tuple[str, ...]]] = []
    for key, lines in pages:
        rows = [r for line in lines for r in wrap(line)]
        room = detail_rows(Screen(heading, key=key))
        out.append((key, tuple(rows[:room])))
        rest = rows[room:]
        per = detail_rows(Screen(heading))
        while rest:
            out.append(("", tuple(rest[:per])))
            rest = rest[per:]
    return tuple(Screen(heading, lines, key=key, page=(n + 1, len(out)))
                 for n, (key, lines) in enumerate(out))


def tap_actions(state: ConquestState, legal: list[Move[Any]]) -> TapActions:
    """What each Conquest card does when tapped with no question waiting: it is played by the
    player whose disc the tracker shows, or the table is told why not (another team's card, a
    card in another hand or out of the game, the game not under way)."""
    names = labels(state)
    player = state.acting_player()
    playing = player is not None and any(m.name == "play" for m in legal)
    out: TapActions = {}
    for card_id, card in state.cards.items():
        if state.over is not None:
            out[(CARD, card_id)] = f"the game is over: {end.result(state)}"
            continue
        if not playing or player is None:
            out[(CARD, card_id)] = "the game has not started"
            continue
        team = state.players[player]
        turn = (f"it is {names[player]}'s turn ({disc_name(state.next_disc(team))}, "
                f"{TEAM_NAMES[team]})")
        # A tapped card is named only where everyone may see it (played, discarded, kept).
        if card.team != team:
            out[(CARD, card_id)] = f"That is a {TEAM_NAMES[card.team]} card: {turn}."
            continue
        try:
            check_play(state, Play(player=player, card=card_id))
        except RulesError as err:
            held = any(card_id in state.hands[p] for p in state.team_players(team))
            if held and state.options.draws != COUNTED:
                out[(CARD, card_id)] = f"That card is in another player's hand: {turn}."
            else:
                out[(CARD, card_id)] = err.drawn(names)
            continue
        out[(CARD, card_id)] = {"do": "play", "player": player, "card": card_id}
    return out


def learned(store: Any) -> tuple[int | None, dict[str, dict[str, Any]]]:
    """The cards the table has read off the physical cards at this store: those of the last
    Conquest game played (which carries the ones before it), by card id, as a setup's
    ``cards`` takes them; a fact the card data has come to print since is left to the data.
    With the game's id (None: no Conquest game, or the last one does not replay)."""
    infos = sorted(store.games(GAME), key=lambda info: (info.updated, info.id))
    if not infos:
        return None, {}
    try:
        entered = Session.resume(store, infos[-1].id).state.entered
    except (LogError, SessionError, StoreError, RulesError, ValueError, KeyError):
        return None, {}  # a game that does not replay teaches nothing
    printed = default_cards()
    known = {c: {k: v for k, v in facts.items()
                 if getattr(printed[c], k) in ("unknown", ())}
             for c, facts in entered.items() if c in printed}
    return infos[-1].id, {c: f for c, f in known.items() if f}


def learned_records(store: Any, when: Callable[[str], str] = str) -> tuple[int, str]:
    """The cards ``learned`` at this store as ``[[card]]`` records of cards.toml (how many, and
    the text): the data's record with the facts read in place of its unknowns, ``verified =
    false``, its ``source`` saying what was read at which game (``when``: its last play, in
    words), after the rulebook's source where the data had one."""
    game_id, known = learned(store)
    if game_id is None or not known:
        return 0, ""
    printed = default_cards()
    read = f"read off the card at the table (Overseer game #{game_id}, " \
           f"{when(store.game(game_id).updated)})"

    def source(card: Card, facts: Mapping[str, Any]) -> str:
        said = f"{', '.join(facts)} {read}"
        return f"{card.source}; {said}" if card.verified else said

    cards = [replace(printed[c], **{k: tuple(v) if k == "shots" else v
                                    for k, v in facts.items()},
                     verified=False, source=source(printed[c], facts))
             for c, facts in known.items()]
    return len(cards), card_records(cards)


def new_setup(setup: dict[str, Any], store: Any) -> dict[str, Any]:
    """A new game's setup with the cards the table has read off the physical cards so far
    (``learned``), so no card is asked twice."""
    if "cards" in setup["setup"]:
        return setup
    _, known = learned(store)
    if not known:
        return setup
    return {**setup, "setup": {**setup["setup"], "cards": known}}


class ConquestTable(Table):
    """Catacombs Conquest at the table: a tapped card plays it (``tap_actions``), taken on
    any page (the steps not read yet skipped)."""

    game, label = GAME, "Conquest"
    short, forms = SHORT, FORMS
    taps_skip_reading = True
    # A hand and a deck are secret: the party page gives only how many cards each holds; a
    # hand is shown to its player's own phone only (``hands``, web/hands.py).
    secret = frozenset({"hands", "decks"})
    # ... and the answer of a draw is the card drawn: the page's log says a card was drawn.
    secret_answers = {Key.DRAW: "a card drawn", Key.CORRECT_DRAW: "a card drawn"}

    def hands(self, state: ConquestState) -> dict[str, dict[str, str]] | None:
        """With the cards only counted the box's ids are its guess: no hand to show."""
        if state.options.draws == COUNTED:
            return None
        return {p: {c: card_name(state, c) for c in hand} for p, hand in state.hands.items()}

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        return wizard(seats, pico)

    def new_setup(self, setup: dict[str, Any], store: Any) -> dict[str, Any]:
        return new_setup(setup, store)

    def labels(self, state: ConquestState) -> dict[str, str]:
        return labels(state)

    def cards_read(self, store: Any, when: Callable[[str], str]) -> str:
        count, records = learned_records(store, when)
        if not count:
            return ""
        return (f"# {count} Conquest cards read off the card: paste over their records in "
                f"data/conquest/cards.toml\n{records}")

    def asked(self, question: Question, state: ConquestState) -> Question:
        return asked(question, state)

    def default_seats(self, state: ConquestState, seats: tuple[int, ...]) -> dict[str, int]:
        return default_seats(state, seats)

    def offered(self, move: Move[Any], state: ConquestState) -> bool:
        return forms.askable(move, state)

    def title(self, state: ConquestState) -> str:
        return title(state)

    def idle_key(self, state: ConquestState, last: str | None) -> str:
        return idle_key(state, last)

    def status(self, state: ConquestState, names: Mapping[str, str]) -> tuple[str, ...]:
        return status(state, names)

    def party_pages(self, state: ConquestState, names: Mapping[str, str], heading: str
                    ) -> tuple[Screen, ...]:
        return party_pages(state, names, heading)

    def tap_actions(self, state: ConquestState, legal: list[Move[Any]]) -> TapActions:
        return tap_actions(state, legal)

    def lights(self, state: ConquestState, seats: Mapping[str, int],
               question: Question | None) -> dict[int, str]:
        return lights(state, seats, question)

    def on_glass(self, step: Step) -> bool:
        return on_glass(step)

    def likely(self, state: ConquestState, question: Question) -> int:
        return likely(state, question)


TABLE = ConquestTable()
