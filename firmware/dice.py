# Fair dice: uniform faces by rejection sampling from the hardware random source, never % n.
import os

D12 = 0
RUNE = 1  # the black Rune Die
LOCATION = 2  # the red Location Die
FACES = (12, 6, 6)  # faces of each die, numbered 1..n
NAMES = ("D12", "RUNE DIE", "LOCATION DIE")


def _mask(n: int) -> int:
    """The smallest all-ones bit mask that covers 0..n-1."""
    m = 1
    while m < n:
        m <<= 1
    return m - 1


def face_from_byte(b: int, n: int) -> int:
    """The face 1..n that random byte b gives, or 0 when b is rejected (draw again).

    The low bits under the mask are uniform over 0..mask; values >= n are thrown away, so each of
    the n faces keeps exactly the same number of the 256 byte values.
    """
    v = b & _mask(n)
    if v < n:
        return v + 1
    return 0


def roll(die: int, urandom=os.urandom) -> int:
    """A fair face 1..FACES[die]."""
    n = FACES[die]
    while True:
        face = face_from_byte(urandom(1)[0], n)
        if face:
            return face
