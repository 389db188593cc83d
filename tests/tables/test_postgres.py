"""What only a server store has: the database's own refusal of another user's seat (row-level
security), connections cut and a server restarted mid-game, and copying tables between a
SQLite file and PostgreSQL both ways."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine.tables import Disconnected, Refused, StoreUnavailable, TableStore, open_store
from engine.tables.store import parse_seats, table_digest
from tests.tables.conftest import Backend
from tests.tables.test_processes import replay_all, spawn
from tui.cli import main

T = TypeVar("T")
pytestmark = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


@pytest.fixture
def pgb(backend: Backend) -> Backend:
    assert backend.pg
    return backend


@pytest.fixture
def roles(pgb: Backend) -> Iterator[tuple[str, str]]:
    """Two players' roles, each allowed to read and write the schema (the owner, the
    fixture's superuser, plays the room's service role)."""
    store = pgb.open()
    store.close()
    tag = secrets.token_hex(3)
    names = (f"al{tag}", f"bo{tag}")
    for r in names:
        pgb.sql(f"CREATE ROLE {r} LOGIN")
        pgb.sql(f"GRANT USAGE ON SCHEMA {pgb.schema} TO {r}")
        pgb.sql(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {pgb.schema} TO {r}")
    yield names
    for r in names:
        pgb.sql(f"DROP OWNED BY {r}")
        pgb.sql(f"DROP ROLE {r}")


def as_role(b: Backend, role: str) -> str:
    return b.location.replace("//postgres@", f"//{role}@")


def test_each_role_is_refused_the_others_seat_by_the_database(
    pgb: Backend,
    roles: tuple[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psycopg

    monkeypatch.setattr("tui.terminal.has_terminal", lambda: True)  # `table join` from a terminal
    al, bo = roles
    owner = pgb.open()
    t = owner.create("notre-dame", parse_seats(f"{al},{bo},open", al), {}, 3, al)
    alice, bob = open_store(as_role(pgb, al)), open_store(as_role(pgb, bo))
    assert alice.rls and bob.rls and not owner.rls
    # the app refuses a --user that is not the role, in one line
    with pytest.raises(
        Refused, match=f"connected to the table store as {al}: you cannot play as {bo}"
    ):
        alice.join(t.id, bo)
    assert main(["--user", bo, "--store", as_role(pgb, al), "table", "join", t.id]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"as {al}: you cannot play as {bo}" in err
    assert bob.join(t.id, bo) == 1  # his own seat, kept
    # the database itself: a direct INSERT of a move at bob's seat, by alice, is refused
    with psycopg.connect(pgb.base.replace("//postgres@", f"//{al}@"), autocommit=True) as c:
        c.execute(f"SET search_path TO {pgb.schema}")
        for seat, user in ((1, bo), (1, al), (0, bo)):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
                c.execute(
                    "INSERT INTO bg_moves VALUES (%s, 1, 'x', %s, %s, 'now')", (t.id, seat, user)
                )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            c.execute(
                'UPDATE bg_seats SET "user" = %s WHERE table_id = %s AND seat = 2', (bo, t.id)
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            c.execute("INSERT INTO bg_tables VALUES ('zzzzz', 'notre-dame', 1, '{}', '{}', %s, "
                      "'', '', 'playing')", (bo,))  # fmt: skip
    owner.join(t.id, "carol")  # the service role seats anyone (an ssh key's user)
    _, match = alice.load(t.id)
    move = match.prompt.moves[0].id
    with pytest.raises(Refused):  # not bob's turn, and not his seat for the database
        bob.append(t.id, bo, move, 0)
    alice.append(t.id, al, move, 0)
    with psycopg.connect(pgb.base.replace("//postgres@", f"//{bo}@"), autocommit=True) as c:
        c.execute(f"SET search_path TO {pgb.schema}")
        assert c.execute("DELETE FROM bg_moves WHERE table_id = %s", (t.id,)).rowcount == 0
    assert alice.info(t.id).moves == 1 and alice.move_ids(t.id) == [move]
    owner.append(t.id, bo, owner.load(t.id)[1].prompt.moves[0].id, 1)  # the service plays for bob
    for s in (alice, bob, owner):
        s.close()


def test_each_role_sees_and_changes_only_its_own_notification_targets(
    pgb: Backend, roles: tuple[str, str]
) -> None:
    """A target's URL may hold a secret (a webhook token, a mail password): another player's
    role cannot read, change, remove or plant one, nor read what is owed to another, while
    the move that makes it bob's turn still owes him his message (the service role, the
    schema's owner, sends everyone's)."""
    import psycopg

    al, bo = roles
    # a store made before these policies: its owner adds them on opening it
    pgb.sql("DROP VIEW bg_target_numbers")
    for table, policies in (("bg_targets", ["bg_own"]), ("bg_notices", ["bg_own", "bg_own_change", "bg_own_forget", "bg_owe"])):  # fmt: skip
        for policy in policies:
            pgb.sql(f"DROP POLICY {policy} ON {table}")
        pgb.sql(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    owner = pgb.open()  # (the roles were granted the tables before this view existed)
    alice, bob = open_store(as_role(pgb, al)), open_store(as_role(pgb, bo))
    assert alice.add_target(al, "json://127.0.0.1:9/al-secret") == 1
    assert bob.add_target(bo, "json://127.0.0.1:9/bo-secret") == 1
    assert alice.targets(bo) == [] and [t.url for t in owner.targets(bo)] == [
        "json://127.0.0.1:9/bo-secret"
    ]
    t = owner.create("notre-dame", parse_seats(f"{al},{bo}", al), {}, 3, al)
    alice.append(t.id, al, alice.load(t.id)[1].prompt.moves[0].id, 0)  # now bob's turn
    assert alice.claim_notices() == []  # bob's message is not alice's to see or send
    with psycopg.connect(pgb.base.replace("//postgres@", f"//{al}@"), autocommit=True) as c:
        c.execute(f"SET search_path TO {pgb.schema}")
        assert c.execute('SELECT "user", url FROM bg_targets').fetchall() == [
            (al, "json://127.0.0.1:9/al-secret")
        ]
        assert c.execute("SELECT * FROM bg_notices").fetchall() == []
        assert c.execute('SELECT "user", n FROM bg_target_numbers ORDER BY 1').fetchall() == [
            (al, 1),
            (bo, 1),
        ]  # the numbers, to owe bob a message, without the URLs
        for change in (
            "UPDATE bg_targets SET url = 'json://evil.example/' WHERE \"user\" = %s",
            'DELETE FROM bg_targets WHERE "user" = %s',
            "UPDATE bg_notices SET state = 'sent' WHERE \"user\" = %s",
        ):
            assert c.execute(change, (bo,)).rowcount == 0, change
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            c.execute("INSERT INTO bg_targets VALUES (%s, 2, 'json://evil.example/', 'now')", (bo,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            c.execute(  # a message for bob that no move owes him
                'INSERT INTO bg_notices (table_id, n, "user", target, title, body) '
                "VALUES (%s, 7, %s, 1, 'Your turn', 'go to evil.example')",
                (t.id, bo),
            )
    [owed] = bob.claim_notices()  # his own processes, or the service role, send it
    assert (owed.user, owed.n, owed.url) == (bo, 1, "json://127.0.0.1:9/bo-secret")
    assert [t.url for t in bob.targets(bo)] == ["json://127.0.0.1:9/bo-secret"]
    for s in (alice, bob, owner):
        s.close()


def test_a_players_role_settles_anothers_expired_turn(pgb: Backend, roles: tuple[str, str]) -> None:
    """With players as roles, alice's process may let the computer play bob's turn whose time
    ran out (the `autopilot` move at his seat, his clock, the log line), never move for him."""
    from engine.tables.clock import ClockRules
    from engine.tables.computer import settle
    from engine.tables.sqlstore import SQLStore

    al, bo = roles
    owner = pgb.open()
    t = owner.create("notre-dame", parse_seats(f"{bo},{al}", al), {}, 3, al, rules=ClockRules(30))
    alice = open_store(as_role(pgb, al))
    try:
        SQLStore.clock_skew = 31
        assert settle(alice) >= 1
    finally:
        SQLStore.clock_skew = 0.0
    info = alice.info(t.id)
    assert info.to_move == al and info.seats[0].strikes == 1
    assert {u for (u,) in pgb.sql('SELECT "user" FROM bg_moves')} == {"autopilot"}
    assert "ran out of time" in alice.events(t.id)[0].text
    alice.close()
    owner.close()


def until_ok(f: Callable[[], T], limit: float = 15.0) -> tuple[T, int]:
    """f() once the store is back, and how many calls said the store was unreachable."""
    end = time.monotonic() + limit
    failures = 0
    while True:
        try:
            return f(), failures
        except Disconnected:
            failures += 1
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


def changed(store: TableStore, before: int, limit: float) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if until_ok(store.version)[0] != before:
            return True
        time.sleep(0.02)
    return False


def test_a_screen_survives_its_connection_cut_and_misses_no_move(
    pgb: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A screen's store hears a move by NOTIFY at once; with its connections terminated by
    the server it says "reconnecting…" (Disconnected) and carries on; a notification it
    did not get is caught by the slow poll."""
    from engine.tables import postgres

    screen, other = pgb.open(), pgb.open()
    t = other.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann")
    v = screen.version()
    _, m = other.load(t.id)
    other.append(t.id, "ann", m.prompt.moves[0].id, 0)
    assert changed(screen, v, 1.0)  # well before the 2 s poll: the notification
    assert isinstance(screen, postgres.PostgresStore) and screen._listener and screen.conn
    pids = (screen.conn.info.backend_pid, screen._listener.info.backend_pid)
    cut = pgb.sql("SELECT count(*) FROM pg_stat_activity WHERE pid IN (?, ?) AND "
                  "pg_terminate_backend(pid)", pids)  # fmt: skip
    assert cut == [(2,)]
    time.sleep(0.1)
    with pytest.raises(Disconnected, match="reconnecting…"):
        screen.version()
    with pytest.raises(Disconnected, match="reconnecting…"):
        screen.load(t.id)
    (info, _), failures = until_ok(lambda: screen.load(t.id))
    assert info.moves == 1 and failures <= 30
    v = until_ok(screen.version)[0]
    # a notification that never comes (the listener deaf): the poll sees the move anyway
    monkeypatch.setattr(postgres, "POLL_SECONDS", 0.3)
    assert screen._listener is not None
    screen._listener.execute("UNLISTEN *")
    _, m = other.load(t.id)
    other.append(t.id, "bo", m.prompt.moves[0].id, 1)
    assert changed(screen, v, 3.0)
    assert screen.load(t.id)[0].moves == 2
    screen.close()
    other.close()


def test_two_process_groups_play_through_a_server_restart(pgb: Backend, tmp_path: Path) -> None:
    """Two groups of four writers (each with its own TCP connection) play one table while the
    server is stopped fast and started again: every acknowledged move is in place, a move
    whose answer was lost is not assumed played, the table replays, and the old postmaster
    is gone."""
    if pgb.cluster is None:
        pytest.skip("BOARDGAMES_TEST_PG: a server this test may not restart")
    store = pgb.open()
    t = store.create("rattus-cartus", parse_seats("ann,bo", "ann"), {}, 9, "same")
    start = str(time.time() + 1.0)
    groups = [
        spawn(
            "group",
            pgb.location,
            "4",
            "40",
            "same",
            str(tmp_path / f"g{g}"),
            RACE_START=start,
            RACE_SEED=str(4 * g),
            RACE_RETRY="1",
        )
        for g in range(2)
    ]
    screen = pgb.open()
    try:
        while until_ok(lambda: store.info(t.id))[0].moves < 15:
            time.sleep(0.02)
        old = pgb.cluster.pid()
        pgb.cluster.restart()
        assert old is not None and pgb.cluster.pid() not in (None, old)
        from engine.tables.throwaway import alive

        assert not alive(old)
        for p in groups:
            _, err = p.communicate(timeout=120)
            assert p.returncode == 0, err.decode()[-2000:]
    finally:
        for p in groups:
            p.kill()
            p.wait()
    results = [json.loads(f.read_text()) for f in tmp_path.glob("g?.*.json")]
    assert len(results) == 8
    ok = sum(r["ok"] for r in results)
    unknown = sum(r["unknown"] for r in results)
    moves = until_ok(lambda: replay_all(pgb.location))[0][t.id]
    assert ok <= moves <= ok + unknown  # nothing acknowledged lost; nothing made up
    assert unknown > 0 or sum(r["retries"] for r in results) > 0  # the restart was felt
    (info, _), _failures = until_ok(lambda: screen.load(t.id))
    assert info.moves == moves
    screen.close()
    store.close()


def test_copy_store_both_ways_replays_to_the_same_digest(
    pgb: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = str(tmp_path / "a.sqlite")
    back = str(tmp_path / "b.sqlite")
    base = ["--user", "ann", "--store", src, "table"]
    assert main([*base, "new", "cathedral", "--seats", "me,greedy", "--seed", "2"]) == 0
    assert main([*base, "new", "nd", "--seats", "me,bob,open", "--seed", "4"]) == 0
    assert main([*base, "new", "1347", "--seats", "me,greedy", "--seed", "6"]) == 0
    capsys.readouterr()
    s = open_store(src)
    first = s.tables()[-1].id
    while s.info(first).moves < 12:  # partway through, the computer answering
        info, m = s.load(first)
        s.append(first, "ann", m.prompt.moves[-1].id, info.moves)
        from engine.tables.computer import play_computers

        play_computers(s, first, "x")
    s.close()

    def digests(location: str) -> dict[str, Any]:
        st = open_store(location, create_file=False)
        try:
            return {
                t.id: (t, table_digest(t, st.move_ids(t.id)), st.export_table(t.id)[1])
                for t in st.tables()
            }
        finally:
            st.close()

    assert main(["table", "copy-store", src, pgb.location]) == 0
    assert "copied 3 table(s)" in capsys.readouterr().out
    assert main(["table", "copy-store", pgb.location, back]) == 0
    capsys.readouterr()
    a, p, b = digests(src), digests(pgb.location), digests(back)
    assert a == p == b and len(a) == 3
    assert main(["table", "copy-store", src, pgb.location]) == 1  # they are there already
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already has table(s)" in err[0]
    with pytest.raises(StoreUnavailable, match="no table store"):
        open_store(str(tmp_path / "none.sqlite"), create_file=False)
    assert main(["table", "copy-store", str(tmp_path / "none.sqlite"), pgb.location]) == 1
    assert "no table store" in capsys.readouterr().err


async def test_the_table_screen_says_reconnecting_and_carries_on(
    pgb: Backend, tmp_path: Path
) -> None:
    """The server stops under a player's screen: its status line says "reconnecting…", a
    move keyed meanwhile is not played (nor shown as played), and once the server is back the
    screen carries on from what the server has."""
    from textual.widgets import Static

    from tui.app import BoardgamesApp, Launch
    from tui.screens.game import GameScreen
    from tui.table_source import TableSource

    if pgb.cluster is None:
        pytest.skip("BOARDGAMES_TEST_PG: a server this test may not stop")
    other = pgb.open()
    tid = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    app = BoardgamesApp(
        Launch(saves_dir=str(tmp_path), store=pgb.location, table=tid, user="bob", bot_delay=0)
    )
    async with app.run_test(size=(120, 40)) as pilot:

        async def until(cond: Callable[[], bool]) -> None:
            for _ in range(100):
                if cond():
                    return
                await pilot.pause(0.05)
            assert cond()

        def status() -> str:
            return str(app.screen.query_one("#status", Static).render())

        await until(lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.source, TableSource)
        source = screen.source
        _, match = other.load(tid)
        other.append(tid, "alice", match.prompt.moves[0].id, 0)
        await until(lambda: source.decides(1) and "your turn" in status())
        pgb.cluster.stop("fast")
        try:
            await until(lambda: "reconnecting…" in status())
            await pilot.press("1")  # bob's move, while the server is down
            assert source.info.moves == 1
        finally:
            pgb.cluster.start()
        await until(lambda: "reconnecting" not in status())
        assert until_ok(lambda: other.info(tid))[0].moves == 1  # the key played nothing
        assert source.info.moves == 1 and source.decides(1)
        await pilot.press("1")  # and now it does
        assert other.info(tid).moves == 2
    other.close()


def test_players_as_roles_talk_invite_and_rematch_as_themselves(
    pgb: Backend, roles: tuple[str, str]
) -> None:
    """The social operations work for a role held to its own seats, and only as itself."""
    al, bo = roles
    alice, bob = open_store(as_role(pgb, al)), open_store(as_role(pgb, bo))
    t = alice.create("cathedral", parse_seats(f"{al},open", al), {}, 3, al, {"private": True})
    code = alice.invite(t.id, al)
    with pytest.raises(Refused, match=f"as {bo}: you cannot play as {al}"):
        bob.join_code(code, al)
    assert bob.join_code(code, bo) == (t.id, 1)
    assert bob.say(t.id, bo, "hello").user == bo
    with pytest.raises(Refused, match=f"as {bo}: you cannot play as {al}"):
        bob.say(t.id, al, "I resign")
    while (m := alice.load(t.id)[1]).prompt is not None:
        who = alice.info(t.id).to_move
        (alice if who == al else bob).append(t.id, who, m.prompt.moves[0].id, m.cursor)
    alice.add_target(al, "json://127.0.0.1:9/")
    r, made = bob.rematch(t.id, bo, 5)  # the offer is owed to alice: the database lets bob
    assert [(n.table_id, n.n) for n in alice.claim_notices()] == [(r.id, -1)]
    assert made and r.creator == bo and alice.join(r.id, al) is not None
    assert alice.info(r.id).status == "playing"
    for s in (alice, bob):
        s.close()


def test_players_as_roles_record_a_result_and_cannot_forge_one(
    pgb: Backend, roles: tuple[str, str]
) -> None:
    """Issue 46: the move that finishes a table writes its result as the player's own role;
    the database refuses a result for a table that has not finished."""
    import psycopg

    al, bo = roles
    owner = pgb.open()
    t = owner.create("notre-dame", parse_seats(f"{al},{bo}", al), {}, 3, al)
    other = owner.create("notre-dame", parse_seats(f"{al},{bo}", al), {}, 4, al)
    owner.close()
    stores = {al: open_store(as_role(pgb, al)), bo: open_store(as_role(pgb, bo))}
    while True:
        info, match = stores[al].load(t.id)
        if match.prompt is None:
            break
        user = info.seats[match.prompt.seat].user
        assert user is not None
        stores[user].append(t.id, user, match.prompt.moves[0].id, info.moves)
    (result,) = stores[bo].results()
    assert result.table_id == t.id and result.rated
    assert sorted(s.player for s in result.seats) == sorted([al, bo])
    with psycopg.connect(pgb.base.replace("//postgres@", f"//{al}@"), autocommit=True) as c:
        c.execute(f"SET search_path TO {pgb.schema}")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            c.execute(
                "INSERT INTO bg_results (table_id, game, options, players, finished, at, rated, "
                "why) VALUES (%s, 'notre-dame', '{}', 2, 'now', 0, 1, '')",
                (other.id,),
            )
    for s in stores.values():
        s.close()
