"""A log line for a chosen set of seats (issue 47): `Event(text, seats={...}, public=...)`.

The example plug-in's face-down discard is shown to the next seat alone: the one who discards
and the one shown it read the card, every other seat and a spectator read the public line, on
every surface that writes the log: the match's events, the game screen's log, the review, the
line mode and `table show`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgames_tui.engine.core import HUMAN, PUBLIC, Match, Seat
from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.engine.tables import SeatInfo, SQLiteStore
from boardgames_tui.plain.lines import Output
from boardgames_tui.plain.session import PlainSession
from tests.conformance.test_robust_leaks import FROZEN, lines

SHOWN = "Ann discards card 2 face down and shows it to Bob"
PUBLIC_LINE = "Ann discards a card face down and shows it to Bob"


def test_an_event_for_two_seats() -> None:
    ev = Event("Ann shows Bob a 3", seats=[0, 1], public="Ann shows Bob a card")
    assert ev.readers == {0, 1} and isinstance(ev.seats, frozenset)
    assert [ev.for_seat(v) for v in (0, 1, 2, PUBLIC, None)] == [ev.text] * 2 + [
        ev.public,
        ev.public,
        ev.text,
    ]
    assert Event("x", seat=2, seats={0}).readers == {0, 2}
    assert Event("x", seat=2).readers == {2} and Event("x").readers is None
    assert Event("x", seats={1}) == Event("x", seats=[1])


def discarded(kinds: tuple[str, str, str] = (HUMAN, HUMAN, HUMAN)) -> Match:
    """Toy for Ann, Bob and Cy: Ann discards her 2 face down (shown to Bob)."""
    names = ("Ann", "Bob", "Cy")
    m = Match.new("toy", [Seat(n, k) for n, k in zip(names, kinds, strict=True)], seed=3)
    m.play("card:2")
    m.play("pass")
    return m


def test_the_match_log_for_each_reader() -> None:
    m = discarded()
    said = {v: [line for _, line in m.events(v)] for v in (0, 1, 2, PUBLIC)}
    assert said[0][-1] == said[1][-1] == SHOWN
    assert said[2][-1] == said[PUBLIC][-1] == PUBLIC_LINE
    # and the view of the seat shown the card says so too (a log is not a view)
    assert m.game.view(m.state, 1)["shown"] == [2]
    assert m.game.view(m.state, 2)["shown"] == []
    assert m.game.view(m.state, PUBLIC)["shown"] is None
    assert m.move_line(2, 1) == SHOWN and m.move_line(2, 2) == PUBLIC_LINE


@pytest.mark.parametrize("reader, line", [(1, SHOWN), (2, PUBLIC_LINE)])
def test_the_line_mode_log(reader: int, line: str, tmp_path: Path) -> None:
    out = Output()
    session = PlainSession(discarded(), lambda t: None, out, str(tmp_path))
    session.viewer = reader
    session.command("log")
    assert any(x.endswith(line) for x in out.lines), out.lines
    assert not any(SHOWN in x for x in out.lines) or line == SHOWN


@pytest.mark.parametrize("reader, line", [(1, SHOWN), (2, PUBLIC_LINE)])
async def test_the_game_screen_log_and_review(reader: int, line: str, tmp_path: Path) -> None:
    """One person (`reader`) against two computers, who wait: the log and the review list."""
    from textual.widgets import RichLog

    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.game import GameScreen

    kinds = tuple(HUMAN if i == reader else "random" for i in range(3))
    m = discarded(kinds)  # type: ignore[arg-type]
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=FROZEN))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        log = " ".join(" ".join(lines(app.screen.query_one(RichLog))).split())
        assert line in log and (line == SHOWN or SHOWN not in log)
        await pilot.press("v")
        await pilot.pause()
        listed = "\n".join(lines(app.screen.query_one("#review-moves")))
        assert f"2 {line}" in listed and (line == SHOWN or SHOWN not in listed)


@pytest.mark.parametrize(
    "user, line",
    [("bob", SHOWN), ("cy", PUBLIC_LINE), ("zoe", PUBLIC_LINE)],
)
def test_table_show(user: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`table show` and its JSON, as the seat shown the card, another seat and a spectator."""
    import json

    line = line.replace("Ann", "ann").replace("Bob", "bob")  # a table's seats are its users

    from boardgames_tui.cli.main import main

    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    seats = [SeatInfo(i, HUMAN, u) for i, u in enumerate(("ann", "bob", "cy"))]
    tid = store.create("toy", seats, {}, 3, "ann").id
    for n, move_id in enumerate(("card:2", "pass")):
        store.append(tid, "ann", move_id, n)
    store.close()
    base = ["--store", str(path), "--user", user, "table", "show", tid]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert line in text and (line == SHOWN or SHOWN not in text)
    assert main([*base, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["log"][-1] == line
