"""A non-editable install: the wheel built from a copy of the sources, installed into a fresh
venv with no network (its dependencies from the test interpreter's own site-packages), plays a
scripted battle with the card data it ships (importlib.resources), not the repository's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("host", "data", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
BATTLE = ROOT / "tests" / "scenarios" / "catacombs" / "los_blocked.json"


def can_build_wheels() -> bool:
    """setuptools builds wheels by itself from 70.1 on; before that it needs ``wheel``."""
    import importlib.util

    import setuptools

    major, minor = (int(n) for n in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not can_build_wheels():
        pytest.fail("this interpreter's setuptools cannot build a wheel: install the test "
                    "extra (setuptools>=70.1)")
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, source / name)
    env = {k: v for k, v in os.environ.items() if k not in ("OVERSEER_DATA", "PYTHONHOME")}
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(tmp / "wheels"), str(source)], tmp, env)
    (wheel,) = (tmp / "wheels").glob("overseer-*.whl")
    target = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(target)], tmp, env)
    site = Path(run([str(target / "bin" / "python"), "-c",
                     "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    tmp, env).stdout.strip())
    run([sys.executable, "-m", "pip", "--python", str(target / "bin" / "python"), "install",
         "--no-index", "--no-deps", "-q", str(wheel)], tmp, env)
    # Then the dependencies: this interpreter's site-packages, after the venv's own (a bare
    # path in a .pth: its own .pth files, such as an editable overseer, are not read). After
    # the install, so that pip never sees (nor touches) another overseer.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    shutil.rmtree(source)  # nothing may come from the copy of the sources
    return target


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "OVERSEER_DATA", "PYTHONHOME")}


@pytest.mark.long
def test_the_installed_wheel_plays_a_scripted_battle_with_the_data_it_ships(
        venv: Path, tmp_path: Path) -> None:
    where = run([str(venv / "bin" / "python"), "-c",
                 "import overseer, overseer.core.records as d; print(overseer.__file__); "
                 "print(d.DATA_DIR)"], tmp_path, clean_env()).stdout.split()
    package, data = Path(where[0]).parent, Path(where[1])
    assert package.is_relative_to(venv) and data == package / "datafiles", where
    # the install left the bytecode (whatever PYTHONDONTWRITEBYTECODE says: the service can
    # write none), for the command line and the gadget's modules alike
    for module in ("cli", "session/session", "app/shell"):
        folder, name = (package / module).parent, (package / module).name
        assert list((folder / "__pycache__").glob(f"{name}.*.pyc")), module
    assert (data / "catacombs" / "monsters.toml").read_bytes() == \
        (ROOT / "data" / "catacombs" / "monsters.toml").read_bytes()
    installed = run([str(venv / "bin" / "overseer"), "scenario", "--check", str(BATTLE)],
                    tmp_path, clean_env()).stdout
    here = run([sys.executable, "-c", "import sys; from overseer.cli import main; "
                "sys.exit(main(sys.argv[1:]))", "scenario", "--check", str(BATTLE)], ROOT,
               {**clean_env(), "PYTHONPATH": str(ROOT / "host")}).stdout
    lines = [json.loads(line) for line in installed.splitlines()]
    assert any("final" in line for line in lines) and len(lines) > 3
    assert installed == here  # the same battle, step for step


@pytest.mark.long
def test_the_installed_gadget_starts_and_names_another_data_folder(venv: Path, tmp_path: Path
                                                                   ) -> None:
    help_text = run([str(venv / "bin" / "overseer"), "--help"], tmp_path, clean_env()).stdout
    assert "games" in help_text
    other = tmp_path / "mydata"
    shutil.copytree(ROOT / "data", other)
    named = run([str(venv / "bin" / "python"), "-c", "import overseer.core.records as d; "
                 "print(d.DATA_DIR)"], tmp_path, {**clean_env(), "OVERSEER_DATA": str(other)})
    assert Path(named.stdout.strip()) == other


@pytest.mark.long
def test_the_installed_web_page_has_its_script_and_style(venv: Path, tmp_path: Path) -> None:
    where = run([str(venv / "bin" / "python"), "-c",
                 "from overseer.web import server; print(server.STATIC)"], tmp_path,
                clean_env()).stdout.strip()
    static = Path(where)
    assert static.is_relative_to(venv)
    for name in ("app.js", "style.css"):
        assert (static / name).read_bytes() == \
            (ROOT / "host" / "overseer" / "web" / "static" / name).read_bytes()
