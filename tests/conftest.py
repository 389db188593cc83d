"""Shared set-up: the example plug-in game (examples/toy-plugin) is registered from its source
folder for the core and shell tests, as installing its distribution would register it."""

import sys
from pathlib import Path

from engine.core import registry

TOY = Path(__file__).resolve().parents[1] / "examples" / "toy-plugin"
if "toy" not in registry.game_ids():  # unless it is installed (tests/core/test_plugins.py)
    sys.path.insert(0, str(TOY))
    registry.register("toy", "boardgames_toy:GAME")
    registry.register("toy", "boardgames_toy.board:UI", group="boardgames_tui.boards")

# The titles this repository ships (its pyproject's entry points): the screen snapshots exist
# for these. Every other cross-game test runs over every installed title (`game_ids()`).
BUILTIN = [g for g in registry.checkout_entry_points() if g in registry.game_ids()]
TITLES = registry.game_ids()  # every installed title, the example plug-in included
