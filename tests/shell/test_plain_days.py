"""The line mode over days (issue 43): Done is 0 as on the screen, a closed input ends the
line mode at once with one line saying so, and a line that arrives while it waits for input
goes above the prompt."""

from __future__ import annotations

import random
import re
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import HUMAN, Match, Seat, all_games, get_game, saves
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.engine.tables import SQLiteStore, offered_seats, parse_seats
from boardgames_tui.engine.tables.clock import ClockRules
from boardgames_tui.engine.tables.computer import settle
from boardgames_tui.engine.tables.sqlstore import SQLStore
from boardgames_tui.plain import join_table, play_match
from boardgames_tui.plain.lines import ENDED, TIMEOUT, Output
from boardgames_tui.plain.menu import menu
from boardgames_tui.session.keys import DONE_IDS, DONE_KEY, option_numbers
from tests.shell.ptydriver import PtyApp, base_env

TITLES = ["rattus-cartus", "1347", "cathedral-of-orleans", "notre-dame"]


def until(game_id: str, found: Callable[[Prompt], bool], seed: int = 1) -> Match:
    """A seeded random game (one person, the rest random) stopped where `found` holds."""
    game = get_game(game_id)
    seats = [Seat(f"P{i}", HUMAN if i == 0 else "random") for i in range(game.max_players)]
    m = Match.new(game_id, seats, seed=seed)
    rng = random.Random(seed)
    while m.prompt is not None and m.cursor < 3000:
        if m.prompt.seat == 0 and found(m.prompt):
            m.truncate()
            return m
        m.play(rng.choice(m.prompt.moves).id)
    raise AssertionError(f"no such prompt in {game_id}")


def with_done(prompt: Prompt) -> bool:
    return len(prompt.moves) >= 3 and sum(m.id in DONE_IDS for m in prompt.moves) == 1


class Lines:
    """A scripted input that ends after its lines; read once more after its end, the test
    fails (a line mode that reads on past the end would spin on a closed input)."""

    def __init__(self, lines: list[str], on_read: Callable[[], None] | None = None) -> None:
        self.lines = list(lines)
        self.ended = False
        self.on_read = on_read

    def __call__(self, timeout: float | None = None) -> str | None:
        assert not self.ended, "read again after the input ended"
        if self.on_read is not None:
            self.on_read()
        if not self.lines:
            self.ended = True
            return None
        return self.lines.pop(0)


# ---- Done is 0, as on the screen ---------------------------------------------------------
@pytest.mark.parametrize("game_id", TITLES)
def test_the_line_mode_numbers_done_0_as_the_screen_does(game_id: str, tmp_path: Path) -> None:
    """The screen's picker keys Done (Pass, Decline) 0; the line mode numbered it like any other
    option: the last of 1 … N."""
    m = until(game_id, with_done)
    prompt = m.prompt
    assert prompt is not None
    done = next(x for x in prompt.moves if x.id in DONE_IDS)
    others = [x for x in prompt.moves if x.id != done.id]
    out = Output()
    at = m.cursor
    play_match(m, read=Lines(["99", DONE_KEY, "quit"]), say=out, saves_dir=str(tmp_path))
    asked = out.lines.index(next(x for x in out.lines if x.startswith("P0 to decide: ")))
    listed = out.lines[asked + 1 : asked + 1 + len(prompt.moves)]
    heads = [x.split(" ", 1)[0] for x in listed]
    assert heads == [*[str(i) for i in range(1, len(others) + 1)], DONE_KEY], listed
    assert listed[-1].startswith(f"0 {done.label}")
    assert f"No option 99: choose 1 to {len(others)} or 0." in out.lines
    assert m.steps[at].move_id.endswith(done.id)  # 0 played Done


def test_a_number_plays_the_option_listed_with_it(tmp_path: Path) -> None:
    """Below Done the numbers are as before: 1 is the first option, N the Nth; a prompt
    without Done has no 0."""
    m = until("rattus-cartus", with_done)
    prompt = m.prompt
    assert prompt is not None
    last = str(len(prompt.moves) - 1)
    chosen = prompt.moves[len(prompt.moves) - 2]  # the last one before Done
    at = m.cursor
    out = Output()
    play_match(m, read=Lines([last, "quit"]), say=out, saves_dir=str(tmp_path))
    assert m.steps[at].move_id.endswith(chosen.id)
    plain = until("notre-dame", lambda p: not any(x.id in DONE_IDS for x in p.moves))
    assert plain.prompt is not None
    assert DONE_KEY not in option_numbers(plain.prompt.moves)
    out = Output()
    play_match(plain, read=Lines(["0", "quit"]), say=out, saves_dir=str(tmp_path))
    assert f"No option 0: choose 1 to {len(plain.prompt.moves)}." in out.lines


# ---- a closed input ends the line mode, once ---------------------------------------------
def menu_args(tmp_path: Path) -> Namespace:
    return Namespace(
        saves=str(tmp_path), think=None, store=str(tmp_path / "t.sqlite"), user="alice"
    )


def pick(title: str) -> str:
    return str([g.id for g in all_games()].index(title) + 1)


ENDS_IN_THE_MENU = {
    "the menu": [],
    "a game from the menu": ["1", pick("notre-dame"), "Ann,Bob", "2=random", "1"],
    "a new game's questions": ["1", pick("notre-dame")],
    "new shared table": ["4", "1", pick("notre-dame")],
    "at a shared table": ["4", "1", pick("notre-dame"), "me,bob", ""],
    "the away menu": ["5", "1"],
    "the rules": ["6"],
}


@pytest.mark.parametrize("where", list(ENDS_IN_THE_MENU))
def test_a_closed_input_ends_the_menu_with_one_line(where: str, tmp_path: Path) -> None:
    """The menu and what it opens read on after the end of the input (the game ended, and the
    menu asked again; a table ended, and the shared tables asked again), saying nothing of
    the end: one line says it, and nothing is read after it."""
    out = Output()
    read = Lines(ENDS_IN_THE_MENU[where])
    assert menu(menu_args(tmp_path), read, out) == 0
    assert read.ended
    assert out.lines.count(ENDED) == 1, out.lines[-6:]
    after = out.lines[out.lines.index(ENDED) + 1 :]
    assert all(x.startswith(("Saved to ", "Left table ")) for x in after), after
    assert "Back at the menu." not in out.lines[-4:]


def hotseat(tmp_path: Path) -> Match:
    return Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=2)


ENDS_IN_A_GAME = {
    "at a decision": [],
    "at the hand-over": ["", "1", "1"],
    "in the review": ["", "1", "review"],
    "at the undo question": ["", "1", "undo"],
    "at the end of the game": None,
}


@pytest.mark.parametrize("where", list(ENDS_IN_A_GAME))
def test_a_closed_input_ends_a_game_with_one_line(where: str, tmp_path: Path) -> None:
    lines = ENDS_IN_A_GAME[where]
    m = hotseat(tmp_path)
    if lines is None:  # a game over: the input ends at its last words
        rng = random.Random(1)
        while m.prompt is not None:
            m.play(rng.choice(m.prompt.moves).id)
        lines = []
    out = Output()
    read = Lines(lines)
    assert play_match(m, read=read, say=out, saves_dir=str(tmp_path)) == 0
    assert read.ended and out.lines.count(ENDED) == 1
    said = out.lines[out.lines.index(ENDED) + 1 :]
    assert said in ([], [f"Saved to {saves.autosave_path(m, tmp_path)}."]), said


def test_a_closed_input_ends_a_table_while_another_player_moves(tmp_path: Path) -> None:
    """At a table, bob to move: alice's terminal waits, listening; its input ends."""
    store = SQLiteStore(tmp_path / "t.sqlite")
    info = store.create("notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob", {})
    out = Output()
    waited: list[str] = []

    def read(timeout: float | None = None) -> str | None:
        assert not waited or waited[-1] != "end", "read again after the input ended"
        waited.append("end" if len(waited) == 3 else "wait")
        return None if waited[-1] == "end" else TIMEOUT

    assert join_table(store, info.id, "alice", read=read, say=out) == 0
    assert out.lines[-2:] == [ENDED, f"Left table {info.id}; it stays in the store."]
    store.close()


def test_the_real_program_on_a_closed_pipe_says_so_once(tmp_path: Path) -> None:
    """`--plain` with nothing on stdin: the menu ends at once, saying why."""
    from tests.shell.test_plain import run_cli

    done = run_cli(["--plain"], "", tmp_path, env={"BOARDGAMES_PLAIN": "1"})
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.splitlines()[-1] == ENDED


# ---- a line that comes while the prompt waits goes above it --------------------------------
def screen_rows(data: bytes) -> list[str]:
    """The rows a terminal shows for `data`, as far as a line mode writes: text, carriage
    return, newline, backspace and erase-to-the-end; any other escape sequence is skipped."""
    rows: list[list[str]] = [[]]
    col = 0
    text = data.decode("utf-8", "replace")
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            seq = re.match(r"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b.", text[i:])
            if seq is not None and seq.group() == "\x1b[K":
                del rows[-1][col:]
            i += len(seq.group()) if seq is not None else 1
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            rows.append([])
            col = 0
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch.isprintable():
            row = rows[-1]
            row.extend(" " * (col - len(row)))
            row[col : col + 1] = [ch]
            col += 1
        i += 1
    return ["".join(r).rstrip() for r in rows]


def test_a_line_that_comes_while_the_prompt_waits_goes_above_it(tmp_path: Path) -> None:
    """The real program in a pty at a table, bob to move: alice has typed half a line at the
    prompt when bob's words arrive. They were printed after the prompt, on the line she types
    on; now above it, with the prompt and her half line again, and her line is kept whole."""
    path = tmp_path / "t.sqlite"
    store = SQLiteStore(path)
    info = store.create("notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob", {})
    args = ["--plain", "--store", str(path), "--user", "alice", "table", "join", info.id]
    app = PtyApp(args, base_env(tmp_path, TERM="xterm"), size=(80, 24))
    try:
        app.read_until("Waiting for bob to move.")
        app.read_until("> ", quiet=0.3)
        app.send(b"say hel", quiet=0.3)
        app.send(b"\x1b[D", quiet=0.3)  # the cursor one left: on the "l"
        store.say(info.id, "bob", "hi alice")
        app.read_until("» bob: hi alice", quiet=0.3)
        rows = screen_rows(bytes(app.output))
        talk = max(i for i, row in enumerate(rows) if "» bob: hi alice" in row)
        assert rows[talk] == "» bob: hi alice", rows[talk - 2 : talk + 2]
        assert rows[talk + 1 :] == ["> say hel"], rows[talk - 2 :]
        app.send(b"p\r", quiet=0.3)  # typed where the cursor was: "say hepl"
        app.read_until("» you: hepl")
        assert [(t.user, t.text) for t in store.talk(info.id, "bob")][-1] == ("alice", "hepl")
        app.send(b"quit\r", quiet=0.3)
        app.read_until(f"Left table {info.id}")
    finally:
        app.close()
        store.close()


# ---- a seat the computer plays is taken back in the line mode too --------------------------
def test_the_line_mode_takes_a_seat_back_from_the_computer(tmp_path: Path) -> None:
    """After three timeouts (or away) the computer plays the seat "until they take it back
    (t, or table reclaim ID)": the app had `t`, the line mode nothing, so a player there could
    not play again without another program. Now it says so while waiting, and `reclaim` does."""
    store = SQLiteStore(tmp_path / "t.sqlite")
    info = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice", {})
    store.set_away("bob", None)  # the computer plays bob's seat
    out = Output()
    read = Lines(["help", "reclaim", "reclaim", "quit"])
    assert join_table(store, info.id, "bob", read=read, say=out) == 0
    assert "The computer plays your seat: type reclaim to take it back." in out.lines
    assert any(x.startswith("reclaim: at a shared table: take your seat back") for x in out.lines)
    assert "You play seat 2 again." in out.lines
    assert any(x.startswith("Not taken back: ") for x in out.lines)  # the second time
    assert store.away("bob") is None
    store.close()


def test_a_seat_offered_at_a_new_table_is_not_called_a_rematch(tmp_path: Path) -> None:
    """alice made a table for alice and bob: bob's line-mode list said "(rematch offered to
    you)", where the app says "Seats offered to you: Enter accepts"."""
    from boardgames_tui.plain.menu import table_rows

    store = SQLiteStore(tmp_path / "t.sqlite")
    info = store.create("notre-dame", offered_seats("alice,bob", "alice"), {}, 3, "alice", {})
    [(tid, row)] = table_rows(store, "bob")
    assert tid == info.id and row.endswith("(a seat offered to you: pick it to sit down)"), row
    assert "rematch" not in row
    store.close()


def test_a_new_table_in_the_line_mode_offers_the_others_their_seats(tmp_path: Path) -> None:
    """The app and `table new` offer bob his seat (he says yes by joining); the line mode's
    New shared table sat him down, given turns he had not chosen."""
    out = Output()
    read = Lines(["4", "1", pick("notre-dame"), "me,bob", "", "quit", "7"])
    assert menu(menu_args(tmp_path), read, out) == 0
    store = SQLiteStore(tmp_path / "t.sqlite")
    [info] = store.tables()
    assert info.seats[1].user is None and info.seats[1].offered == "bob"
    assert info.status == "waiting"
    store.close()


def test_the_line_mode_proposes_and_agrees_to_a_table_change(tmp_path: Path) -> None:
    """The app's Tables screen proposes (p), agrees (a) and turns down (d) a change of the
    turn limit or a pause; the line mode could do none of it."""
    store = SQLiteStore(tmp_path / "t.sqlite")
    info = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice", {})
    out = Output()
    lines = ["propose", "propose limit 1m", "propose pause", "quit"]
    assert join_table(store, info.id, "alice", read=Lines(lines), say=out) == 0
    assert "propose what? limit 24h, limit none, pause, resume, or seat N USER." in out.lines
    assert any(x.startswith("Proposed: ") and "(waiting for bob)" in x for x in out.lines)
    assert any(x.startswith("Not proposed: ") for x in out.lines)  # one open at a time
    bob = Output()
    assert join_table(store, info.id, "bob", read=Lines(["agree", "quit"]), say=bob) == 0
    assert any(x.startswith("Done: ") for x in bob.lines), bob.lines[-5:]
    assert store.load(info.id)[0].rules.turn_limit == 60
    assert join_table(store, info.id, "bob", read=Lines(["propose pause", "quit"]), say=bob) == 0
    alice = Output()
    assert join_table(store, info.id, "alice", read=Lines(["agree no", "quit"]), say=alice) == 0
    assert any(x.startswith("Turned down: ") for x in alice.lines), alice.lines[-5:]
    assert store.proposal(info.id) is None
    store.close()


def test_the_line_mode_leaves_and_cancels_a_table_after_a_yes(tmp_path: Path) -> None:
    """The app's Tables screen leaves a table (L) and cancels one not begun (x), each after
    a yes; the line mode could do neither."""
    store = SQLiteStore(tmp_path / "t.sqlite")
    waiting = store.create("notre-dame", offered_seats("alice,bob", "alice"), {}, 3, "alice", {})
    out = Output()
    lines = ["cancel", "no", "cancel", "yes"]
    assert join_table(store, waiting.id, "alice", read=Lines(lines), say=out) == 0
    assert "Not cancelled." in out.lines
    assert (
        out.lines[-1] == f"Table {waiting.id} is cancelled: it is gone, and its players are told."
    )
    assert [i.id for i in store.tables()] == []
    playing = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice", {})
    out = Output()
    read = Lines(["leave", "yes", "quit"])
    assert join_table(store, playing.id, "bob", read=read, say=out) == 0
    assert any(x.startswith(f"Leave table {playing.id} for good?") for x in out.lines)
    left = f"You left table {playing.id}: the computer plays your seat (reclaim takes it back)."
    assert left in out.lines
    assert store.load(playing.id)[0].seats[1].pilot is not None
    store.close()


def test_the_line_mode_says_game_over_once(tmp_path: Path) -> None:
    """Notre Dame's log ends with "Game over. …": the end summary does not say it again."""
    whole = hotseat(tmp_path)
    rng = random.Random(1)
    while whole.prompt is not None:
        whole.play(rng.choice(whole.prompt.moves).id)
    m = hotseat(tmp_path)
    for step in whole.steps[:-1]:
        m.play(step.move_id)
    assert m.prompt is not None
    last = next(i for i, x in enumerate(m.prompt.moves) if whole.steps[-1].move_id.endswith(x.id))
    out = Output()
    number = option_numbers(m.prompt.moves)[last]
    play_match(m, read=Lines(["", number, "quit"]), say=out, saves_dir=str(tmp_path))
    assert m.prompt is None
    over = [line for line in out.lines if line.startswith("Game over.")]
    assert over == [f"Game over. {m.game.result(m.state).summary}"], out.lines[-30:]


def test_the_table_says_how_to_take_a_seat_back_in_each_front_ends_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table's line for three timeouts named the app's key and a command ("t, or table
    reclaim ID") to everyone: it now says what happened, and each front end says its own
    way (the line mode its `reclaim`, the app its `t`, `table show` its command)."""
    store = SQLiteStore(tmp_path / "t.sqlite")
    seats = parse_seats("alice,bob", "alice")
    tid = store.create("notre-dame", seats, {}, 3, "alice", rules=ClockRules(60.0)).id
    try:
        for strikes in (1, 2, 3):
            if strikes > 1:  # bob plays his turn
                info, match = store.load(tid)
                while info.to_move == "bob" and match.prompt is not None:
                    store.append(tid, "bob", match.prompt.moves[0].id, info.moves)
                    info, match = store.load(tid)
            SQLStore.clock_skew += 61
            assert settle(store) >= 1
        assert store.info(tid).seats[0].pilot is not None
        out = Output()
        assert join_table(store, tid, "alice", read=Lines(["quit"]), say=out) == 0
        assert "The computer plays your seat: type reclaim to take it back." in out.lines
        where = str(tmp_path / "t.sqlite")
        assert main(["--user", "alice", "--store", where, "table", "show", tid]) == 0
    finally:
        SQLStore.clock_skew = 0.0
    shown = capsys.readouterr().out.splitlines()
    missed = [x for x in shown if "missed 3 turns in a row" in x]
    assert missed and not any("(t," in x or "table reclaim" in x for x in missed), missed
    store.close()


def test_a_seat_offered_at_a_new_table_is_held_not_open_in_the_list(tmp_path: Path) -> None:
    """alice's new table waits for bob, to whom its seat 2 is offered: the list called that
    seat open (anyone's); it says whose it is."""
    from boardgames_tui.plain.menu import table_rows

    store = SQLiteStore(tmp_path / "t.sqlite")
    store.create("notre-dame", offered_seats("alice,bob", "alice"), {}, 3, "alice", {})
    store.create("notre-dame", offered_seats("alice,open,bob", "alice"), {}, 3, "alice", {})
    rows = sorted(row for _, row in table_rows(store, "alice"))
    assert len(rows) == 2 and not any("2 open" in r for r in rows), rows
    assert any("seat 2 held for bob" in r and "open seat" not in r for r in rows), rows
    assert any("1 open seat(s), seat 3 held for bob" in r for r in rows), rows
    store.close()
