"""Shared tables: the store's rules and refusals, the command-line contract, the table screen."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import get_game
from boardgames_tui.engine.tables import (
    Refused,
    Stale,
    StoreError,
    StoreUnavailable,
    TableStore,
    UnknownTable,
    check_user,
    open_store,
    parse_seats,
    public_view,
)
from boardgames_tui.engine.tables.store import build_match
from tests.root import ROOT
from tests.tables.conftest import Backend


def new(store: TableStore, game: str = "notre-dame", seats: str = "alice,bob", **kw):  # type: ignore[no-untyped-def]
    return store.create(game, parse_seats(seats, "alice"), {}, kw.pop("seed", 3), "alice", kw)


def play_first(store: TableStore, tid: str) -> str:
    """The seat to move plays its first legal move; returns that seat's user."""
    info, match = store.load(tid)
    user = info.seats[match.prompt.seat].user
    assert user is not None
    store.append(tid, user, match.prompt.moves[0].id, info.moves)
    return user


# ---- the store's rules ---------------------------------------------------------------------
def test_a_table_from_before_an_option_replays_as_it_was_played(store) -> None:  # type: ignore[no-untyped-def]
    """A table stored before the Cathedral's map option existed has no "map": it is rebuilt
    on the full map it was played on; a new table names the scaled map."""
    t = new(store, "cathedral-of-orleans")
    assert t.options["map"] == "scaled"
    assert sum(map(len, build_match(t, []).state.roads)) == 15
    older = dataclasses.replace(t, options={k: v for k, v in t.options.items() if k != "map"})
    assert sum(map(len, build_match(older, []).state.roads)) == 18


def test_a_move_needs_the_seat_the_turn_a_legal_move_and_the_right_number(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store)
    info, match = store.load(t.id)
    assert info.to_move == "alice" and info.status == "playing"
    legal = match.prompt.moves[0].id
    with pytest.raises(UnknownTable, match="no table 'nope'"):
        store.append("nope", "alice", legal, 0)
    with pytest.raises(Refused, match="you \\(carol\\) have no seat"):
        store.append(t.id, "carol", legal, 0)
    with pytest.raises(Refused, match=r"not your turn.*alice is to move"):
        store.append(t.id, "bob", legal, 0)
    with pytest.raises(Refused, match="not a legal move"):
        store.append(t.id, "alice", "no-such-move", 0)
    with pytest.raises(Stale, match="has moved on: 0 moves played, not 4"):
        store.append(t.id, "alice", legal, 4)
    after = store.append(t.id.upper(), "alice", legal, 0)  # ids are read case-blind
    assert after.moves == 1 and after.to_move == "bob"
    with pytest.raises(Stale):  # the same move again, from a screen that is out of date
        store.append(t.id, "alice", legal, 0)
    assert store.move_ids(t.id) == [legal]


def test_a_finished_table_takes_no_moves(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store, "cathedral-of-orleans", "alice")
    while not store.info(t.id).finished:
        play_first(store, t.id)
    info, match = store.load(t.id)
    assert info.to_move is None and match.prompt is None
    with pytest.raises(Refused, match="is over"):
        store.append(t.id, "alice", "x", info.moves)


def test_open_seats_wait_for_players_and_a_user_sits_once(store, backend: Backend) -> None:  # type: ignore[no-untyped-def]
    t = new(store, seats="alice,open,open")
    assert t.status == "waiting" and t.first_open() == 1
    with pytest.raises(Refused, match="waiting for players"):
        store.append(t.id, "alice", store.load(t.id)[1].prompt.moves[0].id, 0)
    # two terminals of the same user claim at once: one seat is taken, the same for both
    other = backend.open()
    got: list[int | None] = []
    barrier = threading.Barrier(2)

    def claim(s: TableStore) -> None:
        barrier.wait()
        got.append(s.join(t.id, "bob"))

    threads = [threading.Thread(target=claim, args=(s,)) for s in (store, other)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    other.close()
    assert got == [1, 1]
    info = store.info(t.id)
    assert [s.label for s in info.seats] == ["alice", "bob", "open"]
    # carol and dave claim the last seat at once: one of them sits, the other watches
    got.clear()
    other = backend.open()
    barrier = threading.Barrier(2)

    def claim_as(s: TableStore, user: str) -> None:
        barrier.wait()
        got.append(s.join(t.id, user))

    threads = [
        threading.Thread(target=claim_as, args=(s, u))
        for s, u in ((store, "carol"), (other, "dave"))
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    other.close()
    assert sorted(got, key=str) == [2, None]
    winner = store.info(t.id).seats[2].user
    assert winner in ("carol", "dave")
    loser = "dave" if winner == "carol" else "carol"
    assert store.join(t.id, loser) is None  # full: the other one watches
    info, match = store.load(t.id)
    assert info.status == "playing" and match.names == ["alice", "bob", winner]


def test_computer_seats_are_played_under_a_lease(store) -> None:  # type: ignore[no-untyped-def]
    from boardgames_tui.engine.tables.computer import play_computers

    t = new(store, seats="greedy,alice")
    _info, match = store.load(t.id)
    move = match.prompt.moves[0].id
    with pytest.raises(Refused, match="the computer"):
        store.append(t.id, "alice", move, 0)
    with pytest.raises(Refused, match="the computer"):  # no lease held
        store.append(t.id, None, move, 0, lease="me")
    assert store.take_lease(t.id, "one")
    assert not store.take_lease(t.id, "two")  # held by another process
    with pytest.raises(Refused):
        store.append(t.id, None, move, 0, lease="two")
    assert store.take_lease(t.id, "two", seconds=0) is False
    store.release_lease(t.id, "one")
    assert play_computers(store, t.id, "two") >= 1
    assert store.info(t.id).to_move == "alice"
    assert not store.take_lease(t.id, "three")  # "two" holds it for a few seconds more
    assert store.take_lease(t.id, "two")


def test_undo_only_your_own_last_move_that_revealed_nothing(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store)
    play_first(store, t.id)  # alice keeps a card: nothing revealed
    with pytest.raises(Refused, match="only your own last move"):
        store.undo(t.id, "bob", 1)
    with pytest.raises(Stale):
        store.undo(t.id, "alice", 0)
    assert store.undo(t.id, "alice", 1).moves == 0
    play_first(store, t.id)
    play_first(store, t.id)  # bob moved since
    with pytest.raises(Refused, match="only your own last move"):
        store.undo(t.id, "alice", 2)
    strict = new(store, strict=True)
    play_first(store, strict.id)
    with pytest.raises(Refused, match="strict"):
        store.undo(strict.id, "alice", 1)
    # a move that drew by chance stands: find one in a random game
    r = new(store, "1347", "alice,bob")
    while True:
        info, match = store.load(r.id)
        user = play_first(store, r.id)
        _, match = store.load(r.id)
        if match.steps[-1].reveal:
            with pytest.raises(Refused, match="revealed"):
                store.undo(r.id, user, info.moves + 1)
            break


def test_spectators_see_only_what_every_seat_sees(store) -> None:  # type: ignore[no-untyped-def]
    from boardgames_tui.engine.tables import view_for

    t = new(store, "rattus-cartus", "alice,bob,carol")
    for _ in range(12):
        play_first(store, t.id)
    info, match = store.load(t.id)
    pub = view_for(info, match, "dave")
    assert pub == public_view(match)
    assert "you" not in pub
    assert view_for(info, match, "bob") == match.game.view(match.state, 1)
    omni = match.game.view(match.state, None)
    assert pub != omni
    for seat in range(3):
        seat_view = match.game.view(match.state, seat)
        for key, value in pub.items():
            assert key in seat_view
            if value is not None and not isinstance(value, dict | list):
                assert seat_view[key] == value


def test_user_names_and_seat_lists() -> None:
    assert check_user("alice") == "alice"
    for bad in ("", "a b", "-x", "x" * 17, "open", "Greedy"):
        with pytest.raises(StoreError):
            check_user(bad)
    with pytest.raises(StoreError, match="only once"):
        parse_seats("alice,me", "alice")
    with pytest.raises(StoreError):
        parse_seats("alice,,bob", "alice")
    assert [s.label for s in parse_seats("me,Open,strong", "zoe")] == ["zoe", "open", "strong"]


# ---- the store itself going wrong ----------------------------------------------------------
def test_a_store_that_cannot_be_used_says_so_in_one_line(backend: Backend, tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable, match="no table store at"):
        backend.open(create_file=False)
    if backend.pg:
        backend.sql(f"CREATE SCHEMA {backend.schema}")
        backend.sql("CREATE TABLE songs (title text)")
        with pytest.raises(StoreUnavailable, match="not a table store"):
            backend.open()
        port = backend.base.rsplit(":", 1)[1].split("/")[0]
        closed = backend.location.replace(f":{port}/", ":1/")  # nothing listens on port 1
        with pytest.raises(StoreUnavailable, match=r"unreachable.*reconnecting"):
            open_store(closed)
        with pytest.raises(StoreUnavailable, match="schema name"):
            open_store(backend.location + "x;drop")
        return
    with pytest.raises(StoreUnavailable, match="is a folder"):
        open_store(str(tmp_path))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreUnavailable, match="not a table store"):
        open_store(str(junk))
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE songs (title TEXT)")
    with pytest.raises(StoreUnavailable, match="not a table store"):
        open_store(str(other))
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreUnavailable, match="cannot create"):
        open_store(str(tmp_path / "afile" / "tables.sqlite"))


def test_a_store_locked_for_long_is_reported_and_loses_nothing(backend: Backend) -> None:
    s = backend.open(busy=0.2)
    t = new(s)
    move = s.load(t.id)[1].prompt.moves[0].id
    with backend.hold(t.id), pytest.raises(StoreUnavailable, match="busy"):
        s.append(t.id, "alice", move, 0)
    assert s.append(t.id, "alice", move, 0).moves == 1  # the same move goes in afterwards
    s.close()


def test_store_formats_older_upgraded_in_place_newer_refused(backend: Backend) -> None:
    """A format-1 store (before the index on `updated` and the notification tables) is
    upgraded when opened, in one transaction, its tables intact; a store of a newer format is refused in one line."""
    from boardgames_tui.engine.tables.store import FORMAT

    s = backend.open()
    t = new(s)
    play_first(s, t.id)
    s.close()
    backend.to_format_3()
    backend.sql("DROP INDEX bg_tables_updated")
    if backend.pg:  # made with the format-3 tables (their policies: test_postgres.py)
        backend.sql("DROP VIEW bg_target_numbers")
    backend.sql("DROP TABLE bg_notices")  # format 3: turn notifications
    backend.sql("DROP TABLE bg_targets")
    backend.sql("UPDATE bg_meta SET value = '1' WHERE key = 'format'")
    s = backend.open()
    assert backend.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [(str(FORMAT),)]
    index = (
        "SELECT 1 FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()"
        if backend.pg
        else ("SELECT 1 FROM sqlite_master WHERE name = ?")
    )
    assert backend.sql(index, ("bg_tables_updated",)) == [(1,)]
    assert s.info(t.id).moves == 1
    assert s.add_target("alice", "json://127.0.0.1:9/") == 1  # the format-3 tables are there
    assert backend.sql("SELECT count(*) FROM bg_notices") == [(0,)]
    if backend.pg:
        assert backend.sql("SELECT count(*) FROM bg_target_numbers") == [(1,)]
    assert s.say(t.id, "alice", "still here").n == 1  # the format-5 tables are there
    assert s.info(t.id).seats[1].offered is None
    s.close()
    backend.sql("UPDATE bg_meta SET value = '99' WHERE key = 'format'")
    with pytest.raises(
        StoreUnavailable, match=rf"newer version \(format 99, this reads {FORMAT}\)"
    ):
        backend.open()


def test_a_read_only_store_is_reported(backend: Backend, tmp_path: Path) -> None:
    s = backend.open()
    t = new(s, seats="alice,open")
    s.close()
    if backend.pg:  # a host's role that may only read
        role = f"reader_{backend.schema}"
        backend.sql(f"CREATE ROLE {role} LOGIN BYPASSRLS")
        backend.sql(f"GRANT USAGE ON SCHEMA {backend.schema} TO {role}")
        backend.sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA {backend.schema} TO {role}")
        s = open_store(backend.location.replace("//postgres@", f"//{role}@"))
        with pytest.raises(StoreError, match=r"may not.*permission denied"):
            s.join(t.id, role)
        assert s.info(t.id).seats[1].is_open
        s.close()
        backend.sql(f"DROP OWNED BY {role}")
        backend.sql(f"DROP ROLE {role}")
        return
    if os.geteuid() == 0:
        pytest.skip("root writes read-only files")
    path = Path(backend.location)
    path.chmod(0o444)
    try:
        with pytest.raises(StoreUnavailable, match=r"read-only|cannot be"):
            s = open_store(str(path))
            s.join(t.id, "bob")
    finally:
        path.chmod(0o644)


# ---- the command line ----------------------------------------------------------------------
def run_at(tmp_path: Path, *argv: str, store: str = "") -> subprocess.CompletedProcess[str]:
    """`boardgames-tui ARGV` as a separate process, as a script would run it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "BOARDGAMES"))}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
    if store:
        env["BOARDGAMES_STORE"] = store
    return subprocess.run(
        [sys.executable, "-m", "boardgames_tui", *argv],
        cwd=ROOT,
        env=env,
        text=True,
        capture_output=True,
    )


def test_command_line_contract(backend: Backend, tmp_path: Path) -> None:
    """new prints the id last; show --json has the contract's fields; play exits 0 or 1 with
    one line; the default store is tables.sqlite in the data folder."""
    run = functools.partial(run_at, store=backend.location) if backend.pg else run_at
    made = run(tmp_path, "--user", "alice", "table", "new", "nd", "--seats", "alice,bob")
    assert made.returncode == 0, made.stderr
    tid = made.stdout.strip().splitlines()[-1]
    default = tmp_path / "data" / "boardgames-tui" / "tables.sqlite"
    assert len(tid) == 5 and default.exists() != backend.pg
    assert (
        f"seats offered to bob: the table starts when they accept (`table join {tid}`)"
        in made.stdout
    )
    assert run(tmp_path, "--user", "bob", "table", "join", tid).returncode == 0
    shown = run(tmp_path, "--user", "alice", "table", "show", tid, "--json")
    doc = json.loads(shown.stdout)
    assert {"id", "game", "moves", "to_move", "legal", "finished", "view"} <= set(doc)
    assert doc["id"] == tid and doc["game"] == "notre-dame" and doc["moves"] == 0
    assert doc["to_move"] == "alice" and doc["legal"] and not doc["finished"]
    assert doc["view"]["you"]["seat"] == 0
    bob = json.loads(run(tmp_path, "--user", "bob", "table", "show", tid, "--json").stdout)
    assert bob["legal"] == [] and bob["view"]["you"]["seat"] == 1
    refused = run(tmp_path, "--user", "bob", "table", "play", tid, doc["legal"][0])
    assert refused.returncode == 1
    assert (
        refused.stderr.strip() == f"boardgames-tui: not your turn at table {tid}: alice is to move"
    )
    played = run(tmp_path, "--user", "alice", "table", "play", tid, doc["legal"][0])
    assert played.returncode == 0 and "bob to move" in played.stdout
    listed = json.loads(run(tmp_path, "--user", "bob", "table", "list", "--json").stdout)
    assert listed[0]["id"] == tid and listed[0]["your_turn"] and listed[0]["to_move"] == "bob"
    unknown = run(tmp_path, "table", "show", "zzzzz")
    assert unknown.returncode == 1 and "no table 'zzzzz'" in unknown.stderr
    # the table is not over: a save of it would show every hand
    early = run(tmp_path, "table", "export", tid, str(tmp_path / "t.toml"))
    assert early.returncode == 1 and "still being played" in early.stderr


def test_command_line_refusals_in_process(backend: Backend, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    store = backend.location
    base = ["--store", store, "table"]
    assert main([*base, "list"]) == 0
    assert "No tables yet" in capsys.readouterr().out
    assert main([*base, "show", "abcde"]) == 1
    assert "no table store at" in capsys.readouterr().err
    assert main(["--user", "open", *base, "list"]) == 2
    assert "reserved" in capsys.readouterr().err
    assert main([*base, "new", "chess", "--seats", "a,b"]) == 2
    assert main([*base, "new", "nd", "--seats", "a,b,c,d,e,f"]) == 2
    assert "2-5 players" in capsys.readouterr().err
    assert main([*base, "new", "nd", "--seats", "a,b", "--option", "scores=nope"]) == 2
    capsys.readouterr()
    assert main(["--user", "a", *base, "new", "cathedral", "--seats", "me", "--seed", "4"]) == 0
    tid = capsys.readouterr().out.splitlines()[-1]
    while True:
        assert main(["--user", "a", *base, "show", tid, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        if doc["finished"]:
            break
        assert main(["--user", "a", *base, "play", tid, doc["legal"][-1]]) == 0
        capsys.readouterr()
    assert main(["--user", "a", *base, "play", tid, "x"]) == 1
    assert "is over" in capsys.readouterr().err
    assert main(["--user", "a", *base, "show", tid]) == 0
    assert "Game over" in capsys.readouterr().out
    save = tmp_path / "done.toml"
    assert main([*base, "export", tid, str(save)]) == 0
    capsys.readouterr()
    assert main(["check", str(save)]) == 0
    assert "finished" in capsys.readouterr().out
    assert main([*base, "undo", tid]) == 1
    capsys.readouterr()
    if backend.pg:  # a server that is down is not "no tables yet"
        port = backend.base.rsplit(":", 1)[1].split("/")[0]
        assert main(["--store", store.replace(f":{port}/", ":1/"), "table", "list"]) == 1
        assert "unreachable" in capsys.readouterr().err
        return
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    assert main(["--store", str(junk), "table", "list"]) == 1
    assert "not a table store" in capsys.readouterr().err


def test_env_names_the_store(backend: Backend, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("BOARDGAMES_STORE", backend.location)
    assert main(["--user", "a", "table", "new", "nd", "--seats", "me,greedy"]) == 0
    tid = capsys.readouterr().out.splitlines()[-1]
    s = backend.open(create_file=False)
    assert s.info(tid).game == get_game("nd").id
    assert s.path.startswith("postgresql://") == backend.pg
    s.close()
