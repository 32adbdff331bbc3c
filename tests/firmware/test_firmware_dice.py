"""Dice fairness: the rejection sampler checked exactly over every input byte, plus chi-square."""

import os
from collections import Counter

import dice
import pytest

from tests.firmware.fwtools import FIRMWARE, FakeUrandom

DICE = [dice.D12, dice.RUNE, dice.LOCATION]
# chi-square critical values at p = 1e-6 (scipy.stats.chi2.isf(1e-6, df)): a fair die fails
# about once in a million runs
CRITICAL = {11: 48.87, 5: 35.89}


@pytest.mark.parametrize("die", DICE)
def test_every_face_has_exactly_the_same_share_of_byte_values(die: int) -> None:
    n = dice.FACES[die]
    faces = Counter(dice.face_from_byte(b, n) for b in range(256))
    rejected = faces.pop(0, 0)
    assert sorted(faces) == list(range(1, n + 1))
    assert len(set(faces.values())) == 1  # every face equally likely, for every possible byte
    assert rejected == 256 - n * faces[1]
    assert rejected < 128  # more than half of all draws are accepted


def test_faces_of_each_die() -> None:
    assert dice.FACES == (12, 6, 6)


def test_roll_draws_again_after_a_rejected_byte() -> None:
    # 0x0C & 0x0F = 12 is rejected for a D12, 0x0E too; 0x05 gives face 6
    urandom = FakeUrandom(bytes([0x0C, 0x0E, 0x05]))
    assert dice.roll(dice.D12, urandom) == 6
    assert urandom.i == 3
    # rune die: mask 7, 6 and 7 rejected, 0x10 & 7 = 0 gives face 1
    assert dice.roll(dice.RUNE, FakeUrandom(bytes([0x06, 0x07, 0x10]))) == 1


def test_no_modulo_in_the_dice() -> None:
    code = [ln.split("#")[0] for ln in (FIRMWARE / "dice.py").read_text().splitlines()]
    assert not any("%" in ln for ln in code)


def chi_square(counts: Counter, n: int, rolls: int) -> float:
    expected = rolls / n
    return sum((counts[f] - expected) ** 2 / expected for f in range(1, n + 1))


def roll_many(die: int, rolls: int) -> Counter:
    return Counter(dice.roll(die, os.urandom) for _ in range(rolls))


@pytest.mark.parametrize("die", DICE)
def test_chi_square_small(die: int) -> None:
    n = dice.FACES[die]
    counts = roll_many(die, 12_000)
    assert set(counts) == set(range(1, n + 1))
    assert chi_square(counts, n, 12_000) < CRITICAL[n - 1]


@pytest.mark.long
@pytest.mark.parametrize("die", DICE)
def test_chi_square_1_2_million_rolls(die: int) -> None:
    n = dice.FACES[die]
    rolls = 1_200_000
    counts = roll_many(die, rolls)
    stat = chi_square(counts, n, rolls)
    print(f"{dice.NAMES[die]}: {rolls} rolls, chi-square {stat:.2f} (df {n - 1})")
    assert stat < CRITICAL[n - 1]


@pytest.mark.long
def test_chi_square_catches_a_modulo_biased_d12() -> None:
    # the same statistic on `byte % 12` (the bias the firmware avoids) fails at this size
    rolls = 1_200_000
    counts = Counter(b % 12 + 1 for b in os.urandom(rolls))
    assert chi_square(counts, 12, rolls) > CRITICAL[11]
