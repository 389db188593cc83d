"""Fair online play (issue 41): a seat's secrets never leave the host. The seed is drawn by
the store and kept from everyone until the table ends; every text that leaves the app (turn
notices as a loopback `json://` server receives them, `table show` of a spectator) is
written from its reader's own log. (A player's database role: test_postgres.py.)"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import Match, get_game, saves
from boardgames_tui.engine.tables import TableStore, parse_seats
from boardgames_tui.engine.tables.notify import deliver
from boardgames_tui.engine.tables.store import SEED_BITS, table_digest
from tests.tables.conftest import Backend
from tests.tables.test_notify import Hook


def cli(capsys: pytest.CaptureFixture[str], backend: Backend, user: str, *argv: str) -> tuple[int, str, str]:  # fmt: skip
    code = main(["--user", user, "--store", backend.location, "table", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def stored_seed(backend: Backend, tid: str) -> int:
    (seed,) = backend.sql("SELECT seed FROM bg_tables WHERE id = ?", (tid,))[0]
    return int(seed)


# ---- 1. secret seeds ---------------------------------------------------------------------
def test_the_store_draws_a_64_bit_seed_and_nobody_sees_it_before_the_end(
    backend: Backend, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`table new` printed the seed ("(seed 7121829)", 24 bits): now the store draws 64 bits
    from the CSPRNG and no output shows it (new, rematch, show and list, text and JSON)
    until the table is over; then `show --json` has it and an exported save carries it."""
    code, out, _ = cli(capsys, backend, "alice", "new", "cathedral", "--seats", "me,bob")
    tid = out.splitlines()[-1]
    assert cli(capsys, backend, "bob", "join", tid)[0] == 0  # bob takes the seat offered
    store = backend.open()
    seed = store.info(tid).seed
    assert code == 0 and str(seed) not in out and "seed" not in out
    seeds = {seed} | {
        store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, None, "alice").seed
        for _ in range(15)
    }
    assert len(seeds) == 16 and max(seeds).bit_length() > 56  # 2**-128 to fail by chance
    assert all(0 <= s < 1 << SEED_BITS for s in seeds)
    texts = []
    for user in ("alice", "bob", "carol"):  # both seats and a spectator
        for argv in (("show", tid), ("show", tid, "--json"), ("list",), ("list", "--json")):
            code, out, err = cli(capsys, backend, user, *argv)
            assert code == 0, err
            texts.append(out)
    for doc in [json.loads(texts[1]), *json.loads(texts[3])]:
        assert doc["seed"] is None and doc["seed_kind"] == "secret"
        # a co-operative game keeps a team record instead of ratings: its seed is not why
        assert doc["rated"] or doc["unrated_because"].startswith("a co-operative game")
    assert not any(str(seed) in text for text in texts)
    code, _, err = cli(capsys, backend, "alice", "export", tid, str(tmp_path / "early.toml"))
    assert code == 1 and "carries the seed" in err and not (tmp_path / "early.toml").exists()
    while (m := store.load(tid)[1]).prompt is not None:  # to the end
        store.append(tid, store.info(tid).to_move, m.prompt.moves[0].id, m.cursor)
    code, out, _ = cli(capsys, backend, "bob", "rematch", tid)
    rid = out.splitlines()[-1]
    assert code == 0 and str(store.info(rid).seed) not in out
    assert json.loads(cli(capsys, backend, "bob", "show", rid, "--json")[1])["seed"] is None
    assert json.loads(cli(capsys, backend, "bob", "show", tid, "--json")[1])["seed"] == seed
    assert cli(capsys, backend, "bob", "export", tid, str(tmp_path / "done.toml"))[0] == 0
    assert saves.load(tmp_path / "done.toml").seed == seed
    store.close()


def test_a_seed_above_2_to_the_63_is_stored_and_replays_the_same(store: TableStore) -> None:
    """Both stores' columns are signed 64-bit: a seed of 64 bits comes back whole, and the
    table replays as a match made from it (the engine's chance takes any whole number)."""
    for seed in (2**64 - 1, 2**63, 2**63 - 1, 0):
        t = store.create("1347", parse_seats("alice,bob", "alice"), {}, seed, "alice")
        assert store.info(t.id).seed == seed
        match = Match.new("1347", ["alice", "bob"], {}, seed)
        ids = []
        for _ in range(4):
            info, m = store.load(t.id)
            move = m.prompt.moves[-1].id
            store.append(t.id, info.to_move, move, info.moves)
            match.play(move)
            ids.append(move)
        assert table_digest(store.info(t.id), ids).endswith(match.game.digest(match.state))


@pytest.mark.parametrize("game", ["notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347"])
def test_every_games_chance_and_saves_take_a_64_bit_seed(game: str, tmp_path: Path) -> None:
    """Each title deals and draws from a seed of 64 bits (two such seeds deal differently),
    and a save of it loads back to the same seed and position."""
    g = get_game(game)
    names = ["a", "b", "c"][: max(2, g.min_players)]
    deals = set()
    for seed in (2**64 - 1, 2**64 - 2):
        m = Match.new(game, names, {}, seed)
        for _ in range(6):
            if m.prompt is not None:
                m.play(m.prompt.moves[-1].id)
        path = saves.save(m, tmp_path / f"{seed}.toml")
        back = saves.load(path)
        assert back.seed == seed and g.digest(back.state) == g.digest(m.state)
        deals.add(g.digest(m.state_at(0)))
    assert len(deals) == 2


def test_a_seed_is_chosen_only_against_computers_and_marked_everywhere(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    for seats in ("me,bob", "me,open", "me,greedy,bob"):
        code, out, err = cli(capsys, backend, "alice", "new", "nd", "--seats", seats, "--seed", "7")
        assert code == 2 and out == "" and len(err.splitlines()) == 1
        assert "only at a table of one person against computers" in err
    code, out, _ = cli(capsys, backend, "alice", "new", "nd", "--seats", "me,greedy", "--seed", "7")
    tid = out.splitlines()[-1]
    assert code == 0 and "chosen seed (not rated): 7" in out
    assert "chosen seed (not rated)" in cli(capsys, backend, "alice", "list")[1]
    assert "Seed: chosen seed (not rated): 7" in cli(capsys, backend, "alice", "show", tid)[1]
    [row] = json.loads(cli(capsys, backend, "alice", "list", "--json")[1])
    doc = json.loads(cli(capsys, backend, "alice", "show", tid, "--json")[1])
    for d in (row, doc):
        assert (d["seed"], d["seed_kind"], d["rated"]) == (7, "chosen", False)


def test_tables_made_before_secret_seeds_are_marked_as_shown(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    store = backend.open()
    t = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 7121829, "alice")
    store.close()
    backend.before_results()  # what formats 8 and 9 added goes too
    backend.sql("ALTER TABLE bg_tables DROP COLUMN ended_turn_since")  # and format 7
    backend.sql("ALTER TABLE bg_tables DROP COLUMN seed_kind")  # what format 5 wrote
    backend.sql("UPDATE bg_meta SET value = '5' WHERE key = 'format'")
    listed = cli(capsys, backend, "bob", "list")[1]
    assert "seed was shown (made before store format 6)" in listed
    doc = json.loads(cli(capsys, backend, "bob", "show", t.id, "--json")[1])
    assert doc["seed_kind"] == "shown" and doc["seed"] is None


# ---- 2. texts for their reader -------------------------------------------------------------
@pytest.fixture
def hook() -> Iterator[Hook]:
    h = Hook()
    yield h
    h.close()


def hidden_labels(match: Match, seat: int) -> list[str]:
    """The labels of the private moves of `seat` (what only that seat knows it chose)."""
    return [s.label for s in match.steps if s.seat == seat and s.public is not None]


@pytest.mark.parametrize("game", ["1347", "rattus-cartus", "notre-dame"])
def test_a_turn_notice_names_no_hidden_choice_of_the_others(
    store: TableStore, hook: Hook, game: str
) -> None:
    """1347 "alice: Invest your 4-point token", Rattus Cartus "alice: Commit a Royalty card
    (1 in hand)", Notre Dame "alice: Keep Residence": the notices bob's json:// target got
    named alice's private choices by her labels. Now each is bob's own log."""
    store.add_target("bob", hook.url("bob"))
    t = store.create(game, parse_seats("alice,bob", "alice"), {}, 7, "alice")
    secret: list[str] = []
    for _ in range(300):  # until bob was told of moves whose labels he may not read
        info, match = store.load(t.id)
        assert match.prompt is not None
        store.append(t.id, info.to_move, match.prompt.moves[0].id, info.moves)
        if deliver(store):
            seen = "\n".join(line for _, line in store.load(t.id)[1].events(1))
            secret = [label for label in hidden_labels(match, 0) if label not in seen]
            if secret and len(hook.posts) > 1:
                break
    assert secret, "no private move of alice's was ever hidden from bob"
    for _, title, body in hook.posts:
        assert title.startswith("Your turn") and not [s for s in secret if s in body], body
        for line in body.splitlines()[2:-1]:  # each line about a move is in bob's own log
            text = re.sub(r"^  (… )?", "", line)
            assert text in seen or text.startswith("alice: a hidden choice"), line


def test_a_spectators_table_show_is_the_spectators_view(
    store: TableStore, backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """After alice's `keep:bank`, carol watching read "alice keeps Bank and passes …" in
    `table show`: the log of everything, not the public's."""
    t = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    _, match = store.load(t.id)
    store.append(t.id, "alice", match.prompt.moves[0].id, 0)
    _, match = store.load(t.id)
    private = [line for _, line in match.events(0) if "keeps" in line]
    public = [line for _, line in match.events(-1) if "keeps" in line]
    assert private and public and private != public
    for argv in (("show", t.id), ("show", t.id, "--json")):
        code, out, _ = cli(capsys, backend, "carol", *argv)
        assert code == 0 and public[0] in out and not any(p in out for p in private)
        assert "Keep " not in out  # nor alice's label
    alice = cli(capsys, backend, "alice", "show", t.id)[1]
    assert private[0] in alice  # her own seat reads her own line
