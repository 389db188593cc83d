"""Titles are plug-ins: the example game installed from its own distribution is found by the
menu's catalog, the command line, `simulate` and the cross-game tests, with no change here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames_tui.cli.main import build_parser
from boardgames_tui.engine.core import registry
from tests.root import ROOT

EXAMPLE = ROOT / "examples" / "toy-plugin"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plug-in installed by pip into a folder of its own (no network: no index, no
    build isolation; built from a copy so that the checkout stays clean)."""
    base = tmp_path_factory.mktemp("plugin")
    src = base / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    target = base / "site"
    offline = ["--no-deps", "--no-index", "--no-build-isolation", "--disable-pip-version-check"]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            *offline,
            "--target",
            str(target),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    assert list(target.glob("boardgames_toy-*.dist-info/entry_points.txt"))
    return target


def _run(site: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter in the checkout with the plug-in's folder on its path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(site)])
    return subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


DISCOVER = """
import json, sys
from boardgames_tui.engine.core import catalog, get_game, registry
titles = catalog()
assert registry.installed_entry_points()["toy"] == "boardgames_toy:GAME"  # from its metadata
loaded = "boardgames_toy.game" in sys.modules  # the catalog must not load the rules
game = get_game("toy-game")  # an alias from its Title
rules = any(m.endswith(".rules") for m in sys.modules)
from boardgames_tui.tui.games import ui_for  # its board, from its own entry point group
print(json.dumps({"ids": [t.id for t in titles], "loaded": loaded,
                  "module": type(game).__module__, "file": sys.modules["boardgames_toy"].__file__,
                  "rules": rules, "board": type(ui_for("toy").ui).__module__}))
"""


def test_installed_plugin_is_in_the_catalog_without_loading_rules(site: Path) -> None:
    out = _run(site, "-c", DISCOVER)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["ids"][:4] == ["notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347"]
    assert "toy" in doc["ids"]
    assert not doc["loaded"] and not doc["rules"]
    assert doc["module"] == "boardgames_toy.game"
    assert doc["board"] == "boardgames_toy.board"
    assert doc["file"].startswith(str(site))


def test_installed_plugin_in_help_and_simulate(site: Path) -> None:
    helped = _run(site, "-m", "boardgames_tui", "new", "--help")
    assert helped.returncode == 0, helped.stderr
    assert "toy" in helped.stdout
    sim = _run(site, "-m", "boardgames_tui", "simulate", "toy", "--players", "2", "--games", "2")
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["games"] == 2


def test_installed_plugin_plays_in_the_plain_mode(site: Path, tmp_path: Path) -> None:
    """The plain mode reads a plug-in's title with the generic text board: the question, its
    options and the player's own hand, in lines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(site)])
    argv = ["--plain", "--saves", str(tmp_path), "new", "toy", "--players", "Ann,Bob"]
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", *argv],
        cwd=ROOT,
        env=env,
        input="\nhand\n1\n1\n\nquit\n",  # Enter at each hand-over
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Ann to decide: Choose a card" in lines
    assert any(line.startswith("Your hand: ") for line in lines)
    assert "Bob to decide: Choose a card" in lines  # after the hand-over to Bob


def test_installed_plugin_joins_the_cross_game_tests(site: Path) -> None:
    """Collected, not run: the parametrized suites pick the installed title up by itself."""
    out = _run(
        site,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-n0",
        "--collect-only",
        "tests/conformance/test_conformance.py",
        "tests/bots/test_play.py",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "test_conformance.py::test_determinism[toy]" in out.stdout
    assert "test_play.py::test_same_seed_same_decisions[toy]" in out.stdout


def test_register_and_unknown_titles() -> None:
    """A title added at run time is found by id; a broken entry is left out, not fatal."""
    registry.register("broken-example", "no_such_module_anywhere:GAME")
    try:
        assert "broken-example" not in registry.game_ids()
        with pytest.raises(registry.UnknownGame, match="known: notre-dame"):
            registry.get_game("broken-example")
    finally:
        registry.unregister("broken-example")
    assert registry.get_title("ND").id == "notre-dame"


def test_an_entry_whose_game_has_another_id_is_left_out_with_the_reason() -> None:
    """Saves name a game by its id, so the entry point's name and the Game's id must agree."""
    registry.register("not-the-toy", "boardgames_toy:GAME")
    try:
        assert "not-the-toy" not in registry.game_ids()
        assert (
            "'toy', not the entry point's name 'not-the-toy'" in registry.problems()["not-the-toy"]
        )
        assert "Left out: not-the-toy" in build_parser().format_help().replace("\n", " ")
        with pytest.raises(registry.UnknownGame):
            registry.get_game("not-the-toy")
    finally:
        registry.unregister("not-the-toy")
    assert "toy" in registry.game_ids()


def test_installed_metadata_order_does_not_reorder_the_menu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An installed wheel lists entry points alphabetically ("1347" first); the menu keeps the
    titles' own order, plug-ins after the built-ins."""
    builtin = registry.checkout_entry_points()
    monkeypatch.setattr(registry, "checkout_entry_points", lambda group: {})
    monkeypatch.setattr(
        registry, "installed_entry_points", lambda group: dict(sorted(builtin.items()))
    )
    registry.rescan()
    try:
        ids = registry.game_ids()
    finally:
        registry.rescan()
    assert ids[:4] == ["notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347"]
    assert ids[4:] == ["toy"]  # registered at run time by conftest.py


PLUGIN_TYPES = """
from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.tui.games.base import seat_tag

shown: Event = Event("Ann shows Bob a 3", seats={0, 1}, public="Ann shows Bob a card")
tag: str = seat_tag(0, "Ann")
wrong: int = shown.text
"""


def _editable_by_import_hook() -> bool:
    """Whether boardgames-tui is installed editable behind setuptools' import hook (its
    default editable mode), which mypy cannot follow."""
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    return any(
        p.read_text().startswith("import") for p in site.glob("__editable__.boardgames_tui-*.pth")
    )


def test_a_plugins_mypy_reads_the_platforms_types(tmp_path: Path) -> None:
    """mypy run from a plug-in's own folder (not this checkout) reads the engine's and the
    board's types (py.typed): the one error it finds is the plug-in's. Against an editable
    install it needs setuptools' compat mode, as docs/adding-a-game.md says (issue 47: the
    docs said it worked, and under the default editable mode mypy found no `engine`)."""
    if _editable_by_import_hook():
        pytest.skip(
            "editable install behind an import hook: pip install -e . --config-settings editable_mode=compat"
        )
    (tmp_path / "plugin.py").write_text(PLUGIN_TYPES)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    cmd = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", os.devnull, "plugin.py"]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "plugin.py:7:" in errors[0] and "[assignment]" in errors[0], (
        done.stdout
    )
