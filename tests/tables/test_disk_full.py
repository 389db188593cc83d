"""A full disk (issue 29, item 6): one line saying the disk is full, reads go on, nothing is
lost. The real thing is a small tmpfs filled to the last byte (mounting needs root: the test
is skipped otherwise); SQLite's own limit on pages stands in for it everywhere."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import SQLiteStore, StoreUnavailable, parse_seats
from boardgames_tui.session.autosave import Autosaver


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs of its own, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("a full disk is made by mounting a small tmpfs, which needs root")
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=True)


def fill(folder: Path) -> Path:
    """Take every free byte of the file system `folder` is on."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    return filler


def test_a_full_disk_says_so_and_the_tables_can_still_be_read(small_disk: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A new process on a full disk used to fail even to list the tables ("disk I/O error":
    it could not make the store's shared-memory index)."""
    store = str(small_disk / "tables" / "tables.sqlite")
    base = ["--store", store, "--user", "alice", "table"]
    assert main([*base, "new", "notre-dame", "--seats", "alice,bob"]) == 0
    tid = capsys.readouterr().out.splitlines()[-1]
    assert main(["--store", store, "--user", "bob", "table", "join", tid]) == 0  # accepted
    capsys.readouterr()
    assert main([*base, "show", tid, "--json"]) == 0
    move = json.loads(capsys.readouterr().out)["legal"][0]
    filler = fill(small_disk)

    assert main([*base, "list"]) == 0
    out, err = capsys.readouterr()
    assert f"  {tid}  Notre Dame" in out and err == ""
    assert main([*base, "show", tid, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"][0] == move
    for action in (["play", tid, move], ["new", "notre-dame", "--seats", "alice,bob"]):
        assert main([*base, *action]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert "the disk is full" in err and "disk I/O" not in err, err

    filler.unlink()  # space again: the move goes in, nothing was lost
    assert main([*base, "play", tid, move]) == 0
    capsys.readouterr()
    s = SQLiteStore(store, create_file=False)
    assert s.info(tid).moves == 1 and s.integrity() == "ok"
    s.close()


def test_sqlite_full_reads_as_a_full_disk(tmp_path: Path) -> None:
    """SQLITE_FULL (here SQLite's page limit) is "the disk is full", not "database or disk
    is full" with the store's name buried; the store still reads and nothing is lost."""
    s = SQLiteStore(tmp_path / "tables.sqlite")
    t = s.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    (pages,) = s.conn.execute("PRAGMA page_count").fetchone()
    s.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreUnavailable) as caught:
        for seed in range(200):
            s.create("notre-dame", parse_seats("alice,bob", "alice"), {}, seed, "alice")
    assert "cannot be changed: the disk is full" in str(caught.value)
    assert "\n" not in str(caught.value)
    assert s.info(t.id).moves == 0
    s.close()


def test_an_autosave_on_a_full_disk_keeps_the_last_one(small_disk: Path) -> None:
    """The autosave writer on a full disk: the previous autosave stays whole, no temporary
    file is left, and the player gets one line saying the disk is full."""
    errors: list[str] = []
    saver = Autosaver(on_error=errors.append)
    path = small_disk / "saves" / "autosave-notre-dame.toml"
    saver.submit(path, "first = 1\n")
    assert saver.flush()
    filler = fill(small_disk)
    saver.submit(path, "second = 2\n" * 20000)
    assert saver.flush()
    assert errors == [
        "Autosave failed: the disk is full; the last autosave is kept (the game goes on)"
    ]
    assert path.read_text() == "first = 1\n"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    filler.unlink()
    saver.submit(path, "third = 3\n")
    assert saver.flush() and path.read_text() == "third = 3\n" and len(errors) == 1


def test_the_autosave_line_names_other_failures_too() -> None:
    from boardgames_tui.session.autosave import failed_line

    line = failed_line(OSError(errno.EACCES, "Permission denied"))
    assert (
        line == "Autosave failed: Permission denied; the last autosave is kept (the game goes on)"
    )
