"""Save the screens of a scenario run as PNG pictures (for the README and docs).

Usage: python -m tools.shots SCENARIO OUTDIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from overseer import documents, games
from overseer import scenario as scenarios
from overseer.core.procedure import Runner, Step
from overseer.screens.catacombs import activation_screen, question_screen
from overseer.screens.render import draw

SCALE = 4


def save(image: Image.Image, path: Path) -> None:
    size = (image.width * SCALE, image.height * SCALE)
    big = image.convert("L").resize(size, Image.Resampling.NEAREST)
    big.save(path)


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
