"""The firmware's modules import each other by their names on the board (``import link``), from
the folders pyproject.toml's pytest ``pythonpath`` puts first. A test module collected before
these that puts another folder in front (tests/bench/test_panel_wire.py puts bench/, which has a
link.py of its own) would hand them that one: the firmware's link.py is loaded here by its path,
before the modules of this folder import it."""

import importlib.util
import sys
from pathlib import Path

LINK = Path(__file__).resolve().parents[2] / "firmware" / "link.py"

loaded = getattr(sys.modules.get("link"), "__file__", None)
if loaded is None or Path(loaded).resolve() != LINK:
    spec = importlib.util.spec_from_file_location("link", LINK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["link"] = module
    spec.loader.exec_module(module)
