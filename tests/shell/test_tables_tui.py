"""The table screen: the game from your seat, kept up to date from the store; the Tables
menu; and two players plus a spectator in real pseudo-terminals, each their own process."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from engine.tables import SQLiteStore, parse_seats, public_view
from tests.shell.ptydriver import PtyApp, base_env, plain
from tui.app import BoardgamesApp, Launch
from tui.screens.game import GameScreen
from tui.screens.review import ReviewScreen
from tui.screens.tables import NewTableScreen, TablesScreen
from tui.table_source import TableSource


def strings(data: Any) -> set[str]:
    """Every string in a view (keys and values)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out |= {str(k)} | strings(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= strings(v)
    elif isinstance(data, str):
        out.add(data)
    return out


def hidden_from(match: Any, state: Any, seen: dict[str, Any]) -> set[str]:
    """Names (cards, persons…) an observer who sees everything reads, but not this viewer:
    none of them may appear on the viewer's screen."""
    everything = strings(match.game.view(state, None))
    return {s for s in everything - strings(seen) if len(s) >= 6 and not s.islower()}


def make(tmp_path: Path, seats: str = "alice,bob", game: str = "notre-dame") -> tuple[Path, str]:
    path = tmp_path / "tables.sqlite"
    s = SQLiteStore(path)
    tid = s.create(game, parse_seats(seats, "alice"), {}, 5, "alice").id
    s.close()
    return path, tid


def app_for(path: Path, tid: str | None, user: str) -> BoardgamesApp:
    return BoardgamesApp(
        Launch(saves_dir=str(path.parent), store=str(path), table=tid, user=user, bot_delay=0)
    )


def at_table(app: BoardgamesApp) -> bool:
    """The game screen is up, playing a shared table."""
    return isinstance(app.screen, GameScreen) and isinstance(app.screen.source, TableSource)


def source_of(screen: Any) -> TableSource:
    assert isinstance(screen, GameScreen) and isinstance(screen.source, TableSource)
    return screen.source


def my_turn(screen: Any) -> bool:
    prompt = screen.match.prompt
    return prompt is not None and bool(source_of(screen).decides(prompt.seat))


async def until(pilot: Any, cond: Any, tries: int = 100) -> None:
    """Let the app run until `cond()` holds (the screen polls the store by itself)."""
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    assert cond()


async def test_the_table_screen_plays_from_your_seat(tmp_path: Path) -> None:
    path, tid = make(tmp_path)
    other = SQLiteStore(path)  # bob's terminal
    app = app_for(path, tid, "alice")
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: at_table(app))
        screen = app.screen
        assert source_of(screen).seat == 0 and my_turn(screen)
        await pilot.press("1")
        assert other.info(tid).moves == 1 and not my_turn(screen)
        await pilot.press("u")  # her own last move, nothing revealed, nobody moved since
        assert other.info(tid).moves == 0 and my_turn(screen)
        await pilot.press("1")
        # bob plays in his own terminal: it appears here by itself, with a bell
        info, match = other.load(tid)
        other.append(tid, "bob", match.prompt.moves[0].id, info.moves)
        await until(pilot, lambda: source_of(screen).info.moves == 2)
        assert my_turn(screen) and bells == [1]
        await pilot.press("u")  # bob's move: refused, nothing changes
        assert other.info(tid).moves == 2
        await pilot.press("b")
        assert app.launch.bell is False
        # a screen out of date: alice plays in a second terminal, then here before the poll
        info, match = other.load(tid)
        move = match.prompt.moves[0]
        other.append(tid, "alice", move.id, info.moves)
        screen.play(move)
        assert source_of(screen).info.moves == 3 and other.info(tid).moves == 3
        await pilot.pause()
        # review shows alice's seat only
        await pilot.press("v")
        assert isinstance(app.screen, ReviewScreen) and app.screen.viewer == 0
        await pilot.press("escape")
        seen = screen.match.game.view(screen.match.state, 0)
        text = app.export_screenshot().replace("&#160;", " ")
        for name in hidden_from(screen.match, screen.match.state, seen):
            assert name not in text
    other.close()


async def test_a_spectator_sees_the_public_view(tmp_path: Path) -> None:
    path, tid = make(tmp_path, "alice,bob,carol", "rattus-cartus")
    s = SQLiteStore(path)
    rng = random.Random(2)
    for _ in range(15):
        info, match = s.load(tid)
        s.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
    app = app_for(path, tid, "dave")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: at_table(app))
        screen = app.screen
        assert source_of(screen).seat is None and not my_turn(screen)
        match = screen.match
        pub = public_view(match)
        text = app.export_screenshot().replace("&#160;", " ")
        assert "watching" in text
        for name in hidden_from(match, match.state, pub):
            assert name not in text
        await pilot.press("1")  # no moves for a spectator
        assert s.info(tid).moves == 15
    s.close()


async def test_tables_menu_creates_and_lists_tables(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    app = app_for(path, None, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        assert isinstance(app.screen, TablesScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewTableScreen)
        seats = app.screen.query_one("#table-seats")
        seats.value = "me,bob,alice"
        await pilot.press("enter")
        assert "only once" in str(app.screen.query_one("#table-error").render())
        seats.value = "me,open,greedy"
        await pilot.press("enter")
        await until(pilot, lambda: at_table(app))
        assert "Waiting for players" in app.export_screenshot().replace("&#160;", " ")
        await pilot.press("q")
        assert isinstance(app.screen, TablesScreen)
        assert len(app.screen.infos) == 1
        text = app.export_screenshot().replace("&#160;", " ")
        assert "Your tables" in text and "open seat" in text


def test_players_and_a_spectator_in_their_own_terminals(tmp_path: Path) -> None:
    """alice and bob at a Notre Dame table, each in a pseudo-terminal of their own process,
    play by keys; carol watches. Each screen follows the other's moves, the bell rings when it
    becomes your turn, and no screen ever shows what its reader may not see. The rest of the
    game is played from the command line while the screens stay open, to the end."""
    path, tid = make(tmp_path)
    env = base_env(tmp_path, TERM="xterm-256color")
    args = ["--store", str(path), "table", "join", tid]
    ptys = {u: PtyApp(["--user", u, *args], env, size=(120, 40)) for u in ("alice", "bob", "carol")}
    store = SQLiteStore(path)
    seen: dict[str, set[str]] = {u: set() for u in ptys}
    try:
        ptys["alice"].read_until("Your turn")
        ptys["bob"].read_until("alice to move")
        ptys["carol"].read_until("watching")
        for k in range(6):
            info, match = store.load(tid)
            user = info.to_move
            for u, seat in (("alice", 0), ("bob", 1), ("carol", None)):
                v = match.game.view(match.state, seat) if seat is not None else public_view(match)
                seen[u] |= hidden_from(match, match.state, v)
            mover = ptys[user]
            mover.send(b"1", quiet=0.1)
            deadline = time.time() + 30
            while store.info(tid).moves == k and time.time() < deadline:
                mover.read(0.05, 0.2)
            assert store.info(tid).moves == k + 1
            nxt = store.info(tid).to_move
            ptys[nxt].read_until("Your turn")
            for p in ptys.values():
                p.read(0.1, 0.3)  # drain what it drew
        assert b"\x07" in ptys["bob"].output  # bob's bell: his turn came
        rng = random.Random(1)
        while not store.info(tid).finished:  # the rest from the command line
            info, match = store.load(tid)
            store.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
        for p in ptys.values():
            p.read_until("game over")
        texts = {u: plain(bytes(p.output)) for u, p in ptys.items()}
    finally:
        codes = [p.close() for p in ptys.values()]
        store.close()
    assert codes == [0, 0, 0]
    assert "Your cards (alice)" in texts["alice"] and "Your cards (bob)" in texts["bob"]
    assert "Your turn" not in texts["carol"]
    for u, text in texts.items():
        before_end = text.split("game over")[0]
        for name in seen[u]:
            assert name not in before_end, (u, name)
