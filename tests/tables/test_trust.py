"""The trust model of a SQLite store (issue 29): the file is its owner's only unless a group
is asked for, and only the file's owner (a room's service account) may play under a name
that is not its login name."""

from __future__ import annotations

import grp
import os
import pwd
import stat
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import SQLiteStore, default_user, parse_seats
from tests.tables.conftest import Backend


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_store_is_its_owners_only(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """0600 in a 0700 folder, whatever the umask; SQLite's -wal and -shm files alike."""
    old = os.umask(0o022)
    try:
        store = tmp_path / "room" / "tables.sqlite"
        assert main(["--store", str(store), "table", "new", "nd", "--seats", "me,greedy"]) == 0
        capsys.readouterr()
        s = SQLiteStore(store)
        s.info(s.tables()[0].id)
        assert (mode(store.parent), mode(store)) == (0o700, 0o600)
        assert mode(Path(f"{store}-wal")) == 0o600 and mode(Path(f"{store}-shm")) == 0o600
        s.close()
    finally:
        os.umask(old)


def test_share_group_makes_a_group_shared_store(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    group = grp.getgrgid(os.getegid()).gr_name  # a group this account is in
    store = tmp_path / "shared" / "tables.sqlite"
    base = ["--share-group", group, "--store", str(store), "table"]
    assert main([*base, "new", "nd", "--seats", "me,greedy"]) == 0
    capsys.readouterr()
    assert (mode(store.parent), mode(store)) == (0o2770, 0o660)
    assert store.stat().st_gid == store.parent.stat().st_gid == os.getegid()
    s = SQLiteStore(store)
    s.tables()
    assert mode(Path(f"{store}-wal")) == 0o660
    s.close()
    # an existing private store of one's own, shared afterwards
    private = tmp_path / "mine" / "tables.sqlite"
    SQLiteStore(private).close()
    assert mode(private) == 0o600
    assert main(["--share-group", group, "--store", str(private), "table", "list"]) == 0
    assert (mode(private.parent), mode(private)) == (0o2770, 0o660)
    capsys.readouterr()
    assert main(["--share-group", "no-such-group-x", "--store", str(store), "table", "list"]) == 2
    err = capsys.readouterr().err
    assert err == "boardgames-tui: --share-group no-such-group-x: there is no such group\n"


def test_share_group_is_for_a_sqlite_store(backend: Backend, capsys) -> None:  # type: ignore[no-untyped-def]
    if not backend.pg:
        pytest.skip("the PostgreSQL case")
    assert main(["--share-group", "users", "--store", backend.location, "table", "list"]) == 2
    assert "grant the players' roles" in capsys.readouterr().err


def test_the_login_name_is_the_account_not_the_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """$USER and $LOGNAME are anyone's to set: they used to choose the seat."""
    for var in ("USER", "LOGNAME", "LNAME", "USERNAME"):
        monkeypatch.setenv(var, "alice")
    assert default_user() == pwd.getpwuid(os.geteuid()).pw_name


def test_another_name_is_refused_at_a_store_that_is_not_yours(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A store file owned by another account: --user with a name not one's own is refused,
    in one line saying why and where identity is enforced; one's own name still plays. The
    file's owner may play under any name (a room's service account does)."""
    if os.geteuid() != 0:
        pytest.skip("giving the store to another account needs root")
    me = default_user()
    store = tmp_path / "tables.sqlite"
    s = SQLiteStore(store)
    tid = s.create("notre-dame", parse_seats(f"{me},alice", me), {}, 3, me).id
    s.close()
    base = ["--store", str(store)]
    assert main([*base, "--user", "alice", "table", "list"]) == 0  # the owner: any name
    capsys.readouterr()
    other = pwd.getpwnam("nobody").pw_uid
    os.chown(store, other, -1)
    for argv in (["table", "list"], ["table", "play", tid, "x"], []):  # [] is the app's menu
        assert main([*base, "--user", "alice", *argv]) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert err.startswith(
            f"boardgames-tui: --user alice: you are {me}, and the table store {store} "
            "belongs to nobody: anyone who can write a shared file could claim any seat"
        )
        assert "boardgames-tui serve" in err and "PostgreSQL" in err
    assert main([*base, "--user", me, "table", "list"]) == 0
    assert f"  {tid}  Notre Dame" in capsys.readouterr().out
    assert main([*base, "table", "show", tid]) == 0
    capsys.readouterr()
