"""The example saves in saves/: every one replays to its digest, finished, for every count."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import saves
from tests.root import ROOT

SAVES = sorted((ROOT / "saves").glob("*.toml"))


@pytest.mark.parametrize("path", SAVES, ids=[p.name for p in SAVES])
def test_example_save_replays_and_is_finished(path: Path) -> None:
    m = saves.load(path)
    assert m.over and m.cursor == m.length
    # The recorded digest is checked here too, whatever layout the game's state has now.
    recorded = tomllib.loads(path.read_text())["digest"]
    assert m.game.digest(m.state) == recorded
    if not m.game.cooperative:
        assert m.game.result(m.state).winners


def test_check_accepts_every_example() -> None:
    assert main(["check", *map(str, SAVES)]) == 0


def test_examples_cover_the_player_counts() -> None:
    have: dict[str, set[int]] = {}
    won_lost: set[bool] = set()
    for p in SAVES:
        m = saves.load(p)
        have.setdefault(m.game.id, set()).add(len(m.seats))
        if m.game.cooperative:
            won_lost.add(bool(m.game.result(m.state).winners))
    assert have["notre-dame"] >= {2, 3, 4, 5}
    assert have["rattus-cartus"] >= {2, 3, 4, 5}
    assert have["1347"] >= {2, 4, 6}
    assert won_lost == {True, False}  # a won and a lost co-operative game
