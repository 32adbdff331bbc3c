"""Performing a shot sequence (Red Box: AI Player Behaviour, step 5; New Character Shots; New
Ranged Shots; Clock Template for summons; Ice Box: Ranged Shots, Conditional Shot Operators).

A shot that makes another piece act (summon, repeat) calls the ``act`` procedure it is given:
activation passes its own ``activate``, so this module never imports activation.
"""

from __future__ import annotations

from collections.abc import Callable

from overseer.core.procedure import (
    ChanceKey,
    ChooseSome,
    Die,
    Pick,
    Procedure,
    Ref,
    Roll,
    Step,
    YesNo,
    roll,
)
from overseer.rules.catacombs import cards, clock, damage_tokens, rulebook
from overseer.rules.catacombs.kinds import Key, StepKind, TargetKind
from overseer.rules.catacombs.modifiers import (
    apply_modifiers,
    bearer,
    damage,
    destroyed,
    not_applied,
    wound,
)
from overseer.rules.catacombs.shot_choice import RANGED
from overseer.rules.catacombs.state import (
    BY_HAND,
    CHARACTER_DAMAGE,
    Battle,
    Hero,
    Piece,
    Shot,
)
from overseer.rules.catacombs.targeting import Target, closest, in_sight

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
SHOT, MOVE, MISS, TEMPLATE = StepKind.SHOT, StepKind.MOVE, StepKind.MISS, Key.TEMPLATE
ENEMY, FROZEN_TEAMMATE, WYVERN = TargetKind.ENEMY, TargetKind.FROZEN_TEAMMATE, TargetKind.WYVERN

ROLL = ChanceKey.ROLL  # bound once: an Enum member read off its class is slow (3.11)


# How a piece acts at once (activation.activate): the piece, why it acts, the repeat depth.
Act = Callable[[Battle, Piece, str, int], Procedure]

# Ranged shots the AI resolves without a damage token: the table places the web piece.
# (Ice Box: Lightning Shot: the AI flicks nothing, so the three flicks do not arise; lightning
# draws its damage token like any other ranged shot.)
NO_DAMAGE_RANGED = frozenset({"web"})
# Shots whose damage tokens are resolved on a hero (resolve_hit): the ones that apply modifiers.
TOKEN_SHOTS = CHARACTER_DAMAGE | (RANGED - NO_DAMAGE_RANGED
                                  - {"vortex", "portal_trap", "hook", "heal", "summon_antient"})
# Steps that show a shot hit a member of the Heroic Forces without damage: the key naming them.
HIT_STEPS: dict[str, str] = {StepKind.CLOCK: "who", StepKind.PORTAL_TRAP: "target"}
# How the shot step names a condition (Ice Box: Conditional Shot Operators).
MUST_NOTES = {"damage": " (it must inflict damage for the sequence to go on)",
              "hit": " (it must hit an opposing character for the sequence to go on)"}
MAX_REPEATS = 3  # a repeat shot cannot chain forever (Overseer's ruling)


def ruler_of(battle: Battle, piece: Piece) -> int:
    return battle.data.behaviour[piece.type].ruler


def target_ref(battle: Battle, target: Target) -> Ref:
    """The target as a fact of a sentence: by its name (a wyvern by its id)."""
    found = battle.heroes.get(target.id) or battle.pieces.get(target.id)
    return (target.id, target.id) if found is None else found.ref


def rush_step(battle: Battle, piece: Piece, target: Target, why: str = "rush") -> Step:
    """Move toward the Active Target with the piece's LOS ruler, through obstacles; stop
    adjacent to the target if the ruler would carry the piece past it. The whole rush toward
    an enemy or a teammate to repeat (a shot's: ``perform`` is given no other target)."""
    ruler = ruler_of(battle, piece)
    return Step(MOVE, rulebook.PERFORM,
                "{piece}: {why} toward {toward} with Ruler {ruler}, passing through obstacles; "
                "if the ruler reaches past {toward}, stop adjacent to it",
                {"piece": piece.id, "toward": target.id, "ruler": ruler, "why": why},
                {"piece": piece.ref, "why": why, "toward": target_ref(battle, target),
                 "ruler": ruler})


def rush(battle: Battle, piece: Piece, target: Target, why: str = "rush") -> Procedure:
    """The rush (``rush_step``), then what reaching the target does: a frozen teammate is freed,
    a wild wyvern ridden."""
    yield rush_step(battle, piece, target, why)
    toward = target_ref(battle, target)
    if target.kind == FROZEN_TEAMMATE:
        battle.pieces[target.id].frozen = False
        yield Step(StepKind.FREED, rulebook.PERFORM,
                   "{piece} is freed: the ice shot piece is removed", {"piece": target.id},
                   {"piece": toward})
    elif target.kind == WYVERN:
        battle.wyverns.remove(target.id)
        piece.riding = target.id
        yield Step(StepKind.RIDES, rulebook.PERFORM,
                   "{piece} now rides {wyvern}",
                   {"piece": piece.id, "wyvern": target.id},
                   {"piece": piece.ref, "wyvern": toward})


# A hit's questions' words as templates (their ``said``), the same at every hit: made once.
# The push's, by whether the fear modifier moves the character too.
HIT_SAID = {"purpose": "{piece}: {label} on {hero}"}
PUSH_SAID = {fear: {"purpose": "clock template: hit by {piece}'s {label}" + fearful}
             for fear, fearful in ((False, ""), (True, " (fear)"))}


def resolve_hit(battle: Battle, piece: Piece, hero: Hero, shot: Shot) -> Procedure:
    """Draw the shot's damage tokens, inflict them, apply modifiers, push if no zero token
    came; a reset icon returns the discards afterwards. A mount is invulnerable: a hit on it
    goes to its rider, or does no damage when no one rides it (Ice Box: Mounts)."""
    label = shot.label
    hit = {"piece": piece.ref, "label": label, "hero": hero.ref}  # the facts of its sentences
    purpose = f"{piece.name}: {label} on {hero.name}"  # its template in the rules' words
    tokens = []
    total, zero = 0, False
    for level in damage_tokens.levels(shot):
        token = yield damage_tokens.question(battle, level, purpose, HIT_SAID, hit)
        yield damage_tokens.drawn(battle, level, token)
        tokens.append(token)
        total += token.value
        zero = zero or token.value == 0
    taker = bearer(battle, hero)  # before the damage: a rider it kills no longer rides
    if total > 0:
        if taker is hero:  # ``wound``'s common case, without its procedure: a hero takes it
            yield damage(hero, total, rulebook.TOKENS, "{piece}'s {label}", hit)
            if hero.health <= 0:
                yield from destroyed(battle, hero, rulebook.TOKENS)
        else:
            yield from wound(battle, hero, total, rulebook.TOKENS, ("{piece}'s {label}", hit))
        if shot.modifiers:
            yield from apply_modifiers(battle, piece, taker or hero, shot, taker is None)
    else:
        yield Step(MISS, rulebook.TOKENS,
                   "{piece}'s {label} misses {hero} (zero token)",
                   {"piece": piece.id, "target": hero.id},
                   {"piece": piece.ref, "label": label, "hero": hero.ref})
    # Red Box: Clock Template (errata): no zero token drawn, the target is pushed (even one that
    # took no damage; a rider is knocked off its mount); the fear modifier also moves a
    # character it hurt. Both at once make one move (Overseer's ruling).
    fear = "fear" in shot.modifiers and total > 0
    pushed = taker or hero
    if (not zero or fear) and pushed.health > 0 and pushed.away is None:  # alive, on the mat
        fearful = " (fear)" if fear else ""
        why = f"hit by {piece.name}'s {label}{fearful}"
        if pushed.riding:
            yield from clock.push(battle, pushed.id, why, ("hit by {piece}'s {label}" + fearful,
                                                            hit))
        else:  # the common push (``clock.push``'s move itself): the roll and its step alone
            face = yield clock.roll(why, PUSH_SAID[fear], hit)
            yield clock.moved(pushed.id, pushed.name, clock.HERO_RULER, why, face)
    reset = damage_tokens.settle(battle, tokens)
    if reset is not None:
        yield reset
    return total


def move_to_random_rune(battle: Battle, piece: Piece, why: str,
                        rule: str = rulebook.NEW_SHOTS) -> Procedure:
    """New Character Shots, Move to Random Rune: the black Rune Die; on Cave of the Keystone
    or for a flyer both dice, and the mover chooses between them (the AI: see below). ``rule``
    is the section that makes the piece move (an Antient's: step 2's Special Exception)."""
    who = {"piece": piece.ref}
    rune = yield Roll(Die.RUNE, f"{piece.name}: move to random rune", ROLL,
                      {"purpose": "{piece}: move to random rune"}, who)
    keystone = battle.options.playmat == "cave-of-the-keystone"
    data: dict[str, object] = {"piece": piece.id, "rune": rune, "why": why}
    if not (piece.flying or keystone):
        yield Step(StepKind.MOVE_TO_RUNE, rule,
                   "{piece}: move to rune {rune}; if it is already there or the rune is taken, "
                   "stay",
                   data,
                   {"piece": piece.ref, "rune": rune})
        return
    location = yield Roll(Die.LOCATION, f"{piece.name}: move to random rune", ROLL,
                          {"purpose": "{piece}: move to random rune"}, who)
    if location == rune:
        text = (f"{{piece}}: both dice show rune {rune}: move there; if it is already there "
                "or the rune is taken, stay")
    else:
        # The book lets the mover choose between the two runes and gives the AI no preference.
        text = (f"{{piece}}: Rune Die {rune}, Location Die {location}; the AI picks rune "
                f"{rune}, the Rune Die's (Overseer's ruling: the book gives the AI no "
                "preference; the black Rune Die is the die of every other move to random rune, "
                "so the pick stays random and needs no question); if it is already there or "
                f"rune {rune} is taken, rune {location}; if both are taken, stay")
    if piece.flying and not keystone:
        text += "; a flyer on an obstacle climbs down within 1 inch at the start of its next turn"
    yield Step(StepKind.MOVE_TO_RUNE, rule, text,
               {**data, "location": location, "choice": rune, "verified": location == rune},
               who)


def summon(battle: Battle, piece: Piece, shot: Shot, depth: int, act: Act) -> Procedure:
    """Clock template on the summoner, D12, Ruler 1; the summoned piece acts at once."""
    # Red Box: Clock Template (errata), summon shot.
    name = shot.summons or "?"
    face = yield roll(Die.D12, "{piece} summons {name}", {"piece": piece.ref, "name": name})
    n = sum(1 for p in battle.pieces if p.startswith("summoned-")) + 1
    new_id = f"summoned-{n}"
    try:
        new = cards.piece_from_monster(battle.data, new_id, name)
    except KeyError:
        yield Step(StepKind.SUMMON, rulebook.CLOCK,
                   "{piece} summons {name}: not in the card data; place it and run it by its card",
                   {"piece": piece.id, "summons": name, "known": False},
                   {"piece": piece.ref, "name": name})
        return
    yield from bring_in(battle, piece, new, face, depth, act)


def bring_in(battle: Battle, piece: Piece, new: Piece, face: int, depth: int,
             act: Act) -> Procedure:
    """Place a summoned piece by the clock template and Ruler 1 (its two cases said, as for
    any clock move: ``clock.EDGE_CASE``); it acts at once."""
    battle.pieces[new.id] = new
    side = f"12 toward the Hero Start Zone, or {clock.EDGE_CASE}"
    yield Step(StepKind.SUMMON, rulebook.CLOCK,
               "{piece} summons {new}: clock template {side}; place it at {face} o'clock with "
               "Ruler 1; it acts at once",
               {"piece": piece.id, "summoned": new.id, "summons": new.name, "face": face,
                "facing": "hero_start_zone", "at_edge_facing": "centre"},
               {"piece": piece.ref, "new": new.ref_id, "side": side, "face": face})
    battle.acted.append(new.id)
    yield from act(battle, new, "summoned", depth + 1)


def summon_antient(battle: Battle, piece: Piece, depth: int, act: Act) -> Procedure:
    """Ice Box: Summon Antient Shot: an unused Antient comes in like any summon and acts at
    once. Which one: a blind draw among the unused (Overseer's ruling; the book lets the
    player performing the shot choose)."""
    if not battle.antients:
        yield Step(StepKind.INSTRUCTION, rulebook.SUMMON_ANTIENT,
                   "{piece} summons an unused Antient, but none was entered for this battle: if "
                   "the table has one, place it as a summon (clock template, D12, Ruler 1) and "
                   "play it by its card",
                   {"piece": piece.id,
                                                        "shot": "summon antient",
                                                        "implemented": False},
                   {"piece": piece.ref})
        return
    ids = tuple(battle.antients)
    chosen = ids[0] if len(ids) == 1 else (
        yield Pick("unused Antients", f"{piece.name}: summon antient", ids))
    new = battle.antients.pop(chosen)
    how = "the only one unused" if len(ids) == 1 else "drawn at random (Overseer's ruling)"
    yield Step(StepKind.ANTIENT, rulebook.SUMMON_ANTIENT,
               "{piece} summons the unused Antient {new}: {how}",
               {"piece": piece.id, "antient": new.id, "unused": list(ids)},
               {"piece": piece.ref, "new": new.ref_id, "how": how})
    face = yield roll(Die.D12, "{piece} summons {new}", {"piece": piece.ref, "new": new.ref})
    yield from bring_in(battle, piece, new, face, depth, act)


def heal(battle: Battle, piece: Piece) -> Procedure:
    """Ice Box: Heal Shot: a teammate hit gains one health. The AI heals the nearest teammate
    in sight that can be hurt (Overseer's ruling, as for the repeat shot); the book sets no
    upper limit."""
    mates = [p.id for p in battle.pieces.values() if p.alive and p.id != piece.id
             and not p.teleported and not p.invulnerable]
    seen = yield from in_sight(battle, piece, mates, "teammates")
    if not seen:
        yield Step(StepKind.NO_EFFECT, rulebook.HEAL_SHOT,
                   "{piece}'s heal shot finds no teammate in sight",
                   {"piece": piece.id},
                   {"piece": piece.ref})
        return
    chosen = yield from closest(battle, piece, seen, "teammate")
    mate = battle.pieces[chosen]
    mate.health += 1
    yield Step(StepKind.HEAL, rulebook.HEAL_SHOT,
               "{piece}'s heal shot: {mate} gains 1 health: {health} (Overseer's ruling: the "
               "nearest teammate in sight)",
               {"piece": piece.id, "healed": mate.id, "amount": 1, "health": mate.health},
               {"piece": piece.ref, "mate": mate.ref_id, "health": mate.health})


def target_ranged(battle: Battle, piece: Piece) -> Procedure:
    """The target ranged shot picks its own target by the Hero Target tiles (D12)."""
    # Red Box: AI Player Behaviour, step 5, Special Exception.
    holders = {h.target_tile: h for h in battle.heroes.values()
               if h.target_tile and h.alive and h.away is None}
    if not holders:
        return None
    tiles = battle.data.tiles_of("hero_target")
    while True:
        face = yield roll(Die.D12, "{piece}: target ranged shot (Hero Target tiles)",
                          {"piece": piece.ref})
        tile = next((t for t in tiles if t["low"] <= face <= t["high"]), None)
        if tile and tile["id"] in holders:
            hero = holders[tile["id"]]
            yield Step(StepKind.TARGET, rulebook.TARGET_RANGED,
                       "target ranged shot: D12 {face} selects {text} ({hero})",
                       {"piece": piece.id, "target": hero.id, "column": "hero_target_tile",
                        "face": face, "tile": tile["id"], "verified": tile["verified"]},
                       {"face": face, "text": tile['text'], "hero": hero.ref})
            return hero
        # A tile nobody holds: roll again (Overseer's ruling).
        yield Step(StepKind.REROLL, rulebook.TARGET_RANGED,
                   f"D12 {face} selects a Hero Target tile no hero on the playmat holds: "
                   "roll again", {"face": face})


# The steps of a hit after which the hero hit and the piece still stand where they stood: the
# tokens, the damage and its marks. Any other (a push, a rider knocked off, a mount removed, a
# Death card, an instruction for the table) may have moved one of them.
STILL_AFTER_HIT = frozenset({
    StepKind.TOKEN, StepKind.RESET, StepKind.DAMAGE, StepKind.MISS, StepKind.INVULNERABLE,
    StepKind.PASSES_TO_RIDER, StepKind.POISON, StepKind.POISON_DECK_EMPTY, StepKind.STUNNED,
    StepKind.CAPTURE_COIN, StepKind.HERO_DOWN})


class Cover:
    """What a shot sequence knows of the Attack template: ``hero`` is the hero its shot just
    performed covered, when no step since has moved that hero or the piece, or only the hit's
    push, with the ruler the piece rushes with. A character damage shot right after on that
    hero then needs no template question: its rush brings the piece at least as near as it
    stood when the template covered the hero, so the template still covers (Overseer's
    ruling)."""

    __slots__ = ("hero",)

    def __init__(self) -> None:
        self.hero: str | None = None


def perform(battle: Battle, piece: Piece, target: Target, sequence: list[Shot],
            depth: int, act: Act) -> Procedure:
    """Perform each shot of the chosen sequence in order (``sequence``). One shot without a
    condition is the sequence: its procedure itself (the common sequence: no procedure of its
    own around it)."""
    if len(sequence) == 1 and sequence[0].must is None:
        return perform_shot(battle, piece, target, sequence[0], depth, act)
    return sequence_of(battle, piece, target, sequence, depth, act)


def sequence_of(battle: Battle, piece: Piece, target: Target, sequence: list[Shot],
                depth: int, act: Act) -> Procedure:
    """Perform each shot of ``sequence`` in order. A piece destroyed on the way stops
    (its first shot is always performed: a reactive shot comes before the piece is removed).
    A shot whose condition fails ends the sequence (Ice Box: Conditional Shot Operators).
    Two character damage shots or more: what the template covers is kept between them
    (``Cover``)."""
    damaging = 0
    for shot in sequence:  # a loop, not a list comprehension (a function made and called)
        if shot.kind in CHARACTER_DAMAGE:
            damaging += 1
    cover = Cover() if damaging > 1 else None
    for n, shot in enumerate(sequence):
        if n and not piece.alive:
            return
        if cover is not None and shot.kind not in CHARACTER_DAMAGE:
            cover.hero = None  # another shot came between: it may have moved either
        if shot.must is None:  # no condition: nothing to watch
            if (yield from perform_shot(battle, piece, target, shot, depth, act, cover)):
                return
            continue
        steps: list[Step] = []
        done = yield from watched(perform_shot(battle, piece, target, shot, depth, act, cover),
                                  steps.append)
        steps = own_steps(steps)
        if done:
            return
        met = (inflicted_damage(battle, steps) if shot.must == "damage"
               else hit_enemy(battle, steps))
        yield condition_step(piece, shot, met)
        if not met:
            return


def watched(proc: Procedure, seen: Callable[[Step], object]) -> Procedure:
    """Run ``proc`` unchanged, showing ``seen`` each step it yields; return its result."""
    answer = None
    while True:
        try:
            item = proc.send(answer)
        except StopIteration as stop:
            return stop.value
        if isinstance(item, Step):
            seen(item)
        answer = yield item


def own_steps(steps: list[Step]) -> list[Step]:
    """The steps of the shot itself: a piece it makes act (summon, repeat) is not the shot."""
    for n, step in enumerate(steps):
        if step.kind == StepKind.ACTIVE_CHARACTER:
            return steps[:n]
    return steps


def inflicted_damage(battle: Battle, steps: list[Step]) -> bool:
    """A member of the Heroic Forces lost health."""
    return any(s.kind == StepKind.DAMAGE and s.data.get("target") in battle.heroes for s in steps)


def hit_enemy(battle: Battle, steps: list[Step]) -> bool:
    """A member of the Heroic Forces was hit: damaged, or moved or sent away by the shot (a
    zero damage token is the AI's miss)."""
    return inflicted_damage(battle, steps) or any(
        s.kind in HIT_STEPS and s.data.get(HIT_STEPS[s.kind]) in battle.heroes for s in steps)


def condition_step(piece: Piece, shot: Shot, met: bool) -> Step:
    what = "inflict damage" if shot.must == "damage" else "hit an opposing character"
    template = ("{piece}'s {label} had to {what} and did: the sequence goes on" if met
                else "{piece}'s {label} had to {what} and did not: the rest of its sequence is "
                "not performed")
    return Step(StepKind.CONDITION, rulebook.CONDITIONAL, template,
                {"piece": piece.id, "shot": shot.label, "must": shot.must, "met": met},
                {"piece": piece.ref, "label": shot.label, "what": what})


def perform_shot(battle: Battle, piece: Piece, target: Target, shot: Shot,
                 depth: int, act: Act, cover: Cover | None = None) -> Procedure:
    """One shot. Returns True when the sequence ends here (teleport). ``cover``: what the
    sequence knows of the Attack template (``perform``)."""
    kind, label = shot.kind, shot.label
    hero = battle.heroes.get(target.id) if target.kind == ENEMY else None
    data = {"piece": piece.id, "shot": label, "target": target.id}
    must = ""
    if shot.must:
        data["must"] = shot.must
        must = MUST_NOTES.get(shot.must, "")
    yield Step(SHOT, rulebook.PERFORM,
               "{piece}: {label}{must}",
               data,
               {"piece": piece.ref, "label": label, "must": must})
    if hero is not None and (hero.health <= 0 or hero.away is not None):  # not alive, or away
        yield Step(StepKind.NO_EFFECT, rulebook.PERFORM,
                   "{hero} is no longer on the playmat",
                   {"piece": piece.id, "target": hero.id},
                   {"hero": hero.ref})
        return False
    if shot.modifiers and kind not in TOKEN_SHOTS and kind not in BY_HAND:
        # A shot with no damage token on a hero applies none of its modifiers: say so.
        yield from not_applied(piece, shot, frozenset({"target"}) if kind in RANGED
                               and kind not in NO_DAMAGE_RANGED else frozenset())
    if kind in CHARACTER_DAMAGE:  # the common shots first (no other case names them)
        yield from character_damage(battle, piece, target, shot, cover)
    elif kind in ("rush", "open_portal"):  # open portal: the AI rushes instead
        yield rush_step(battle, piece, target, "rush" if kind == "rush" else "open portal: rush")
    elif kind == "move_to_rune":  # move to rune: the AI moves to a random rune
        yield from move_to_random_rune(battle, piece, "move to rune")
    elif kind == "runic_shift":  # random rune, then always the optional melee
        yield from move_to_random_rune(battle, piece, "runic shift")
        yield from perform_shot(battle, piece, target, Shot("melee"), depth, act)
    elif kind == "teleport":
        piece.teleported = True
        yield Step(StepKind.TELEPORT, rulebook.PERFORM,
                   "{piece} moves to the Teleported! card; when it next acts it returns on a "
                   "random rune and performs its melee shot",
                   {"piece": piece.id},
                   {"piece": piece.ref})
        return True
    elif kind == "summon":
        yield from summon(battle, piece, shot, depth, act)
    elif kind == "summon_antient":
        yield from summon_antient(battle, piece, depth, act)
    elif kind == "repeat":
        yield from repeat(battle, piece, target, depth, act)
    elif kind == "heal":
        yield from heal(battle, piece)
    elif kind == "hook":  # the AI flicks no hook: it moves as a rush (Overseer's ruling)
        yield rush_step(battle, piece, target, "hook: rush (Overseer's ruling)")
    elif kind in RANGED:  # after heal, hook and summon_antient, which are ranged too
        yield from ranged(battle, piece, target, shot)
    else:
        yield Step(StepKind.INSTRUCTION, rulebook.PERFORM,
                   "{piece}: perform {label} as its card says (the AI rules do not cover this "
                   "shot)",
                   {"piece": piece.id, "shot": shot.label,
                                        "implemented": False},
                   {"piece": piece.ref, "label": shot.label})
    return False


# The Attack template's question as a template (its ``said``), the same at every hit: made once.
COVER_SAID = {"prompt": "Place the Attack template over {piece} (visible through the hole). "
                        "Does it cover {hero}, even partly?"}


def character_damage(battle: Battle, piece: Piece, target: Target, shot: Shot,
                     cover: Cover | None = None) -> Procedure:
    """Melee, bite, roll...: reposition as a rush, then the Attack template must cover the
    target; if it does, draw and resolve the damage tokens. ``cover``: the sequence's
    knowledge of the template (``Cover``), read and then brought up to date."""
    known = cover is not None and cover.hero == target.id
    if cover is not None:
        cover.hero = None
    yield rush_step(battle, piece, target, "reposition for " + shot.label)
    if target.kind != ENEMY:
        return
    hero = battle.heroes[target.id]
    facts = {"piece": piece.ref, "hero": hero.ref}
    if known:
        # Overseer's ruling: the template covered this hero at the shot just performed, and
        # this rush brings the piece at least as near (``Cover``): it covers.
        yield Step(StepKind.COVERED, rulebook.PERFORM,
                   "the Attack template covers {hero} again: it did at the last shot, and this "
                   "rush brings {piece} at least as near (Overseer's ruling)",
                   {"piece": piece.id, "target": hero.id}, facts)
    else:
        prompt = (f"Place the Attack template over {piece.name} (visible through the hole). "
                  f"Does it cover {hero.name}, even partly?")  # = its template's (COVER_SAID)
        covered = yield YesNo(prompt, TEMPLATE, COVER_SAID, facts)
        if not covered:
            yield Step(MISS, rulebook.PERFORM,
                       "the Attack template does not reach {hero}",
                       {"piece": piece.id, "target": hero.id},
                       {"hero": hero.ref})
            return
    if cover is None:
        yield from resolve_hit(battle, piece, hero, shot)
        return
    steps: list[Step] = []
    yield from watched(resolve_hit(battle, piece, hero, shot), steps.append)
    ruler = ruler_of(battle, piece)
    # A push moves the hero at most the length of its ruler; a rush with the same ruler
    # straight toward the hero wins back at least that much (the book stops a rush at no
    # piece but its target, and an obstacle at none).
    if all(s.kind in STILL_AFTER_HIT or s.kind == StepKind.CLOCK and s.data["who"] == hero.id
           and s.data["ruler"] == ruler for s in steps):
        cover.hero = hero.id


def ranged(battle: Battle, piece: Piece, target: Target, shot: Shot) -> Procedure:
    kind = shot.kind
    if kind in NO_DAMAGE_RANGED:
        yield Step(StepKind.INSTRUCTION, rulebook.WEB_SHOT,
                   "{piece}: {label} deals no damage; the AI rules do not say where it lands: "
                   "place its piece as the card says (it stays on the playmat)",
                   {"piece": piece.id, "shot": shot.label, "implemented": False},
                   {"piece": piece.ref, "label": shot.label})
        return
    hero: Hero | None = battle.heroes.get(target.id) if target.kind == ENEMY else None
    if "target" in shot.modifiers:
        hero = yield from target_ranged(battle, piece)
        if hero is None:
            yield Step(StepKind.NO_EFFECT, rulebook.TARGET_RANGED,
                       "no hero holds a Hero Target tile",
                       {"piece": piece.id})
            return
        in_range = yield YesNo(f"Is {hero.name} within Ruler 3 of {piece.name}?", Key.IN_RANGE)
        if not in_range:
            yield Step(StepKind.MISS, rulebook.TARGET_RANGED,
                       "{hero} is out of range",
                       {"piece": piece.id, "target": hero.id},
                       {"hero": hero.ref})
            if kind == "dagger":
                yield from dagger_move(battle, piece, "it was out of range")
            return
    if hero is None:
        return
    if kind == "vortex":
        # Red Box: Clock Template: the vortex moves the character in a random direction.
        facts = {"piece": piece.ref}
        yield from clock.push(battle, hero.id, f"{piece.name}'s vortex",
                              ("{piece}'s vortex", facts))
        return
    if kind == "portal_trap":
        yield from portal_trap(battle, piece, hero, shot)
        return
    dealt = yield from resolve_hit(battle, piece, hero, shot)
    if kind == "dagger":
        yield from dagger_move(battle, piece, None if dealt else "its token was a zero")
    elif kind == "boomerang":
        yield from boomerang_return(battle, piece, Target(hero.id, TargetKind.ENEMY))


def dagger_move(battle: Battle, piece: Piece, missed: str | None) -> Procedure:
    """New Ranged Shots, Dagger: after inflicting damage the thrower moves to rune (a random
    rune for the AI). ``missed`` says why the dagger inflicted nothing, if it did not."""
    if missed is not None:
        # The book places the move after the damage and says nothing of a dagger that misses.
        yield Step(StepKind.DAGGER_MOVE, rulebook.NEW_RANGED,
                   "{piece}'s dagger inflicted no damage ({missed}); {piece} still moves to rune "
                   "(Overseer's ruling: the move is part of the dagger shot, not a reward for a "
                   "hit)",
                   {"piece": piece.id, "missed": missed,
                                               "moves": True, "verified": False},
                   {"piece": piece.ref, "missed": missed})
    yield from move_to_random_rune(battle, piece, "dagger")


def boomerang_return(battle: Battle, piece: Piece, target: Target) -> Procedure:
    """New Ranged Shots, Boomerang: rush, then Ruler 3 from the boomerang back to the thrower:
    1 damage to every enemy beneath it."""
    yield rush_step(battle, piece, target, "boomerang: rush")
    ids = [h.id for h in battle.enemies()]
    if not ids:
        return
    under = yield ChooseSome(f"Lay Ruler 3 on the boomerang pointing at {piece.name}: which "
                             "enemies are beneath it?", tuple(ids), Key.UNDER_RULER)
    for hero_id in under:
        yield from wound(battle, battle.heroes[hero_id], 1, rulebook.NEW_RANGED,
                         "boomerang's return")
    yield Step(StepKind.INSTRUCTION, rulebook.NEW_RANGED, "remove the boomerang piece", {})


def portal_trap(battle: Battle, piece: Piece, hero: Hero, shot: Shot) -> Procedure:
    """The portal trap hits when its damage token is not zero (Overseer's ruling for the AI);
    then the D12 table decides what happens to the character hit, and whether the clock
    template still pushes it."""
    level = damage_tokens.levels(shot)[0]
    token = yield from damage_tokens.draw(battle, level, f"{piece.name}: portal trap",
                                          ("{piece}: portal trap", {"piece": piece.ref}))
    if token.value == 0:
        yield Step(StepKind.MISS, rulebook.TOKENS,
                   "the portal trap misses {hero} (zero token)",
                   {"piece": piece.id, "target": hero.id},
                   {"hero": hero.ref})
        reset = damage_tokens.settle(battle, [token])
        if reset is not None:
            yield reset
        return
    face = yield Roll(Die.D12, f"portal trap on {hero.name}")
    row = next(r for r in battle.data.portal_trap if r["low"] <= face <= r["high"])
    yield Step(StepKind.PORTAL_TRAP, rulebook.NEW_RANGED,
               f"portal trap D12 {face}: {row['outcome']}, "
               f"{row['damage']} damage", {"target": hero.id, "face": face,
                                          "outcome": row["outcome"], "damage": row["damage"]})
    yield from wound(battle, hero, row["damage"], rulebook.NEW_RANGED, "portal trap")
    if hero.alive:
        yield from portal_outcome(battle, hero, row["outcome"])
    reset = damage_tokens.settle(battle, [token])
    if reset is not None:
        yield reset


def portal_outcome(battle: Battle, hero: Hero, outcome: str) -> Procedure:
    """Where the portal trap puts a living character, and the clock template push the
    non-zero token would call for (Red Box: Clock Template (errata))."""
    if outcome == "teleported":
        hero.away = "teleported"
        yield Step(StepKind.TELEPORTED, rulebook.NEW_RANGED,
                   "{hero} goes onto the Teleported! card (no clock template push: it has left "
                   "the playmat)",
                   {"hero": hero.id, "push": False},
                   {"hero": hero.ref})
    elif outcome == "random_rune":
        rune = yield Roll(Die.RUNE, f"portal trap: {hero.name} to a random rune")
        yield Step(StepKind.MOVE_TO_RUNE, rulebook.NEW_RANGED,
                   "{hero} moves to rune {rune}; if it is already there or the rune is taken, it "
                   "stays (no clock template push: the portal trap moves it instead, Overseer's "
                   "ruling)",
                   {"hero": hero.id, "rune": rune, "push": False,
                                          "verified": False},
                   {"hero": hero.ref, "rune": rune})
    elif outcome == "rush":
        # Results 4-5: no damage and the character stays where it is. The errata pushes after
        # any non-zero token, damage or not; the portal trap table does not say otherwise.
        yield Step(StepKind.PORTAL_PUSH, rulebook.CLOCK,
                   "{hero} stays on the playmat and the token was not a zero: the clock template "
                   "pushes it (Overseer's ruling: the portal trap table is silent, the errata "
                   "pushes on any non-zero token even without damage)",
                   {"hero": hero.id, "push": True, "verified": False},
                   {"hero": hero.ref})
        yield from clock.push(battle, hero.id, "portal trap (non-zero token)")
        yield Step(StepKind.INSTRUCTION, rulebook.NEW_RANGED,
                   "{hero} may perform a rush shot",
                   {"hero": hero.id},
                   {"hero": hero.ref})
    else:
        # Result 12: the character is placed where it chooses, which a push would not change.
        cave = battle.adventure.hidden_cave is not None
        where = ("the Hidden Cave card (entered as the portal trap sending it there) or an "
                 "unoccupied rune of its choice" if cave else "an unoccupied rune of its choice "
                 "(the Hidden Cave is not in this game)")
        yield Step(StepKind.PORTAL_PUSH, rulebook.CLOCK,
                   "no clock template push for {hero}: it is placed on {where} instead "
                   "(Overseer's ruling: the placement replaces the push)",
                   {"hero": hero.id, "push": False, "verified": False},
                   {"hero": hero.ref, "where": where})
        yield Step(StepKind.INSTRUCTION, rulebook.NEW_RANGED,
                   "{hero} goes to {where}",
                   {"hero": hero.id, "hidden_cave": cave},
                   {"hero": hero.ref, "where": where})


def repeat(battle: Battle, piece: Piece, target: Target, depth: int, act: Act) -> Procedure:
    """A friendly character in sight acts again at once: the Active Target when advanced
    targeting chose it for this shot, otherwise the one target selection finds now."""
    mates = [p.id for p in battle.pieces.values()
             if p.alive and p.id != piece.id and not p.frozen and not p.teleported]
    if target.kind == TargetKind.REPEAT_TEAMMATE:
        # Advanced Target Selection, 2: the teammate already chosen is the one that acts.
        seen = [target.id] if target.id in mates else []
    else:
        seen = yield from in_sight(battle, piece, mates, "teammates")
    if not seen or depth >= MAX_REPEATS:
        yield Step(StepKind.NO_EFFECT, rulebook.PERFORM,
                   "{piece}'s repeat shot finds no teammate",
                   {"piece": piece.id},
                   {"piece": piece.ref})
        return
    # Overseer's ruling: the nearest teammate in sight (the priority columns rank enemies).
    chosen = yield from closest(battle, piece, seen, "teammate")
    yield Step(StepKind.REPEAT, rulebook.PERFORM,
               "{piece} acts again (repeat shot by {piece2})",
               {"piece": piece.id, "repeats": chosen},
               {"piece": battle.pieces[chosen].ref, "piece2": piece.ref})
    yield from act(battle, battle.pieces[chosen], "repeat", depth + 1)
