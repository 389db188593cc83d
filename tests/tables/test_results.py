"""Results and ratings (issue 46): a finished table's result is stored in the transaction of
its last move (and replayed into the store by the upgrade for tables finished before); the
ratings and statistics are read from them; each table says whether it counts, and why not.
On both backends."""

from __future__ import annotations

import json
import random

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import TableStore, parse_seats
from boardgames_tui.engine.tables import open_store as open_store_at
from boardgames_tui.engine.tables import results as res
from boardgames_tui.engine.tables.computer import lease_owner, play_computers
from boardgames_tui.engine.tables.results import RESULTS_FORMAT
from boardgames_tui.engine.tables.store import FORMAT
from tests.tables.conftest import Backend


def play_out(store: TableStore, tid: str, seed: int) -> None:
    """Play the table to its end, each person a seeded random legal move."""
    rng = random.Random(seed)
    owner = lease_owner()  # this test's one process, holding the computers' lease
    while True:
        info, match = store.load(tid)
        if match.prompt is None:
            return
        seat = info.seats[match.prompt.seat]
        if seat.is_bot:
            play_computers(store, tid, owner, None, limit=1)
            continue
        store.append(tid, seat.user, rng.choice(match.prompt.moves).id, info.moves)


def five_games(store: TableStore) -> list[str]:
    ids = []
    for k in range(5):
        seats = "alice,bob" if k % 2 == 0 else "bob,alice"
        t = store.create("notre-dame", parse_seats(seats, "alice"), {}, 10 + k, "alice")
        play_out(store, t.id, k)
        ids.append(t.id)
    return ids


def test_two_people_five_games_ratings_move_and_statistics(
    backend: Backend, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = backend.open()
    ids = five_games(store)
    found = store.results("notre-dame")
    assert [r.table_id for r in found] == ids  # in the order they finished
    assert all(r.rated and r.why == "" and r.players == 2 for r in found)
    for r in found:
        assert sorted(s.player for s in r.seats) == ["alice", "bob"]
        _, match = store.load(r.table_id)
        final = match.game.result(match.state)
        assert [s.score for s in r.seats] == [line.score for line in final.lines]
        assert [s.rank for s in r.seats] == [line.rank for line in final.lines]
    board = res.leaderboard(found)
    assert {p.player for p in board} == {"alice", "bob"}
    for p in board:
        assert p.games == 5 and not p.provisional
        assert len(set(p.history)) > 1  # the rating moved
    winner = max(board, key=lambda p: p.shown)
    wins = sum(1 for r in found for s in r.seats if s.player == winner.player and s.rank == 1)
    assert wins >= 3 or any(
        s.rank == 1 for r in found for s in r.seats if s.player != winner.player
    )
    store.close()
    # the command line: ratings and statistics, text and JSON
    monkeypatch.setenv("BOARDGAMES_STORE", backend.location)
    assert main(["--user", "alice", "table", "ratings", "notre-dame", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {p["player"]: p["games"] for p in doc[0]["players"]} == {"alice": 5, "bob": 5}
    assert main(["--user", "alice", "table", "ratings", "chess"]) == 2  # one line: no such game
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["--user", "alice", "table", "ratings"]) == 0
    out = capsys.readouterr().out
    assert "Notre Dame" in out and "← you" in out
    assert main(["--user", "alice", "table", "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    alice_wins = sum(1 for r in found for s in r.seats if s.player == "alice" and s.rank == 1)
    assert stats["played"] == 5 and stats["won"] == alice_wins
    assert stats["by_game"]["notre-dame"]["played"] == 5
    assert stats["by_players"] == [
        {"game": "notre-dame", "players": 2, **stats["by_game"]["notre-dame"]}
    ]
    assert main(["--user", "alice", "table", "stats", "bob"]) == 0
    assert capsys.readouterr().out.startswith("bob: 5 played")


def test_what_does_not_count_says_why(
    backend: Backend, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = backend.open()
    seats = parse_seats("alice,bob", "alice")
    unrated = store.create("notre-dame", seats, {}, 1, "alice", {"unrated": True})
    solo = parse_seats("alice,greedy", "alice")  # a seed is chosen only against computers
    seeded = store.create("notre-dame", solo, {}, 2, "alice", chosen=True)
    coop = store.create("cathedral-of-orleans", seats, {}, 3, "alice")
    versus = store.create("notre-dame", parse_seats("alice,greedy", "alice"), {}, 4, "alice")
    for k, t in enumerate((unrated, seeded, coop, versus)):
        play_out(store, t.id, k)
    why = {r.table_id: r.why for r in store.results()}
    assert why == {
        unrated.id: "its creator made it unrated",
        seeded.id: "its seed was chosen",
        coop.id: "a co-operative game: it keeps a team record",
        versus.id: "",
    }
    (team,) = [r for r in store.results() if r.table_id == coop.id]
    assert team.team_won is not None
    stats = res.stats("alice", store.results())
    assert stats["played"] == 3 and len(stats["team"]) == 1 and stats["team"][0]["played"] == 1
    board = res.leaderboard(store.results("notre-dame"))
    assert {p.player for p in board} == {"alice", "computer:greedy"}
    assert res.standing("alice", board) in ("above greedy", "below greedy")
    store.close()
    monkeypatch.setenv("BOARDGAMES_STORE", backend.location)
    assert main(["--user", "alice", "table", "show", unrated.id]) == 0
    assert "Not rated: its creator made it unrated" in capsys.readouterr().out
    assert main(["--user", "alice", "table", "show", versus.id, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rated"] is True and doc["unrated_because"] is None


def test_the_autopilot_playing_most_of_a_seat_makes_it_not_count() -> None:
    seats = [("human", "alice"), ("human", "bob")]
    moves = [(0, "alice"), (1, "autopilot"), (0, "alice"), (1, "autopilot"), (1, "bob")]
    assert res.why_unrated(False, {}, seats, moves) == "the computer played most of bob's moves"
    assert res.why_unrated(False, {}, seats, [*moves[:2], (1, "bob"), (1, "bob")]) == ""
    assert res.why_unrated(False, {}, [("human", "al"), ("human", "al")], []) == (
        "fewer than two different players"
    )


def test_the_upgrade_replays_finished_tables_into_results(backend: Backend) -> None:
    store = backend.open()
    ids = five_games(store)
    before = store.results()
    open_table = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 9, "alice")
    store.close()
    backend.before_results()
    assert backend.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [
        (str(RESULTS_FORMAT - 1),)
    ]
    store = backend.open()
    assert backend.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [(str(FORMAT),)]
    # the upgrade knows when each finished only to the second (the table's last change): the
    # five games may tie, so each table's result is compared, not their order
    after = {r.table_id: r for r in store.results()}
    assert sorted(after) == sorted(ids) and open_table.id not in after
    assert {r.table_id: [(s.player, s.rank, s.score) for s in r.seats] for r in before} == {
        t: [(s.player, s.rank, s.score) for s in r.seats] for t, r in after.items()
    }
    store.close()


def test_table_new_unrated_and_a_chosen_seed_say_so(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDGAMES_STORE", f"{tmp_path}/tables.sqlite")
    for flags, said in [
        (["--seats", "me,bob", "--unrated"], "Not rated: its creator made it unrated"),
        (["--seats", "me,greedy", "--seed", "7"], "Not rated: its seed was chosen"),
        (["--seats", "me,bob"], "Rated: this table counts for ratings (no hints until it ends)"),
    ]:
        argv = ["--user", "alice", "table", "new", "notre-dame", *flags]
        assert main(argv) == 0
        tid = capsys.readouterr().out.strip().splitlines()[-1]
        assert main(["--user", "alice", "table", "show", tid]) == 0
        assert said in capsys.readouterr().out


def test_copy_store_brings_the_results_along(backend: Backend, tmp_path: object) -> None:
    store = backend.open()
    five_games(store)
    before = store.results()
    store.close()
    target = f"{tmp_path}/copy.sqlite"
    assert main(["table", "copy-store", backend.location, target]) == 0
    copy = open_store_at(target)
    after = copy.results()
    copy.close()

    def rows(found: list[res.TableResult]) -> list[tuple[object, ...]]:
        # by table: a copy knows when each finished to the second only (ties: by id)
        return sorted(
            (r.table_id, r.rated, [(s.player, s.rank, s.score) for s in r.seats]) for r in found
        )

    assert rows(after) == rows(before) and len(after) == 5
