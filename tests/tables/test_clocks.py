"""Turn clocks at shared tables (both backends): an expired turn played by the computer once
while processes race to settle it, three timeouts handing the seat over until `table
reclaim`, away with and without vacation, leaving, reminders, bad durations, the format-3
upgrade. Waits longer than a couple of seconds move the store's clock instead
(`SQLStore.clock_skew`), never a screen's."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import Refused, TableStore, open_store, parse_seats
from boardgames_tui.engine.tables.clock import (
    AUTOPILOT,
    LEFT,
    TIMEOUTS,
    ClockRules,
    pilot_reason,
    seconds_left,
)
from boardgames_tui.engine.tables.computer import settle
from boardgames_tui.engine.tables.notify import deliver
from boardgames_tui.engine.tables.sqlstore import SQLStore
from tests.root import ROOT
from tests.tables.conftest import Backend
from tests.tables.test_notify import Hook, cli_env, wait_for

HOUR = 3600.0


@pytest.fixture
def clock() -> Iterator[list[float]]:
    """The stores' clock in this process (seconds added), moved on by `advance`."""
    moved = [0.0]
    yield moved
    SQLStore.clock_skew = 0.0


def advance(clock: list[float], seconds: float) -> None:
    """Every store of this process reads the store's clock `seconds` later from now on."""
    clock[0] += seconds
    SQLStore.clock_skew = clock[0]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`main(argv)`: its code and output. A table made here seats its creator and offers the
    others their seats: they accept at once (the people of these tests are willing)."""
    rc = main(list(argv))
    out, err = capsys.readouterr()
    offered = [ln for ln in out.splitlines() if ln.startswith("seats offered to ")]
    if rc == 0 and "new" in argv and offered:
        tid, store = out.split()[-1], argv[argv.index("--store") + 1]
        for user in offered[0].removeprefix("seats offered to ").split(":")[0].split(", "):
            assert main(["--user", user, "--store", store, "table", "join", tid]) == 0
        capsys.readouterr()
    return rc, out, err


def autopilot_moves(backend: Backend, tid: str) -> list[tuple[int, int]]:
    """(move number, seat) of every move the computer played for a person."""
    rows = backend.sql(
        'SELECT n, seat FROM bg_moves WHERE table_id = ? AND "user" = ? ORDER BY n',
        (tid, AUTOPILOT),
    )
    return [(int(n), int(s)) for n, s in rows]


def play_turn(store: TableStore, tid: str, user: str) -> None:
    """`user` plays their whole turn (every step of it) with the first legal moves."""
    info, match = store.load(tid)
    assert info.to_move == user, (info.to_move, user)
    while info.to_move == user and match.prompt is not None:
        info = store.append(tid, user, match.prompt.moves[0].id, info.moves)
        info, match = store.load(tid)


def test_bad_clock_options_are_one_line_and_store_nothing(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    new = (*base, "new", "notre-dame", "--seats", "alice,bob")
    for bad, said in [
        (("--turn-limit", "0s"), "more than 0"),
        (("--turn-limit", "-5m"), "give a duration"),
        (("--turn-limit", "10x"), "give a duration"),
        (("--turn-limit", "ten minutes"), "give a duration"),
        (("--turn-limit", "900d"), "at most a year"),
        (("--turn-limit", "10m", "--on-timeout", "pass"), "computer or wait"),
        (("--autopilot", "genius"), "one of random, greedy, strong"),
        (("--vacation", "-1"), "0 to 365 days"),
        (("--vacation", "lots"), "give days"),
    ]:
        rc, out, err = run(capsys, *new, *bad)
        assert rc == 2 and out == "", bad
        assert len(err.strip().splitlines()) == 1 and said in err, (bad, err)
    rc, out, _ = run(capsys, *base, "list", "--json")
    assert rc == 0 and json.loads(out) == []  # nothing was created
    rc, _, err = run(capsys, *new, "--turn-limit", "90s")
    assert rc == 0
    for bad, said in [
        (("--until", "2001-01-01"), "has passed"),
        (("--until", "-3d"), "give a date"),
        (("--until", "next week"), "give a date"),
    ]:
        rc, out, err = run(capsys, *base, "away", *bad)
        assert rc == 2 and len(err.strip().splitlines()) == 1 and said in err, (bad, err)
    rc, out, err = run(capsys, *base, "notify", "remind", "-2")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "give hours" in err
    store = backend.open()
    assert store.away("alice") is None and store.remind_hours("alice") == 24
    store.close()


def test_an_expired_turn_is_played_once_while_two_processes_race(
    backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `--turn-limit 2s` table: alice does nothing, two processes settle the store as
    fast as they can; her turn is played by the computer exactly once (one run of
    autopilot moves, one timeout counted, one log line), each move by one process."""
    racers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.tables.table_procs",
                "settler",
                backend.location,
                "alice",
                str(tmp_path / f"settler{k}.json"),
            ],
            cwd=ROOT,
            env=cli_env(backend, tmp_path),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for k in range(2)
    ]
    try:
        for p in racers:
            assert p.stdout is not None and p.stderr is not None
            assert p.stdout.readline() == "ready\n", p.stderr.read()
        base = ("--user", "alice", "--store", backend.location, "table")
        rc, out, _ = run(
            capsys, *base, "new", "notre-dame", "--seats", "alice,bob",
            "--turn-limit", "2s",
        )  # fmt: skip
        assert rc == 0 and "2s a turn" in out
        tid = out.split()[-1]
        for p in racers:
            assert p.wait(timeout=60) == 0, p.stderr.read() if p.stderr else ""
    finally:
        for p in racers:
            if p.poll() is None:
                p.kill()
            p.communicate()
    played = [json.loads((tmp_path / f"settler{k}.json").read_text())["played"] for k in (0, 1)]
    store = backend.open()  # (bob's own 2 s may run out meanwhile: only alice's turn counts)
    info, match = store.load(tid)
    auto = autopilot_moves(backend, tid)
    hers = [n for n, seat in auto if seat == 0]
    assert hers and hers == list(range(1, len(hers) + 1))  # her one turn, from the first move
    assert info.seats[1].seat not in [s for n, s in auto if n <= len(hers)]
    assert sum(played) == len(auto)  # each move played by one process, none twice
    assert info.seats[0].strikes == 1 and info.seats[0].pilot is None
    said = [e.text for e in store.events(tid) if e.text.startswith("alice")]
    assert said == [
        "alice ran out of time: the computer (greedy) plays this turn (1 of 3 in a row)"
    ]
    assert match.autopilot == {n for n, _ in auto}
    store.close()


def test_three_timeouts_in_a_row_hand_the_seat_over_until_reclaim(
    backend: Backend, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    store = backend.open()
    # a seed of the host's (the command line draws a secret one): the same game every run, so
    # the autopilot's moves are among the last lines `table show` gives
    seats = parse_seats("alice,bob", "alice")
    tid = store.create("notre-dame", seats, {}, 3, "alice", rules=ClockRules(60.0)).id
    for strikes in (1, 2, 3):
        if strikes > 1:
            play_turn(store, tid, "bob")
        advance(clock, 61)
        assert settle(store) >= 1
        info = store.info(tid)
        assert info.seats[0].strikes == strikes and info.to_move == "bob"
    assert info.seats[0].pilot == TIMEOUTS and not info.your_turn("alice")
    assert "missed 3 turns in a row" in store.events(tid)[-1].text
    # from now on the computer answers at once, no clock needed
    play_turn(store, tid, "bob")
    assert settle(store) >= 1
    info, _ = store.load(tid)
    assert info.to_move == "bob" and info.seats[0].pilot == TIMEOUTS
    play_turn(store, tid, "bob")
    info, match = store.load(tid)
    assert info.to_move == "alice" and pilot_reason(info) == TIMEOUTS
    assert match.prompt is not None
    with pytest.raises(Refused, match=r"take it back with `table reclaim"):
        store.append(tid, "alice", match.prompt.moves[0].id, info.moves)
    rc, out, _ = run(capsys, *base, "reclaim", tid)
    assert rc == 0 and "play seat 1" in out
    info, _match = store.load(tid)
    assert info.seats[0].pilot is None and info.seats[0].strikes == 0
    assert info.your_turn("alice") and seconds_left(info) == pytest.approx(60, abs=5)
    n = len(autopilot_moves(backend, tid))
    play_turn(store, tid, "alice")  # her own moves again
    assert len(autopilot_moves(backend, tid)) == n
    rc, _, err = run(capsys, *base, "reclaim", tid)
    assert rc == 1 and "yours already" in err
    rc, out, _ = run(capsys, "--user", "bob", "--store", backend.location, "table", "show", tid)
    assert "(autopilot)" in out and "alice took back seat 1" in out
    store.close()


def test_wait_policy_only_shows_the_clock(
    store: TableStore, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice",
        rules=ClockRules(60.0, "wait"),
    )  # fmt: skip
    advance(clock, 120)
    assert settle(store) == 0
    info = store.info(t.id)
    assert info.moves == 0 and seconds_left(info) == pytest.approx(-60, abs=2)
    assert pilot_reason(info) is None and info.your_turn("alice")
    _rc, out, _ = run(capsys, "--user", "alice", "--store", store.path, "table", "show", t.id)
    assert "time is up (the table waits)" in out
    play_turn(store, t.id, "alice")  # a late move is still taken


def test_show_json_has_the_deadline(
    backend: Backend, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    _, out, _ = run(
        capsys, *base, "new", "notre-dame", "--seats", "alice,bob", "--turn-limit", "10m"
    )
    tid = out.split()[-1]
    doc = json.loads(run(capsys, *base, "show", tid, "--json")[1])
    assert doc["turn_limit"] == 600 and doc["on_timeout"] == "computer"
    assert 590 < doc["seconds_left"] <= 600 and doc["deadline"].endswith("+00:00")
    advance(clock, 240)
    doc = json.loads(run(capsys, *base, "show", tid, "--json")[1])
    assert 350 < doc["seconds_left"] <= 360
    _, out, _ = run(capsys, *base, "list")
    assert "YOUR TURN · 5:5" in out or "YOUR TURN · 6:00" in out
    _rc, out, _ = run(capsys, *base, "new", "notre-dame", "--seats", "alice,bob")
    doc = json.loads(run(capsys, *base, "show", out.split()[-1], "--json")[1])
    assert doc["deadline"] is None and doc["seconds_left"] is None  # no clock by default


def test_away_pauses_clocks_where_vacation_is_allowed_else_the_computer_plays(
    backend: Backend, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    new = (*base, "new", "notre-dame", "--seats", "alice,bob")
    vac = run(capsys, *new, "--turn-limit", "1h")[1].split()[-1]
    none = run(capsys, *new, "--turn-limit", "1h", "--vacation", "0")[1].split()[-1]
    free = run(capsys, *new)[1].split()[-1]  # no clock, no vacation needed
    rc, out, _ = run(capsys, *base, "away", "--until", "3d")
    assert rc == 0 and "alice is away until" in out
    assert f"{vac}  Notre Dame: your clock is paused (vacation), 14d 0h of vacation left" in out
    assert f"{none}  Notre Dame: no vacation at this table, the computer (greedy) plays" in out
    store = backend.open()
    # the table without vacation: the computer plays her turn at once
    info = store.info(none)
    assert info.moves > 0 and info.to_move == "bob"
    assert {s for _, s in autopilot_moves(backend, none)} == {0}
    assert store.info(none).seats[0].strikes == 0  # being away is not a timeout
    # two hours later her paused clock has not moved; the table without a clock waits
    advance(clock, 2 * HOUR)
    settle(store)
    info = store.info(vac)
    assert info.moves == 0 and seconds_left(info) == pytest.approx(HOUR, abs=5)
    assert store.info(free).moves == 0
    bob = run(capsys, "--user", "bob", "--store", backend.location, "table", "show", vac)[1]
    assert "alice is away until" in bob and "clock paused" in bob
    rc, out, _ = run(capsys, *base, "away", "--off")
    assert rc == 0 and "alice is back" in out
    info = store.info(vac)
    assert info.seats[0].vacation_used == pytest.approx(2 * HOUR, abs=5)
    assert seconds_left(info) == pytest.approx(HOUR, abs=5)  # the clock runs again from there
    assert [e.text.split(":")[0] for e in store.events(vac)][-1] == "alice is back"
    advance(clock, HOUR + 1)
    assert settle(store) >= 1 and store.info(vac).seats[0].strikes == 1  # now it ran out
    store.close()


def test_vacation_runs_out(
    store: TableStore, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice",
        rules=ClockRules(HOUR, vacation=1),
    )  # fmt: skip
    store.set_away("alice", None)
    advance(clock, 24 * HOUR + 30 * 60)  # a day of vacation and half an hour of clock
    info = store.info(t.id)
    assert seconds_left(info) == pytest.approx(HOUR / 2, abs=5) and pilot_reason(info) is None
    advance(clock, HOUR)
    assert settle(store) >= 1 and store.info(t.id).seats[0].strikes == 1


def test_leave_gives_the_seat_to_the_computer_and_the_game_goes_on(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    tid = run(capsys, *base, "new", "notre-dame", "--seats", "bob,alice,carol")[1].split()[-1]
    rc, out, _ = run(capsys, *base, "leave", tid)
    assert rc == 0 and "the computer (greedy) plays your seat" in out
    rc, _, err = run(capsys, *base, "leave", tid)
    assert rc == 1 and "left table" in err and "already" in err
    rc, _, err = run(capsys, "--user", "dan", "--store", backend.location, "table", "leave", tid)
    assert rc == 1 and "no seat" in err
    store = backend.open()
    assert store.info(tid).seats[1].pilot == LEFT
    for _ in range(3):  # bob and carol play; the computer answers for alice
        for _user in ("bob", "carol"):
            info = store.info(tid)
            while info.to_move not in ("bob", "carol"):
                settle(store)
                info = store.info(tid)
            play_turn(store, tid, str(info.to_move))
    auto = autopilot_moves(backend, tid)
    assert len({n for n, _ in auto}) >= 3 and {s for _, s in auto} == {1}
    rc, out, _ = run(capsys, "--user", "carol", "--store", backend.location, "table", "show",
                     tid, "--json")  # fmt: skip
    assert any(line.endswith("(autopilot)") for line in json.loads(out)["log"])
    from boardgames_tui.cli.table_cmd import table_log

    info, match = store.load(tid)
    log = table_log(store, info, match, 2)  # carol's log, whole
    said = "· alice left the table: the computer (greedy) plays seat 2 from now on"
    assert log.index(said) < min(i for i, line in enumerate(log) if "(autopilot)" in line)
    # nothing of it is in a save's moves: the table's own lines are not moves
    match = store.load(tid)[1]
    assert len(match.steps) == store.info(tid).moves
    store.close()


def test_one_reminder_after_the_hours_set(
    backend: Backend, hook: Hook, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    base = ("--user", "alice", "--store", backend.location, "table")
    rc, _, err = run(capsys, *base, "notify", "add", hook.url("alice"), "--remind", "-3")
    assert rc == 2 and "give hours" in err and backend.open().targets("alice") == []
    run(capsys, *base, "notify", "add", hook.url("alice"))
    rc, out, _ = run(capsys, *base, "notify", "remind")
    assert rc == 0 and "after 24 hours" in out
    rc, out, _ = run(capsys, *base, "notify", "remind", "5")
    assert rc == 0 and "once after 5 hours" in out
    rc, out, _ = run(capsys, *base, "notify", "add", hook.url("alice-2"), "--remind", "2")
    assert rc == 0 and "once after 2 hours" in out
    assert "after 2 hours" in run(capsys, *base, "notify", "remind")[1]
    run(capsys, *base, "notify", "remove", "2")
    tid = run(capsys, *base, "new", "notre-dame", "--seats", "alice,bob")[1].split()[-1]
    store = backend.open()
    # bob's accepting his seat began the table: alice is told it is her turn (by a sender)
    assert wait_for(lambda: len(hook.posts) == 1, 30)
    hook.posts.clear()
    advance(clock, HOUR)
    settle(store)
    deliver(store)
    assert hook.posts == []  # an hour: too early
    advance(clock, 1.5 * HOUR)
    for _ in range(2):  # several readers: one message
        run(capsys, "--user", "bob", "--store", backend.location, "table", "list")
        settle(store)
        deliver(store)
    assert wait_for(lambda: len(hook.posts) >= 1)
    info, match = store.load(tid)
    assert match.prompt is not None
    store.append(tid, "alice", match.prompt.moves[0].id, info.moves)  # a step of her turn
    if store.info(tid).to_move == "alice":
        settle(store)
        deliver(store)
    titles = [title for _, title, _ in hook.posts]
    assert titles == [f"Reminder: your turn at table {tid} (Notre Dame)"], titles
    assert "for 2 h 30 min" in hook.posts[0][2]  # units spelt out, never "2:30"
    rows = backend.sql("SELECT kind, state FROM bg_notices")
    assert sorted(rows) == [("remind", "sent"), ("turn", "sent")]
    run(capsys, *base, "notify", "remind", "0")
    assert store.remind_hours("alice") == 0
    store.close()


@pytest.fixture
def hook() -> Iterator[Hook]:
    h = Hook()
    yield h
    h.close()


def test_a_store_unreachable_past_the_deadline_settles_once_when_back(
    backend: Backend, clock: list[float]
) -> None:
    store = backend.open(busy=0.3)
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice", rules=ClockRules(60.0)
    )
    advance(clock, 61)
    with backend.hold(t.id):  # the store cannot be written past the deadline
        assert settle(store) == 0
    assert store.info(t.id).moves == 0
    other = backend.open()
    first, second = settle(store), settle(other)
    assert first >= 1 and second == 0
    assert store.info(t.id).seats[0].strikes == 1 and len(store.events(t.id)) == 1
    other.close()
    store.close()


def test_a_format_3_store_is_upgraded_with_its_tables_and_notices(backend: Backend) -> None:
    from boardgames_tui.engine.tables.store import FORMAT

    s = backend.open()
    t = s.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    info, match = s.load(t.id)
    assert match.prompt is not None
    s.append(t.id, "alice", match.prompt.moves[0].id, 0)
    s.close()
    backend.to_format_3()
    backend.sql(
        'INSERT INTO bg_notices (table_id, n, "user", target, title, body) VALUES (?,?,?,?,?,?)',
        (t.id, 1, "bob", 1, "Your turn", "…"),
    )
    s = backend.open()
    assert backend.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [(str(FORMAT),)]
    info = s.info(t.id)
    assert info.moves == 1 and info.rules == ClockRules() and info.turn_since is None
    assert info.seed_kind == "shown"  # its seed was printed when it was made
    assert backend.sql('SELECT "user", kind, state FROM bg_notices') == [("bob", "turn", "due")]
    assert settle(s) == 0  # no clock: nothing due
    s.leave(t.id, "bob")  # the new tables work
    assert s.info(t.id).seats[1].pilot == LEFT
    n = s.add_target("bob", "json://127.0.0.1:9/bob")  # and format 9's talk targets
    assert s.set_target_talk("bob", n, True) and s.targets("bob")[-1].talk
    s.say(t.id, "alice", "hello")
    assert ("bob", "talk") in backend.sql('SELECT "user", kind FROM bg_notices')
    s.close()
    s2 = open_store(backend.location)  # opened again: nothing more to do
    assert s2.info(t.id).seats[1].pilot == LEFT
    s2.close()


def test_a_timeout_plays_only_the_turn_that_ran_out(
    backend: Backend, clock: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    """Rattus Cartus: alice's last decision of a round is followed by her first of the next
    (a new phase, her next turn). Her time runs out on the first: the computer plays that
    decision only, and her next turn starts with a fresh clock, hers to play."""
    from boardgames_tui.engine.tables.store import build_match

    store = backend.open()
    t = store.create(
        "rattus-cartus", parse_seats("alice,bob", "alice"), {}, 3, "alice",
        rules=ClockRules(60.0),
    )  # fmt: skip
    shadow = build_match(store.info(t.id), [])  # looks one move ahead
    while True:
        info, match = store.load(t.id)
        prompt = match.prompt
        assert prompt is not None and shadow.prompt == prompt
        shadow.play(prompt.moves[0].id)
        after = shadow.prompt
        if (
            info.to_move == "alice"
            and after is not None
            and (after.seat, after.step) == (prompt.seat, 0)
            and after.phase != prompt.phase
        ):
            break  # her last decision of this turn: the next one is a turn of its own
        store.append(t.id, info.to_move, prompt.moves[0].id, info.moves)
    before = info.moves
    advance(clock, 61)
    assert settle(store) == 1
    info = store.info(t.id)
    assert info.moves == before + 1 and autopilot_moves(backend, t.id) == [(before + 1, 0)]
    assert info.to_move == "alice" and info.your_turn("alice") and pilot_reason(info) is None
    assert seconds_left(info) == pytest.approx(60, abs=5)
    assert info.seats[0].strikes == 1
    assert settle(store) == 0  # nothing more is due: her new turn is hers
    said = [e.text for e in store.events(t.id)]
    assert said == [
        "alice ran out of time: the computer (greedy) plays this turn (1 of 3 in a row)"
    ]
    play_turn(store, t.id, "alice")  # her own moves: the run of timeouts ends
    assert store.info(t.id).seats[0].strikes == 0
    store.close()


def test_durations_in_messages_have_units() -> None:
    from boardgames_tui.engine.tables.clock import spoken_duration

    said = [spoken_duration(s) for s in (20, 60, 95, 20 * 60, 3 * HOUR, 2.5 * HOUR, 50 * HOUR)]
    assert said == ["20 s", "1 min", "1 min 35 s", "20 min", "3 h", "2 h 30 min", "2 d 2 h"]


def test_the_creator_cancels_a_table_before_its_game_begins(
    backend: Backend, hook: Hook, capsys: pytest.CaptureFixture[str]
) -> None:
    store = backend.open()
    store.add_target("bob", hook.url("bob"))
    t = store.create("notre-dame", parse_seats("alice,bob,open", "alice"), {}, 3, "alice")
    with pytest.raises(Refused, match="only alice"):
        store.cancel(t.id, "bob")
    rc, out, _ = run(
        capsys, "--user", "alice", "--store", backend.location, "table", "cancel", t.id
    )
    assert rc == 0 and "cancelled" in out
    assert t.id not in {i.id for i in store.tables()}
    assert backend.sql("SELECT count(*) FROM bg_seats WHERE table_id = ?", (t.id,)) == [(0,)]
    assert wait_for(lambda: len(hook.posts) == 1)
    assert hook.posts[0][1] == f"Table {t.id} was cancelled"
    begun = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    with pytest.raises(Refused, match="has begun"):
        store.cancel(begun.id, "alice")
    store.close()


def test_players_agree_to_a_new_limit_a_pause_and_a_seat_handed_over(
    backend: Backend, capsys: pytest.CaptureFixture[str], clock: list[float]
) -> None:
    """Three players: a new turn limit takes effect when the last of them agrees; a pause
    stops the clock (no timeout however long), a resume starts the turn afresh; carol left
    for good, and her seat goes to dan once alice, bob and dan agree (carol is not asked)."""

    def cli(user: str, *argv: str) -> tuple[int, str, str]:
        return run(capsys, "--user", user, "--store", backend.location, "table", *argv)

    store = backend.open()
    t = store.create(
        "notre-dame", parse_seats("alice,bob,carol", "alice"), {}, 3, "alice",
        rules=ClockRules(60.0),
    )  # fmt: skip
    rc, out, _ = cli("alice", "propose", t.id, "limit", "2h")
    assert rc == 0 and "waiting for bob, carol" in out
    assert "Proposed by alice: a turn limit of 2h" in cli("bob", "show", t.id)[1]
    rc, _, err = cli("bob", "propose", t.id, "pause")
    assert rc == 1 and "a proposal open already" in err
    rc, _, err = cli("dan", "agree", t.id)
    assert rc == 1 and "not asked" in err
    assert cli("bob", "agree", t.id)[0] == 0 and store.info(t.id).rules.turn_limit == 60
    rc, out, _ = cli("carol", "agree", t.id)
    assert rc == 0 and "agreed and done" in out
    assert store.info(t.id).rules.turn_limit == 7200
    cli("alice", "propose", t.id, "pause")
    cli("bob", "agree", t.id)
    cli("carol", "agree", t.id)
    advance(clock, 5 * HOUR)
    assert settle(store) == 0 and store.info(t.id).moves == 0  # paused: nothing runs out
    assert pilot_reason(store.info(t.id)) is None
    cli("bob", "propose", t.id, "resume")
    cli("alice", "agree", t.id)
    rc, out, _ = cli("carol", "agree", t.id, "--no")
    assert rc == 0 and "turned down" in out and store.info(t.id).rules.turn_limit is None
    cli("bob", "propose", t.id, "resume")
    cli("alice", "agree", t.id)
    cli("carol", "agree", t.id)
    info = store.info(t.id)
    assert info.rules.turn_limit == 7200 and seconds_left(info) == pytest.approx(7200, abs=5)
    rc, _, err = cli("alice", "propose", t.id, "seat", "3", "dan")
    assert rc == 1 and "has a player" in err
    store.leave(t.id, "carol")
    cli("alice", "propose", t.id, "seat", "3", "dan")
    rc, out, _ = cli("bob", "agree", t.id)
    assert "waiting for dan" in out
    rc, out, _ = cli("dan", "agree", t.id)
    assert rc == 0 and "seat 3 goes to dan" in out
    info = store.info(t.id)
    assert info.seats[2].user == "dan" and info.seats[2].pilot is None
    said = [e.text for e in store.events(t.id)]
    assert "agreed by alice, bob, dan: seat 3 goes to dan" in said
    store.close()


def test_an_open_table_shows_its_clock_before_you_join(
    store: TableStore, capsys: pytest.CaptureFixture[str]
) -> None:
    t = store.create(
        "notre-dame", parse_seats("alice,open", "alice"), {}, 3, "alice", rules=ClockRules(600.0)
    )
    _rc, out, _ = run(capsys, "--user", "bob", "--store", store.path, "table", "list")
    row = next(line for line in out.splitlines() if t.id in line)
    assert "waiting for players · 10m a turn" in row
