"""Shared tables with real separate processes: complete games through the command line, a
race at the same move number, writers killed with SIGKILL. Every process has its own `--user`
and its own connection to one store, as players on their own terminals do."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from boardgames_tui.engine.core import Match
from boardgames_tui.engine.tables import open_store, parse_seats, public_view
from boardgames_tui.engine.tables.store import build_match, extend_match
from tests.root import ROOT
from tests.tables.conftest import Backend


def spawn(
    *args: str, stdout: int | None = None, stdin: int | None = None, **extra: str
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.tables.table_procs", *args],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stdin=stdin,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a group of its own: `finish` can end its forks too
    )


def finish(p: subprocess.Popen[bytes]) -> None:
    """Wait for `p` to succeed; a process that hangs ends with the processes it forked."""
    try:
        _, err = p.communicate(timeout=240)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 0, err.decode()[-2000:]


def norm(view: object) -> object:
    """A view as it reads after travelling as JSON."""
    return json.loads(json.dumps(view, default=str))


def within(public: object, seat_view: object) -> bool:
    """Every value of `public` is in `seat_view` as well (None: left out)."""
    if public is None or public == seat_view:
        return True
    if isinstance(public, dict) and isinstance(seat_view, dict):
        return all(k in seat_view and within(v, seat_view[k]) for k, v in public.items())
    if isinstance(public, list) and isinstance(seat_view, list):
        return len(public) == len(seat_view) and all(map(within, public, seat_view))
    return False


Replayed = dict[str, tuple[str, list[str], Match]]  # by table: its set-up, moves and match


def replay_all(location: str, replayed: Replayed | None = None) -> dict[str, int]:
    """Every table replays through the rules with moves 1..n (no gap, no duplicate).

    `replayed`: the tables replayed by an earlier call (kept up to date here); the moves read
    now that begin with the very moves replayed then are played on from there (the rules
    are deterministic: the same as replaying them all), any other list from the start."""
    store = open_store(location, create_file=False)
    replayed = {} if replayed is None else replayed
    try:
        integrity = getattr(store, "integrity", None)  # SQLite's own check of the file
        assert integrity is None or integrity() == "ok"
        counts = {}
        for info in store.tables():
            ids = store.move_ids(info.id)
            assert len(ids) == info.moves
            setup = repr((info.game, info.seed, info.options, info.seats, info.strict))
            known, before, m = replayed.get(info.id, ("", [], None))
            if m is None or known != setup or ids[: len(before)] != before:
                m = build_match(info, ids)
            else:
                extend_match(m, info, ids)
            replayed[info.id] = (setup, list(ids), m)
            assert m.cursor == info.moves
            assert (m.prompt is None) == info.finished
            counts[info.id] = info.moves
        return counts
    finally:
        store.close()


def test_processes_play_complete_games_of_every_title(backend: Backend, tmp_path: Path) -> None:
    """Four user processes and a spectator play a table of every title at once: two players
    at Notre Dame and 1347, four at Rattus Cartus and the Cathedral. Every screen a seat
    acted on is that seat's view (and does not change when what it may not see is redrawn);
    the spectator sees the public view only."""
    path = backend.location
    store = backend.open()
    tables = {
        "notre-dame": "alice,bob",
        "1347": "carol,dave",
        "rattus-cartus": "alice,bob,carol,dave",
        "cathedral-of-orleans": "dave,carol,bob,alice",
    }
    ids = {}
    for i, (title, seats) in enumerate(tables.items()):
        ids[store.create(title, parse_seats(seats, "alice"), {}, 10 + i, "alice").id] = title
    store.close()
    users = ["alice", "bob", "carol", "dave"]
    # one process each (forked after the imports), with its own connections to the store
    specs = [f"player,{u},{tmp_path / f'{u}.jsonl'},{k}" for k, u in enumerate(users)]
    terminals = spawn("terminals", str(path), *specs, f"watcher,erin,{tmp_path / 'erin.jsonl'}")
    finish(terminals)

    counts = replay_all(path)
    store = backend.open()
    rng = random.Random(1)
    matches = {tid: store.load(tid)[1] for tid in ids}
    seen_private = 0
    records = 0
    for u in users:
        for line in (tmp_path / f"{u}.jsonl").read_text().splitlines():
            rec = json.loads(line)
            m = matches[rec["id"]]
            game = m.game
            state = m.state_at(rec["n"])
            seat = rec["seat"]
            assert m.seats[seat].name == u and rec["to_move"] == u
            assert rec["view"] == norm(game.view(state, seat))
            assert rec["legal"] == [mv.id for mv in game.prompt(state).moves]
            records += 1
            if (
                game.has_private_info and records % 7 == 0 and game.prompt(state)
            ):  # the leak test for this seat
                other = game.determinize(state, seat, rng)
                assert norm(game.view(other, seat)) == rec["view"], (u, rec["id"], rec["n"])
                seen_private += norm(game.view(state, None)) != rec["view"]
    assert records == sum(counts.values())  # every move was played by its seat's process
    assert seen_private > 20
    watched = 0
    for line in (tmp_path / "erin.jsonl").read_text().splitlines():
        rec = json.loads(line)
        m = matches[rec["id"]]
        state = m.state_at(rec["n"])
        assert rec["view"] == norm(public_view(m, state))
        watched += 1
        # the spectator's view holds nothing that any one seat does not see itself
        for seat in range(len(m.seats)):
            assert within(rec["view"], norm(m.game.view(state, seat)))
    assert watched >= len(ids)
    for tid in ids:
        assert store.info(tid).finished
    store.close()


def race(backend: Backend, tmp_path: Path, mode: str, tables: int, count: int) -> None:
    """16 writers in two groups ("hosts": each group its own process, each writer its own
    connection) race at the same move numbers: afterwards the successes are exactly the
    stored moves, and every table replays with no gap or duplicate."""
    store = backend.open()
    ids = []
    for i in range(tables):
        game = ["notre-dame", "rattus-cartus", "1347"][i % 3]
        ids.append(store.create(game, parse_seats("ann,bo", "ann"), {}, i, mode).id)
    store.close()
    go = tmp_path / f"{mode}.go"  # made once every racer has its store open: all start at once
    groups = [
        spawn(
            "group",
            backend.location,
            "8",
            str(count),
            mode,
            str(tmp_path / f"{mode}{g}"),
            RACE_GO=str(go),
            RACE_SEED=str(8 * g),
        )
        for g in range(2)
    ]
    end = time.monotonic() + 60
    try:
        while len(list(tmp_path.glob(f"{mode}?.*.json.ready"))) < 16:
            assert all(p.poll() is None for p in groups), "a group ended before it was ready"
            assert time.monotonic() < end, "the racers never got ready"
            time.sleep(0.01)
    finally:
        go.touch()  # on a failure too: no racer is left waiting
    for p in groups:
        finish(p)
    results = [json.loads(f.read_text()) for f in tmp_path.glob(f"{mode}?.*.json")]
    assert len(results) == 16 and sum(r["tries"] for r in results) == 16 * count
    counts = replay_all(backend.location)
    assert sum(r["ok"] for r in results) == sum(counts[t] for t in ids)
    if mode == "same":
        assert sum(r["stale"] for r in results) > 0  # the race really happened
    else:  # one table each: nobody is ever out of date
        assert sum(r["ok"] for r in results) == 16 * count


def test_racing_processes_never_lose_duplicate_or_reorder_a_move(
    backend: Backend, tmp_path: Path
) -> None:
    race(backend, tmp_path, "same", 3, 25)
    race(backend, tmp_path, "different", 16, 15)


def test_writers_killed_mid_move_leave_a_sound_store(backend: Backend) -> None:
    """SIGKILL a writing process at random moments, 40 times (forked from one process, so
    each starts writing at once): the store (the file passes PRAGMA integrity_check) has
    every table replaying to a consistent state after every kill. Each kill comes after the
    writer's first move, so that a loaded machine still has them killed mid-game."""
    path = backend.location
    backend.open().close()
    counts: dict[str, int] = {}
    forker = spawn("forker", path, stdout=subprocess.PIPE, stdin=subprocess.PIPE)
    assert forker.stdin is not None and forker.stdout is not None
    rng = random.Random(7)
    replayed: Replayed = {}
    try:
        for kill in range(40):
            forker.stdin.write(f"fork {kill}\n".encode())
            forker.stdin.flush()
            pid = int(forker.stdout.readline())
            end = time.monotonic() + 20
            moved = sum(counts.values())
            while sum(r[0] for r in backend.sql("SELECT moves FROM bg_tables")) <= moved:
                assert time.monotonic() < end, "the writer made no move"
                time.sleep(0.01)
            time.sleep(rng.random() * 0.15)
            os.kill(pid, signal.SIGKILL)
            while _alive(pid):
                time.sleep(0.01)
            counts = replay_all(path, replayed)
    finally:
        forker.kill()
        forker.wait()
    assert sum(counts.values()) > 50


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
