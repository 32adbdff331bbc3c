"""Room level rewards (Red Box: Room Level Rewards): after the Battle Phase, a Spell card for a
hero who can use it, and gold for every hero who survived."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, EnterNumber, Procedure, RulesError, Step, YesNo
from overseer.rules.catacombs import entered
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.rulebook import REWARDS
from overseer.rules.catacombs.state import Battle, played, room_holders


@dataclass(frozen=True, slots=True)
class RoomReward:
    """The reward icons as read off the Room card (``spell``, ``gold``), when the data lacks
    them or the table reads them otherwise; ``room``: default the room set up last;
    ``spell_card``: the Spell card drawn."""

    room: str | None = param(default=None)
    spell: bool | None = param(default=None)
    gold: int | None = param(default=None, low=0, high=99)
    spell_card: str | None = param(default=None)


def _icons(battle: Battle, params: RoomReward
           ) -> tuple[str, bool | None, int | None, bool | None]:
    """The room and its reward icons: what the action says (read off the card), else the
    room's data. Returns (room name, spell icon, gold, data verified or None); an icon
    neither gives is ``None``."""
    name = battle.adventure.room if params.room is None else params.room
    record = None
    if name is not None and name != "lord":
        try:
            record = entered.room_card(battle, name)
        except KeyError:
            record = None
    spell = params.spell
    if spell is None and record is not None:
        spell = record.get("reward_spell")
    gold = params.gold
    if gold is None and record is not None:
        gold = record.get("reward_gold")
    if gold is not None and gold < 0:
        raise RulesError(f"'gold' must be a whole number, 0 or more (got {gold!r})")
    if record is None:
        return str(name), spell, gold, None
    from_data = params.spell is None and params.gold is None
    return record["name"], spell, gold, record["verified"] if from_data else None


def room_reward(battle: Battle, params: RoomReward) -> Procedure:
    """``{"do": "room_reward", "room": id (default: the room set up), "spell": bool,
    "gold": n, "spell_card": name}``."""
    alive = room_holders(battle)
    if alive:
        raise RulesError(f"the Battle Phase is not over: {', '.join(alive)} still on the playmat")
    if not played(battle):
        raise RulesError("no room has been played yet: a room gives its rewards after its "
                         "Battle Phase")
    if battle.adventure.rewarded:
        raise RulesError("this room has already given its rewards")
    survivors = [h for h in battle.heroes.values() if h.kind == "hero" and h.alive]
    if not survivors:
        raise RulesError("no hero survived the Battle Phase: no reward")
    label, spell, gold, verified = _icons(battle, params)
    if spell is None and gold is None:
        # Not in the data: the table reads the icons off the Room card.
        spell = yield YesNo(f"Does {label}'s Room card show the Spell card icon?", Key.REWARD_SPELL)
        gold = yield EnterNumber(f"How much gold does {label}'s Room card show (0 for none)?",
                                 Key.REWARD_GOLD, 0, 20)
    extra = {} if verified is None else {"verified": verified}
    if spell:
        card = "a Spell card" if params.spell_card is None else params.spell_card
        hero_id = survivors[0].id if len(survivors) == 1 else (yield ChooseOne(
            f"Which hero can use {card} ({label}'s reward)?",
            tuple(h.id for h in survivors), Key.SPELL_HERO))
        battle.adventure.spells.setdefault(hero_id, []).append(card)
        yield Step(StepKind.REWARD_SPELL, REWARDS,
                   "{label}: {card} to {hero}; then reshuffle the Spell deck",
                   {"hero": hero_id, "spell": card, **extra},
                   {"label": label, "card": card, "hero": battle.heroes[hero_id].ref})
    if gold:
        for hero in survivors:
            hero.gold += gold
        yield Step(StepKind.REWARD_GOLD, REWARDS, f"{label}: {gold} gold to each surviving hero ("
                   + ", ".join(h.name for h in survivors) + ")",
                   {"gold": gold, "heroes": [h.id for h in survivors], **extra})
    battle.adventure.rewarded = True
