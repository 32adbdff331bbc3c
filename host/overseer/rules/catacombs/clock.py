"""Random moves with the Clock template (Red Box: Clock Template, errata)."""

from __future__ import annotations

from overseer.core.procedure import ChanceKey, Die, Facts, Procedure, Roll, Step
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import Battle, Hero

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
CLOCK, D12, ROLL = StepKind.CLOCK, Die.D12, ChanceKey.ROLL


HERO_RULER = 3  # the Heroic Forces always use Ruler 3


def random_move(battle: Battle, who: str, name: str, ruler: int, why: str,
                half: bool = False, said: tuple[str, Facts] | None = None) -> Procedure:
    """Place the clock template on the character, roll the D12, move with ``ruler``. Where the
    template goes depends on whether the character stands at the playmat's edge (12 toward the
    Hero Start Zone, or flipped with 12 toward the centre): a fact of the table the face does
    not depend on, so the step says both cases and the table lays it as it stands (nothing
    is asked). ``half``: a retreat on the half clock, away from the heroes (see ``_half``).
    ``said``: ``why`` as a template and its facts (the piece that hit, by its name)."""
    if said is None:
        face = yield roll(why)
    else:
        face = yield roll(why, {"purpose": f"clock template: {said[0]}"}, said[1])
    yield moved(who, name, ruler, why, face, half)
    return face


def roll(why: str, said: dict[str, str] | None = None, facts: Facts | None = None) -> Roll:
    """``random_move``'s D12; ``said``, its words' template (the question's), and ``facts``."""
    if said is None:
        return Roll(D12, f"clock template: {why}")
    return Roll(D12, f"clock template: {why}", ROLL, said, facts)


def moved(who: str, name: str, ruler: int, why: str, face: int, half: bool = False) -> Step:
    """``random_move``'s step: the template laid and the move toward ``face``."""
    if half:
        template, side, facing = _half()
    else:
        template = "clock template"
        side, facing = "12 toward the Hero Start Zone", "hero_start_zone"
    return Step(CLOCK, rulebook.CLOCK,
                "{who}: {template} {side}, or {edge}; move toward {face} o'clock with Ruler "
                "{ruler}, stopping adjacent to any obstacle or piece in the way",
                {"who": who, "face": face, "ruler": ruler, "why": why, "half": half,
                 "facing": facing, "at_edge_facing": "centre"},
                {"who": (who, name), "template": template, "side": side, "edge": EDGE_CASE,
                 "face": face, "ruler": ruler})


# Red Box: Clock Template (errata): at the playmat's edge the template is flipped.
EDGE_CASE = "at the playmat's edge flipped with 12 toward the centre"


def _half() -> tuple[str, str, str]:
    """Brown's retreat on the half clock, read as the template's reverse side (the half the
    book lays at the playmat's edge). Away from the edge it opens toward the Monster Start
    Zone, its straight side to the Hero Start Zone, so no face leads toward the heroes; at the
    edge, the book's edge rule (12 toward the centre: ``EDGE_CASE``). Overseer's reading: the
    table's cell names the half clock but not how to lay it."""
    return ("half clock template (the Clock template's reverse side)", "with its straight side "
            "toward the Hero Start Zone, opening toward the Monster Start Zone (Overseer's "
            "reading)", "monster_start_zone")


def push(battle: Battle, hero_id: str, why: str,
         said: tuple[str, Facts] | None = None) -> Procedure:
    """Push a hit member of the Heroic Forces: riders are knocked off (only the rider moves);
    heroes always move with Ruler 3. The move itself for a hero who rides nothing (the common
    push: no procedure of its own around it)."""
    hero = battle.heroes[hero_id]
    move = random_move(battle, hero.id, hero.name, HERO_RULER, why, said=said)
    return knocked_off(battle, hero, move) if hero.riding else move


def knocked_off(battle: Battle, hero: Hero, move: Procedure) -> Procedure:
    """A rider pushed is knocked off its mount, which stays, then it ``move``s."""
    assert hero.riding is not None
    mount = battle.heroes.get(hero.riding)
    yield Step(StepKind.KNOCKED_OFF, rulebook.CLOCK,
               "{hero} is knocked off {mount}; the mount stays where it is",
               {"hero": hero.id, "mount": hero.riding},
               {"hero": hero.ref, "mount": mount.name if mount else hero.riding})
    wyvern, hero.riding = hero.riding, None
    if mount is None and wyvern not in battle.wyverns:
        # Ice Box: Mounts (Differences, 6): a wyvern knocked free can be ridden by others.
        battle.wyverns.append(wyvern)
        yield Step(StepKind.WYVERN_WILD, rulebook.MOUNTS, f"the wyvern {wyvern} is wild "
                   "again", {"wyvern": wyvern, "rider": hero.id})
    yield from move
