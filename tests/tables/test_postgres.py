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

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import Disconnected, StoreUnavailable, TableStore, open_store
from boardgames_tui.engine.tables.store import FORMAT, parse_seats, table_digest
from tests.tables.conftest import Backend
from tests.tables.test_processes import replay_all, spawn

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


# what format 5 gave players' roles (docs/tables.md's old recipe): the policies that let them
# read every move and seed, and write moves, seats, tables and notices
FORMAT_5_POLICIES = (
    "CREATE POLICY bg_read ON bg_tables FOR SELECT USING (true)",
    "CREATE POLICY bg_create ON bg_tables FOR INSERT WITH CHECK (creator = current_user)",
    "CREATE POLICY bg_change ON bg_tables FOR UPDATE USING (true)",
    "CREATE POLICY bg_read ON bg_seats FOR SELECT USING (true)",
    'CREATE POLICY bg_join ON bg_seats FOR UPDATE USING ("user" IS NULL) '
    'WITH CHECK ("user" = current_user)',
    "CREATE POLICY bg_read ON bg_moves FOR SELECT USING (true)",
    'CREATE POLICY bg_undo ON bg_moves FOR DELETE USING ("user" = current_user)',
    'CREATE POLICY bg_play ON bg_moves FOR INSERT WITH CHECK ("user" = current_user)',
    'CREATE POLICY bg_own_change ON bg_notices FOR UPDATE USING ("user" = current_user)',
    "CREATE POLICY bg_owe ON bg_notices FOR INSERT WITH CHECK (true)",
    "GRANT SELECT ON bg_target_numbers TO PUBLIC",
    *(
        f"ALTER TABLE {t} DISABLE ROW LEVEL SECURITY"
        for t in (
            "bg_meta",
            "bg_clocks",
            "bg_away",
            "bg_prefs",
            "bg_events",
            "bg_offers",
            "bg_rematches",
            "bg_invites",
            "bg_talk",
            "bg_talkers",
        )
    ),
    "ALTER TABLE bg_tables DROP COLUMN ended_turn_since",
    "ALTER TABLE bg_tables DROP COLUMN seed_kind",
    "UPDATE bg_meta SET value = '5' WHERE key = 'format'",
)


def as_players_role(b: Backend, role: str) -> Any:
    """A connection of `role`'s own, speaking SQL directly (autocommit)."""
    import psycopg

    c = psycopg.connect(b.base.replace("//postgres@", f"//{role}@"), autocommit=True)
    c.execute(f"SET search_path TO {b.schema}")
    return c


def test_a_players_role_reads_no_move_nor_seed_and_writes_nothing(
    pgb: Backend, roles: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 41's finding 4 and issue 42's rows without policies, by direct SQL as bob's
    role, granted every table as the old recipe said: on a format-5 store he reads alice's
    kept card and the seed (and so every hand); once the host opens the store (format 6) he
    reads no move, no seed, no talk, no invite code, and every write of his changes nothing
    or is refused: forged talk, a taken invite or rematch seat, a table ended by UPDATE, his
    own move taken back at a strict table, a notice for alice, a move, a seat, a clock."""
    import psycopg

    al, bo = roles
    owner = pgb.open()  # the host
    t = owner.create("notre-dame", parse_seats(f"{al},{bo}", al), {}, None, al, {"strict": True})
    keep = owner.load(t.id)[1].prompt.moves[0].id  # alice keeps a card: only she knows which
    owner.append(t.id, al, keep, 0)
    owner.append(t.id, bo, owner.load(t.id)[1].prompt.moves[0].id, 1)  # bob's own move
    owner.say(t.id, al, "my plan is secret")
    priv = owner.create("cathedral", parse_seats(f"{al},open", al), {}, None, al, {"private": True})
    code = owner.invite(priv.id, al).replace("-", "")
    done = owner.create("cathedral", parse_seats(f"{al},{bo}", al), {}, None, al)
    while (m := owner.load(done.id)[1]).prompt is not None:
        owner.append(done.id, owner.info(done.id).to_move, m.prompt.moves[0].id, m.cursor)
    rematch, _ = owner.rematch(done.id, al)  # bob's seat is offered to him alone
    owner.add_target(al, "json://127.0.0.1:9/al-secret")
    owner.close()
    pgb.before_results()  # what formats 8 and 9 added goes too
    for stmt in FORMAT_5_POLICIES:
        pgb.sql(stmt)
    with as_players_role(pgb, bo) as c:  # today: everything is his to read
        row = c.execute("SELECT move_id FROM bg_moves WHERE table_id = %s AND n = 1", (t.id,))
        assert row.fetchall() == [(keep,)]
        assert c.execute("SELECT seed FROM bg_tables WHERE id = %s", (t.id,)).fetchall()
    owner = pgb.open()  # the host opens it: format 6 and on
    # granted every table again, the new ones too, as the old recipe said after an upgrade
    pgb.sql(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {pgb.schema} TO {bo}")
    assert pgb.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [(str(FORMAT),)]
    assert owner.info(t.id).seed_kind == "shown"  # made before: its seed may be known
    before = {
        table: pgb.sql(f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("bg_tables", "bg_seats", "bg_moves", "bg_talk", "bg_invites",
                      "bg_offers", "bg_notices", "bg_targets", "bg_clocks", "bg_events")
    }  # fmt: skip
    with as_players_role(pgb, bo) as c:
        for table in ("bg_moves", "bg_tables", "bg_seats", "bg_talk", "bg_invites",
                      "bg_offers", "bg_rematches", "bg_clocks", "bg_events", "bg_meta",
                      "bg_results", "bg_result_seats"):  # fmt: skip
            assert c.execute(f"SELECT * FROM {table}").fetchall() == [], table
        assert c.execute("SELECT * FROM bg_targets").fetchall() == []  # alice's URL: no
        params: tuple[object, ...]
        for change, params in (
            ("UPDATE bg_tables SET updated = '2000-01-01', status = 'abandoned'", ()),
            ("DELETE FROM bg_moves WHERE table_id = %s", (t.id,)),  # his own, strict table
            ('UPDATE bg_seats SET "user" = %s WHERE table_id = %s', (bo, priv.id)),
            ("UPDATE bg_invites SET used_by = %s", (bo,)),
            ("DELETE FROM bg_offers", ()),
            ("DELETE FROM bg_talk", ()),
            ("UPDATE bg_notices SET state = 'sent'", ()),
            ("UPDATE bg_clocks SET pilot = 'left'", ()),
        ):
            assert c.execute(change, params).rowcount == 0, change
        for insert, params in (
            ('INSERT INTO bg_talk VALUES (%s, 9, %s, 0, %s, 2, %s)',
             (t.id, al, "now", "I resign, bob wins")),  # forged talk as alice
            ('INSERT INTO bg_notices (table_id, n, "user", target, title, body) '
             "VALUES (%s, 2, %s, 1, 'Your turn', 'go to evil.example')", (t.id, al)),
            ('INSERT INTO bg_moves VALUES (%s, 3, %s, 0, %s, %s)', (t.id, keep, al, "now")),
            ('INSERT INTO bg_seats VALUES (%s, 1, %s, %s)', (priv.id, "human", bo)),
            ('INSERT INTO bg_offers VALUES (%s, 0, %s)', (rematch.id, bo)),
            ('INSERT INTO bg_rematches VALUES (%s, %s)', (t.id, "zzzzz")),
            ('INSERT INTO bg_invites VALUES (%s, %s, %s, %s)', ("aaaabbbb", priv.id, bo, "now")),
            ('INSERT INTO bg_events VALUES (%s, 9, 2, %s, %s)', (t.id, "now", "alice left")),
            ('INSERT INTO bg_away VALUES (%s, 0, NULL)', (al,)),
            ("INSERT INTO bg_results (table_id, game, options, players, finished, at, rated, "
             "why) VALUES (%s, 'notre-dame', '{}', 2, 'now', 0, 1, '')", (t.id,)),  # a forged win
            ("INSERT INTO bg_tables (id, game, seed, options, settings, creator, created, "
             "updated, status) VALUES ('zzzzz', 'notre-dame', 1, '{}', '{}', %s, '', '', "
             "'playing')", (bo,)),
        ):  # fmt: skip
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
                c.execute(insert, params)
    assert {table: pgb.sql(f"SELECT * FROM {table} ORDER BY 1, 2") for table in before} == before
    # the app does not open the store as a player's role: one line, nothing changed
    with pytest.raises(StoreUnavailable, match=f"role {bo} is not a host of this room"):
        open_store(as_role(pgb, bo))
    assert main(["--user", bo, "--store", as_role(pgb, bo), "table", "list"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "only hosts read the tables" in err
    assert owner.join_code(code, "carol") == (priv.id, 1)  # the code still works, once
    owner.close()


def test_a_table_added_later_is_under_row_level_security_too(
    pgb: Backend, roles: tuple[str, str]
) -> None:
    """A table a later format (or a host by hand) adds without row-level security is put
    under it when the host opens the store: a player's role reads none of its rows."""
    _, bo = roles
    pgb.sql("CREATE TABLE bg_later (table_id text, secret text)")
    pgb.sql("INSERT INTO bg_later VALUES ('t', 'alice holds the Bank')")
    pgb.sql(f"GRANT SELECT ON bg_later TO {bo}")
    with as_players_role(pgb, bo) as c:
        assert c.execute("SELECT secret FROM bg_later").fetchall() == [("alice holds the Bank",)]
    pgb.open().close()
    with as_players_role(pgb, bo) as c:
        assert c.execute("SELECT secret FROM bg_later").fetchall() == []


def test_a_hosts_role_plays_for_everyone_a_players_role_for_nobody(
    pgb: Backend, roles: tuple[str, str]
) -> None:
    """A second host of the room connects as a service role of its own (BYPASSRLS, granted
    the tables) and plays, settles and sends for any player, as the schema's owner does."""
    from boardgames_tui.engine.tables.clock import ClockRules
    from boardgames_tui.engine.tables.computer import settle
    from boardgames_tui.engine.tables.sqlstore import SQLStore

    al, bo = roles
    host = f"host{al}"
    pgb.sql(f"CREATE ROLE {host} LOGIN BYPASSRLS")
    pgb.sql(f"GRANT USAGE ON SCHEMA {pgb.schema} TO {host}")
    pgb.sql(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {pgb.schema} TO {host}")
    try:
        second = open_store(as_role(pgb, host))
        t = second.create("notre-dame", parse_seats(f"{bo},{al}", al), {}, None, al,
                          rules=ClockRules(30))  # fmt: skip
        assert second.add_target(al, "json://127.0.0.1:9/") == 1
        try:
            SQLStore.clock_skew = 31  # bob's turn ran out: the computer plays it
            assert settle(second) >= 1
        finally:
            SQLStore.clock_skew = 0.0
        info, match = second.load(t.id)
        assert info.to_move == al and info.seats[0].strikes == 1
        second.append(t.id, al, match.prompt.moves[0].id, info.moves)
        assert second.info(t.id).moves == info.moves + 1
        second.close()
    finally:
        pgb.sql(f"DROP OWNED BY {host}")
        pgb.sql(f"DROP ROLE {host}")


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
    from boardgames_tui.engine.tables import postgres

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
        from tools.throwaway_pg import alive

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
    assert main([*base, "new", "nd", "--seats", "me,bob,open"]) == 0
    assert main([*base, "new", "1347", "--seats", "me,greedy", "--seed", "6"]) == 0
    capsys.readouterr()
    s = open_store(src)
    first = s.tables()[-1].id
    while s.info(first).moves < 12:  # partway through, the computer answering
        info, m = s.load(first)
        s.append(first, "ann", m.prompt.moves[-1].id, info.moves)
        from boardgames_tui.engine.tables.computer import play_computers

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


# the app's turn thread waits on the listener's socket: it must live through the lost link
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
async def test_the_table_screen_says_reconnecting_and_carries_on(
    pgb: Backend, tmp_path: Path
) -> None:
    """The server stops under a player's screen: its status line says "reconnecting…", a
    move keyed meanwhile is not played (nor shown as played), and once the server is back the
    screen carries on from what the server has."""
    from textual.widgets import Static

    from boardgames_tui.session.table_source import TableSource
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.game import GameScreen

    if pgb.cluster is None:
        pytest.skip("BOARDGAMES_TEST_PG: a server this test may not stop")
    other = pgb.open()
    tid = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    app = BoardgamesApp(
        Launch(saves_dir=str(tmp_path), store=pgb.location, table=tid, user="bob", bot_delay=0)
    )
    async with app.run_test(size=(120, 40)) as pilot:

        async def until(cond: Callable[[], bool]) -> None:
            give_up = time.monotonic() + 60  # a failure, not a measure: see test_tables_tui
            while not cond():
                assert time.monotonic() < give_up
                await pilot.pause(0.05)

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
