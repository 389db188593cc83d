"""The table screen: the game from your seat, kept up to date from the store; the Tables
menu; and two players plus a spectator in real pseudo-terminals, each their own process."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from boardgames_tui.engine.tables import SQLiteStore, parse_seats, public_view
from boardgames_tui.session.table_source import TableSource
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import HelpScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.screens.tables import NewTableScreen, TablesScreen
from tests.shell.ptydriver import PtyApp, base_env, plain


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


def hidden_from(match: Any, state: Any, seen: Mapping[str, Any]) -> set[str]:
    """Names (cards, persons…) an observer who sees everything reads, but not this viewer:
    none of them may appear on the viewer's screen."""
    everything = strings(match.game.view(state, None))
    return {s for s in everything - strings(seen) if len(s) >= 6 and not s.islower()}


def make(
    tmp_path: Path, seats: str = "alice,bob", game: str = "notre-dame", unrated: bool = False
) -> tuple[Path, str]:
    path = tmp_path / "tables.sqlite"
    s = SQLiteStore(path)
    tid = s.create(game, parse_seats(seats, "alice"), {}, 5, "alice", {"unrated": unrated}).id
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
    """Let the app run until `cond()` holds (the screen polls the store by itself): at least
    `tries` pauses of 0.05 s, and on a loaded machine, whose pauses take longer than their
    time, up to a minute before it counts as a failure."""
    give_up = time.monotonic() + max(60.0, tries * 0.05)
    while not cond():
        assert time.monotonic() < give_up, "the app never got there"
        await pilot.pause(0.05)


async def test_the_table_screen_plays_from_your_seat(tmp_path: Path) -> None:
    path, tid = make(tmp_path)
    other = SQLiteStore(path)  # bob's terminal
    app = app_for(path, tid, "alice")
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: at_table(app))
        assert isinstance(app.screen, GameScreen)
        screen: GameScreen = app.screen
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
        assert isinstance(app.screen, GameScreen)
        screen: GameScreen = app.screen
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
        seats = app.screen.query_one("#table-seats", Input)
        seats.value = "me,bob,alice"
        await pilot.press("ctrl+s")
        assert "only once" in str(app.screen.query_one("#table-error").render())
        seats.value = "me,open,greedy"
        await pilot.press("ctrl+s")
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
            assert user is not None
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
            assert nxt is not None
            ptys[nxt].read_until("Your turn", quiet=0.1)
            for p in ptys.values():  # drain what it drew (all it draws is read in the end)
                p.read(0.05, 0.1)
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


def notes(app: BoardgamesApp) -> list[str]:
    """The notifications the app has shown (still on screen or not)."""
    return [str(n.message) for n in app._notifications]


async def undone_seen_by(path: Path, tid: str, user: str, store: SQLiteStore) -> list[str]:
    """What `user`'s screen says when alice plays and takes the move back elsewhere."""
    info, match = store.load(tid)
    store.append(tid, "alice", match.prompt.moves[0].id, info.moves)
    app = app_for(path, tid, user)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: at_table(app) and source_of(app.screen).info.moves == 1)
        store.undo(tid, "alice", 1)
        await until(pilot, lambda: source_of(app.screen).info.moves == 0)
        await until(pilot, lambda: any("took back" in n for n in notes(app)))
        return [n for n in notes(app) if "took back" in n]


async def test_a_move_taken_back_is_told_on_the_other_screens(tmp_path: Path) -> None:
    """alice plays and takes her move back at her terminal: bob's screen and a spectator's
    say so, naming the move as each may read it (bob never learns alice's kept card); her own
    undo is not told to her."""
    path, tid = make(tmp_path)
    store = SQLiteStore(path)
    shown = {user: await undone_seen_by(path, tid, user, store) for user in ("bob", "carol")}
    assert shown["bob"] == ["alice took back “alice keeps a card and passes two to bob”"]
    assert len(shown["carol"]) == 1 and shown["carol"][0].startswith("alice took back “alice")
    assert "Keep" not in shown["carol"][0] and "Bank" not in shown["bob"][0]
    # alice's own undo, at her own screen: nothing to tell
    app = app_for(path, tid, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: at_table(app) and my_turn(app.screen))
        await pilot.press("1")
        await pilot.press("u")
        await until(pilot, lambda: store.info(tid).moves == 0)
        await pilot.pause(0.3)
        assert not [n for n in notes(app) if "took back" in n]
    store.close()


def computer_to_move(tmp_path: Path, game: str) -> tuple[Path, str]:
    """A table of `game` (alexandra, a greedy computer, bob) where the computer is to move;
    unrated, so that it offers hints (a rated table has none until it ends)."""
    path, tid = make(tmp_path, "alexandra,greedy,bob", game, unrated=True)
    store = SQLiteStore(path)
    info, match = store.load(tid)
    while match.prompt.seat == 0:
        store.append(tid, "alexandra", match.prompt.moves[0].id, info.moves)
        info, match = store.load(tid)
    store.close()
    return path, tid


def status_line(screen: Any) -> str:
    return str(screen.query_one("#status").render())


def footer_keys(screen: Any, width: int) -> list[str]:
    """The footer's keys ("q Menu"), each checked to be wholly on the screen."""
    keys = []
    for k in screen.query(FooterKey):
        assert k.region.right <= width, (k.key_display, k.description, k.region)
        keys.append(f"{k.key_display} {k.description}")
    return keys


async def test_table_screens_fit_at_80x24_and_120x40(tmp_path: Path) -> None:
    """Every title, a computer to move (the longest status line), from a seat and watching:
    the status line is never cut ("…"), the footer's keys are all on the screen, and a
    spectator is offered no key it cannot use (hint, undo, bell)."""
    for game in ("notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347"):
        path, tid = computer_to_move(tmp_path / game, game)
        for user in ("bob", "dave"):
            await check_fit(path, tid, user, game)


async def check_fit(path: Path, tid: str, user: str, game: str) -> None:
    """`user`'s screen at the table, at both sizes (see the test above)."""
    app = BoardgamesApp(
        Launch(saves_dir=str(path.parent), store=str(path), table=tid, user=user, bot_delay=600)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: at_table(app))
        for width, height in ((80, 24), (120, 40)):
            if app.size != (width, height):  # it starts at the first size
                # the footer shows other keys at the new size once it is composed again
                # (after the screen's bindings are refreshed, when it is next idle)
                before = {id(k) for k in app.screen.query(FooterKey)}
                await pilot.resize_terminal(width, height)
                await until(
                    pilot,
                    lambda: not {id(k) for k in app.screen.query(FooterKey)} & before,  # noqa: B023
                )
            await until(pilot, lambda: footer_keys(app.screen, width) != [])  # noqa: B023
            line = status_line(app.screen)
            assert "to move" in line and not line.endswith("…"), (game, width, line)
            keys = footer_keys(app.screen, width)
            if user == "bob":
                assert {"q Menu", "b Bell", "h Hint", "u Undo"} <= set(keys)
                assert ("c Say" in keys) == (width == 120)  # talk, where the footer has room
                await pilot.press("c")  # the key works at both sizes
                assert type(app.screen).__name__ == "TalkScreen"
                await pilot.press("escape")
                assert "you: bob" in line
                continue
            assert "q Menu" in keys and "watching" in line
            assert not {"h Hint", "u Undo", "b Bell"} & set(keys), keys
            await pilot.press("h")  # not offered: nothing happens, no refusal
            assert not notes(app)
            await pilot.press("question_mark")  # nor by the help's keys
            assert isinstance(app.screen, HelpScreen) and app.screen.rows is not None
            assert not [k for k, _ in app.screen.rows if k in ("u", "r", "h", "b")]
            await pilot.press("escape")


async def test_the_new_table_form_fits_at_80x24(tmp_path: Path) -> None:
    """Every field of the new-table form, its hints and its error are inside an 80×24 window
    (above the footer), with the longest options line (Rattus Cartus)."""
    from textual.widgets import Select

    app = app_for(tmp_path / "tables.sqlite", None, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        assert isinstance(app.screen, NewTableScreen)
        app.screen.query_one("#table-game", Select).value = "rattus-cartus"
        app.screen.query_one("#table-seats", Input).value = "me,bob,bob"
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: "only once" in str(app.screen.query_one("#table-error").render())
        )
        # the error's text is there before the form is laid out around it: regions are read
        # after the screen's next layout
        await pilot.pause()
        for widget in app.screen.query("Input, Select, Switch, Static, Label"):
            assert widget.region.right <= 80 and widget.region.bottom <= 23, widget


async def test_the_seed_field_is_only_for_a_table_against_computers(tmp_path: Path) -> None:
    """The New table form let the creator choose the seed of a table with others (issue 41:
    a seed of 4242, and the other seat's hand computed exactly). Now its Seed field is
    disabled, with one line saying why, while the seats name another person or an open
    seat; against computers a chosen seed makes a table marked "chosen seed (not rated)"."""
    from textual.widgets import Input, Static

    path = tmp_path / "tables.sqlite"
    app = app_for(path, None, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        assert isinstance(app.screen, NewTableScreen)
        seed = app.screen.query_one("#table-seed", Input)
        why = app.screen.query_one("#table-seed-hint", Static)
        assert seed.disabled and why.display  # "me,open": someone else will sit here
        assert "whoever knows it knows every hand" in str(why.render())
        app.screen.query_one("#table-seats", Input).value = "me,greedy"
        await until(pilot, lambda: not seed.disabled)
        assert not why.display
        seed.value = "4242"
        app.screen.query_one("#table-seats", Input).value = "me,bob"
        await until(pilot, lambda: seed.disabled)
        assert seed.value == ""  # nothing chosen carries over
        app.screen.query_one("#table-seats", Input).value = "me,greedy"
        await until(pilot, lambda: not seed.disabled)
        seed.value = "4242"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: at_table(app))
        assert "chosen seed (not rated)" in source_of(app.screen).heading
        await pilot.press("q")
        assert isinstance(app.screen, TablesScreen)
        assert "chosen seed (not rated)" in app.export_screenshot().replace("&#160;", " ")
    s = SQLiteStore(path)
    [made] = s.tables()
    assert (made.seed, made.seed_kind) == (4242, "chosen")
    s.close()


async def test_a_rated_table_offers_no_hint_or_analysis_until_it_ends(tmp_path: Path) -> None:
    """Issue 46: a table that counts for ratings has no hint key and review refuses to
    analyse while it is played; an unrated one offers both."""
    from boardgames_tui.tui.screens.review import ReviewScreen

    for unrated in (False, True):
        path, tid = make(tmp_path / str(unrated), "alice,bob", unrated=unrated)
        app = app_for(path, tid, "alice")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: at_table(app))  # noqa: B023
            keys = footer_keys(app.screen, 120)
            assert ("h Hint" in keys) is unrated, keys
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))  # noqa: B023
            assert app.screen.analysis is unrated  # type: ignore[attr-defined]


async def test_the_end_of_a_table_says_whether_it_counted(tmp_path: Path) -> None:
    """Issue 46: each table says whether it counts for ratings, and why not."""
    from textual.widgets import Static

    from boardgames_tui.tui.screens.end import EndScreen

    for unrated, said in ((False, "Rated: this table counts"), (True, "Not rated: its creator")):
        path, tid = make(tmp_path / str(unrated), "alice,bob", unrated=unrated)
        store = SQLiteStore(path)
        while True:
            info, match = store.load(tid)
            if match.prompt is None:
                break
            user = info.seats[match.prompt.seat].user
            store.append(tid, user, match.prompt.moves[0].id, info.moves)
        store.close()
        app = app_for(path, tid, "alice")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, EndScreen))  # noqa: B023
            note = str(app.screen.query_one("#end-note", Static).render())
            assert note.startswith(said), note


async def test_away_notifications_leave_and_take_back_in_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Tables screen's o: targets added (a bad one refused in one line), the reminder set,
    away and back; L leaves the highlighted table (after a yes), r takes the seat back; a
    room's player is shown no host path."""
    from boardgames_tui.engine.tables.notify import ROOM_SCHEMES, Policy
    from boardgames_tui.tui.screens.days import OverDaysScreen
    from tests.tables.test_notify import Hook, wait_for

    # a room whose host lets targets on this machine in (`serve --notify-private`): the
    # test's webhook is one
    for key, value in Policy(ROOM_SCHEMES, private=True).env().items():
        monkeypatch.setenv(key, value)
    path, tid = make(tmp_path)
    hook = Hook()
    app = app_for(path, None, "bob")
    app.launch.confine = True
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t")
            assert isinstance(app.screen, TablesScreen)
            import html
            import re

            svg = app.export_screenshot()
            shown = html.unescape("".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")
            assert str(tmp_path) not in shown and "the room's tables" in shown
            await pilot.press("o")
            assert isinstance(app.screen, OverDaysScreen)
            url = app.screen.query_one("#days-url", Input)
            for bad, said in (
                ("nonsense", "not a notification URL"),
                ("syslog://", "targets are not allowed here"),
            ):
                url.focus()
                url.value = bad
                await pilot.press("enter")
                assert said in str(app.screen.query_one("#days-said").render())
            url.value = hook.url("bob")
            await pilot.press("enter")
            remind = app.screen.query_one("#days-remind", Input)
            remind.focus()
            remind.value = "0.5"
            await pilot.press("enter")
            away = app.screen.query_one("#days-away", Input)
            away.focus()
            away.value = "3d"
            await pilot.press("enter")
            store = SQLiteStore(path)
            assert [t.url for t in store.targets("bob")] == [hook.url("bob")]
            assert store.remind_hours("bob") == 0.5 and store.away("bob") is not None
            app.screen.query_one("#days-targets").focus()
            await pilot.press("b")
            assert store.away("bob") is None
            await pilot.press("s")  # a test message to the target
            assert wait_for(lambda: len(hook.posts) == 1)
            await pilot.press("escape")
            assert isinstance(app.screen, TablesScreen)
            await pilot.press("L")
            await pilot.press("y")
            await until(pilot, lambda: store.info(tid).seats[1].pilot == "left")
            await pilot.press("r")
            await until(pilot, lambda: store.info(tid).seats[1].pilot is None)
            store.close()
    finally:
        hook.close()


async def test_the_new_table_form_starts_at_the_game_and_enter_creates_nothing(
    tmp_path: Path,
) -> None:
    """The form opens in its first field (the game); Enter in a field goes on to the next
    one and creates nothing; Ctrl+S creates the table."""
    from textual.widgets import Select

    path = tmp_path / "tables.sqlite"
    app = app_for(path, None, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        assert isinstance(app.screen, NewTableScreen)
        assert isinstance(app.focused, Select) and app.focused.id == "table-game"
        seats = app.screen.query_one("#table-seats", Input)
        seats.focus()
        await pilot.press("enter")
        assert isinstance(app.screen, NewTableScreen) and app.focused is not seats
        assert SQLiteStore(path).tables() == []
        await pilot.press("ctrl+s")
        await until(pilot, lambda: at_table(app))
        assert len(SQLiteStore(path).tables()) == 1


def test_who_is_here_and_what_happened_since_you_last_looked(tmp_path: Path) -> None:
    """bob's table screen says alice is here once her session says so; alice, opening the
    table again after bob moved and talked, is told what happened since she last looked."""
    path, tid = make(tmp_path)
    store = SQLiteStore(path)
    alice = TableSource(store, tid, "alice")
    assert alice.news() == []  # the first look: nothing to catch up on
    alice.play(alice.match.prompt.moves[0].id)  # her own move: she has seen it
    alice.close()
    store.here("alice")
    bob = TableSource(SQLiteStore(path), tid, "bob")
    assert bob.here == {"alice"} and "here: alice" in bob.heading
    _, match = store.load(tid)
    store.append(tid, "bob", match.prompt.moves[0].id, 1)
    store.say(tid, "bob", "your move", now=1000.0)
    store.gone("alice")
    again = TableSource(store, tid, "alice")
    [news] = again.news()
    assert news.startswith("Since you last looked (1 move(s), 1 message(s)):")
    assert "bob keeps a card" in news
    assert TableSource(store, tid, "alice").news() == []  # said once
    assert "alice" not in bob.store.present()
    store.close()
