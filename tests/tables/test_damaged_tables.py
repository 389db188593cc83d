"""One bad row in the table store damages one table, never the others (issue 29, item 4).

Each case edits the rows of one table behind the store's back, as a person with the file (or
a server role) could, on both backends: the damaged table is listed as damaged with one line
saying what is wrong (`table list`, `--json`, the Tables screen); every action on it gives
that line (exit 1, no traceback); the other table is listed and played as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import DAMAGED, Damaged, TableStore, parse_seats
from tests.tables.conftest import Backend

# (case, the statements that damage table {t} (after one move), what the line says,
#  whether the list can tell without replaying the moves, backends it can happen on)
CASES = [
    (
        "options not JSON",
        ["UPDATE bg_tables SET options = '{\"scores\": ' WHERE id = ?"],
        "its options '{\"scores\": ' are not JSON",
        True,
        "both",
    ),
    (
        "options not an object",
        ["UPDATE bg_tables SET options = '[1, 2]' WHERE id = ?"],
        "are not a JSON object",
        True,
        "both",
    ),
    (  # a server's column types refuse it: it can only happen to a SQLite file
        "seed not a number",
        ["UPDATE bg_tables SET seed = 'lucky' WHERE id = ?"],
        "its seed 'lucky' is not a whole number",
        True,
        "sqlite",
    ),
    (
        "a seat out of range",
        ["UPDATE bg_seats SET seat = 7 WHERE table_id = ? AND seat = 1"],
        "a seat row numbered 7 is out of range (0-4)",
        True,
        "both",
    ),
    (
        "an unknown seat kind",
        ["UPDATE bg_seats SET kind = 'wizard' WHERE table_id = ? AND seat = 1"],
        "seat 2 is of an unknown kind 'wizard' (human, random, greedy, strong)",
        True,
        "both",
    ),
    (
        "a missing seat row",
        ["DELETE FROM bg_seats WHERE table_id = ? AND seat = 0"],
        "seat 1 is missing",
        True,
        "both",
    ),
    (
        "no seat rows at all",
        ["DELETE FROM bg_seats WHERE table_id = ?"],
        "it has no seats",
        True,
        "both",
    ),
    (
        "a bad user name",
        ["UPDATE bg_seats SET \"user\" = 'bob smith' WHERE table_id = ? AND seat = 1"],
        "seat 2: user name 'bob smith': 1-16 letters",
        True,
        "both",
    ),
    (
        "an unknown game",
        ["UPDATE bg_tables SET game = 'chess' WHERE id = ?"],
        "game 'chess' is not a game this version knows",
        True,
        "both",
    ),
    (
        "the seat to move out of range",
        ["UPDATE bg_tables SET to_move_seat = 9 WHERE id = ?"],
        "the seat to move (9) is not one of its 2 seats",
        True,
        "both",
    ),
    (
        "an unknown status",
        ["UPDATE bg_tables SET status = 'paused' WHERE id = ?"],
        "its status 'paused' is not waiting, playing, finished or abandoned",
        True,
        "both",
    ),
    (  # found when the moves are replayed: opening the table (show, play, join)
        "a bad move row",
        ["UPDATE bg_moves SET move_id = 'no-such-move' WHERE table_id = ? AND n = 1"],
        "move 1 ('no-such-move') does not replay",
        False,
        "both",
    ),
    (
        "a missing move row",
        ["DELETE FROM bg_moves WHERE table_id = ? AND n = 1"],
        "0 moves stored, 1 counted",
        False,
        "both",
    ),
]


def first_move(store: TableStore, tid: str) -> None:
    info, match = store.load(tid)
    assert match.prompt is not None
    user = info.seats[match.prompt.seat].user
    store.append(tid, user, match.prompt.moves[0].id, info.moves)


@pytest.mark.parametrize("case, edits, line, listed, where", CASES, ids=[c[0] for c in CASES])
def test_one_damaged_table_leaves_the_others_working(  # type: ignore[no-untyped-def]
    backend: Backend,
    tmp_path: Path,
    capsys,
    case: str,
    edits: list[str],
    line: str,
    listed: bool,
    where: str,
) -> None:
    if where == "sqlite" and backend.pg:
        pytest.skip("the server's column types refuse this edit")
    store = backend.open()
    bad = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice").id
    good = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 4, "alice").id
    first_move(store, bad)
    store.close()
    for statement in edits:
        backend.sql(statement, (bad,))
    base = ["--store", backend.location, "--user", "alice", "table"]

    # the list: every table, the damaged one as damaged with its line
    assert main([*base, "list"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert f"  {good}  Notre Dame" in out
    if listed:
        [row] = [r for r in out.splitlines() if r.startswith(f"  {bad}  damaged: ")]
        assert "Damaged tables" in out and line in row
    assert main([*base, "list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {bad, good} and rows[good]["damage"] is None
    assert rows[good]["status"] == "playing" and rows[good]["your_turn"]
    if listed:
        assert rows[bad]["status"] == DAMAGED and line in rows[bad]["damage"]

    # every action on the damaged table: that one line, exit 1
    for action in (["show", bad], ["show", bad, "--json"], ["play", bad, "x"], ["undo", bad]):
        assert main([*base, *action]) == 1, action
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (action, err)
        assert err.startswith(f"boardgames-tui: table {bad} is damaged: ") and line in err

    if listed:  # copy-store copies nothing from a store with a damaged table
        target = tmp_path / "copy.sqlite"
        assert main(["table", "copy-store", backend.location, str(target)]) == 1
        err = capsys.readouterr().err
        assert line in err and err.endswith(": nothing copied\n") and err.count("\n") == 1
        copy = backend.__class__("sqlite", str(target)).open()
        assert copy.tables() == []
        copy.close()

    # the other table is shown and played as before
    assert main([*base, "show", good, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main([*base, "play", good, doc["legal"][0]]) == 0
    assert "played" in capsys.readouterr().out
    store = backend.open()
    assert store.info(good).moves == 1
    with pytest.raises(Damaged) as caught:
        store.load(bad)
    assert caught.value.table_id == bad and line in str(caught.value)
    store.close()


async def test_a_damaged_row_is_listed_on_the_tables_screen(tmp_path: Path) -> None:
    """The Tables screen lists the other table as before and the damaged one with its line;
    Enter on it says what is wrong (it used to show one error for the whole list)."""
    from boardgames_tui.engine.tables import SQLiteStore
    from boardgames_tui.tui.screens.dialogs import MessageScreen
    from boardgames_tui.tui.screens.tables import TablesScreen
    from tests.conformance.test_robust_leaks import screen_text
    from tests.shell.test_tables_tui import app_for

    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    bad = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice").id
    good = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 4, "alice").id
    store.close()
    Backend("sqlite", str(path)).sql(
        "UPDATE bg_seats SET kind = 'wizard' WHERE seat = 1 AND table_id = ?", (bad,)
    )

    app = app_for(path, None, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TablesScreen)
        text = screen_text(app)
        assert "Your tables" in text and good in text
        assert "Damaged tables" in text and "damaged: seat 2 is of an unknown kind" in text
        ol = app.screen.query_one("#tables-list", OptionList)
        index = next(k for k in range(ol.option_count) if ol.get_option_at_index(k).id == bad)
        ol.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert app.screen.text == (
            f"table {bad} is damaged: seat 2 is of an unknown kind 'wizard' "
            "(human, random, greedy, strong)"
        )
