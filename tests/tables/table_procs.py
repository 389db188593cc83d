"""Separate processes for the shared-table tests and the bench: `python -m tests.tables.table_procs
ROLE …`. Each is a real process with its own store connection, like a player's terminal.

player STORE USER OUT SEED: plays every table where it is USER's turn through the command-line
    entry point (`table list/show/play`, the same argv and JSON as a script would use) until
    all its tables are over; writes one JSON line per screen it acted on to OUT.
watcher STORE USER OUT: a spectator; records `table show --json` of every table until all
    are over.
terminals STORE SPEC…: forks one process per SPEC (imports done once), each a `player` or a
    `watcher` with its own connections to STORE, its arguments joined by commas
    (`player,USER,OUT,SEED`); waits for them all, and fails if one did.
group STORE WRITERS COUNT MODE OUT: forks WRITERS racers (imports done once, each with its own
    connection to STORE): COUNT times each reads a table and appends a legal move for the seat
    to move at the number it read, racing the others (MODE `same`: every racer on the first
    table not over; `different`: racer k on table k); each writes its successes to OUT.k.json.
    They start together: at the time $RACE_START, or (with $RACE_GO) each writes OUT.k.json.ready
    when its store is open and waits for the file $RACE_GO to exist.
writer STORE SEED: plays random games forever (the SIGKILL test kills it).
settler STORE USER OUT: says "ready", then settles the store (`boardgames_tui.engine.tables.computer.settle`,
    what every reader does) as fast as it can until USER's first turn at the first table has
    been played; writes how many moves it played to OUT.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import json
import os
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from boardgames_tui.engine.tables import Refused, StoreError, StoreUnavailable, open_store

_parser = None


def cli(*argv: str) -> tuple[int, str]:
    """`boardgames-tui ARGV` run in this process: (exit code, what it printed)."""
    global _parser
    import boardgames_tui.cli.main

    if _parser is None:  # one parser for the whole process: building it costs more than a move
        _parser = boardgames_tui.cli.main.build_parser()
        boardgames_tui.cli.main.build_parser = lambda: _parser
    main = boardgames_tui.cli.main.main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(list(argv))
    return rc, out.getvalue()


def player(store: str, user: str, out_path: str, seed: str) -> None:
    rng = random.Random(int(seed))
    base = ("--user", user, "--store", store, "table")
    # what wakes the terminal while it is not its turn: the store's change signal (as the
    # app's screens wait), not a whole `table list` every 50 ms
    watch = open_store(store)
    with open(out_path, "w") as out:
        while True:
            seen = watch.version()  # read first: a move made during the list bumps it
            rc, text = cli(*base, "list", "--json")
            assert rc == 0, text
            mine = [t for t in json.loads(text) if t["group"] == "yours"]
            if mine and all(t["status"] == "finished" for t in mine):
                watch.close()
                return
            turns = [t for t in mine if t["your_turn"]]
            if not turns:
                while watch.version() == seen:
                    watch.wait(0.05)
                continue
            for t in turns:
                rc, text = cli(*base, "show", t["id"], "--json")
                doc = json.loads(text)
                if not doc["legal"]:
                    continue
                rec = {"id": doc["id"], "n": doc["moves"], "seat": doc["your_seat"]}
                rec.update(view=doc["view"], legal=doc["legal"], to_move=doc["to_move"])
                out.write(json.dumps(rec) + "\n")
                move = rng.choice(doc["legal"])
                rc, text = cli(*base, "play", doc["id"], move, "--expect", str(doc["moves"]))
                assert rc == 0, (rc, text)


def watcher(store: str, user: str, out_path: str) -> None:
    base = ("--user", user, "--store", store, "table")
    with open(out_path, "w") as out:
        while True:
            _, text = cli(*base, "list", "--json")
            tables = json.loads(text)
            for t in tables:
                _, text = cli(*base, "show", t["id"], "--json")
                doc = json.loads(text)
                assert doc["legal"] == [] and doc["your_seat"] is None
                out.write(json.dumps({"id": doc["id"], "n": doc["moves"], "view": doc["view"]}))
                out.write("\n")
            if tables and all(t["status"] == "finished" for t in tables):
                return
            time.sleep(0.3)


def terminals(store: str, *specs: str) -> None:
    """Players and watchers forked after the imports (a process start costs more than the
    games' moves), each a process of its own with its own store connections."""
    from boardgames_tui.engine.core import Match, all_games

    # imports only: a connection made here would be reused by the forked processes at once
    for module in ("boardgames_tui.engine.tables.sqlite", "boardgames_tui.engine.tables.postgres"):
        importlib.import_module(module)

    with contextlib.suppress(SystemExit):  # the command line's imports and its parser, once
        cli("table", "list", "--help")
    for game in all_games():
        Match.new(game, [f"P{i}" for i in range(game.min_players)], seed=1)
    jobs: list[Callable[[], object]] = []
    for spec in specs:
        role, *args = spec.split(",")
        runs: dict[str, Callable[..., None]] = {"player": player, "watcher": watcher}
        run = runs[role]
        jobs.append(functools.partial(run, store, *args))
    forked(jobs)


def racer(store_path: str, seed: str, count: str, out_path: str, mode: str = "same") -> None:
    """RACE_RETRY set: the store going away (a server restart) is waited out; an append
    whose answer was lost counts as `unknown`, never as played."""
    rng = random.Random(int(seed))
    retry = bool(os.environ.get("RACE_RETRY"))
    ok = tries = stale = unknown = retries = 0
    while True:
        try:
            store = open_store(store_path)
            ids = sorted(t.id for t in store.tables() if t.creator == mode)
            break
        except StoreUnavailable:
            if not retry:
                raise
            retries += 1
            time.sleep(0.05)
    if mode == "different":
        ids = [ids[int(seed) % len(ids)]]
    start = float(os.environ.get("RACE_START", "0"))
    while time.time() < start:
        time.sleep(0.002)
    go = os.environ.get("RACE_GO")
    if go:  # say "ready", and start when the test says so: once every racer is ready
        Path(f"{out_path}.ready").touch()
        while not os.path.exists(go):
            time.sleep(0.002)
    while tries < int(count) and ids:
        tid = ids[0]  # every racer on the same table: the first one not over
        try:
            info, match = store.load(tid)
        except StoreUnavailable:
            if not retry:
                raise
            retries += 1
            time.sleep(0.05)
            continue
        if match.prompt is None:
            ids.remove(tid)
            continue
        user = info.seats[match.prompt.seat].user
        move = rng.choice(match.prompt.moves).id
        tries += 1
        try:
            store.append(tid, user, move, info.moves)
            ok += 1
        except Refused:
            stale += 1
        except StoreUnavailable:
            if not retry:
                raise
            unknown += 1
    store.close()
    out = {"ok": ok, "tries": tries, "stale": stale, "unknown": unknown, "retries": retries}
    Path(out_path).write_text(json.dumps(out))


def group(store_path: str, writers: str, count: str, mode: str, out: str) -> None:
    """One "host": forks WRITERS racers after the imports, waits for them all."""
    from boardgames_tui.engine.core import Match, all_games

    for game in all_games():
        Match.new(game, [f"P{i}" for i in range(game.min_players)], seed=1)
    seed = int(os.environ.get("RACE_SEED", "0"))
    forked(
        [
            functools.partial(racer, store_path, str(k + seed), count, f"{out}.{k}.json", mode)
            for k in range(int(writers))
        ]
    )


def forked(jobs: list[Callable[[], object]]) -> None:
    """Each job in a forked process of its own; exits 1 if any of them failed."""
    pids = []
    for job in jobs:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                job()
                code = 0
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(code)
        pids.append(pid)
    failed = sum(os.waitpid(pid, 0)[1] != 0 for pid in pids)
    sys.exit(1 if failed else 0)


def writer(store_path: str, seed: str, ready: int | None = None) -> None:
    from boardgames_tui.engine.tables import parse_seats

    rng = random.Random(int(seed))
    store = open_store(store_path)
    games = ["notre-dame", "rattus-cartus", "1347"]
    if ready is not None:
        os.write(ready, b"w")
    while True:
        live = [t for t in store.tables() if not t.finished]
        if len(live) < 3:
            store.create(
                rng.choice(games), parse_seats("ann,bo", "ann"), {}, rng.randrange(99), "ann"
            )
            continue
        for t in live:
            try:
                info, match = store.load(t.id)
                user = info.seats[match.prompt.seat].user
                store.append(t.id, user, rng.choice(match.prompt.moves).id, info.moves)
            except StoreError:
                pass


def forker(store_path: str) -> None:
    """For each line `fork SEED` on stdin: fork a writer (imports already done, so it starts
    at once) and print its pid when it is writing; the test kills it."""
    from boardgames_tui.engine.core import Match, all_games

    for game in all_games():  # every import done here, once
        Match.new(game, [f"P{i}" for i in range(game.min_players)], seed=1)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed children are reaped by the kernel
    for line in sys.stdin:
        seed = line.split()[1]
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                writer(store_path, seed, w)
            finally:
                os._exit(1)
        os.close(w)
        os.read(r, 1)
        os.close(r)
        print(pid, flush=True)


def settler(store_path: str, user: str, out_path: str) -> None:
    from boardgames_tui.engine.tables.computer import lease_owner, settle

    store = open_store(store_path)
    owner = lease_owner()
    print("ready", flush=True)
    played = 0
    while True:
        tables = store.tables()
        if tables and (tables[0].moves > 0 and tables[0].to_move != user):
            break
        played += settle(store, owner)
    store.close()
    Path(out_path).write_text(json.dumps({"played": played}))


if __name__ == "__main__":
    role, *rest = sys.argv[1:]
    roles: dict[str, Callable[..., None]] = {"player": player, "watcher": watcher, "group": group}
    roles["writer"] = writer
    roles["forker"] = forker
    roles["terminals"] = terminals
    roles["settler"] = settler
    roles[role](*rest)
