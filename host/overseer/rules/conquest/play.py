"""Playing a card on a turn (Conquest: Turn Summary; Cards and Shot Sequences; Abilities and
Armour; Quick Tutorial, Turn 5)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, Procedure, RulesError, Step, YesNo, refusal
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.abilities import CardPlay, after_shots
from overseer.rules.conquest.cards import ABILITIES, Card, said_card
from overseer.rules.conquest.decks import COUNTED, discard, hand_options, take_from_hand, where
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.shots import resolve, told_hits
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState
from overseer.rules.conquest.turns import end_turn


def _acting(state: ConquestState) -> list[str]:
    player = state.acting_player()
    return [] if player is None else [player]


def _hand(state: ConquestState) -> list[str]:
    player = state.acting_player()
    return [] if player is None else hand_options(state, player)


@dataclass(frozen=True, slots=True)
class Play:
    """``{"do": "play", "player": name, "card": card id}``."""

    player: str = param(options=_acting, prompt="Who plays?")
    card: str = param(options=_hand, prompt="Which card?")


def check_play(state: ConquestState, params: Play) -> tuple[str, str]:
    """The (player, card) of a play action, or ``RulesError`` saying why it is refused.
    Reads only: nothing changes here."""
    if not state.started:
        raise RulesError('the game has not started: the first action is {"do": "start"}')
    if state.over is not None:
        raise RulesError(f"the game is over ({state.over.reason}); no more cards are played")
    player, card_id = params.player, params.card
    if player not in state.players:
        places = {f"p{n}": (p, p) for n, p in enumerate(state.players)}
        raise RulesError(f"play: 'player' must be one of {', '.join(state.players)} "
                         f"(got {player!r})",
                         "play: 'player' must be one of " + ", ".join(f"{{{p}}}" for p in places)
                         + " (got {got})", {**places, "got": repr(player)})
    if card_id not in state.cards:
        raise RulesError(f"play: there is no Conquest card {card_id!r}")
    acting = state.acting_player()
    # Conquest: Card Decks, Turn Trackers - the tracker decides which disc (and player) acts.
    if player != acting:
        assert state.team_to_act is not None  # a player acts: a team is to act
        disc = state.next_disc(state.team_to_act)
        raise refusal(f"it is {{acting}}'s turn ({{disc}}, {TEAM_NAMES[state.team_to_act]}), "
                      "not {player}'s", acting=(acting, acting), disc=(disc, disc),
                      player=(player, player))
    card = state.cards[card_id]
    team = state.players[player]
    # Conquest: Cards and Shot Sequences, Team Emblem; Game Overview - a team plays its own deck.
    if card.team != team:
        raise refusal(f"{{card}} is a {TEAM_NAMES[card.team]} card; {{player}} plays for the "
                      f"{TEAM_NAMES[team]}", card=(card_id, card_id), player=(player, player))
    # Conquest: Turn Summary - the card comes from the player's own hand.
    if card_id not in hand_options(state, player):
        if state.options.draws == COUNTED:
            raise refusal(f"{{card}} is not in {{player}}'s hand: it is {where(state, card_id)} "
                          "(a card played, discarded or kept stays out until a Reset)"
                          if state.hands[player] else "{player}'s hand is empty",
                          card=(card_id, card_id), player=(player, player))
        # The hand is the player's secret: the refusal says where the card is, never the hand.
        raise refusal(f"{{card}} is not in {{player}}'s hand: it is {where(state, card_id)}",
                      card=(card_id, card_id), player=(player, player))
    return player, card_id


def card_facts(state: ConquestState, card: Card) -> Procedure:
    """The card's shots, ability and armour. An ability or armour icon the data does not know
    yet ("unknown") the table reads off the physical card, once: the card is then kept with
    the facts read (``state.entered``), so it is not asked again in this game, and the gadget
    gives them to the next game's setup (app/conquest.py). After a ``reread`` the facts the
    data leaves unknown are read again. A shot sequence the data does not print (no shots) is
    not read: the table makes the shots off the card and tells the ones that hit
    (``shots.told_hits``); the shots returned are then empty."""
    if state.reread:
        state.reread = False
        card = state.printed.get(card.id, card)
    shots = list(card.shots)
    ability = card.ability
    if ability == "unknown":
        ability = yield ChooseOne(prompt=f"{card.title}: which ability does the card show?",
                                  options=(*ABILITIES, "other"), key=Key.ABILITY)
    armour = card.armour
    if armour == "unknown":
        armour = "yes" if (yield YesNo(prompt=f"{card.title}: does it show the armour icon?",
                                       key=Key.ARMOUR_ICON)) else "no"
    if (ability, armour) != (card.ability, card.armour):
        state.entered[card.id] = {name: value for name, value, printed in (
            ("ability", ability, card.ability), ("armour", armour, card.armour))
            if value != printed}
        state.cards[card.id] = replace(card, ability=ability, armour=armour)
        yield Step(StepKind.CARD_FACTS, rulebook.ABILITIES,
                   "{card} as read off the card: ability {ability}; armour {armour}. Kept: not "
                   "asked again." + ("" if shots else " Its shots: the ones that hit are told."),
                   {"card": card.id, "shots": shots, "ability": ability, "armour": armour,
                    "verified": False},
                   {"card": said_card(card), "ability": ability, "armour": armour})
    return shots, ability, armour


def play_card(state: ConquestState, player: str, card_id: str) -> Procedure:
    """Play one card from ``player``'s hand: its shots in order, its ability, then discard it
    or keep it face up for its armour (Conquest: Turn Summary)."""
    card = state.cards[card_id]
    team = state.players[player]
    take_from_hand(state, player, card_id)
    state.in_play.append(card_id)
    yield Step(StepKind.PLAY, rulebook.TURN,
               "{player} plays {card}.",
               {"player": player, "card": card_id},
               {"player": (player, player), "card": said_card(card)})
    shots, ability, armour = yield from card_facts(state, card)
    play = CardPlay(card=card, ability=ability, player=player)
    # Conquest: Cards and Shot Sequences - every shot of the sequence is mandatory, in order.
    for shot in shots:
        yield from resolve(state, play, shot)
    if not shots:  # a sequence not printed: the table tells the shots that hit
        yield from told_hits(state, play)
    yield from after_shots(state, play, play_card)
    state.in_play.remove(card_id)
    if armour == "yes":
        # Conquest: Abilities and Armour - an armour card stays face up with the team.
        state.retained[team].append(card_id)
        yield Step(StepKind.RETAIN, rulebook.ABILITIES,
                   "{card} is kept face up for its armour.",
                   {"team": team, "card": card_id},
                   {"card": said_card(card)})
    else:
        discard(state, team, card_id)
        yield Step(StepKind.DISCARD, rulebook.CARD_DECKS,
                   "{card} goes to the discard pile.",
                   {"team": team, "card": card_id},
                   {"card": said_card(card)})


def play_turn(state: ConquestState, player: str, card_id: str) -> Procedure:
    """The play action: the card, then the end of the turn and the start of the next."""
    if player in state.stunned:
        # Conquest: Abilities and Armour, Stunned; Quick Tutorial, Turn 5 - the card is
        # discarded and ignored (armour too: ruling), and the disc makes one Rush shot.
        state.stunned.remove(player)
        team = state.players[player]
        take_from_hand(state, player, card_id)
        discard(state, team, card_id)
        yield Step(StepKind.STUNNED_PLAY, rulebook.STUNNED,
                   "{player} is stunned: {card} is discarded and ignored; one Rush shot (no "
                   "damage).",
                   {"player": player, "card": card_id},
                   {"player": (player, player), "card": said_card(state.cards[card_id])})
    else:
        yield from play_card(state, player, card_id)
    yield from end_turn(state, player)
