"""Every kind of screen, made by the real controller from example views and real button presses:
the pictures of docs/buttons.md and the reference images of tests/screens. The steps and
questions are shaped like the Catacombs rules' own.

    python -m tools.gallery [OUTDIR]    (scripts/button_pictures: docs/img)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from overseer.app.controller import App, Refused, handle, refresh, screen, start
from overseer.app.view import GameView, MenuItem, new_steps
from overseer.core.procedure import (
    AnswerError,
    ChooseOne,
    ChooseSome,
    Die,
    DrawToken,
    EnterNumber,
    Question,
    Roll,
    Step,
    Token,
    YesNo,
)
from overseer.ports.events import Button, Press, Tap
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.screens.render import Screen
from tools.shots import write_all

NAMES = {"elf": "Elf", "dwarf": "Dwarf", "barbarian": "Barbarian", "wc": "Wraith Commander"}
SEATS = {"elf": 1, "dwarf": 2, "barbarian": 3}
NEXT = {"do": "next_ai_piece"}
MENU = (MenuItem("Hero turn done", {"do": "hero_turn"}),
        MenuItem("Elf heals 2", {"do": "heal", "hero": "elf", "amount": 2}),
        MenuItem("End the battle", {"do": "end_battle"}))
STEPS = (
    Step(StepKind.ACTIVE_CHARACTER, rulebook.STEP1, "Wraith Commander (wc) acts: level-1 tile, "
         "black monster tile", {"piece": "wc", "why": "monster_tile"}),
    Step(StepKind.TARGET, rulebook.STEP3, "Wraith Commander targets Elf: primary column, "
         "least gold", {"piece": "wc", "target": "elf", "column": "primary",
                        "criterion": "least_gold", "verified": True}),
    Step(StepKind.SHOT, rulebook.PERFORM, "Wraith Commander: sword",
         {"piece": "wc", "shot": "sword", "target": "elf"}),
    Step(StepKind.MOVE, rulebook.PERFORM, "Wraith Commander: reposition for sword toward Elf with "
         "Ruler 2, passing through obstacles; if the ruler reaches past Elf, stop adjacent to "
         "it", {"piece": "wc", "toward": "elf", "ruler": 2}),
)
TOKEN_STEP = Step(StepKind.TOKEN, rulebook.TOKENS, "level 2 damage token: 2 (unverified token "
                  "values)", {"level": 2, "value": 2, "reset": False, "verified": False})

RESULT = (TOKEN_STEP,
          Step(StepKind.DAMAGE, rulebook.PERFORM, "Elf loses 2 health (Wraith Commander's "
               "sword): 8 left", {"target": "elf", "amount": 2, "health": 8}),
          Step(StepKind.CLOCK, rulebook.PERFORM, "Elf: clock template 12 toward the Hero Start "
               "Zone; move toward 8 o'clock with Ruler 3", {"who": "elf", "face": 8,
                                                            "ruler": 3}))

TEMPLATE = YesNo("Place the Attack template over Wraith Commander (visible through the hole). "
                 "Does it cover Elf, even partly?", Key.TEMPLATE)
CLOSEST = ChooseOne("Which is closest to Wraith Commander?", ("elf", "dwarf", "barbarian"),
                    Key.CLOSEST)
UNDER = ChooseSome("Lay Ruler 3 on the boomerang pointing at Nomad: which enemies are beneath "
                   "it?", ("elf", "dwarf", "barbarian"), Key.UNDER_RULER)
POISON = EnterNumber("Elf draws a poison card: enter its value", Key.POISON_VALUE, 0, 20)
TOKEN = DrawToken("level 2 damage token", "Wraith Commander's sword on Elf")
CLOCK = Roll(Die.D12, "clock template: hit by Wraith Commander's sword")


@dataclass(frozen=True)
class Shot:
    """One picture: a file name, what it shows, the screen."""

    name: str
    caption: str
    screen: Screen


def view(question: Question | None = None, steps: tuple[Step, ...] = (), start: int = 0,
         **fields) -> GameView:
    """A Catacombs view with the example names, seats, menu and NEXT AI PIECE."""
    trace = (*((Step("x", "", ""),) * start), *steps)
    fields = {"names": NAMES, "seats": SEATS, "menu": MENU, "next_action": NEXT, **fields}
    return GameView("catacombs", question=question, steps=new_steps(trace, start),
                    trace_length=len(trace), **fields)


def press(app: App, *buttons: Button, long: bool = False) -> App:
    for button in buttons:
        app, _ = handle(app, Press(button, long))
    return app


def asked(question: Question, **fields) -> App:
    """The question on the glass, no step before it (its prompt page read)."""
    app, _ = start(view(question, can_undo=True, **fields))
    while app.reading:
        app = press(app, Button.OK)
    return app


def shots() -> tuple[Shot, ...]:
    out: list[Shot] = []

    def add(name: str, caption: str, app: App) -> None:
        out.append(Shot(name, caption, screen(app)))

    app, _ = start(view(can_undo=True, status=("Round 1",)))
    add("idle", "No question: NEXT begins the next AI piece, OK or CHOICE opens the menu", app)
    add("menu", "The menu: CHOICE moves, OK begins, BACK closes", press(app, Button.CHOICE))
    app, _ = handle(app, Press(Button.NEXT))
    app, _ = refresh(app, view(TEMPLATE, STEPS, can_undo=True))
    add("step-who", "Who acts (the title) at whom (the key word), its shot and move: one page",
        app)
    add("step-details", "CHOICE on a page: its steps whole, each with its rule",
        press(app, Button.CHOICE))
    app = press(app, Button.OK)
    add("step-move-2", "A sentence read whole the first time this game runs on (2/2)", app)
    app = press(app, Button.OK)
    add("yes-no", "A question carries its prompt; the cursor on the likely answer", app)
    app, _ = handle(app, Press(Button.OK))
    app, _ = refresh(app, view(None, RESULT, len(STEPS), can_undo=True))
    add("step-result", "The result on one page: the token, the damage, the push (! unprinted "
        "token values); NEXT begins the next piece from here", app)
    app = press(app, Button.OK)
    add("step-result-2", "... the push read whole the first time this game", app)
    app, _ = handle(app, Press(Button.NEXT))  # from the last page: the next AI piece
    app, _ = refresh(app, view(TEMPLATE, STEPS, len(STEPS) + len(RESULT), can_undo=True))
    add("step-short", "The next activation: the wording seen this game is short, one page",
        app)

    add("choose-one", "ChooseOne: CHOICE moves, OK answers (or tap the hero's card)",
        press(asked(CLOSEST), Button.CHOICE))
    some = press(asked(UNDER), Button.CHOICE, Button.OK)
    add("choose-some", "ChooseSome: CHOICE moves, OK ticks, NEXT (or Done) answers",
        press(some, Button.CHOICE))
    add("number", "EnterNumber: CHOICE +1, NEXT -1 (held: by 5), wrapping; OK answers",
        press(asked(POISON), Button.CHOICE, Button.CHOICE, Button.CHOICE))
    token = press(asked(TOKEN), Button.CHOICE, Button.CHOICE)
    add("token-value", "The table's own damage token: its value...", token)
    add("token-reset", "... then the reset icon", press(token, Button.OK))
    roll = asked(CLOCK)
    add("roll", "Roll: ROLL rolls on the Pico, or CHOICE sets your own die", roll)
    add("roll-face", "The table's own dice: the face starts at the middle; CHOICE +1, NEXT -1 "
        "(held: by 3), OK takes it", press(asked(CLOCK, own_dice=True), Button.CHOICE))
    add("rolling", "Rolling on the Pico", press(roll, Button.ROLL))
    push, _ = start(view(CLOCK, RESULT[:2], can_undo=True))
    add("roll-push", "A push: the damage carried on the ROLL screen, one press rolls", push)

    app, _ = handle(press(asked(TOKEN), Button.OK), Press(Button.OK))
    why = AnswerError(TOKEN, Token(3), "a token still in the level 2 damage token bag")
    refused, _ = handle(app, Refused(str(why)))
    add("refused", "A refused answer: why, and nothing changed", refused)
    add("bad-tap", "A tapped card that is no answer here",
        _tapped(asked(CLOSEST), Tap("catacombs", "monster", "orc")))
    app, _ = start(view())
    add("no-undo", "BACK held with nothing to undo", press(app, Button.BACK, long=True))
    app, _ = start(view(TEMPLATE, STEPS, can_undo=True))
    app, _ = handle(app, Press(Button.BACK, long=True))
    app, _ = refresh(app, view(None, can_redo=True))
    add("undone", "After an undo (BACK held): CHOICE redoes", app)
    app, _ = start(view(over=True, result="The heroes won the room"))
    add("game-over", "The game is over", app)
    return tuple(out)


def _tapped(app: App, tap: Tap) -> App:
    app, _ = handle(app, tap)
    return app


def by_name() -> dict[str, Shot]:
    return {shot.name: shot for shot in shots()}



def main(argv: list[str]) -> int:
    """Write every gallery screen as OUTDIR/buttons-NAME.png (4x, for docs/buttons.md)."""
    return write_all(shots, "buttons", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
