"""Every game's steps, questions and refusals drawn with the table's names (the templates and
facts of core/procedure, no regexes), while the trace keeps the rules' own words."""

from __future__ import annotations

from typing import Any

from overseer import games
from overseer.app import clank, conquest, runebound
from overseer.core.procedure import ChooseSome, Question, RulesError, Runner, shown
from overseer.documents import checked, load
from overseer.scenario import Script
from tests.runebound.helpers import opened

SCENARIOS = "tests/scenarios"


def played(path: str, until: str | None = None) -> tuple[Runner, Question | None]:
    """A scenario file's actions run through the rules; stops at the first question whose key
    is ``until`` (left waiting)."""
    doc, game, state = checked({k: v for k, v in load(path).items() if k != "_path"})
    script = Script(doc)
    runner = Runner(game, state, chance=script.chance)
    for action in doc["script"]["actions"]:
        question = runner.begin(action)
        while question is not None:
            if question.key == until:
                return runner, question
            question = runner.answer(script.answer(question))
    return runner, None


def test_conquest_names_players_and_discs_and_does_not_name_a_card_drawn_into_a_hand():
    runner, _ = played(f"{SCENARIOS}/conquest/quick_tutorial.json")
    names = conquest.labels(runner.state)
    turn = next(s for s in runner.trace if s.kind == "turn")
    assert turn.text == "Turn 1: s1 acts with sword1 (Sword Team)."
    assert turn.at_table(names).text == "Turn 1: s1 acts with Sword 1 (Sword Team)."
    drawn = next(s for s in runner.trace if s.kind == "draw" and s.data.get("card"))
    title = runner.state.cards[drawn.data["card"]].title
    assert title in drawn.text  # the trace names the card ...
    glass = drawn.at_table(names).text
    assert title not in glass and glass.startswith(f"{drawn.data['player']} draws a card (")


def test_conquest_names_the_players_of_a_refusal():
    spec = games.CONQUEST
    runner = Runner(spec, spec.build({"players": {"p1": "sword", "p2": "skull"}, "health": 8,
                                      "first": "sword"}))
    question = runner.begin({"do": "start"})
    while question is not None:  # the draws: the first card each time
        question = runner.answer(getattr(question, "options", (None,))[0])
    names = conquest.labels(runner.state)
    skull = next(c for c, card in runner.state.cards.items() if card.team == "skull")
    try:
        runner.begin({"do": "play", "player": "p1", "card": skull})
    except RulesError as err:
        assert str(err).endswith("; p1 plays for the Sword Team")
        assert err.drawn(names).endswith("; Player 1 plays for the Sword Team")
    else:
        raise AssertionError("a Skull Team card played by the Sword Team was not refused")


def test_runebound_names_an_unnamed_curse_in_a_few_words():
    runner = opened(["ann", "bo"], ["tamalir", "riverwatch"])
    names = runebound.labels(runner.state)
    reveal = next(s for s in runner.trace if s.kind == "reveal" and s.data.get("curse")
                  == "curse-2")
    assert "the curse-2 (name not printed) deck" in reveal.text
    assert "the Curse 2! deck" in reveal.at_table(names).text


def test_clank_names_the_parts_of_a_reward_and_answers_with_their_ids():
    runner, question = played(f"{SCENARIOS}/clank/temple_of_gold.json", until="reward")
    assert question is not None
    seen: Any = shown(question, clank.labels(runner.state))
    assert isinstance(question, ChooseSome)
    assert "(heal-1: restore 1 health; artifact:" in question.prompt
    assert "(Heal 1: restore 1 health; artifact:" in seen.prompt
    assert seen.options == question.options == ("heal-1", "artifact")
