"""Save the screens of a scenario run as PNG pictures (for the README and docs).

Usage: python -m tools.shots SCENARIO OUTDIR
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PIL import Image

from overseer import documents, games
from overseer import scenario as scenarios
from overseer.core.procedure import Runner, Step
from overseer.screens.catacombs import activation_screen, question_screen
from overseer.screens.render import Screen, draw, render

SCALE = 4


def save(image: Image.Image, path: Path) -> None:
    size = (image.width * SCALE, image.height * SCALE)
    big = image.convert("L").resize(size, Image.Resampling.NEAREST)
    big.save(path)


class Named(Protocol):
    """A screen of a tour with its picture's name."""

    @property
    def name(self) -> str: ...

    @property
    def screen(self) -> Screen: ...


def write_all(shots: Callable[[], Sequence[Named]], prefix: str, argv: list[str]) -> int:
    """Every screen of ``shots()`` as OUTDIR/PREFIX-NAME.png (4x): OUTDIR is ``argv[0]``, else
    docs/img. The games' records are installed first: a tour plays through the registry."""
    from overseer.app import registry

    registry.install()
    outdir = Path(argv[0]) if argv else Path("docs/img")
    outdir.mkdir(parents=True, exist_ok=True)
    made = shots()
    for shot in made:
        save(render(shot.screen), outdir / f"{prefix}-{shot.name}.png")
    print(f"{len(made)} pictures written to {outdir}")
    return 0


def main(argv: list[str]) -> int:
    from overseer.app import registry

    registry.install()
    source, outdir = Path(argv[0]), Path(argv[1])
    outdir.mkdir(parents=True, exist_ok=True)
    scn = documents.load(source)
    spec = games.get(scn["game"])
    state = spec.build(scn["setup"])
    names = {k: v.name for k, v in {**state.heroes, **state.pieces}.items()}
    script = scenarios.Script(scn)
    runner = Runner(spec, state, chance=script.chance)
    shots = activations = 0
    for action in scn["script"]["actions"]:
        for _ in range(int(action.get("times", 1))):
            start = len(runner.trace)
            question = runner.begin({k: v for k, v in action.items() if k != "times"})
            while question is not None:
                if shots < 2:
                    shots += 1
                    save(draw(question_screen(question, names)), outdir / f"question-{shots}.png")
                question = runner.answer(script.answer(question))
            steps: list[Step] = runner.trace[start:]
            activations += 1
            save(draw(activation_screen(steps, names)), outdir / f"activation-{activations}.png")
    print(f"screens written to {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
