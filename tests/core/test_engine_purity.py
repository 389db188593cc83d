"""The engine never imports Textual or Rich (checked in a fresh interpreter per module)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import boardgames_tui.engine
from tests.root import ROOT


def engine_modules() -> list[str]:
    return sorted(
        m.name
        for m in pkgutil.walk_packages(boardgames_tui.engine.__path__, "boardgames_tui.engine.")
    )


def test_engine_imports_no_ui() -> None:
    mods = engine_modules()
    assert "boardgames_tui.engine.core.protocol" in mods
    # every module imported once, in one interpreter: no Textual or Rich may come with them;
    # only if some do, each module again on its own to name the ones that bring them
    code = (
        "import importlib, sys\n"
        f"mods = {mods!r}\n"
        "def ui(): return sorted(k for k in sys.modules if k.split('.')[0] in ('textual', 'rich'))\n"
        "for name in mods: importlib.import_module(name)\n"
        "bad = []\n"
        "for name in mods if ui() else []:\n"
        "    for k in [k for k in sys.modules if k.startswith(('boardgames_tui.engine', 'textual', 'rich'))]: del sys.modules[k]\n"
        "    importlib.import_module(name)\n"
        "    if ui(): bad.append((name, ui()[:3]))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout
