"""Shared set-up: the example plug-in game (examples/toy-plugin) is registered from its source
folder for the core and shell tests, as installing its distribution would register it."""

import atexit
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames_tui.engine.core import registry

# the app's saves, table store, settings, log and crash reports go to folders of this run,
# never the user's: a table store in the user's data folder made every app of the suite start
# a thread to watch it (and a test that forgot --saves would write there)
for _var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = tempfile.mkdtemp(prefix=f"boardgames-test-{_var[4:-5].lower()}-")
    atexit.register(shutil.rmtree, os.environ[_var], True)

TOY = Path(__file__).resolve().parents[1] / "examples" / "toy-plugin"
if "toy" not in registry.game_ids():  # unless it is installed (tests/core/test_plugins.py)
    sys.path.insert(0, str(TOY))
    registry.register("toy", "boardgames_toy:GAME")
    registry.register("toy", "boardgames_toy.board:UI", group="boardgames_tui.boards")

# BOARDGAMES_TEST_SHORT=1: a short game (tests/conformance/short_game.py, over in a dozen
# moves) joins every cross-game test, as a plug-in would: `-k short` runs them for it alone.
if os.environ.get("BOARDGAMES_TEST_SHORT") and "short" not in registry.game_ids():
    registry.register("short", "tests.conformance.short_game:GAME")
    registry.register("short", "boardgames_toy.board:UI", group="boardgames_tui.boards")

# The titles this repository ships (its pyproject's entry points): the screen snapshots exist
# for these. Every other cross-game test runs over every installed title (`game_ids()`).
BUILTIN = [g for g in registry.checkout_entry_points() if g in registry.game_ids()]
TITLES = registry.game_ids()  # every installed title, the example plug-in included

# The longest tests (seconds of one core each, measured with `--durations`): they start first,
# so that the workers finish together instead of one running a long test alone at the end
# (pytest-xdist hands the tests out in this order). A prefix of a test id, longest first.
LONGEST_FIRST = (
    "tests/shell/test_ssh_doc.py::",
    "tests/shell/test_tui_games.py::test_full_game_by_keyboard",
    "tests/shell/test_tables_tui.py::test_table_screens_fit_at_80x24_and_120x40",
    "tests/shell/test_tables_tui.py::test_players_and_a_spectator_in_their_own_terminals",
    "tests/shell/test_robust_keys.py::test_fuzz_game_screen",
    "tests/shell/test_bench.py::test_bench_quick_smoke",
    "tests/shell/test_room.py::test_two_players_in_two_ssh_sessions_play_a_hidden_game_to_the_end",
    "tests/tables/test_processes.py::test_writers_killed_mid_move_leave_a_sound_store",
    "tests/tables/test_processes.py::test_processes_play_complete_games_of_every_title",
    "tests/shell/test_room_faults.py::test_a_locked_store_gets_a_line_and_loses_no_move",
    "tests/tables/test_notify.py::test_one_message_per_turn_over_a_whole_game",
    "tests/shell/test_web.py::",
    "tests/shell/test_board_layout.py::test_every_panel_whole",
)

# `pytest -m fast`: a minute's sample of every wing (the rules of each title, the conformance
# checks on every title, saves, the table store on SQLite, the line mode, the Textual app on the
# toy game, the lint gate, the names in the guides), to run before a commit; the whole suite
# before a merge. A prefix of a test id; a PostgreSQL case is never fast (its cluster starts
# first).
FAST = (
    "tests/core/test_lint.py::",
    "tests/core/test_doc_names.py::",
    "tests/core/test_match.py::",
    "tests/core/test_saves.py::",
    "tests/core/test_decisions.py::",
    "tests/games/notre_dame/test_rules.py::",
    "tests/games/rattus_cartus/test_buildings.py::",
    "tests/games/cathedral/test_rules.py::",
    "tests/games/pestis/test_actions.py::",
    "tests/conformance/test_conformance.py::test_determinism",
    "tests/conformance/test_conformance.py::test_illegal_moves_rejected_with_state_unchanged",
    "tests/conformance/test_conformance.py::test_no_leaks_check_passes_a_short_game",
    "tests/tables/test_tables.py::test_a_move_needs_the_seat_the_turn_a_legal_move",
    "tests/tables/test_tables.py::test_undo_only_your_own_last_move_that_revealed_nothing",
    "tests/tables/test_tables.py::test_spectators_see_only_what_every_seat_sees",
    "tests/shell/test_plain.py::test_every_command_answers_in_a_short_game",
    "tests/shell/test_plain.py::test_undo_asks_first_across_a_reveal_and_a_bad_option",
    "tests/shell/test_plain.py::test_the_menu_in_lines",
    "tests/shell/test_tui_shell.py::test_undo_redo_escape_and_confirm",
    "tests/shell/test_tui_shell.py::test_handover_hides_the_board",
)


@pytest.fixture
def short_title() -> Iterator[str]:
    """The short game (tests/conformance/short_game.py) installed as a title for one test,
    with the toy's board."""
    if "short" in registry.game_ids():  # installed for the whole run (above)
        yield "short"
        return
    registry.register("short", "tests.conformance.short_game:GAME")
    registry.register("short", "boardgames_toy.board:UI", group="boardgames_tui.boards")
    try:
        yield "short"
    finally:
        registry.unregister("short", group="boardgames_tui.boards")
        registry.unregister("short")


def pytest_configure(config: pytest.Config) -> None:
    import boardgames_tui.tui.games

    boardgames_tui.tui.games.RAISE_BOARD_ERRORS = (
        True  # compared drawings must not hide a board's error
    )
    # The garbage collector runs less often in the tests: Textual apps make objects by the
    # hundred thousand, and at the default thresholds full collections over all of them
    # took a quarter of the leak tests' time. Tests that need a collection ask for one.
    gc.set_threshold(20_000, 20, 50)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under `-m fast` a test file without a fast test is not even imported (collecting the
    whole suite costs each worker about 11 s of a core)."""
    if config.getoption("markexpr") != "fast" or not collection_path.name.startswith("test_"):
        return None
    name = collection_path.resolve().relative_to(TOY.parents[1]).as_posix()
    return True if not any(p.startswith(f"{name}::") for p in FAST) else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(item, "callspec", None)
        postgres = params is not None and params.params.get("backend") == "postgres"
        if item.nodeid.startswith(FAST) and not postgres:
            item.add_marker(pytest.mark.fast)

    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, p in enumerate(LONGEST_FIRST) if item.nodeid.startswith(p)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the rest keep their order
