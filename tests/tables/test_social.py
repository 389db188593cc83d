"""Around the table: rematches, private tables and invite codes, who may watch, table talk,
the open-tables limit and abandoned tables; on both backends, in the store and on the
command line."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import get_game
from boardgames_tui.engine.tables import Refused, TableStore, listed, parse_seats
from boardgames_tui.engine.tables.social import TALK_MAX, clean_talk
from tests.tables.conftest import Backend


def new(store: TableStore, seats: str = "alice,bob", game: str = "notre-dame", **kw):  # type: ignore[no-untyped-def]
    max_open = kw.pop("max_open", None)
    return store.create(
        game, parse_seats(seats, "alice"), {}, kw.pop("seed", 3), "alice", kw, max_open=max_open
    )


def finish(store: TableStore, tid: str) -> None:
    """Play the table to its end, each seat its first legal move."""
    while True:
        info, match = store.load(tid)
        if match.prompt is None:
            return
        user = info.seats[match.prompt.seat].user
        store.append(tid, user, match.prompt.moves[0].id, info.moves)


# ---- rematch -----------------------------------------------------------------------------------
def test_rematch_same_game_and_people_next_seat_starts_offered_to_the_others(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store, "alice,bob,carol", game="cathedral-of-orleans", seed=5)
    store.add_target("carol", "json://127.0.0.1:9/")
    with pytest.raises(Refused, match=f"table {t.id} is not over yet"):
        store.rematch(t.id, "alice", 9)
    finish(store, t.id)
    with pytest.raises(Refused, match="did not play at table"):
        store.rematch(t.id, "dave", 9)
    r, made = store.rematch(t.id, "bob", 9)
    assert made and r.id != t.id and r.seed == 9 and r.game == t.game
    assert r.options == t.options and r.settings == t.settings
    # rotated by one: the old second seat (bob) starts; the others' seats offered to them
    assert [s.user for s in r.seats] == ["bob", None, None]
    assert [s.offered for s in r.seats] == [None, "carol", "alice"]
    assert r.status == "waiting" and r.first_open() is None  # nobody else may take them
    assert [s.label for s in r.seats] == ["bob", "carol?", "alice?"]
    told = [n for n in store.claim_notices() if n.table_id == r.id]  # carol is told
    assert [(n.user, n.title) for n in told] == [
        ("carol", f"Rematch offered: The Cathedral of Orléans at table {r.id}")
    ]
    assert f"table join {r.id}" in told[0].body
    again, made = store.rematch(t.id, "alice", 11)  # asked again: the same table
    assert again.id == r.id and not made and store.rematch_of(t.id) == r.id
    assert store.join(r.id, "dave") is None  # offered seats are not open to anyone
    groups = dict((i.id, g) for g, i in listed(store.tables(), "carol"))
    assert groups[r.id] == "offered"
    assert store.join(r.id, "carol") == 1 and store.join(r.id, "alice") == 2  # accepted
    info, match = store.load(r.id)
    assert info.status == "playing" and info.to_move == "bob"
    assert [s.user for s in info.seats] == ["bob", "carol", "alice"]
    assert match.names == ["bob", "carol", "alice"]


def test_rematch_keeps_computers_and_plays_at_once(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store, "alice,greedy", game="cathedral-of-orleans")
    store.take_lease(t.id, "x")
    while True:
        info, match = store.load(t.id)
        if match.prompt is None:
            break
        seat = info.seats[match.prompt.seat]
        store.append(t.id, seat.user, match.prompt.moves[0].id, info.moves, lease="x")
        store.take_lease(t.id, "x")
    r, made = store.rematch(t.id, "alice", 4)
    assert made and [s.label for s in r.seats] == ["greedy", "alice"] and r.status == "playing"


# ---- private tables and invite codes -----------------------------------------------------------
def test_private_tables_are_not_listed_and_a_code_opens_one_seat_once(store) -> None:  # type: ignore[no-untyped-def]
    t = new(store, "alice,open,open", private=True)
    public = new(store, "alice,open")
    assert [i.id for g, i in listed(store.tables(), "bob") if g == "open"] == [public.id]
    with pytest.raises(Refused, match=r"is private: .*invite code"):
        store.join(t.id, "bob")
    with pytest.raises(Refused, match="only its players invite"):
        store.invite(t.id, "bob")
    code = store.invite(t.id, "alice")
    assert len(code) == 9 and code[4] == "-"
    assert store.join_code(code.upper(), "bob") == (t.id, 1)  # case and dash do not matter
    assert store.join_code(code, "bob") == (t.id, 1)  # its user again: the same seat
    with pytest.raises(Refused, match=f"invite code {code} was used already \\(by bob\\)"):
        store.join_code(code, "carol")
    with pytest.raises(Refused, match="no invite code"):
        store.join_code("zzzz-zzzz", "carol")
    second = store.invite(t.id, "bob")
    assert store.join_code(second.replace("-", ""), "carol") == (t.id, 2)
    assert store.info(t.id).status == "playing"
    with pytest.raises(Refused, match="no open seat to invite"):
        store.invite(t.id, "alice")
    mine = [i.id for g, i in listed(store.tables(), "carol") if g == "yours"]
    assert t.id in mine


# ---- spectators --------------------------------------------------------------------------------
@pytest.mark.parametrize("setting", ["none", "players", "anyone"])
def test_spectators_per_setting(store, setting: str) -> None:  # type: ignore[no-untyped-def]
    t = new(store, spectators=setting)
    new(store, "carol,erin")  # carol plays with someone here; dave at no table
    assert store.check_watch(t.id, "bob").id == t.id  # a player always
    allowed = {"none": set(), "players": {"carol"}, "anyone": {"carol", "dave"}}[setting]
    for user in ("carol", "dave"):
        if user in allowed:
            assert store.check_watch(t.id, user).id == t.id
            assert any(i.id == t.id for _, i in listed(store.tables(), user))
        else:
            with pytest.raises(
                Refused, match=f"table {t.id} (has no spectators|may be watched only)"
            ):
                store.check_watch(t.id, user)
            assert all(i.id != t.id for _, i in listed(store.tables(), user))
    with pytest.raises(Exception, match="spectators 'some'"):
        new(store, spectators="some")


# ---- table talk --------------------------------------------------------------------------------
def test_talk_limits_and_who_reads_what(store, backend: Backend) -> None:  # type: ignore[no-untyped-def]
    t = new(store, spectators="anyone")
    now = time.time()
    said = store.say(t.id, "alice", "good luck\x1b[2J\u202e [b]bold[/b]\nnext", now=now)
    assert said.text == "good luck[2J [b]bold[/b] next"  # no control or bidi characters, one line
    with pytest.raises(Refused, match="one message a second"):
        store.say(t.id, "alice", "again", now=now + 0.5)
    store.say(t.id, "alice", "again", now=now + 1.0)
    with pytest.raises(Refused, match=f"at most {TALK_MAX} characters \\(this one has 201\\)"):
        store.say(t.id, "bob", "x" * 201, now=now)
    store.say(t.id, "bob", "y" * TALK_MAX, now=now)
    with pytest.raises(Refused, match="empty"):
        store.say(t.id, "bob", " \x07 ", now=now + 5)
    store.say(t.id, "zoe", "psst, bob has the bank", now=now)  # a spectator
    hidden = new(store, "alice,carol", spectators="none")
    with pytest.raises(Refused, match=f"you \\(zoe\\) are not at table {hidden.id}"):
        store.say(hidden.id, "zoe", "hello", now=now + 10)
    player = [x.text for x in store.talk(t.id, "bob")]
    assert player == [said.text, "again", "y" * TALK_MAX]
    gallery = [(x.user, x.spectator) for x in store.talk(t.id, "zoe")]
    assert gallery[-1] == ("zoe", True) and len(gallery) == 4
    finish(store, t.id)  # after the game the players read the gallery too
    assert [x.user for x in store.talk(t.id, "bob")][-1] == "zoe"
    # a row written behind the app's back is read as data too: no control characters
    backend.sql(
        'INSERT INTO bg_talk (table_id, n, "user", spectator, at, moves, body) '
        "VALUES (?, 99, 'bob', 0, 'x', 0, ?)",
        (t.id, "\x1b]0;pwned\x07ok"),
    )
    assert store.talk(t.id, "alice")[-1].text == "]0;pwnedok"
    # never part of the game: the moves (and so a save) are the same as before
    assert all("good luck" not in m for m in store.move_ids(t.id))


def test_clean_talk() -> None:
    assert clean_talk("a\tb\r\nc\u2028d\u200b e\x00") == "a b c d e"


# ---- limits -----------------------------------------------------------------------------------
def test_at_most_max_open_tables_per_user(store, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        new(store, "alice,open", max_open=3)
    with pytest.raises(Refused, match="alice sits at 3 unfinished tables already \\(at most 3\\)"):
        new(store, "alice,open", max_open=3)
    spare = new(store, "carol,open")
    assert store.join(spare.id, "alice", max_open=4) == 1
    with pytest.raises(Refused, match="at most 4"):
        store.join(new(store, "carol,open").id, "alice", max_open=4)
    assert store.open_tables("alice") == 4
    new(store, "alice,open", max_open=0)  # 0: no limit
    monkeypatch.setenv("BOARDGAMES_MAX_OPEN", "5")  # a room's `serve --max-open 5`
    with pytest.raises(Refused, match="at most 5"):
        new(store, "alice,open")


def test_a_table_with_no_move_for_30_days_is_abandoned(store, backend: Backend) -> None:  # type: ignore[no-untyped-def]
    old = new(store)
    fresh = new(store)
    moved = new(store)
    store.add_target("bob", "json://127.0.0.1:9/")
    long_ago = (datetime.now(UTC) - timedelta(days=31)).replace(microsecond=0).isoformat()
    backend.sql("UPDATE bg_tables SET updated = ? WHERE id IN (?, ?)", (long_ago, old.id, moved.id))
    _, match = store.load(moved.id)
    store.append(moved.id, "alice", match.prompt.moves[0].id, 0)  # someone moved: it goes on
    assert store.end_abandoned() == [old.id]
    assert store.end_abandoned() == []  # once
    gone = store.info(old.id)
    assert gone.status == "abandoned" and gone.finished and gone.to_move is None
    assert store.info(fresh.id).status == store.info(moved.id).status == "playing"
    _, m = store.load(old.id)
    with pytest.raises(Refused, match="was abandoned"):
        store.append(old.id, "alice", m.prompt.moves[0].id, 0)
    told = store.claim_notices()
    assert [(n.table_id, n.user) for n in told if n.n < 0] == [(old.id, "bob")]
    assert "abandoned" in told[0].title or any("abandoned" in n.title for n in told)
    r, made = store.rematch(old.id, "alice", 8)  # an abandoned table can be played again
    assert made and r.game == old.game


# ---- the command line -------------------------------------------------------------------------
def test_command_line(backend: Backend, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["--store", backend.location, "table"]

    def run(user: str, *argv: str) -> tuple[int, str, str]:
        code = main(["--user", user, *base, *argv])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, _ = run(
        "alice", "new", "cathedral", "--seats", "me,open", "--private", "--spectators", "players"
    )
    assert code == 0 and "table invite" in out
    tid = out.splitlines()[-1]
    assert json.loads(run("bob", "list", "--json")[1]) == []
    code, out, _ = run("alice", "invite", tid)
    invite = out.splitlines()[-1]
    assert code == 0 and f"table join {invite}" in out
    code, out, _ = run("bob", "join", invite)
    assert code == 0 and f"bob sits at seat 2 of table {tid}" in out
    code, _, err = run("carol", "join", invite)
    assert (
        code == 1
        and err.strip()
        == f"boardgames-tui: invite code {invite} was used already (by bob): ask for a new one"
    )
    code, _, err = run("carol", "show", tid, "--json")
    assert code == 1 and f"table {tid} is private: only its players see it" in err
    code, _, err = run("alice", "rematch", tid)
    assert (
        code == 1
        and err.strip()
        == f"boardgames-tui: table {tid} is not over yet: a rematch follows a finished game"
    )
    code, out, _ = run("alice", "say", tid, "hi", "<script>")
    assert code == 0 and "hi <script>" in out
    code, _, err = run("alice", "say", tid, "again")
    assert code == 1 and "one message a second" in err
    code, _, err = run("bob", "say", tid, "z" * 201)
    assert code == 1 and "at most 200 characters" in err and err.count("\n") == 1
    code, _, err = run("dave", "say", tid, "hello")
    assert code == 1 and "you (dave) are not at table" in err
    doc = json.loads(run("bob", "show", tid, "--json")[1])
    assert (
        doc["talk"][0]["text"] == "hi <script>"
        and doc["private"]
        and doc["spectators"] == "players"
    )
    assert "💬 alice: hi <script>" in run("bob", "show", tid)[1]
    while not doc["finished"]:
        who = doc["to_move"]
        doc = json.loads(run(who, "show", tid, "--json")[1])
        run(who, "play", tid, doc["legal"][0])
        doc = json.loads(run("alice", "show", tid, "--json")[1])
    code, _, err = run("alice", "rematch", tid, "--seed", "7")  # bob would know every hand
    assert code == 1 and "only at a table of one person against computers" in err
    code, out, _ = run("alice", "rematch", tid)
    rid = out.splitlines()[-1]
    assert code == 0 and "offered to bob" in out and f"table join {rid}" in out
    listed_bob = json.loads(run("bob", "list", "--json")[1])
    assert [(r["id"], r["group"]) for r in listed_bob if r["group"] == "offered"] == [
        (rid, "offered")
    ]
    assert json.loads(run("bob", "show", tid, "--json")[1])["rematch"] == rid
    code, out, _ = run("alice", "rematch", tid)
    assert code == 0 and out.splitlines()[-1] == rid and "has a rematch already" in out
    code, _, err = run("alice", "new", "nd", "--seats", "me,open", "--max-open", "1")
    assert code == 1 and "at most 1" in err
    assert get_game("cathedral").id == doc["game"]
