"""Names a person or a file supplies are data on every surface (issue 29).

Each name below would be read as Rich/Textual markup (a style, a closing tag that crashes the
parser, an action link that runs an app action on click) if any surface parsed it. The match is
drawn on every surface of the every-surface leak walk, plus the end screen, the dialogs, the
load list and the command line; each surface must show the names as typed (the word inside a
tag is always preceded by its literal tag) and nothing may crash. The web page, through a real
browser: tests/shell/test_web.py::test_hostile_names_are_data_on_the_web_page.
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys

import pytest
from textual.widgets import OptionList

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game, saves
from tests.conformance.test_robust_leaks import lines, screen_text, surfaces
from tests.root import ROOT

# (name, the word a markup parser would show alone, what must stand right before it)
HOSTILE = [
    ("[i]Zed[/i]", "Zed", "[i]"),
    ("[@click=app.bell]Cal[/]", "Cal", "]"),
    ("[/]Xan", "Xan", "[/]"),
    ("a[@click=x(]Bo", "Bo", "x(]"),
    ("[/bold]Quy", "Quy", "[/bold]"),
    ("[red on x]Wu", "Wu", "x]"),
]


def hostile_seats(n: int) -> list[Seat]:
    return [Seat(HOSTILE[i][0]) for i in range(n)]


def assert_literal(surface: str, text: str, names: int) -> int:
    """Every shown word of a hostile name stands after its literal tag; how many showed."""
    shown = 0
    for name, word, before in HOSTILE[:names]:
        for m in re.finditer(rf"(?<![A-Za-z]){re.escape(word)}(?![a-z])", text):
            shown += 1
            start = m.start()
            assert text[max(0, start - len(before)) : start] == before, (
                f"{surface}: {name!r} was read as markup:\n{text[:3000]}"
            )
        assert "\x1b" not in text and "\x07" not in text
    return shown


def played(game_id: str, n: int, moves: int) -> Match:
    """A seeded random game at move `moves`, or at its last decision if it ends sooner."""
    m = Match.new(game_id, hostile_seats(n), seed=n)
    rng = random.Random(n)
    while m.prompt is not None and m.cursor < moves:
        m.play(rng.choice(m.prompt.moves).id)
    while m.prompt is None:  # a short game: not its end screen, which has a test of its own
        m.undo()
    m.truncate()
    return m


# every installed title (a plug-in too) at its largest table
CASES = [(g, min(get_game(g).max_players, len(HOSTILE))) for g in game_ids()]


@pytest.mark.parametrize("game_id, players", CASES)
async def test_hostile_names_on_every_surface(game_id: str, players: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = played(game_id, players, 30)
    [found] = await surfaces([m], "hotseat", [m.cursor, m.cursor // 2], str(tmp_path))
    shown = sum(assert_literal(s, t, players) for s, t in found.items())
    assert shown > 10 and len(found) >= 7


def finished(players: int = 4) -> Match:
    """A game of Rattus Cartus played to its end with hostile names."""
    m = Match.new("rattus-cartus", hostile_seats(players), seed=4)
    rng = random.Random(4)
    while m.prompt is not None:
        m.play(rng.choice(m.prompt.moves).id)
    return m


async def test_hostile_names_on_the_end_log_save_and_load_screens(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The end screen, the log screen, the save dialog, the load list and the menu."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.game import GameScreen

    m = finished()
    saves.save(m, tmp_path / "hostile.toml")
    (tmp_path / "title\x1b]0;pwned\x07[b].toml").write_text("not a save")
    found: dict[str, str] = {}
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        found["end screen"] = screen_text(app)  # a finished game opens on its results
        [game] = [s for s in app.screen_stack if isinstance(s, GameScreen)]
        for key, surface in (("l", "log screen"), ("s", "save dialog")):
            while app.screen is not game:
                app.pop_screen()
                await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not game, surface
            found[surface] = screen_text(app)
        while app.screen is not game:
            app.pop_screen()
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        found["menu"] = screen_text(app)
        await pilot.press("l")  # Load
        await pilot.pause()
        found["load list"] = "\n".join(lines(app.screen.query_one("#load-files")))
    for surface, text in found.items():
        assert_literal(surface, text, 4)
    assert "[@click=app.bell]Cal[/]" in found["end screen"]
    assert "title]0;pwned[b].toml" in found["load list"]
    assert "[/]Xan" in found["load list"] and "[i]Zed[/i]" in found["log screen"]


def test_hostile_names_in_command_line_output(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`check` and `analyse` print names as they are, and nothing else."""
    m = finished()
    path = saves.save(m, tmp_path / "hostile.toml")
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "analyse", str(path), "--iterations", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert_literal("analyse", out.stdout, 4)
    assert "[i]Zed[/i]" in out.stdout and "\x1b" not in out.stdout


# ---- shared tables: the list, show, the Tables screen, notifications --------------------------
# a stored name cannot be a markup tag or hold a control character (user names are letters,
# digits, '.', '_' and '-'): a row edited by hand that holds one makes its table damaged, and
# the line that says so quotes the name as data
CONTROL = "\x1b]0;pwned\x07\x1b[2J\u202eVi"
UNSAFE = ("\x1b", "\x07", "\x9b", "\u202e")


def assert_clean(surface: str, text: str) -> None:
    for ch in UNSAFE:
        assert ch not in text, f"{surface}: {ch!r} reached the output:\n{text[:2000]}"


def hostile_store(path) -> tuple[list[str], str]:  # type: ignore[no-untyped-def]
    """A store with one table per hostile name in a seat (edited in by hand), a hostile
    creator, a hostile move row, and one sound table; (the damaged ids, the sound id)."""
    import contextlib
    import sqlite3

    from boardgames_tui.engine.tables import SQLiteStore, parse_seats

    s = SQLiteStore(path)
    ids = [
        s.create("notre-dame", parse_seats("alice,bob", "alice"), {}, k, "alice").id
        for k in range(len(HOSTILE) + 4)
    ]
    _, match = s.load(ids[-2])
    s.append(ids[-2], "alice", match.prompt.moves[0].id, 0)
    s.close()
    names = [name for name, _, _ in HOSTILE] + [CONTROL]
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as c:
        for tid, name in zip(ids, names, strict=False):
            c.execute('UPDATE bg_seats SET "user" = ? WHERE table_id = ? AND seat = 1', (name, tid))
        c.execute("UPDATE bg_tables SET creator = ? WHERE id = ?", (HOSTILE[0][0], ids[-3]))
        c.execute("UPDATE bg_moves SET move_id = ? WHERE table_id = ?", (HOSTILE[1][0], ids[-2]))
    return ids[:-1], ids[-1]


def test_hostile_names_in_the_table_commands(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """`table list`, `table list --json`, `table show` and `table show --json`: each
    hostile row is one line quoting what it holds as data, and the sound table is listed."""
    import json

    from boardgames_tui.cli.main import main

    store = tmp_path / "tables.sqlite"
    damaged, sound = hostile_store(store)
    base = ["--store", str(store), "--user", "alice", "table"]
    found: dict[str, str] = {}
    assert main([*base, "list"]) == 0
    found["table list"] = capsys.readouterr().out
    assert main([*base, "list", "--json"]) == 0
    raw = capsys.readouterr().out
    rows = json.loads(raw)
    found["table list --json"] = "\n".join(str(r["damage"]) for r in rows)
    assert_clean("table list --json (raw)", raw)
    assert {r["id"] for r in rows if r["damage"]} == set(damaged[:-1])
    shows = []
    for tid in damaged:
        for extra in ([], ["--json"]):
            assert main([*base, "show", tid, *extra]) == 1
            out, err = capsys.readouterr()
            assert out == "" and err.count("\n") == 1 and " is damaged: " in err
            shows.append(err)
    found["table show"] = "".join(shows)
    assert main([*base, "show", sound]) == 0
    found["table show (sound)"] = capsys.readouterr().out
    shown = 0
    for surface, text in found.items():
        assert_clean(surface, text)
        shown += assert_literal(surface, text, len(HOSTILE))
    assert shown >= 3 * len(HOSTILE)
    assert "\\x1b]0;pwned\\x07" in found["table list"]  # the control name, escaped


async def test_hostile_names_on_the_tables_screen(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The Tables screen lists each hostile row as damaged, its name as data, and Enter on
    one opens a dialog quoting it the same way."""
    from boardgames_tui.tui.screens.dialogs import MessageScreen
    from boardgames_tui.tui.screens.tables import TablesScreen
    from tests.shell.test_tables_tui import app_for

    store = tmp_path / "tables.sqlite"
    damaged, sound = hostile_store(store)
    app = app_for(store, None, "alice")
    found: dict[str, str] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TablesScreen)
        ol = app.screen.query_one("#tables-list", OptionList)
        found["Tables screen"] = "\n".join(lines(ol)) + "\n" + screen_text(app)
        assert sound in found["Tables screen"]
        k = next(i for i in range(ol.option_count) if ol.get_option_at_index(i).id == damaged[1])
        ol.highlighted = k
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        found["damaged table dialog"] = str(app.screen.text) + "\n" + screen_text(app)
    shown = 0
    for surface, text in found.items():
        assert_clean(surface, text)
        shown += assert_literal(surface, text, len(HOSTILE))
    assert shown >= len(HOSTILE) + 1
    assert "[@click=app.bell]Cal[/]" in found["damaged table dialog"]


def test_hostile_names_in_a_turn_notification(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The title and body of a turn notification, as a json:// target receives them: names
    as data (markup is text: Apprise sends it as TEXT), no control character."""
    from boardgames_tui.engine.tables import SeatInfo
    from boardgames_tui.engine.tables.notify import send
    from boardgames_tui.engine.tables.store import build_match, turn_notice
    from tests.tables.test_notify import Hook

    seats = [SeatInfo(0, "human", HOSTILE[0][0]), SeatInfo(1, "human", CONTROL)]
    seats += [SeatInfo(k, "human", HOSTILE[k][0]) for k in range(2, 4)]
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats

    s = SQLiteStore(tmp_path / "tables.sqlite")
    made = s.create("notre-dame", parse_seats("alice,bob,carol,dave", "alice"), {}, 3, "alice")
    s.close()
    info = dataclasses.replace(made, seats=tuple(seats))
    match = build_match(info, [])
    moves: list[str] = []
    owed = None
    while owed is None or owed[0] != CONTROL or len(moves) < 3:
        assert match.prompt is not None and len(moves) < 40
        moves.append(match.prompt.moves[0].id)
        match.play(moves[-1])
        actor = info.seats[match.steps[-1].seat].user
        owed = turn_notice(dataclasses.replace(info, moves=len(moves)), match, actor)
    _, title, body = owed
    hook = Hook()
    try:
        assert send(hook.url("n"), title, body) is None
    finally:
        hook.close()
    [(_, got_title, got_body)] = hook.posts
    for surface, text in (("notification title", got_title), ("notification body", got_body)):
        assert_clean(surface, text)
        assert_literal(surface, text, 4)
    assert "\\x1b]0;pwned\\x07" in got_body and "[i]Zed[/i]" in got_body
