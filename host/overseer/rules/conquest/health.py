"""Health pools and the Health Bank (Conquest: Team Setup; Shot Types; Abilities and Armour)."""

from __future__ import annotations

from overseer.core.procedure import Facts, Procedure, Step
from overseer.rules.conquest.end import finish
from overseer.rules.conquest.kinds import StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState


def lose(state: ConquestState, team: str, amount: int, rule: str, why: str,
         capture_by: str | None = None, said: tuple[str, Facts] | None = None) -> Procedure:
    """``team`` loses ``amount`` tokens (never more than its pool). Lost tokens go back to the
    bank (Conquest: Shot Types, Attacking), except one that ``capture_by`` takes into its own
    pool (Conquest: Abilities and Armour, Capture Life; Quick Tutorial, Turn 2). ``said``:
    ``why`` as a template and its facts (a card the table names)."""
    lost = min(amount, state.pools[team])
    captured = 1 if capture_by is not None and lost > 0 else 0
    state.pools[team] -= lost
    state.bank += lost - captured
    if captured and capture_by is not None:
        state.pools[capture_by] += captured
    because, facts = said if said is not None else ("{why}", {"why": why})
    text = f"{TEAM_NAMES[team]} loses {lost} Health Token{'s' * (lost != 1)} ({because})"
    if captured and capture_by is not None:
        text += f"; {TEAM_NAMES[capture_by]} captures one"
    yield Step(StepKind.HEALTH, rule, text + ".",
               {"team": team, "lost": lost, "captured": captured, "pools": dict(state.pools),
                "bank": state.bank}, facts)
    # Conquest: Winning the Game - a pool emptied ends the game at once.
    if state.pools[team] == 0:
        yield from finish(state, "pool_empty", f"{TEAM_NAMES[team]} has no tokens left")


def take_from_bank(state: ConquestState, team: str, amount: int, rule: str, why: str,
                   said: tuple[str, Facts] | None = None) -> Procedure:
    """``team`` takes up to ``amount`` tokens from the bank into its pool; a pool may grow past
    its starting size (Conquest: Team Setup). ``said``: as for ``lose``."""
    taken = min(amount, state.bank)
    state.bank -= taken
    state.pools[team] += taken
    because, facts = said if said is not None else ("{why}", {"why": why})
    yield Step(StepKind.HEALTH, rule,
               f"{TEAM_NAMES[team]} takes {taken} Health Token{'s' * (taken != 1)} from the bank "
               f"({because}).",
               {"team": team, "healed": taken, "pools": dict(state.pools), "bank": state.bank},
               facts)
    # Conquest: Winning the Game - the bank used up ends the game at once.
    if state.bank == 0:
        yield from finish(state, "bank_empty", "no tokens left in the Health Bank")
