"""Look-ups: a lost chamber, a lair, a monster, a TROPHY card or a rule of the expansion, in a
few lines on the screen. Reading only: nothing changes."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import Procedure, RulesError, Step
from overseer.core.shapes import suggestion
from overseer.rules.clank.kinds import StepKind
from overseer.rules.clank.records import LAIR
from overseer.rules.clank.state import ClankState


def topics(state: ClankState) -> list[str]:
    data = state.data
    return [*data.rooms, *data.monsters, *data.cards, *data.topics]


@dataclass(frozen=True, slots=True)
class LookUp:
    """``{"do": "look_up", "topic": id}``: a room, monster, card or topic id."""

    topic: str = param(options=topics, prompt="Look up which tile, chamber or rule?")


def look_up(state: ClankState, params: LookUp) -> Procedure:
    if params.topic not in topics(state):
        raise RulesError(f"look_up: unknown topic {params.topic!r}; "
                         f"{suggestion(params.topic, topics(state))}")
    return _lines(state, params.topic)


def _status(state: ClankState, topic: str) -> str | None:
    """How the room stands in this game: placed or not, its cubes, its monsters."""
    data = state.data
    if topic not in data.rooms:
        return None
    if topic not in state.placed:
        return "Not in the dungeon yet."
    if data.rooms[topic].kind == LAIR:
        left = [data.monster_of(t).name for t in state.lairs[topic]]
        return f"In the dungeon; monsters left: {', '.join(left) or 'none'}."
    cubes = [f"{data.spaces[s].name}: {p}" for s, p in state.cubes.items()
             if data.spaces[s].room == topic]
    return f"In the dungeon; cubes: {'; '.join(cubes) or 'none'}."


def _text(state: ClankState, topic: str) -> tuple[str, str, tuple[str, ...], bool]:
    """(name, section, lines, verified) of a topic."""
    data = state.data
    if topic in data.rooms:
        r = data.rooms[topic]
        spaces = data.spaces_of(topic)
        lines = r.rules
        return r.name, r.section, lines, r.verified and all(s.verified for s in spaces)
    if topic in data.monsters:
        m = data.monsters[topic]
        fight = f"Fight: {m.swords} swords" + (f", or {m.skills} skills" if m.skills else "") + \
            (" (a Secret Tome played this turn)" if m.secret_tome else "") + "."
        return m.name, m.section, (fight, f"DEFEAT: {m.defeat}", f"TROPHY: {m.trophy}"), \
            m.verified
    if topic in data.cards:
        c = data.cards[topic]
        lines = ((f"Fight: {c.swords} swords. DEFEAT: {c.defeat}",) if c.kind == "monster"
                 else ()) + (f"TROPHY: {c.trophy}",)
        return c.name, c.section, lines, c.verified
    t = data.topics[topic]
    return t.name, t.section, t.rules, t.verified


def _lines(state: ClankState, topic: str) -> Procedure:
    name, section, lines, verified = _text(state, topic)
    status = _status(state, topic)
    shown = (*lines, status) if status else lines
    for n, line in enumerate(shown, 1):
        yield Step(StepKind.LOOK_UP, section, f"{name}: {line}" if n == 1 else line,
                   {"topic": topic, "line": n, "of": len(shown), "verified": verified})
