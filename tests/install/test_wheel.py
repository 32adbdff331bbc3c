"""A non-editable install: the wheel built offline from a copy of the sources (their links into
the repository kept, as a checkout has them), installed into a fresh venv with no network (its
dependencies from the test interpreter's own site-packages), run from an empty folder: a
scripted battle in the line mode, the shipped firmware booted on the virtual Pico, the doctor
and the headless gadget on gpiozero's mock pins, with nothing but what the wheel ships (core/shipped.py: the card data, the firmware, the
pin map)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("host", "data", "firmware", "hardware", "pyproject.toml", "MANIFEST.in", "README.md")
BATTLE = ROOT / "tests" / "scenarios" / "catacombs" / "los_blocked.json"
# what the runtime reads (core/shipped.py): the place in the package, the repository's own, and
# the kinds of file read there
SHIPPED = {"datafiles": (ROOT / "data", (".toml", ".json")),
           "firmware": (ROOT / "firmware", (".py",)),
           "pins.toml": (ROOT / "hardware" / "pins.toml", ())}


def can_build_wheels() -> bool:
    """setuptools builds wheels by itself from 70.1 on; before that it needs ``wheel``."""
    import importlib.util

    import setuptools

    major, minor = (int(n) for n in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def run(args: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None,
        status: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == status, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
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
            shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", "node_modules", ".stubs"))
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


def contents(path: Path, kinds: tuple[str, ...]) -> dict[str, bytes]:
    """A file's bytes, or a folder's files of those ``kinds``, by their place in it."""
    if path.is_file():
        return {"": path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.suffix in kinds and "__pycache__" not in p.parts}


def clean_env(home: Path) -> dict[str, str]:
    """No path into the checkout, and a home of its own (the store, no config file)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "OVERSEER_DATA", "PYTHONHOME", "OVERSEER_CONFIG",
                        "OVERSEER_DB", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share")}


def test_the_installed_wheel_plays_doctors_and_runs_the_gadget_from_an_empty_folder(
        venv: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    env = clean_env(tmp_path / "home")
    overseer = str(venv / "bin" / "overseer")
    where = json.loads(run([str(venv / "bin" / "python"), "-c",
                            "import json, overseer; from overseer.core.records import DATA_DIR; "
                            "from overseer.core.shipped import shipped; "
                            "from overseer.web.server import STATIC; "
                            f"print(json.dumps([overseer.__file__, str(DATA_DIR), str(STATIC), "
                            f"*(str(shipped(n)) for n in {list(SHIPPED)!r})]))"],
                           empty, env).stdout)
    package = Path(where[0]).parent
    assert package.is_relative_to(venv) and Path(where[1]) == package / "datafiles"
    for name in ("app.js", "style.css"):  # the web page's files
        assert (Path(where[2]) / name).read_bytes() == \
            (ROOT / "host" / "overseer" / "web" / "static" / name).read_bytes()
    # the install left the bytecode (whatever PYTHONDONTWRITEBYTECODE says: the service can
    # write none), for the command line and the gadget's modules alike
    for module in ("cli/command", "session/session", "app/shell"):
        folder, name = (package / module).parent, (package / module).name
        assert list((folder / "__pycache__").glob(f"{name}.*.pyc")), module
    for (name, (source, kinds)), found in zip(SHIPPED.items(), where[3:], strict=True):
        assert Path(found) == package / name
        assert contents(Path(found), kinds) == contents(source, kinds), name  # byte for byte

    # a scripted battle in the line mode, off the demo setup the wheel ships
    played = run([overseer, "play", "--plain", "--setup", str(package / "datafiles" / "demo" /
                                                              "catacombs.json"), "--seed", "3"],
                 empty, env, stdin="next\nok\nquit\n").stdout
    assert "Sewer Rat targets Elf" in played and "[Red Box: AI Player Behaviour, step 3" in played
    assert "Game #1 is saved" in played

    # the simulator's box (`overseer play` in a terminal): the shipped firmware on a virtual Pico
    booted = run([str(venv / "bin" / "python"), "-c",
                  "from overseer.sim.box import VirtualBox\n"
                  "box = VirtualBox()\nbox.power_on()\nbox.wait_ready(60)\n"
                  "print(box.board.board)\nbox.close()\n"], empty, env).stdout
    assert Path(booted.strip()) == package / "firmware" / "unix" / "board.py"

    # the doctor, on a box with the LEDs of the pin map on gpiozero's mock pins (the config's
    # pin factory, passed to the LEDs: never gpiozero's global default), no Pico, no reader
    config = tmp_path / "overseer.toml"
    config.write_text('[nfc]\nenabled = false\n[leds]\nfactory = "mock"\n'
                      '[pico]\nport = "/dev/no-such-pico"\n')
    boxed = {**env, "OVERSEER_CONFIG": str(config)}
    doctor = run([overseer, "doctor", "--without", "pico", "--without", "nfc"], empty,
                 boxed).stdout
    assert "ok    leds" in doctor and "ok    data" in doctor, doctor
    assert doctor.splitlines()[-1] == "everything the gadget needs is there"

    # the headless gadget: up and its loop beating (on the notify socket, as systemd hears it:
    # a watchdog period of 4 us, a heartbeat each turn), then stopped as systemd stops it
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(60)
    gadget = subprocess.Popen([overseer, "gadget", "--pico-wait", "0.2"], cwd=empty,
                              stderr=subprocess.PIPE, text=True,
                              env={**boxed, "NOTIFY_SOCKET": str(tmp_path / "notify"),
                                   "WATCHDOG_USEC": "4"})
    try:
        assert notify.recv(256) == b"READY=1"
        assert notify.recv(256) == b"WATCHDOG=1"
        gadget.send_signal(signal.SIGTERM)
        _, said = gadget.communicate(timeout=60)
    finally:
        gadget.kill()
        notify.close()
    assert gadget.returncode == 0, said
    assert said.splitlines() == [
        f"overseer gadget: starting ({config})",
        "overseer gadget: no Pico answers on /dev/no-such-pico after 0.2 s: waiting for it "
        "(overseer doctor says more)",
        said.splitlines()[2]], said  # the LEDs driven: nothing said of them
    # the line mode's game, resumed from the same store on the page read last (its step's second)
    assert said.splitlines()[2].startswith(
        "overseer gadget: on the glass: Sewer Rat: Ruler 3, passing through obstacles")

    # another data folder, named by OVERSEER_DATA
    named = run([str(venv / "bin" / "python"), "-c", "from overseer.core.records import "
                 "DATA_DIR; print(DATA_DIR)"], empty, {**env, "OVERSEER_DATA": str(empty)})
    assert Path(named.stdout.strip()) == empty


@pytest.mark.long
def test_the_installed_wheel_plays_a_scripted_battle_as_the_checkout_does(
        venv: Path, tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home")
    installed = run([str(venv / "bin" / "overseer"), "scenario", "--check", str(BATTLE)],
                    tmp_path, env).stdout
    here = run([sys.executable, "-c", "import sys; from overseer.cli import main; "
                "sys.exit(main(sys.argv[1:]))", "scenario", "--check", str(BATTLE)], ROOT,
               {**env, "PYTHONPATH": str(ROOT / "host")}).stdout
    lines = [json.loads(line) for line in installed.splitlines()]
    assert any("final" in line for line in lines) and len(lines) > 3
    assert installed == here  # the same battle, step for step
