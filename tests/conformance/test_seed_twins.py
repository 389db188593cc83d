"""Seed twins (issue 41): what a reader is told depends only on what the reader may know,
however the game came to be there.

A seed twin of a game is the same history of moves replayed from another setup that the
reader cannot tell apart from the real one: the reader's view is the same after every move.
It is made, for every installed title alike, in one of two ways:

- **another seed**: the same moves from another seed, all of them legal;
- **the title's `twin` hook at an earlier move** (from the setup on): another seat's card
  swapped with one of the deck back then, and the moves since replayed.

Unlike the twins of the current position (twins.py), these differ in what was dealt, set
aside or shown earlier, so a line of the log written for the wrong readers shows. Every text
the reader receives must be the same in both: the log, the move list (review), the question,
the line mode, and at a shared table (another seed: a table is its seed and its moves)
`table show` and its JSON as a seat and as a spectator, `table list --json`, and the turn
notifications as a loopback `json://` server receives them. Two leaky plug-ins must fail
(leaky_history.py); a failure names the text and says what to do.
"""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

from boardgames_tui.engine.core import HUMAN, PUBLIC, IllegalMove, Match, Seat, get_game, registry
from boardgames_tui.engine.core.protocol import Game
from tests.conformance.leaky_history import installed
from tests.conformance.test_robust_leaks import copy_match, plain_surfaces
from tests.conformance.twins import differs

SEEDS = 60  # other seeds tried for a twin
HOOKS = 8  # draws of the `twin` hook tried at each earlier move
LENGTH = 40  # moves of the history (fewer in a shorter game)
SEED = 7_340_001  # the history's (a number no text holds by chance, so that it can be masked)


def _players(game: Game) -> int:
    """Three seats where the game allows: a reader who is neither the mover nor shown."""
    return max(game.min_players, min(3, game.max_players))


def history(game: Game, seed: int, length: int = LENGTH) -> Match:
    """A seeded random game of `game`, `length` moves long (or to its end)."""
    n = _players(game)
    m = Match.new(game, [Seat(f"p{i}") for i in range(n)], seed=seed)
    rng = random.Random(seed)
    while m.prompt is not None and m.cursor < length:
        m.play(rng.choice(m.prompt.moves).id)
    return m


def same_views(m: Match, t: Match, reader: int, start: int) -> bool:
    game = m.game
    return t.cursor == m.cursor and all(
        game.view(m.state_at(k), reader) == game.view(t.state_at(k), reader)
        for k in range(start, m.cursor + 1)
    )


def replayed(t: Match, moves: list[str]) -> Match | None:
    try:
        for move_id in moves:
            t.play(move_id)
    except IllegalMove:
        return None
    return t


def seed_twin(m: Match, reader: int) -> tuple[Match, Match] | None:
    """The same moves from another seed, as long as the reader sees the same after every
    move (its own cards come out alike): the real match and the twin cut there, the longest
    of the seeds tried."""
    best: tuple[Match, Match] | None = None
    for alt in range(m.seed + 1, m.seed + 1 + SEEDS):
        t = Match.new(m.game, list(m.seats), dict(m.options), alt)
        if t.game.view(t.state, reader) != m.game.view(m.state_at(0), reader):
            continue
        played_alike(m, t, reader)
        if t.cursor and (best is None or telling(m, t) > telling(m, best[1])):
            best = copy_match(m, t.cursor), t
    return best


def played_alike(m: Match, t: Match, reader: int) -> None:
    """`m`'s moves played on in `t` while they are legal and the reader sees the same."""
    for move_id in m.move_ids()[t.cursor :]:
        try:
            t.play(move_id)
        except IllegalMove:
            return
        if t.game.view(t.state, reader) != m.game.view(m.state_at(t.cursor), reader):
            t.undo()
            t.truncate()
            return


def hook_twin(m: Match, reader: int) -> tuple[Match, Match, int] | None:
    """The title's `twin` hook at an earlier move, the moves since replayed as long as the
    reader sees the same (a draw may show the swapped card): the real match and the twin cut
    where they part, and the move the hook was used at. The longest such stretch is kept."""
    game = m.game
    best: tuple[Match, Match, int] | None = None
    longest = 0
    seat = reader if reader != PUBLIC else 0  # a twin for a seat is one for everybody
    for j in range(0, m.cursor, 2):
        before = m.state_at(j)
        for r in range(HOOKS):
            tw = game.twin(game.clone(before), seat, random.Random(r))
            if tw is None or game.view(tw, reader) != game.view(before, reader):
                break
            t = copy_match(m, j)
            t.snaps[j] = pickle.dumps(tw)
            t._live = None
            t._recent.clear()
            played_alike(m, t, reader)
            if t.cursor - j > longest:
                longest, best = t.cursor - j, (copy_match(m, t.cursor), copy_match(t), j)
        if longest >= 12:
            break
    return best


def texts(m: Match, reader: int, tmp: str) -> dict[str, str]:
    """Every text of the match for `reader` outside a table: the log (the setup's lines
    before the first move), the move list, the moves' names, the question, the line mode."""
    out = {
        "log": "\n".join([*m.opening(reader), *(line for _, line in m.events(reader))]),
        "move list": "\n".join(m.move_line(i, reader) for i in range(1, m.cursor + 1)),
        "move names": "\n".join(s.label_for(reader) for s in m.steps[: m.cursor]),
        "question": m.prompt.text_for(reader) if m.prompt else "",
    }
    t = copy_match(m)  # the reader is the one person at the table, or nobody (a spectator)
    t.seats = [Seat(s.name, HUMAN if i == reader else "random") for i, s in enumerate(m.seats)]
    for name, text in plain_surfaces(t, reader, False, tmp).items():
        out[f"line mode {name}"] = text
    return out


def assert_same(real: dict[str, str], seen: dict[str, str], where: str) -> None:
    assert real.keys() == seen.keys()
    for surface, text in real.items():
        assert seen[surface] == text, differs(where, surface, text, seen[surface])


def readers(m: Match) -> list[int]:
    return [*range(len(m.seats)), PUBLIC]


def check_history(game: Game, seed: int, tmp: Path) -> int:
    """The property outside tables for every reader of one history; the twins checked."""
    m = history(game, seed)
    found = 0
    for reader in readers(m):
        pairs = [(*st, f"seed {st[1].seed}") for st in [seed_twin(m, reader)] if st]
        if (h := hook_twin(m, reader)) is not None:
            pairs.append((h[0], h[1], f"the twin hook at move {h[2]}, to move {h[0].cursor}"))
        for real, t, how in pairs:
            where = f"{game.id} seed {seed}, {len(m.seats)}p, reader {reader} ({how})"
            assert_same(texts(real, reader, str(tmp)), texts(t, reader, str(tmp)), where)
            found += 1
    return found


def at_tables(
    game_id: str, seed: int, alt: int, moves: list[str], readers: list[str], tmp: Path
) -> list[dict[str, str]]:
    """The texts of two shared tables of the same moves from `seed` and `alt` for the users
    `readers` (seats p0, p1, ..., and the spectator zoe): `table show` (text, JSON),
    `table list --json`, and the turn notifications a loopback json:// server received."""
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats
    from boardgames_tui.engine.tables.notify import deliver
    from tests.tables.test_notify import Hook

    found = []
    for k, s in enumerate((seed, alt)):
        path = tmp / f"tables-{alt}-{k}.sqlite"
        store = SQLiteStore(path)
        n = _players(get_game(game_id))
        users = [f"p{i}" for i in range(n)]
        hook = Hook()
        try:
            for u in users:
                if u in readers:
                    store.add_target(u, hook.url(u))
            tid = store.create(game_id, parse_seats(",".join(users), "p0"), {}, s, "p0").id
            for i, move_id in enumerate(moves):
                info, match = store.load(tid)
                store.append(tid, info.seats[match.prompt.seat].user, move_id, i)
                deliver(store)
        finally:
            hook.close()
        store.close()
        out = {f"notifications to {p.strip('/')}": f"{t}\n{b}" for p, t, b in hook.posts}
        for user in readers:
            out |= table_commands(path, tid, user)
        found.append({k2: mask(v, tid, s) for k2, v in out.items()})
    return found


def table_commands(path: Path, tid: str, user: str) -> dict[str, str]:
    """What `table show`, `table show --json` and `table list --json` print for `user`."""
    import contextlib
    import io

    from boardgames_tui.cli.main import main

    out: dict[str, str] = {}
    base = ["--store", str(path), "--user", user, "table"]
    for name, args in (("show", ["show", tid]), ("show --json", ["show", tid, "--json"])):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main([*base, *args]) == 0
        out[f"table {name} as {user}"] = buf.getvalue()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main([*base, "list", "--json"]) == 0
    out[f"table list --json as {user}"] = buf.getvalue()
    return out


def mask(text: str, tid: str, seed: int) -> str:
    """A table's text with what two tables differ in by their making (their ids, seeds and
    times) masked."""
    text = text.replace(tid, "TABLE")
    text = re.sub(rf"\b{seed}\b", "SEED", text)
    return re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+|\"(at|created|updated|deadline)[^,\n]*", "TIME", text)


# ---- every installed title -------------------------------------------------------------------
TITLES = registry.game_ids()


@pytest.mark.parametrize("game_id", TITLES)
def test_seed_twins_read_the_same(game_id: str, tmp_path: Path) -> None:
    """Every reader of a history and of its seed twins reads the same texts; every title
    with private information has such twins (by another seed or its hook)."""
    game = get_game(game_id)
    found = check_history(game, SEED, tmp_path)
    if game.has_private_info:
        assert found, f"{game_id}: no seed twin (another seed or the `twin` hook) was found"


@pytest.mark.parametrize("game_id", [g for g in TITLES if get_game(g).has_private_info])
def test_seed_twins_at_a_shared_table(game_id: str, tmp_path: Path) -> None:
    """The table's texts for every seat and a spectator, for the same moves from two seeds
    that they see alike (where another seed gives such a twin); again without the first
    seat, which the others' twin may show something else."""
    game = get_game(game_id)
    m = history(game, SEED, LENGTH // 4)
    tried = 0
    for among in (readers(m), readers(m)[1:]):
        t = seed_twin_for_all(m, among)
        if t is None:
            continue
        tried += 1
        users = [f"p{r}" if r != PUBLIC else "zoe" for r in among]
        real, seen = at_tables(game_id, m.seed, t.seed, m.move_ids(t.cursor), users, tmp_path)
        assert_same(real, seen, f"{game_id} tables, seeds {m.seed} and {t.seed}")
    if not tried:
        pytest.skip(f"{game_id}: no other seed replays a move unseen by the readers")


def seed_twin_for_all(m: Match, among: list[int]) -> Match | None:
    """The same moves from another seed as long as the readers `among` see the same: the
    twin that may tell most (None: not one move)."""
    best: Match | None = None
    for alt in range(m.seed + 1, m.seed + 1 + 4 * SEEDS):  # every seat's cards alike: rarer
        t = Match.new(m.game, list(m.seats), dict(m.options), alt)
        for move_id in [None, *m.move_ids()]:
            try:
                if move_id is not None:
                    t.play(move_id)
            except IllegalMove:
                break
            here = m.state_at(t.cursor)
            if any(t.game.view(t.state, r) != m.game.view(here, r) for r in among):
                if t.cursor:
                    t.undo()
                    t.truncate()
                break
        else:
            return t
        if t.cursor and (best is None or telling(m, t) > telling(m, best)):
            best = t
    return best


def telling(m: Match, t: Match) -> tuple[int, int]:
    """How much a twin may tell: the log lines (as the omniscient observer reads them) where
    it differs from `m`, then its length. The twin that differs most is the best test."""
    real = [line for _, line in m.events(None, t.cursor)]
    return sum(a != b for a, b in zip(real, (x for _, x in t.events(None)), strict=False)), t.cursor


@pytest.mark.parametrize("game_id", [g for g in TITLES if get_game(g).has_private_info])
async def test_seed_twins_on_the_screen(game_id: str, tmp_path: Path) -> None:
    """The app as the second seat plays against computers: the game screen, its log, the
    review and the compact layout read the same for a seed twin of that seat."""
    from tests.conformance.test_robust_leaks import surfaces

    game = get_game(game_id)
    m = history(game, SEED)
    reader = 1
    pair = seed_twin(m, reader) or hook_twin(m, reader)
    assert pair is not None, f"{game_id}: no seed twin for seat {reader}"
    real, twin = (copy_match(x) for x in pair[:2])
    while real.prompt is None:  # the end of the game: its last decision instead
        real.undo()
        twin.undo()
    for x in (real, twin):
        x.seats = [Seat(s.name, HUMAN if i == reader else "random") for i, s in enumerate(x.seats)]
    c = real.cursor
    indexes = sorted({c, max(1, c // 2)})
    shown = await surfaces([real, twin], "computers", indexes, str(tmp_path))
    assert_same(shown[0], shown[1], f"{game_id} on the screen, seat {reader}, move {c}")


# ---- the leaky plug-ins fail -------------------------------------------------------------------
@pytest.mark.parametrize("attr", ["SHOWN", "NAMED"])
def test_a_plugin_leaking_through_history_fails(attr: str, tmp_path: Path) -> None:
    """A card set aside at setup, shown to the first seat (`SHOWN`) or to nobody (`NAMED`),
    named in a log line every seat reads: the seed twins catch it, naming the line."""
    why = r"the log .* reads .*set aside"
    with installed(attr) as game_id, pytest.raises(AssertionError, match=why) as failed:
        check_history(get_game(game_id), SEED, tmp_path)
    assert "put it in the view" in str(failed.value)


@pytest.mark.parametrize("attr", ["SHOWN", "NAMED"])
def test_a_plugin_leaking_through_history_fails_at_a_table(attr: str, tmp_path: Path) -> None:
    with installed(attr) as game_id, pytest.raises(AssertionError, match=r"set aside"):
        test_seed_twins_at_a_shared_table(game_id, tmp_path)
