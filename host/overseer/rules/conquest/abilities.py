"""Card abilities (Conquest: Abilities and Armour; Quick Tutorial; Winning the Game).

Capture Life and Stunned work when the card's shots damage an opponent (``on_damage``); an
armour card that blocks a shot cancels them for that shot. The others take effect after the
shot sequence (``after_shots``), which is the default timing of an ability.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from overseer.core.procedure import ChooseOne, Procedure, Step, YesNo
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.cards import Card, said_card
from overseer.rules.conquest.decks import hand_options, reshuffle_discards
from overseer.rules.conquest.health import lose, take_from_bank
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState, other

NONE = "none"


@dataclass
class CardPlay:
    """One card being played: its ability (as printed or as read off the card) and what its
    shots have done so far."""

    card: Card
    ability: str
    player: str
    captured: bool = False
    damaged_discs: list[str] = field(default_factory=list)


def on_damage(state: ConquestState, play: CardPlay, hits: tuple[str, ...],
              damage: int) -> Procedure:
    """Apply an unblocked shot's damage to the enemy pool, with the damage abilities."""
    team = state.players[play.player]
    enemy = other(team)
    play.damaged_discs.extend(d for d in hits if d not in play.damaged_discs)
    # Conquest: Abilities and Armour, Capture Life - damaging an opponent captures one token
    # (the first one lost goes to the attacker's pool: Quick Tutorial, Turn 2). Ruling: once
    # per card played.
    capture = play.ability == "capture_life" and not play.captured
    yield from lose(state, enemy, damage,
                    rulebook.CAPTURE_LIFE if capture
                    else rulebook.SHOT_TYPES,
                    f"{damage} damage from {play.card.title}",
                    capture_by=team if capture else None,
                    said=(f"{damage} damage from {{card}}", {"card": said_card(play.card)}))
    if capture:
        play.captured = True
    if play.ability == "stunned":
        # Conquest: Abilities and Armour, Stunned - the damaged opponent's next turn is
        # stunned. Ruling: the players controlling the damaged discs.
        for disc in hits:
            victim = state.controller[disc]
            if victim not in state.stunned:
                state.stunned.append(victim)
                yield Step(StepKind.STUN, rulebook.STUNNED,
                           "{victim} ({disc}) is stunned for their next turn.",
                           {"player": victim, "disc": disc},
                           {"victim": (victim, victim), "disc": (disc, disc)})


def after_shots(state: ConquestState, play: CardPlay,
                play_card: Callable[[ConquestState, str, str], Procedure]) -> Procedure:
    """Abilities that act once the shot sequence is done. ``play_card`` plays a further card
    (Surprise Attack)."""
    team = state.players[play.player]
    if play.ability == "heal_life":
        # Conquest: Abilities and Armour, Heal Life - take two tokens from the bank. It does not
        # depend on damage, so armour does not cancel it (Quick Tutorial, Turn 7).
        yield from take_from_bank(state, team, 2, rulebook.HEAL_LIFE,
                                  f"Heal Life of {play.card.title}",
                                  ("Heal Life of {card}", {"card": said_card(play.card)}))
    elif play.ability == "reset":
        # Conquest: Card Decks; Winning the Game, Advanced Rule - Reset: may shuffle the discard
        # pile back into the deck. The card itself is discarded after its ability (Turn Summary).
        if (yield YesNo(prompt=f"Reset: shuffle the {TEAM_NAMES[team]} discard pile "
                               f"({len(state.discards[team])} cards) back into the deck?",
                        key=Key.RESET)):
            moved = reshuffle_discards(state, team)
            yield Step(StepKind.RESET, rulebook.CARD_DECKS,
                       f"{TEAM_NAMES[team]} shuffles {moved} discarded cards back into its deck "
                       f"({len(state.decks[team])} cards).",
                       {"team": team, "moved": moved, "deck": len(state.decks[team])})
        else:
            yield Step(StepKind.RESET, rulebook.CARD_DECKS, "Reset not used.",
                       {"team": team, "moved": 0, "deck": len(state.decks[team])})
    elif play.ability == "surprise_attack":
        # Conquest: Quick Tutorial, Turn 2 - Surprise Attack: may play another card from hand.
        hand = state.hands[play.player]
        if not hand:
            yield Step(StepKind.SURPRISE_ATTACK, rulebook.SURPRISE_ATTACK,
                       "Surprise Attack: {player} has no card left to play.",
                       {"card": None},
                       {"player": (play.player, play.player)})
            return
        extra = yield ChooseOne(prompt="Surprise Attack: play another card from your hand?",
                                options=(*hand_options(state, play.player), NONE),
                                key=Key.SURPRISE_ATTACK)
        yield Step(StepKind.SURPRISE_ATTACK, rulebook.SURPRISE_ATTACK,
                   "Surprise Attack: {player} plays {card}." if extra != NONE else
                   "Surprise Attack: {player} plays no card.",
                   {"card": None if extra == NONE else extra},
                   {"player": (play.player, play.player),
                    "card": said_card(state.cards[extra]) if extra != NONE else ""})
        if extra != NONE:
            yield from play_card(state, play.player, extra)
    elif play.ability == "other":
        yield Step(StepKind.ABILITY, rulebook.ABILITIES,
                   "{card}: the table resolves this ability by hand.",
                   {"ability": "other"},
                   {"card": said_card(play.card)})
