"""No leaks to the gallery: a spectator's table screen never depends on what the public may
not see.

For every game with private information, a seeded game is played to a sample point, and a
twin is found: one earlier private move of some seat chosen differently, such that the
public view and the public log lines are the same after every move. Both are stored as
shared tables (each in a store of its own, with the same talk), and a spectator opens each
in the app: the game screen, its log, the compact layout and the review must read the same.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgames_tui.engine.core import HUMAN, PUBLIC, IllegalMove, Match, Seat, get_game
from boardgames_tui.engine.tables import SeatInfo, SQLiteStore, public_view
from tests.conformance.test_robust_leaks import GAMES, copy_match, lines, sample_point, screen_text
from tests.conformance.twins import differs
from tests.shell.test_tables_tui import until

WIDE, COMPACT = (120, 40), (80, 24)


def public_log(m: Match) -> list[list[str]]:
    return [[e.for_seat(PUBLIC) or "" for e in step.events] for step in m.steps[: m.cursor]]


def public_twin(m: Match) -> Match | None:
    """`m` with one recent private move chosen differently, the public seeing the same after
    every move (the view every seat shares, and the log); None when no recent move allows it."""
    game, ids = m.game, m.move_ids()
    seen = [public_view(m, m.state_at(k)) for k in range(m.cursor + 1)]
    said = public_log(m)
    for j in range(m.cursor - 1, max(-1, m.cursor - 60), -1):
        if m.steps[j].public is None:  # a move everyone reads as it is
            continue
        for alt in game.prompt(m.state_at(j)).moves:
            if alt.id == m.steps[j].move_id:
                continue
            t = copy_match(m, j)
            try:
                for move_id in [alt.id, *ids[j + 1 :]]:
                    t.play(move_id)
            except IllegalMove:
                continue
            if (
                t.cursor == m.cursor
                and public_log(t) == said
                and all(
                    public_view(t, t.state_at(k)) == seen[k] for k in range(j + 1, t.cursor + 1)
                )
            ):
                return t
    return None


def scrolled_to_end(log) -> bool:  # type: ignore[no-untyped-def]
    """The log is laid out and shows its end (a short one, of a short game, all of it)."""
    laid_out = log.max_scroll_y > 0 or 0 < len(log.lines) <= log.size.height
    return laid_out and log.scroll_y == log.max_scroll_y


def later_point(game_id: str, players: int) -> tuple[Match, Match | None]:
    """The first decision of seeded random games (a few) with a twin for the public."""
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(players)], seed=players)
    for seed in range(players, players + 8):
        m = Match.new(game_id, [Seat(f"P{i}") for i in range(players)], seed=seed)
        rng = random.Random(seed)
        while m.prompt is not None:
            if m.cursor and (twin := public_twin(m)) is not None:
                return m, twin
            m.play(rng.choice(m.prompt.moves).id)
    return m, None


def as_table(store: SQLiteStore, m: Match, now: float) -> str:
    """`m` stored as a shared table of p0, p1…, with talk from a player and a spectator."""
    seats = [SeatInfo(i, HUMAN, f"p{i}") for i in range(len(m.seats))]
    tid = store.create(m.game.id, seats, {}, m.seed, "p0").id
    for n, (move_id, step) in enumerate(zip(m.move_ids(), m.steps, strict=False)):
        store.append(tid, f"p{step.seat}", move_id, n)
    store.say(tid, "p1", "your move", now=now)
    store.say(tid, "zoe", "<b>nice</b>", now=now)
    return tid


async def spectator_surfaces(path: Path, tids: list[str]) -> list[dict[str, str]]:
    """Each table's surfaces as the spectator zoe sees them, in one app."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.tables import open_table

    app = BoardgamesApp(
        Launch(saves_dir=str(path.parent), store=str(path), user="zoe", bot_delay=0)
    )
    found = []
    async with app.run_test(size=WIDE) as pilot:
        for tid in tids:
            await pilot.resize_terminal(*WIDE)
            open_table(app, tid, join=False)
            found.append(await surfaces_of(app, pilot, tid))
            app.pop_screen()
    return found


async def surfaces_of(app, pilot, tid: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    from boardgames_tui.tui.screens.game import GameScreen
    from boardgames_tui.tui.widgets.board import BoardView
    from boardgames_tui.tui.widgets.log import GameLog

    out: dict[str, str] = {}
    await until(
        pilot, lambda: isinstance(app.screen, GameScreen) and bool(app.screen.query(GameLog))
    )
    game = app.screen
    assert isinstance(game, GameScreen) and game.session.facts.seat is None
    log = game.query_one(GameLog)
    await pilot.pause()  # the log scrolls to its end after it is laid out
    await until(pilot, lambda: scrolled_to_end(log))
    out["game screen"] = screen_text(app)
    out["log"] = "\n".join(lines(log))
    assert "zoe (watching): <b>nice</b>" in " ".join(out["log"].split())
    await pilot.press("v")
    await pilot.pause()
    out["review"] = screen_text(app)
    await pilot.press("escape")
    await pilot.resize_terminal(*COMPACT)
    await pilot.pause()
    await pilot.pause()
    out["compact game screen"] = screen_text(app)
    out["compact panels"] = game.query_one("#board", BoardView).all_text()
    return {k: v.replace(tid, "TABLE") for k, v in out.items()}


@pytest.mark.parametrize("game_id", GAMES)  # every installed title with hidden information
async def test_a_spectators_table_screen_ignores_hidden_information(
    game_id: str, tmp_path: Path
) -> None:
    players = min(get_game(game_id).max_players, 3)
    m = sample_point(game_id, players)
    twin = public_twin(m)
    if twin is None:  # a short game: a point of another game that has one
        m, twin = later_point(game_id, players)
    assert twin is not None, f"{game_id}: no twin for the public at move {m.cursor}"
    assert [s.move_id for s in twin.steps] != [s.move_id for s in m.steps]
    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    tids = [as_table(store, m, 1.0), as_table(store, twin, 3.0)]
    store.close()
    real, seen = await spectator_surfaces(path, tids)
    assert real.keys() == seen.keys()
    for surface, text in real.items():
        assert seen[surface] == text, differs(
            f"{game_id}, a spectator", surface, text, seen[surface]
        )
