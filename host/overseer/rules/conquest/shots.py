"""One shot of a card's sequence: what it hit, armour, and the damage (Conquest: Shot Types,
Abilities and Armour, Walls and Playmat, Reference).

The box cannot see the table, so it asks: which enemy discs a shot hit directly (a disc hit
after a wall ricochet takes no damage, and teammates cannot be hit for damage), the target of
a target shot and whether it was hit, the Power Wave discard, and whether the defenders spend
a retained armour card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overseer.core.procedure import (
    AnswerError,
    ChooseOne,
    ChooseSome,
    Procedure,
    RulesError,
    Step,
    YesNo,
    words,
)
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.abilities import CardPlay, on_damage
from overseer.rules.conquest.cards import DAMAGE, ONE_DAMAGE, said_card, shot_label, split_shot
from overseer.rules.conquest.decks import discard, hand_options, take_from_hand
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState, other

NONE = "none"
END = "end"  # no more shots (the end of the card)


class FriendlyFireError(AnswerError, RulesError):
    """A teammate's disc given as hit for damage. Nothing was applied."""


@dataclass(slots=True)  # a question, not frozen like its base (procedure.py)
class ChooseHits(ChooseSome):
    """Which enemy discs a shot hit directly. Naming a teammate is refused with the rule."""

    teammates: tuple[str, ...] = ()

    def check(self, answer: Any) -> tuple[str, ...]:
        if isinstance(answer, list | tuple):
            friendly = [a for a in answer if a in self.teammates]
            if friendly:
                # Conquest: Shot Types - teammates cannot damage each other.
                raise FriendlyFireError(
                    self, answer, f"enemy discs only ({', '.join(self.options)}): "
                    f"{', '.join(friendly)} is a teammate, and there is no friendly fire")
        return ChooseSome.check(self, answer)


def _hits(state: ConquestState, play: CardPlay, shot: str, told: bool = False) -> Procedure:
    """The enemy discs the shot hit directly (a tuple, maybe empty). ``told``: the table said
    the shot hit (``told_hits``), so a target shot's hit is not asked."""
    team = state.players[play.player]
    enemy = other(team)
    kind, target = split_shot(shot)
    label = shot_label(shot)
    if not target:
        hits = yield ChooseHits(
            prompt=f"{label} shot: which {TEAM_NAMES[enemy]} discs did it hit directly? "
                   "(none if it missed; a hit off a wall does not count)",
            options=state.team_discs(enemy), key=Key.HITS, teammates=state.team_discs(team))
        return hits
    # Conquest: Reference, Target Modifier - name one enemy disc; a miss allows one more flick
    # from where the ranged disc stopped; only the target can be damaged.
    aim = yield ChooseOne(prompt=f"{label} shot: which {TEAM_NAMES[enemy]} disc is the target?",
                          options=state.team_discs(enemy), key=Key.TARGET)
    yield Step(StepKind.TARGET, rulebook.TARGET_MODIFIER,
               "{player} designates {aim} as the target of the {label} shot.",
               {"target": aim},
               {"player": (play.player, play.player), "aim": (aim, aim), "label": label})
    if told:
        return (aim,)
    hit = yield YesNo(prompt=f"Did the {label} shot hit {aim} directly?", key=Key.HIT)
    if not hit:
        yield Step(StepKind.SECOND_FLICK, rulebook.TARGET_MODIFIER,
                   "Missed {aim}: one more flick from where the {disc} disc stopped.",
                   {"target": aim},
                   {"aim": (aim, aim), "disc": kind.replace("_", " ")})
        hit = yield YesNo(prompt=f"Second flick: did it hit {aim} directly?", key=Key.HIT)
    return (aim,) if hit else ()


def resolve(state: ConquestState, play: CardPlay, shot: str, told: bool = False) -> Procedure:
    """Perform one shot of the sequence (``told``: one the table said hit, ``told_hits``)."""
    team = state.players[play.player]
    enemy = other(team)
    kind, _ = split_shot(shot)
    label = shot_label(shot)
    if kind == "rush":
        # Conquest: Reference, Rush Shot - repositions; never damages.
        yield Step(StepKind.SHOT, rulebook.RUSH_SHOT,
                   "{player}: Rush shot (no damage).",
                   {"shot": shot, "hits": []},
                   {"player": (play.player, play.player)})
        return
    hits = yield from _hits(state, play, shot, told)
    if not hits:
        yield Step(StepKind.SHOT, rulebook.SHOT_TYPES,
                   "{player}: {label} shot hits nothing.",
                   {"shot": shot, "hits": []},
                   {"player": (play.player, play.player), "label": label})
        return
    base = DAMAGE[kind]  # Conquest: Reference - damage by shot type
    if kind == "power_wave" and state.hands[play.player]:
        # Conquest: Reference, Power Wave Shot - after a hit, discarding a card from hand makes
        # it 3 damage instead of 2. Ruling: asked before the defenders decide on armour.
        extra = yield ChooseOne(prompt="Power Wave hit: discard a card from your hand for 3 "
                                       "damage instead of 2?",
                                options=(*hand_options(state, play.player), NONE),
                                key=Key.POWER_WAVE)
        if extra != NONE:
            take_from_hand(state, play.player, extra)
            discard(state, team, extra)
            base = 3
            yield Step(StepKind.POWER_WAVE, rulebook.POWER_WAVE,
                       "{player} discards {card}: the Power Wave inflicts 3 instead of 2.",
                       {"discarded": extra},
                       {"player": (play.player, play.player),
                        "card": said_card(state.cards[extra])})
    # Conquest: Shot Types - a single shot hitting both enemy discs directly does double damage.
    damage = base * 2 if len(hits) == 2 else base
    yield Step(StepKind.SHOT, rulebook.SHOT_TYPES,
               "{player}: {label} shot hits "
               + " and ".join(f"{{hit{n}}}" for n in range(len(hits)))
               + " for {damage} damage{double}.",
               {"shot": shot, "hits": list(hits), "damage": damage},
               {"player": (play.player, play.player), "label": label, "damage": damage,
                "double": " (both enemy discs: double)" if len(hits) == 2 else "",
                **{f"hit{n}": (hit, hit) for n, hit in enumerate(hits)}})
    retained = state.retained[enemy]
    if retained:
        # Conquest: Abilities and Armour - during an opponent's turn, either defender may spend
        # one retained armour card to block all damage of one shot.
        spend = yield ChooseOne(prompt=f"{TEAM_NAMES[enemy]}: spend a retained armour card to "
                                       f"block this shot ({damage} damage)?",
                                options=(*retained, NONE), key=Key.ARMOUR)
        if spend != NONE:
            retained.remove(spend)
            discard(state, enemy, spend)
            # ... and what the attacker's ability would have done with that damage.
            cancelled = play.ability == "stunned" or (play.ability == "capture_life"
                                                      and not play.captured)
            yield Step(StepKind.ARMOUR, rulebook.ABILITIES,
                       "{team} spends {card}'s armour: the shot's damage is blocked{also}; the "
                       "armour card is discarded.",
                       {"team": enemy, "card": spend, "blocked": damage,
                        "cancelled": play.ability if cancelled else None},
                       {"team": TEAM_NAMES[enemy], "card": said_card(state.cards[spend]),
                        "also": " and so is " + play.ability.replace("_", " ") if cancelled
                        else ""})
            return
    yield from on_damage(state, play, hits, damage)


# The shots a table tells as hit, by what each does to the books (Conquest: Reference): the
# end (no more hits), a shot of one damage (Melee, Missile, Longbow, Fireball, Wave), Critical
# Melee (2), Power Wave (2, or 3 with a card discarded), and the target icon's two (Target
# Modifier: only the target is damaged). Rush never damages.
TOLD = (END, ONE_DAMAGE, "critical_melee", "power_wave", f"target_{ONE_DAMAGE}",
        "target_power_wave")


def told_hits(state: ConquestState, play: CardPlay) -> Procedure:
    """The shots of a card whose sequence the data does not print. The table makes them off
    the physical card (Conquest: Cards and Shot Sequences: every shot, left to right) and
    tells the box only the ones that hit an enemy disc directly, each as it comes: a shot that
    hits nothing changes no book (Conquest: Shot Types), so it is not asked. Each is told by
    what the books need of it (``TOLD``), then done as a shot of the sequence (``resolve``):
    its discs (a target shot: its target), the Power Wave discard, armour, the damage and the
    damage abilities, in the order told; the end when the card's shots are done."""
    while True:
        facts = {"card": said_card(play.card)}
        template = ("{card}: the next shot that hit an enemy disc directly (end: no more)? "
                    "Melee, Missile, Longbow, Fireball and Wave: 1 damage.")
        shot = yield ChooseOne(prompt=words(template, facts), options=TOLD,
                               key=Key.SHOT_HIT, said={"prompt": template}, facts=facts)
        if shot == END:
            return
        yield from resolve(state, play, shot, told=True)
