"""Which shot sequence a character performs (Red Box: AI Player Behaviour, step 5, and the
Shot Preference column of the AI Player Attack Behaviour table)."""

from __future__ import annotations

from overseer.core.procedure import Die, Procedure, Roll, Step
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import RANGED, Battle, Piece, Shot

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
SHOT_SEQUENCE, D12 = StepKind.SHOT_SEQUENCE, Die.D12


MELEE = frozenset({"melee"})


def prefers(preference: str, sequence: list[Shot]) -> bool:
    """The sequence holds the preferred shot: poison, any shot with the poison modifier;
    ranged, a ranged shot; melee, a melee shot."""
    for s in sequence:  # loops, not any(): this runs for every sequence of every activation
        if preference == "poison":
            if "poison" in s.modifiers:
                return True
        elif preference == "ranged":
            if s.kind in RANGED:
                return True
        elif preference == "melee":
            if s.kind in MELEE:
                return True
    return False


def d12_band(face: int, count: int) -> int | None:
    """Split the D12 evenly over ``count`` choices: the index chosen by ``face``, or None when
    the face falls past the last whole band and must be rolled again (Overseer's ruling for
    counts that do not divide 12)."""
    width = 12 // count
    index = (face - 1) // width
    return index if index < count else None


def roll_band(count: int, purpose: str) -> Procedure:
    while True:
        face = yield Roll(D12, purpose)
        index = d12_band(face, count)
        if index is not None:
            return face, index
        yield Step(StepKind.REROLL, rulebook.SHOT_CHOICE,
                   f"D12 {face} falls past the last of {count} "
                   "even bands: roll again (Overseer's ruling)", {"face": face, "bands": count})


def chosen_step(piece: Piece, index: int, how: str, text: str, data: dict[str, object]) -> Step:
    """The step naming the sequence chosen and how."""
    shots: list[str] = []
    for shot in piece.sequences[index]:  # a loop, not a list comprehension (a function made
        # and called): this runs at every activation
        shots.append(shot.label)
    return Step(SHOT_SEQUENCE, rulebook.SHOT_CHOICE,
                "{piece}: {shots} ({text})",
                {"piece": piece.id, "sequence": index, "how": how, "shots": shots, **data},
                {"piece": piece.ref, "shots": ' then '.join(shots), "text": text})


def chosen(battle: Battle, piece: Piece) -> Step | None:
    """The step naming the sequence to perform when no D12 decides it (the only one, the only
    one preferred: its index is the step's ``sequence``), else None (``rolled``). Not a
    procedure: most activations choose so, and ask nothing."""
    sequences = piece.sequences
    if len(sequences) == 1:
        how = "single" if len(sequences[0]) == 1 else "one_sequence"
        text = "its only shot" if how == "single" else "its only sequence"
        return chosen_step(piece, 0, how, text, {})
    if piece.is_lord:
        return None
    row = battle.data.behaviour[piece.type]
    preferred = [i for i, seq in enumerate(sequences) if prefers(row.shot_preference, seq)]
    if len(preferred) != 1:
        return None
    return chosen_step(piece, preferred[0], "preferred", f"preferred: {row.shot_preference}",
                       {"verified": row.is_verified("shot_preference")})


def rolled(battle: Battle, piece: Piece) -> Procedure:
    """Return the index of the sequence to perform where ``chosen`` is None: the D12 decides,
    with a trace step saying why."""
    sequences = piece.sequences
    if piece.is_lord:
        # A Catacomb Lord rolls the D12 over all its sequences.
        face, index = yield from roll_band(len(sequences), "Catacomb Lord's shot sequence")
        yield chosen_step(piece, index, "lord_d12", f"Catacomb Lord, D12 {face}", {"face": face})
        return index
    row = battle.data.behaviour[piece.type]
    preference = row.shot_preference
    preferred = [i for i, seq in enumerate(sequences) if prefers(preference, seq)]
    verified = row.is_verified("shot_preference")
    if len(preferred) > 1:
        # Several sequences hold the preferred shot: the D12 over those (Overseer's ruling).
        face, k = yield from roll_band(len(preferred), "shot sequence among the preferred")
        yield chosen_step(piece, preferred[k], "preferred_d12",
                          f"preferred: {row.shot_preference}, D12 {face}",
                          {"face": face, "verified": verified})
        return preferred[k]
    face, index = yield from roll_band(len(sequences), "shot sequence")
    yield chosen_step(piece, index, "d12", f"no preferred shot, D12 {face}",
                      {"face": face, "verified": verified})
    return index
