"""Catacombs Conquest on the gadget (app/conquest.py), played through the shell's inbox with the
buttons and the card reader: the new game's questions, the rulebook's Quick Tutorial, a whole
four-player game with undo and a restart, the turn tracker on the seat LEDs, and every bad tap
said with nothing changed. (tests/e2e/test_conquest_pico.py plays the whole game through the
virtual Pico and the emulated NFC reader.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from overseer import games
from overseer.app.conquest import TABLE
from overseer.core.procedure import Pick
from tests.drivers.conquest_table import Players, new_four_player_game, tutorial_script
from tools.table import BACK, CHOICE, OK, Table

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "conquest"
TUTORIAL = json.loads((SCENARIOS / "quick_tutorial.json").read_text(encoding="utf-8"))

# After the tutorial's seven turns, three more to the end (the cards the data leaves unknown:
# their ability and armour icon read off the card, the shots that hit told): Player 4 hits
# Sword 1 with a Critical Melee (undone once, and put back), Player 1 hits Skull 1 (the Skull
# Team keeps its armour), Player 2's Power Wave hits both Sword discs with a card discarded:
# 6 damage, the Sword Team's last 3 tokens.
MORE_DRAWS = ["sword-14", "skull-14", "sword-15", "skull-15"]
TURN_8 = [{"key": "ability", "answer": "none"}, {"key": "armour_icon", "answer": False},
          {"key": "shot_hit", "answer": "critical_melee"}, {"key": "hits", "answer": ["sword1"]},
          {"key": "shot_hit", "answer": "end"}]
TURN_9 = [{"key": "ability", "answer": "none"}, {"key": "armour_icon", "answer": True},
          {"key": "shot_hit", "answer": "one_damage"}, {"key": "hits", "answer": ["skull1"]},
          {"key": "armour", "answer": "none"}, {"key": "shot_hit", "answer": "end"}]
TURN_10 = [{"key": "ability", "answer": "none"}, {"key": "armour_icon", "answer": False},
           {"key": "shot_hit", "answer": "power_wave"},
           {"key": "hits", "answer": ["sword1", "sword2"]},
           {"key": "power_wave", "answer": "skull-10"}, {"key": "armour", "answer": "none"}]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def tutorial_table(store: Path) -> tuple[Table, Players]:
    """A four-player game set up on the gadget, the tutorial's cards dealt by tapping."""
    t = Table(store)
    new_four_player_game(t)
    draws, _, answers = tutorial_script(TUTORIAL)
    players = Players(t, draws, answers)
    players.settle()
    return t, players


def play_tutorial(players: Players) -> None:
    _, plays, _ = tutorial_script(TUTORIAL)
    for card in plays:
        players.play(card)


def state(t: Table) -> dict[str, Any]:
    return copy.deepcopy(t.session.state_dict())


# --------------------------------------------------------------------------- the new game


def test_conquest_is_the_second_game_asked_for() -> None:
    assert list(games.GAMES)[:2] == ["catacombs", "conquest"]
    assert games.CONQUEST.table is TABLE


def test_the_new_game_questions_make_the_setup_and_the_seats(store: Path) -> None:
    t = Table(store)
    new_four_player_game(t, draws="Tap plays only", health=9)
    session = t.session
    setup = session.setup["setup"]
    assert setup == {"players": {"p1": "sword", "p2": "skull", "p3": "sword", "p4": "skull"},
                     "health": 9, "draw_at_end": False, "last_stand": False,
                     "draws": "counted", "first": "sword"}
    assert t.gadget.playing.seats == {"p1": 1, "p2": 2, "p3": 3, "p4": 4, "sword1": 1, "sword2": 3,
                              "skull1": 2, "skull2": 4}
    # counted: the deal asks nothing; the first turn waits for a card
    assert session.pending is None
    assert session.state.pools == {"sword": 9, "skull": 9} and session.state.bank == 6
    t.read()
    assert t.screen.key == "Player 1" and t.screen.title == "Turn 1: Sword 1"
    t.close()


def test_two_players_a_team_each_and_the_first_team_rolled(store: Path) -> None:
    t = Table(store)
    t.choose_game("Conquest")
    t.pick("2 players")
    t.pick("Skull Team")  # player 2 is the Sword Team: nothing to ask
    t.pick("Seat 2")
    assert t.screen.title == "Player 2: seat?"
    t.pick("Seat 4")
    t.number(8)
    t.pick("Off")
    t.pick("On")  # last stand
    t.pick("Tap plays only")
    t.pick("Our own D12")
    t.read()
    assert t.screen.title == "First team: the D12"
    t.press(CHOICE)  # the table's own die: its face set with CHOICE
    t.number(9)  # 7-12: the Skull Team
    t.read()
    state_ = t.session.state
    assert state_.first == "skull" and state_.options.last_stand
    assert state_.controller == {"sword1": "p2", "sword2": "p2", "skull1": "p1",
                                 "skull2": "p1"}
    # Skull 1 (Player 1, seat 2) acts; Sword 1 (Player 2, seat 4) is next of its team
    assert t.leds.modes == {1: "off", 2: "on", 3: "off", 4: "dim"}
    t.close()


# --------------------------------------------------------------------------- the tutorial


def test_the_quick_tutorial_through_the_gadget(store: Path) -> None:
    t, players = tutorial_table(store)
    assert t.screen.key == "Player 1" and t.screen.title == "Turn 1: Sword 1"
    # the turn tracker: Sword 1 (seat 1) acts, the Skull Team's next disc (seat 2) waits
    assert t.leds.modes == {1: "on", 2: "dim", 3: "off", 4: "off"}
    assert t.session.state.hands["p1"] == ["salavi", "sword-05", "sword-06", "sword-07",
                                           "sword-10"]
    play_tutorial(players)
    assert players.answers == [] and players.draws == []
    final = t.session.state
    assert final.pools == {"sword": 5, "skull": 7} and final.bank == 12
    assert final.retained == {"sword": [], "skull": ["formilus"]}
    assert final.next_disc("skull") == "skull2" and final.acting_player() == "p4"
    assert t.leds.modes == {1: "dim", 2: "off", 3: "off", 4: "on"}
    t.close()


# --------------------------------------------------------------------------- a whole game


def test_a_whole_game_with_undo_a_restart_and_its_end(store: Path) -> None:
    t, players = tutorial_table(store)
    players.draws += MORE_DRAWS
    play_tutorial(players)
    frames = list(t.shown)

    # turn 8: Player 4's Critical Melee hits Sword 1; undone (BACK held) and put back
    players.answers = TURN_8[:3]  # its facts, then the shot that hit: a Critical Melee
    players.play("skull-07")
    assert t.session.pending.key == "hits"
    assert t.leds.modes[4] == "on"
    players.answer(["sword1"])
    t.read()
    assert t.session.state.pools["sword"] == 3
    t.press(BACK, long=True)
    assert t.screen.key == "Undone" and t.session.state.pools["sword"] == 5
    t.press(CHOICE)  # redo
    players.answers = TURN_8[4:]  # no more shots hit
    players.settle()
    assert t.session.state.pools["sword"] == 3 and t.session.state.bank == 14

    # turn 9: the power goes in the middle of Player 1's card; the game comes back
    players.answers = TURN_9[:1]
    players.play("sword-06")
    asked = t.session.pending
    assert asked is not None and asked.key == "armour_icon"
    before = t.screen
    t.close()
    t = Table(store)
    players.t = t
    t.read()
    assert t.screen == before and t.session.pending == asked
    assert t.leds.modes == {1: "on", 2: "dim", 3: "off", 4: "off"}
    # the defenders (Skull: seats 2 and 4) pulse on the armour question
    players.answer(True)
    t.read()
    players.answer("one_damage")  # the shot that hit: a Melee
    t.read()
    players.answer(["skull1"])
    t.read()
    assert t.session.pending.key == "armour"
    assert t.leds.modes == {1: "on", 2: "pulse", 3: "off", 4: "pulse"}
    players.answers = TURN_9[4:]
    players.settle()
    assert t.session.state.retained["sword"] == ["sword-06"]

    # turn 10: Player 2's Power Wave, a card discarded, hits both Sword discs: game over
    players.answers = list(TURN_10)
    players.play("skull-06")
    final = t.session.state
    assert final.over is not None and final.over.reason == "pool_empty"
    assert final.pools == {"sword": 0, "skull": 6} and final.bank == 18
    assert final.over.winner == "skull"
    assert t.session.finished
    assert t.screen.title == "Game over" and t.screen.key == "Game over"
    assert t.screen.lines[0].startswith("Skull Team wins")
    assert t.leds.modes == {1: "off", 2: "off", 3: "off", 4: "off"}
    keys = [s.key for s in [*frames, *t.shown]]
    for key in ("Sword -1 capt.", "Armour!", "Stunned",
                "Surprise Attack", "Power Wave +1", "Game over"):
        assert key in keys, key
    # the summary: who won and why, the pools and the bank
    t.press(OK)
    t.pick("Summary")
    pages = t.read()
    assert pages[0].key == "Result" and "Skull Team wins" in " ".join(pages[0].lines)
    assert pages[1].lines[:3] == ("Sword Team 0", "Skull Team 6", "Health Bank 18")
    t.close()


# --------------------------------------------------------------------------- bad taps


def started(store: Path) -> tuple[Table, Players]:
    t, players = tutorial_table(store)
    return t, players


def refused(t: Table, players: Players, card: str, words: str, game: str = "conquest") -> None:
    before, events = state(t), len(t.session.events)
    screen = players.tap(card, game)
    text = " ".join(p.lines[0] if n else " ".join(p.lines) for n, p in
                    enumerate(t.gadget.app.notice))
    assert words in text, text
    assert screen.key in ("Not now", "Wrong game", "Not an answer")
    assert state(t) == before and len(t.session.events) == events
    t.read()


def test_a_card_of_the_other_team_is_refused(store: Path) -> None:
    t, players = started(store)
    refused(t, players, "ughurth", "That is a Skull Team card: it is Player 1's turn")
    t.close()


def test_a_card_not_in_hand_is_refused(store: Path) -> None:
    t, players = started(store)
    refused(t, players, "sword-20", "Sword 20 is not in Player 1's hand: it is still in the deck")
    t.close()


def test_a_card_tapped_out_of_turn_is_refused(store: Path) -> None:
    t, players = started(store)
    refused(t, players, "mayra",
            "That card is in another player's hand: it is Player 1's turn (Sword 1")
    t.close()


def test_a_catacombs_card_in_a_conquest_game_is_refused(store: Path) -> None:
    t, players = started(store)
    refused(t, players, "bholoth-cemetery", "That card is from catacombs, not conquest",
            game="catacombs")
    t.close()


def test_a_draw_is_tapped_over_unread_steps(store: Path) -> None:
    """A tap is taken on any page: the steps not read yet (the first team, the deal) are
    skipped, not required."""
    t = Table(store)
    new_four_player_game(t)
    app = t.gadget.app
    assert app is not None and app.reading  # the first steps: the first team, the deal
    players = Players(t)
    players.tap("salavi")
    assert t.session.state.hands["p1"] == ["salavi"]
    t.close()


def test_a_draw_tapped_that_is_not_in_the_deck_is_refused(store: Path) -> None:
    t = Table(store)
    new_four_player_game(t)
    t.read()
    players = Players(t)
    players.tap("salavi")
    t.read()
    assert isinstance(t.session.pending, Pick)
    before = state(t)
    players.tap("salavi")  # drawn already
    assert t.screen.key == "Not an answer"
    players.tap("ughurth")  # the other team's deck
    assert t.screen.key == "Not an answer"
    assert state(t) == before
    t.close()


# --------------------------------------------------------------------------- counted hands


def test_counted_hands_take_any_unseen_card_and_refuse_one_played(store: Path) -> None:
    t = Table(store)
    new_four_player_game(t, draws="Tap plays only")
    t.read()
    players = Players(t, answers=[{"key": "ability", "answer": "none"},
                                  {"key": "armour_icon", "answer": False},
                                  {"key": "hits", "answer": []}, {"key": "hits", "answer": []},
                                  {"key": "hits", "answer": []}])
    session = t.session
    assert [len(h) for h in session.state.hands.values()] == [5, 4, 4, 4]
    status = " ".join(t.screen.lines)
    assert "5 in hand" in status
    players.play("salavi")
    state_ = t.session.state
    assert state_.discards["sword"] == ["salavi"] and len(state_.hands["p1"]) == 4
    assert state_.acting_player() == "p2"
    players.play("formilus")  # rush, missile: hits nothing; kept for its armour
    players.settle()
    assert t.session.state.acting_player() == "p3"
    for card, words in (("salavi", "Salavi is not in Player 3's hand: it is in the discard pile"),
                        ("formilus", "That is a Skull Team card")):
        refused(t, players, card, words)
    party = t.session.state_dict()
    assert party["hand_counts"] == {"p1": 4, "p2": 4, "p3": 5, "p4": 4}
    t.close()


def test_a_stunned_players_turn_says_what_to_do(store: Path) -> None:
    t, players = tutorial_table(store)
    _, plays, _ = tutorial_script(TUTORIAL)
    for card in plays[:4]:
        players.play(card)
    assert t.session.state.acting_player() == "p1" and "p1" in t.session.state.stunned
    assert t.screen.key == "Player 1"
    assert "Stunned: tap a card to discard it" in " ".join(t.screen.lines)
    t.close()
