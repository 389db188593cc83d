"""docs/adding-a-game.md is correct line by line: its code parses and names what exists, its
commands are accepted by the command line, the files it points to are there. (Its worked
example, the toy plug-in, is built, installed and run by tests/core/test_plugins.py.)"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
import textwrap
import tomllib

import pytest

from boardgames_tui.cli.main import build_parser
from boardgames_tui.engine.core import registry
from boardgames_tui.plain.boards import TEXT_BOARDS
from boardgames_tui.tui.games import BOARDS
from tests.root import ROOT

DOC = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", DOC, re.S)


def _blocks(lang: str) -> list[str]:
    return [textwrap.dedent(body) for kind, body in BLOCKS if kind == lang]  # (a list's too)


def test_python_blocks_parse_and_import_what_exists() -> None:
    imported = 0
    for body in _blocks("python"):
        tree = ast.parse(body)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] != "boardgames_tui":
                    continue
                module = importlib.import_module(node.module)
                for alias in node.names:
                    assert hasattr(module, alias.name), f"{node.module} has no {alias.name}"
                    imported += 1
    assert imported >= 5


def test_toml_blocks_parse_and_name_the_groups() -> None:
    groups = set()
    for body in _blocks("toml"):
        doc = tomllib.loads(body)
        groups |= set(doc.get("project", {}).get("entry-points", {}))
    assert groups == {registry.GROUP, BOARDS, TEXT_BOARDS}
    example = tomllib.loads((ROOT / "examples/toy-plugin/pyproject.toml").read_text())
    assert set(example["project"]["entry-points"]) == {registry.GROUP, BOARDS}
    own = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert set(own[BOARDS]) == set(own[TEXT_BOARDS]) == set(own[registry.GROUP])


def _commands() -> list[list[str]]:
    """Every `boardgames-tui ...` command of the text that runs something (not only a name)."""
    spans = re.findall(r"`(boardgames-tui [^`]+)`", DOC.replace("\n", " "))
    spans += [ln for body in _blocks("sh") for ln in body.splitlines()]
    out = []
    for span in spans:
        words = shlex.split(span)
        if words[0] == "boardgames-tui" and (len(words) > 2 or "--help" in words):
            out.append([w.replace("my-game", "toy") for w in words[1:]])
    return out


@pytest.mark.parametrize("argv", _commands(), ids=" ".join)
def test_commands_are_accepted(argv: list[str]) -> None:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help
        assert exc.code == 0, argv
        return
    assert args.command


def test_paths_exist() -> None:
    paths = set(re.findall(r"`((?:engine|tui|tests|examples|docs)/[\w./-]*)", DOC))
    assert len(paths) > 10
    missing = [p for p in sorted(paths) if "<" not in p and not (ROOT / p).exists()]
    assert missing == []


def test_test_commands_print_a_summary() -> None:
    """The suite's `addopts` already holds `-q`: a documented pytest command that adds one
    more prints no "N passed" line (issue 47: a plug-in author could not tell)."""
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-q" in addopts["addopts"].split()
    texts = [DOC, (ROOT / "README.md").read_text(encoding="utf-8")]
    commands = [c for t in texts for c in re.findall(r"`([^`]*-m pytest[^`]*)`", t)]
    assert commands
    for command in commands:
        assert "-q" not in command.split(), command
