"""The AI player's damage tokens (Red Box: AI Player Behaviour, damage tokens)."""

from __future__ import annotations

from overseer.core.procedure import DrawToken, Facts, Procedure, Step, Token
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import Battle, Shot

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
TOKEN = StepKind.TOKEN


# Shots that draw a level 2 token even unmodified (the sword is a bite: New Character Shots).
HEAVY = frozenset({"roll", "bite", "devour", "giant_fireball", "sword"})
# Modifiers the AI ignores when choosing the level: chain (ignored by the AI player, step 5
# reminder), and target on a melee shot (treated as a regular melee, below).
IGNORED = frozenset({"chain"})


def levels(shot: Shot) -> list[int]:
    """The token levels one shot draws, in order."""
    # Red Box: AI Player Behaviour, damage tokens: boulder draws two level 3 tokens.
    if shot.kind == "boulder":
        return [3, 3]
    if not shot.modifiers:
        return [2] if shot.kind in HEAVY else [1]
    mods = [m for m in shot.modifiers if m not in IGNORED
            and not (m == "target" and shot.kind == "melee")]
    if "critical" in mods:  # critical: one level 3 token
        return [3]
    if mods:  # any other modifier: one level 2 token
        return [2]
    if shot.kind in HEAVY:  # roll, bite, devour, giant fireball: level 2
        return [2]
    return [1]  # unmodified: level 1


def draw(battle: Battle, level: int, purpose: str,
         said: tuple[str, Facts] | None = None) -> Procedure:
    """Draw and resolve one token of ``level``; return it. A reset token sends every discard
    back into its bag once it is resolved (the caller resolves it first: see ``settle``).
    ``said``: the purpose as a template and its facts (the pieces by the table's names)."""
    token = yield question(battle, level, purpose, {"purpose": said[0]} if said else None,
                           said[1] if said else None)
    yield drawn(battle, level, token)
    return token


def question(battle: Battle, level: int, purpose: str, said: dict[str, str] | None = None,
             facts: Facts | None = None) -> DrawToken:
    """``draw``'s question: a token of ``level`` from its bag (refilled first when it is empty),
    ``said`` its words' template (the question's) and ``facts``. Asked by a hit's own loop too
    (``shots.resolve_hit``: no procedure a token, its template made once)."""
    bag = battle.damage[level]
    physical = battle.options.physical_tokens
    if not physical and not bag.contents:
        # All tokens of the level are in the discard pile: put them back (Overseer's ruling;
        # the book only reshuffles on a reset icon).
        bag.reshuffle()
    return DrawToken(f"level {level} damage token", purpose,
                     () if physical else tuple(bag.contents), said=said, facts=facts)


def drawn(battle: Battle, level: int, token: Token) -> Step:
    """``draw``'s answer ``token`` taken out of its bag, and the step that says it."""
    physical = battle.options.physical_tokens
    if not physical:
        battle.damage[level].take(token)
    verified = physical or battle.data.tokens_verified
    return Step(TOKEN, rulebook.TOKENS,
                f"level {level} damage token: {token.label()}"
                f"{'' if verified else ' (unverified token values)'}",
                {"level": level, "value": token.value, "reset": token.reset,
                 "verified": verified})


def settle(battle: Battle, tokens: list[Token]) -> Step | None:
    """After the drawn tokens are resolved: a reset icon returns every discard to its bag.
    The step that says so, or None (no reset icon: the caller yields nothing)."""
    for token in tokens:  # a loop, not any(): this runs on every hit
        if token.reset:
            break
    else:
        return None
    if not battle.options.physical_tokens:
        for bag in battle.damage.values():
            bag.reshuffle()
        return Step(StepKind.RESET, rulebook.TOKENS,
                    "reset icon: all discarded damage tokens go back into their bags", {})
    return Step(StepKind.RESET, rulebook.TOKENS,
                "reset icon: put every discarded damage token back into its bag, face down", {})
