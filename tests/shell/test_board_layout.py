"""Every panel of every game is whole on the screen: at 120x40 all at once, at 80x24 page by
page (a tab and the panels after it that fit), with no block of empty rows under them.

Seeded random games of each title at each player count are stopped early, in the middle and
late; the screen is read back as text (what a terminal shows) and each board panel must be
there from its top border to its bottom border with every line of its content, with no `…`
and no scrollbar in the board.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console
from textual import events

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.board import BoardView, PanelBox
from boardgames_tui.tui.widgets.picker import MovePicker

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
POINTS = (0.15, 0.6, 1.0)  # early, middle, and the finished board (late)
SCROLLBAR = set("▁▂▃▄▅▆▇█▉▊▋▌▍▎▏")
# the options that change what the board shows, each tried at every player count
BOARD_OPTIONS: dict[str, list[dict[str, str]]] = {
    "notre-dame": [{"rules": "published"}, {"scores": "open"}],
    "rattus-cartus": [{"buildings": "random-cards"}],
    "cathedral-of-orleans": [{"bag_memory": "on", "variant": "harder"}],
}
CASES = [
    (gid, n, options)
    for gid in ("notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347")
    if gid in game_ids()
    for options in [{}, *BOARD_OPTIONS.get(gid, [])]
    for n in range(get_game(gid).min_players, get_game(gid).max_players + 1)
]


def case_id(case: tuple[str, int, dict[str, str]]) -> str:
    game_id, players, options = case
    return "-".join([game_id, str(players), *(f"{k}={v}" for k, v in options.items())])


def played(game_id: str, players: int, options: dict[str, str] | None = None) -> Match:
    """A whole seeded random game (the cursor at its end)."""
    seats = [Seat(n) for n in NAMES[:players]]
    match = Match.new(game_id, seats, options or {}, seed=players * 11 + 5)
    match.settings["handover"] = False
    rng = random.Random(players)
    while match.prompt is not None:
        moves = match.prompt.moves
        match.play(moves[rng.randrange(len(moves))].id)
    return match


def screen_text(app: BoardgamesApp) -> list[str]:
    """The screen as a terminal shows it, one string per row."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None
    )
    console.print(app.screen._compositor.render_update(full=True))
    rows = console.export_text().split("\n")
    return [row.ljust(width) for row in rows[:height]]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Let every widget handle what is queued and lay the screen out again: no wait for the
    app to idle (nothing here runs in a thread), which costs 20-60 ms of sleep a key."""
    await pilot.pause(0)
    await pilot.pause(0)


async def press_tab(app: BoardgamesApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """The next page by its key, as a person pages (then settle)."""
    app.post_message(events.Key("tab", "\t"))
    await settle(pilot)


def check_panels(app: BoardgamesApp, where: str) -> int:
    """Assert every shown board panel is whole on screen; return how many were checked."""
    rows = screen_text(app)
    board = app.screen.query_one(BoardView)
    status = rows[0]
    assert "…" not in status, f"{where}: the status line is cut: {status!r}"
    assert "…" not in rows[1], f"{where}: the tab line is cut: {rows[1]!r}"
    bx, by, bw, bh = board.region
    for y in range(by, by + bh):
        assert not SCROLLBAR & set(rows[y][bx : bx + bw]), f"{where}: scrollbar in the board"
    checked = 0
    for box in board.query(PanelBox):
        if not box.display:
            continue
        key = next(k for k, b in board._boxes.items() if b is box)
        x, y, w, h = box.region
        title = board._texts[key][2]
        assert by <= y and y + h <= by + bh, f"{where}: panel {title!r} is below the board"
        top, bottom = rows[y][x : x + w], rows[y + h - 1][x : x + w]
        assert top.startswith("╭") and top.rstrip().endswith("╮"), f"{where}: {title!r} top"
        assert bottom.startswith("╰") and bottom.endswith("╯"), f"{where}: {title!r} cut"
        assert title in top, f"{where}: title {title!r} cut: {top!r}"
        # room for the changed mark (" ✱") a move adds to the title: Textual cuts beyond w - 6
        assert len(title) + 2 <= w - 6, f"{where}: title {title!r} is cut when marked"
        lines = ["".join(seg.text for seg in line) for line in board._texts[key][3]]
        for i, line in enumerate(lines):
            shown = rows[y + 1 + i][x + 2 : x + w - 2]
            assert shown.rstrip() == line.rstrip(), f"{where}: {title!r} line {i} cut"
        inside = "\n".join(row[x : x + w] for row in rows[y : y + h])
        assert "…" not in inside, f"{where}: `…` in panel {title!r}:\n{inside}"
        checked += 1
    return checked


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=map(case_id, CASES))
async def test_every_panel_whole(
    game_id: str, players: int, options: dict[str, str], tmp_path: Path
) -> None:
    match = played(game_id, players, options)
    ends = [max(1, int(match.length * f)) for f in POINTS]
    match.goto(ends[0])
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen._end_shown = True  # the finished board stays in view (no results screen)
        await pilot.pause()  # start-up done (the footer drawn): from here only settle
        for size in ((120, 40), (80, 24)):
            if app.size != size:  # the app starts at the first size
                await pilot.resize_terminal(*size)
            for cursor in ends:
                where = f"{case_id((game_id, players, options))} move {cursor}/{match.length} {size[0]}x{size[1]}"
                screen.match.goto(cursor)
                screen.refresh_game(highlight=False)
                await settle(pilot)
                board = screen.query_one(BoardView)
                if not screen.compact:
                    assert check_panels(app, where) == len(board.panels)
                    continue
                seen: set[int] = set()
                for _ in board.panels:  # page by page
                    shown = check_panels(app, f"{where} tab {board.tab + 1}")
                    assert shown == len(board.page) >= 1
                    seen.update(board.page)
                    await press_tab(app, pilot)
                    if board.tab == 0:
                        break
                assert seen == set(range(len(board.panels))), f"{where}: tabs never shown"


MOST = [
    (g, get_game(g).max_players)
    for g in ("notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347")
    if g in game_ids()
]


@pytest.mark.parametrize("size", [(80, 24), (133, 36)], ids=["80x24", "browser-133x36"])
@pytest.mark.parametrize(("game_id", "players"), MOST, ids=[g for g, _ in MOST])
async def test_compact_room_is_used(
    game_id: str, players: int, size: tuple[int, int], tmp_path: Path
) -> None:
    """Issue 34: at 80x24 (and a browser's 1280x800) one panel at a time left 8-13 empty rows.
    Now panels that fit are shown together, and the log's last lines fill the rows left:
    between the tab line and the move picker no row is empty, on any page."""
    match = played(game_id, players)
    match.goto(int(match.length * 0.6))
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.compact
        board = screen.query_one(BoardView)
        picker_top = screen.query_one(MovePicker).region.y
        pages = 0
        while True:
            rows = screen_text(app)
            where = f"{game_id} {size} tab {board.tab + 1}"
            check_panels(app, where)
            empty = [y for y in range(2, picker_top) if not rows[y].strip()]
            assert not empty, f"{where}: empty rows {empty}:\n" + "\n".join(rows)
            pages += 1
            await press_tab(app, pilot)
            if board.tab == 0:
                break
        assert pages < len(board.panels) or len(board.panels) == 1 or size == (80, 24)
