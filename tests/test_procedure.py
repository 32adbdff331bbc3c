"""The rules core: questions check their answers, the runner applies nothing on a bad one."""

import pytest

from overseer.core.chance import SeededChance, uniform_below
from overseer.core.dice import DIE_FACES, Die
from overseer.core.procedure import (
    AnswerError,
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Pick,
    Roll,
    RulesError,
    Runner,
    Step,
    Token,
    YesNo,
)


class Echo:
    """A two-question procedure over a list, to exercise the runner."""

    def start(self, state, action):
        if action["do"] != "go":
            raise RulesError("only 'go'")
        return self._go(state)

    def _go(self, state):
        face = yield Roll("d12", "test")
        yield Step("rolled", "test", f"rolled {face}", {"face": face})
        ok = yield YesNo("keep it?", "keep")
        if ok:
            state.append(face)
        return face


def test_runner_asks_then_applies():
    state = []
    runner = Runner(Echo(), state)
    assert runner.begin({"do": "go"}) == Roll("d12", "test")
    assert isinstance(runner.answer(7), YesNo)
    assert runner.answer(True) is None
    assert state == [7] and runner.result == 7
    assert [s.kind for s in runner.trace] == ["rolled"]


def test_bad_answer_changes_nothing():
    state = []
    runner = Runner(Echo(), state)
    runner.begin({"do": "go"})
    with pytest.raises(AnswerError, match="a d12 face, 1 to 12"):
        runner.answer(13)
    assert runner.pending == Roll("d12", "test") and runner.trace == []
    runner.answer(12)
    with pytest.raises(AnswerError, match="yes or no"):
        runner.answer("yes")
    assert runner.answer(False) is None
    assert state == []


def test_refused_action_leaves_runner_free():
    runner = Runner(Echo(), [])
    with pytest.raises(RulesError):
        runner.begin({"do": "stop"})
    assert not runner.busy
    assert runner.begin({"do": "go"}) is not None
    with pytest.raises(RulesError, match="finish the current action"):
        runner.begin({"do": "go"})


def test_chance_answers_automatically():
    state = []
    runner = Runner(Echo(), state, chance=SeededChance(5))
    question = runner.begin({"do": "go"})
    assert isinstance(question, YesNo)
    assert 1 <= runner.trace[0].data["face"] <= 12


@pytest.mark.parametrize("question,good,bad", [
    (ChooseOne("p", ("a", "b"), "k"), "a", "c"),
    (ChooseSome("p", ("a", "b"), "k"), ["b", "a"], ["a", "a"]),
    (EnterNumber("p", "k", 0, 5), 5, 6),
    (Pick("deck", "p", ("x", "y")), "y", "z"),
    (DrawToken("bag", "p", (Token(1), Token(0, True))), Token(0, True), Token(2)),
])
def test_question_checks(question, good, bad):
    question.check(good)
    with pytest.raises(AnswerError):
        question.check(bad)


def test_choose_some_keeps_option_order():
    assert ChooseSome("p", ("a", "b", "c"), "k").check(["c", "a"]) == ("a", "c")


def test_seeded_chance_repeats_by_count():
    first = SeededChance(42)
    rolls = [first(Roll("d12", "t")) for _ in range(50)]
    again = SeededChance(42, count=10)
    assert [again(Roll("d12", "t")) for _ in range(40)] == rolls[10:]
    assert set(rolls) <= set(range(1, 13)) and len(set(rolls)) > 6


def test_uniform_below_is_exactly_uniform_over_its_bits():
    # Every 4-bit prefix maps to a face or is rejected; accepted prefixes cover faces evenly.
    for n in (6, 12, 13):
        bits = (n - 1).bit_length()
        counts = [0] * n
        for prefix in range(1 << bits):
            word = prefix << (64 - bits)
            try:
                counts[uniform_below(n, iter([word]))] += 1
            except RuntimeError:
                pass
        assert counts == [1] * n


def test_seeded_chance_is_its_definition_the_nth_answer_from_the_words_of_count_n():
    # SeededChance answers its n-th question with uniform_below over the SplitMix64 words of
    # (seed, n), its first word tried without the generator: the two must never differ, or a
    # stored game would replay other dice.
    for seed in (0, 1, 42, 2**64 - 1):
        chance = SeededChance(seed)
        for n in range(1, 400):
            die = (Die.D12, Die.RUNE)[n % 2]
            face = chance(Roll(die, "t"))
            words = SeededChance(seed, count=n)._words()
            assert face == 1 + uniform_below(DIE_FACES[die], words), (seed, n)


def test_seeded_chance_draws_from_any_number_of_choices_as_its_definition():
    # The written-out draw reads its candidate from the word's top bits, which holds up to
    # 2**31 choices; past that it takes the definition itself. Both sides of the edge.
    for n in (1, 2, 13, 2**31 - 1, 2**31, 2**31 + 1, 2**40 + 7):
        for seed, count in ((0, 0), (42, 1), (2**64 - 1, 7), (12345, 10**6)):
            drawn = SeededChance(seed, count)._below(n)
            assert drawn == uniform_below(n, SeededChance(seed, count)._words()), (n, seed)
