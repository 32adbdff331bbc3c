"""The rules' words and their templates agree: every question of the scenario files that
carries a template (``said``) has, in its own field, that template in the rules' words for its
facts (the hot Catacombs questions write both: an f-string is cheaper than formatting), and
every step's template has a fact for each of its places."""

from __future__ import annotations

from pathlib import Path

from overseer.core.procedure import CHANCE, Question, RulesError, Runner, words
from overseer.documents import checked, load
from overseer.scenario import Script

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").glob("*/*.json"))


def agrees(question: Question) -> bool:
    assert question.said is not None and question.facts is not None
    return all(getattr(question, field) == words(template, question.facts)
               for field, template in question.said.items())


def test_every_templated_question_and_step_of_the_scenarios_says_its_template() -> None:
    questions = steps = 0
    for path in SCENARIOS:
        doc, game, state = checked({k: v for k, v in load(path).items() if k != "_path"})
        script = Script(doc)
        runner = Runner(game, state)  # every question comes out, the chance ones too
        try:
            for action in doc["script"]["actions"]:
                question = runner.begin(action)
                while question is not None:
                    if question.said:
                        assert agrees(question), (path.name, question)
                        questions += 1
                    question = runner.answer(script.chance(question)
                                             if isinstance(question, CHANCE)
                                             else script.answer(question))
        except RulesError:
            pass  # a scenario that ends on a refusal: what came before it is checked
        for step in runner.trace:
            if step.facts is not None:
                step.drawn({})  # a place without its fact raises KeyError
                steps += 1
    # Enough of them met to mean something: the Catacombs LOS, closest and template questions,
    # the rolls and draws naming a piece, the other games' prompts.
    assert questions > 300 and steps > 1500  # 403 and 1770 when written
