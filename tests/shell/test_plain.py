"""Play by lines (issue 35): whole games through a scripted input, every command, the
hand-over, tables, and the real pipe with no Textual loaded."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.core import HUMAN, Match, Seat, get_game, registry, saves
from boardgames_tui.plain import play_match
from boardgames_tui.plain.boards import TEXT_BOARDS, GenericBoard, Sections, board_for, listed
from boardgames_tui.plain.lines import Output, clean
from boardgames_tui.plain.session import COMMANDS, PlainSession
from boardgames_tui.session.keys import option_numbers
from tests.conftest import TITLES  # every installed title, the example plug-in included
from tests.root import ROOT

CASES = [(g, n) for g in TITLES for n in sorted({get_game(g).min_players, get_game(g).max_players})]
DECIDE = re.compile(r"^(.+) to decide: (.+)$")
BAD = re.compile(r"[\x00-\x1f\x7f-\x9f\u2500-\u25ff]")  # controls, escapes, box and block


class Script:
    """A scripted stdin: `first` lines, then the first option's number while a person decides,
    then `tail`; it remembers where the output stood at each line read (to cut the answers
    apart). A session that asks again and again at the same move fails (no test spins)."""

    ASKED_AGAIN = 50  # lines read at one move, more than any script here types

    def __init__(self, match: Match, out: Output, first: list[str], tail: list[str]) -> None:
        self.match, self.out = match, out
        self.first, self.tail = list(first), list(tail)
        self.marks: list[tuple[str, int]] = []
        self.at: tuple[int, int] = (-1, 0)  # the move, and how many lines were read at it

    def __call__(self, timeout: float | None = None) -> str | None:
        cursor, times = self.at
        self.at = (self.match.cursor, times + 1 if cursor == self.match.cursor else 1)
        assert self.at[1] <= self.ASKED_AGAIN, f"{self.at[1]} lines read at one move: a loop"
        prompt = self.match.prompt
        if self.first:
            line = self.first.pop(0)
        elif prompt is not None:
            line = option_numbers(prompt.moves)[0]  # "0" when Done is the only option
        elif self.tail:
            line = self.tail.pop(0)
        else:
            return None
        self.marks.append((line, len(self.out.lines)))
        return line

    def answers(self) -> dict[str, list[str]]:
        """Each command's answer: the lines between it and the next line read."""
        got: dict[str, list[str]] = {}
        ends = [at for _, at in self.marks[1:]] + [len(self.out.lines)]
        for (line, at), end in zip(self.marks, ends, strict=True):
            got.setdefault(line, self.out.lines[at:end])
        return got


def seats(game_id: str, n: int, people: tuple[int, ...] = (0,)) -> list[Seat]:
    return [Seat(f"P{i + 1}", HUMAN if i in people else "random") for i in range(n)]


def check_decisions(lines: list[str], count: int) -> int:
    """Every decision is followed by its options numbered 1, 2, … ; how many there were."""
    asked = 0
    for i, line in enumerate(lines):
        if DECIDE.match(line):
            asked += 1
            numbers = []
            for nxt in lines[i + 1 :]:
                head = nxt.split(" ", 1)[0]
                if not head.isdigit():
                    break
                numbers.append(int(head))
            # Done (or Pass, Decline) is 0, as on the screen, and the last option listed
            counted = numbers[:-1] if numbers[-1:] == [0] else numbers
            assert numbers and counted == list(range(1, len(counted) + 1)), lines[i : i + 4]
    assert asked >= count
    return asked


@pytest.mark.parametrize("game_id, players", CASES)
def test_a_whole_game_in_lines(game_id: str, players: int, tmp_path: Path) -> None:
    m = Match.new(game_id, seats(game_id, players), seed=players)
    out = Output()
    script = Script(m, out, [], ["scores", "quit"])
    assert play_match(m, read=script, say=out, saves_dir=str(tmp_path)) == 0
    assert m.over
    lines = out.lines
    for line in lines:
        assert not BAD.search(line), repr(line)
        assert line == clean(line)
    decisions = sum(1 for s in m.steps if not m.seats[s.seat].is_bot)
    assert check_decisions(lines, decisions) == decisions  # asked once each, no more
    assert not any("::" in line for line in lines)  # a preview's arrow is not a second colon
    # the game's own headings (a title with a text board of its own), and the final scores:
    # one line per seat, ranked
    if not isinstance(board_for(game_id), GenericBoard):
        assert any(line.startswith("== ") and line.endswith(" ==") for line in lines)
    res = m.game.result(m.state)
    end = len(lines) - 1 - lines[::-1].index(f"Game over. {res.summary}")
    for k in range(len(m.seats)):
        assert any(re.match(r"^\d+\. P\d: ", x) for x in lines[end + 1 + k : end + 2 + k])
    names = {x.split(": ")[0].split(". ")[1] for x in lines[end + 1 : end + 1 + len(m.seats)]}
    assert names == set(m.names)
    # then each seat's score over the game, in numbers (the screens draw it as a chart)
    after = lines[end + 1 + len(m.seats) :]
    if not m.game.cooperative:
        assert after[0].startswith("Score over the game, after moves 0, ")
        assert {x.split(": ")[0].strip() for x in after[1 : 1 + len(m.seats)]} == set(m.names)
    assert script.answers()["scores"][0] == res.summary
    # autosaved like the screen does: the same game loads in either mode
    again = saves.load(saves.autosave_path(m, tmp_path))
    assert again.move_ids() == m.move_ids() and again.over


def mid_game(game_id: str, moves: int = 25) -> Match:
    """A random game at the person's (P1's) first decision from move `moves` on; a game over
    sooner is taken back to P1's last decision after move 2 (another seed if there is none)."""
    for seed in range(4, 40):
        m = Match.new(game_id, seats(game_id, get_game(game_id).max_players), seed=seed)
        rng = random.Random(seed)
        while m.prompt is not None and (m.cursor < moves or m.seats[m.prompt.seat].is_bot):
            m.play(rng.choice(m.prompt.moves).id)
        while m.cursor > 2 and (m.prompt is None or m.seats[m.prompt.seat].is_bot):
            m.undo()
        if m.prompt is not None and not m.seats[m.prompt.seat].is_bot and m.cursor > 1:
            m.truncate()
            return m
    raise AssertionError(f"{game_id}: no game with a decision of P1 after move 2")


@pytest.mark.parametrize("game_id", TITLES)
def test_every_command_answers(game_id: str, tmp_path: Path) -> None:
    check_every_command(game_id, tmp_path)


def test_every_command_answers_in_a_short_game(short_title: str, tmp_path: Path) -> None:
    """A game over before move 25 (it crashed: no prompt to read at the end)."""
    check_every_command(short_title, tmp_path)


def check_every_command(game_id: str, tmp_path: Path) -> None:
    """Every command of the line mode answers at a person's decision in mid-game."""
    m = mid_game(game_id)
    out = Output()
    first_section = PlainSession(m, lambda t: None, out).sections(m.game.view(m.state, 0))
    sections = [name for name, _ in first_section]
    asked = [
        "board",
        f"board {sections[-1]}",
        "board nowhere",
        "hand",
        "scores",
        "status",
        "log",
        "log 3",
        "rules",
        "rules setup",
        "review",
        "prev",
        "next",
        "board",
        "nonsense",
        "done",
        "bord",
        "undo",
        "redo",
        "help",
        "save mine",
    ]
    script = Script(m, out, [*asked, "quit"], [])
    play_match(m, read=script, say=out, saves_dir=str(tmp_path))
    got = script.answers()
    for command in asked:
        assert got[command], f"{game_id}: {command!r} says nothing"
    assert got["board"][0] == f"Board: {listed(sections)}."
    assert got[f"board {sections[-1]}"][0] == f"{sections[-1].capitalize()}:"
    assert len(got["board nowhere"]) == 1 and "the board has" in got["board nowhere"][0]
    for part in ("persons", "buildings", "map", "areas"):
        if part in sections:
            assert got["board"][1] == f"{part.capitalize()}:"
    hand = got["hand"][0]
    assert hand.startswith("Your" if m.game.has_private_info else "No hand"), hand
    assert got["status"][0].startswith("P1 to move")
    logged = len(PlainSession(m, lambda t: None, Output()).log_lines())
    assert got["log"][0] == f"Log, the last {min(10, logged)} of {logged} lines:"
    assert len(got["log 3"]) == 4 and got["log 3"][-1].startswith(f"Move {m.cursor}: ")
    assert got["rules"][1].startswith("Topics: ")
    assert got["rules setup"][0] == "Rules, Setup:" and len(got["rules setup"]) > 2
    assert got["review"][1].startswith(f"Move {m.cursor} of {m.cursor}: ")
    assert got["prev"][0].startswith(f"Move {m.cursor - 1} of ")
    assert got["next"][0].startswith(f"Move {m.cursor} of ")
    assert len(got["nonsense"]) == 1 and got["nonsense"][0].startswith("No review command")
    assert got["done"][0] == f"Back to the game at move {m.cursor + 1}."
    # a bad command: one line naming the nearest ones
    assert got["bord"] == [got["bord"][0]] and "nearest board" in got["bord"][0]
    assert got["undo"][0].startswith("Undone") or got["undo"][0].startswith("Undo? ")
    assert [line.split(":")[0] for line in got["help"][1:]] == list(COMMANDS)
    assert got["save mine"] == [f"Saved to {tmp_path / 'mine.toml'}."]
    assert saves.load(tmp_path / "mine.toml").game.id == game_id


def test_undo_asks_first_across_a_reveal_and_a_bad_option_is_one_line(tmp_path: Path) -> None:
    m = Match.new("cathedral-of-orleans", seats("cathedral-of-orleans", 2), seed=1)
    out = Output()  # the first move draws from a bag
    script = Script(m, out, ["1", "99", "undo", "no", "undo", "yes", "quit"], [])
    play_match(m, read=script, say=out, saves_dir=str(tmp_path))
    got = script.answers()
    assert got["99"][0].startswith("No option 99: choose 1 to") and len(got["99"]) == 1
    assert got["undo"][0].startswith("Undo? It goes back over a reveal")
    assert got["no"] == ["Not undone."]
    assert got["yes"][0] == "Undone 1 move: back at move 1."
    assert m.cursor == 0


def private_texts(m: Match, seat: int) -> set[str]:
    return {
        ev.text
        for step in m.steps
        for ev in step.events
        if ev.seat == seat and ev.text != ev.public and len(ev.text) > 8
    }


@pytest.mark.parametrize("game_id", ["notre-dame", "1347"])
def test_hotseat_says_nothing_private_before_the_hand_over(game_id: str, tmp_path: Path) -> None:
    """People share the keyboard: "Pass to X" comes before anything only X may read, and
    the lines said while another person holds the keyboard never hold X's private texts."""
    m = Match.new(game_id, seats(game_id, 3, people=(0, 1)), seed=5)
    out = Output()
    reads: list[int] = []

    def read(timeout: float | None = None) -> str | None:
        reads.append(len(out.lines))
        return "1" if len(reads) < 240 else None

    play_match(m, read=read, say=out, saves_dir=str(tmp_path))
    holder, blocks = None, []
    for line in out.lines:
        if (found := re.match(r"^Pass to (P\d) and press Enter\.$", line)) is not None:
            holder = m.names.index(found[1])
            continue
        blocks.append((holder, line))
    assert sum(1 for h, _ in blocks if h is None) < 5  # before the first hand-over: the intro
    handovers = sum(1 for line in out.lines if line.startswith("Pass to "))
    assert handovers > 10
    for person in (0, 1):
        secret = private_texts(m, person)
        assert secret, "the game showed this person nothing private"
        for h, line in blocks:
            if h != person:
                assert line not in secret, f"{line!r} said while {h} held the keyboard"


def test_a_table_in_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`table join ID --plain`: the real command line, the table's computers played through
    the lease, the game to its end; the table is the same in both modes."""
    from boardgames_tui.cli.main import main
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats

    store_file = tmp_path / "tables.sqlite"
    store = SQLiteStore(store_file)
    info = store.create("notre-dame", parse_seats("ann,random", "ann"), {}, 3, "ann", {})
    store.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO("board players\n" + "1\n" * 400 + "quit\n"))
    args = ["--store", str(store_file), "--user", "ann", "table", "join", info.id, "--plain"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.startswith(
        f"Table {info.id}: Notre Dame, 2 players: ann (you) and Random bot (computer, random)."
    )
    assert "Players:\nann, bell-ringer:" in text
    assert "Game over." in text and not BAD.search(text.replace("\n", " "))
    assert check_decisions(text.splitlines(), 20)
    store = SQLiteStore(store_file)
    done, match = store.load(info.id)
    store.close()
    assert done.finished and match.over


def run_cli(
    args: list[str], stdin: str, tmp: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    import os

    full_env = {**os.environ, "XDG_DATA_HOME": str(tmp), **(env or {})}
    full_env.pop("BOARDGAMES_PLAIN", None) if env is None else None
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "boardgames_tui", "--saves", str(tmp), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=full_env,
        timeout=60,
    )


def test_through_a_real_pipe_without_textual_and_on_in_the_other_mode(tmp_path: Path) -> None:
    """The real program on a pipe: plain lines, Textual and Rich never imported; its
    autosave continues with BOARDGAMES_PLAIN=1 (and loads for the screen alike)."""
    first = run_cli(
        [
            "new",
            "rattus-cartus",
            "--players",
            "Ann,Bob",
            "--bots",
            "2=random",
            "--seed",
            "2",
            "--plain",
        ],
        "1\n" * 12 + "quit\n",
        tmp_path,
    )
    assert first.returncode == 0, first.stderr[-800:]
    imported = [line.split("|")[-1].strip() for line in first.stderr.splitlines() if "|" in line]
    assert imported and not [x for x in imported if x.split(".")[0] in ("textual", "rich")]
    assert "\x1b" not in first.stdout and "Ann to decide: " in first.stdout
    saved = saves.latest(tmp_path, unfinished=True)
    assert saved is not None
    played = saves.load(saved).cursor
    again = run_cli(["continue"], "quit\n", tmp_path, env={"BOARDGAMES_PLAIN": "1"})
    assert again.returncode == 0, again.stderr[-800:]
    assert f"Continuing at move {played}." in again.stdout
    assert "textual" not in again.stderr


def test_plain_is_wanted_by_flag_or_environment() -> None:
    from boardgames_tui.plain import wanted

    assert wanted(True, {}) and wanted(False, {"BOARDGAMES_PLAIN": "1"})
    assert not wanted(False, {}) and not wanted(False, {"BOARDGAMES_PLAIN": "0"})


def test_clean_lines_carry_no_control_or_drawing_characters() -> None:
    hostile = "Ann\x1b[31m red\x07 ╔═╗ █ rat 0→2 ★"
    assert clean(hostile) == "Ann?[31m red? ??? ? rat 0 to 2 prestige"
    out = Output()
    out("Eve\nPass to Bob and press Enter.")  # a name cannot forge a line of its own
    assert out.lines == ["Eve?Pass to Bob and press Enter."]


def test_the_menu_in_lines(tmp_path: Path) -> None:
    """`boardgames-tui --plain` alone: a new game asked step by step, played, left, then
    continued from the menu; bad answers get one line and the question again."""
    from argparse import Namespace

    from boardgames_tui.engine.core import all_games
    from boardgames_tui.plain.lines import script_reader
    from boardgames_tui.plain.menu import menu

    pick = str([g.id for g in all_games()].index("notre-dame") + 1)
    out = Output()
    answers = ["1", pick, "Ann,Ann", "Ann,Bob", "9=strong", "2=random", "1", "quit"]
    answers += ["2", "status", "quit", "8", "quit"]  # (7: Quit)
    args = Namespace(saves=str(tmp_path), think=None)
    assert menu(args, script_reader(answers), out) == 0
    text = out.lines
    assert "The names must be different." in text
    assert "Seats are numbered 1 to 2 (not '9')." in text
    assert any(line.startswith("A new game of Notre Dame, seed ") for line in text)
    assert "Ann to decide: Draft: keep 1 of your 3 cards, pass the other 2 to Bob" in text
    assert "Continuing at move 2. The last lines of the log:" in text
    assert any(line.startswith("Ann to move, move 3.") for line in text)
    assert "No choice '8': type a number from 1 to 7." in text


def test_review_of_a_save_in_lines(tmp_path: Path) -> None:
    """`review FILE --plain`: a finished example game, move by move, every seat's cards."""
    from boardgames_tui.plain.lines import script_reader

    m = saves.load(next((ROOT / "saves").glob("notre-dame*.toml")))
    out = Output()
    play_match(m, read=script_reader(["next", "hand", "end", "done", "quit"]), say=out, review=True)
    text = out.lines
    assert text[1:3] == [
        f"Review of {m.length} moves: next, prev, start, end, go N, board, hand, done.",
        f"Move 0 of {m.length}: the setup.",
    ]
    assert text[3].startswith(f"Move 1 of {m.length}: ")
    assert any(line.startswith(f"{m.names[0]}: ") for line in text)  # every seat's hand
    assert "Back to the game at its end." in text


def test_a_table_shows_the_others_moves_as_they_come(tmp_path: Path) -> None:
    """Two people at a table: while Bob is to move, Ann's session waits, listening; Bob's
    move (made by another process's store) is said to Ann as Ann may read it."""
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats
    from boardgames_tui.plain import join_table
    from boardgames_tui.plain.lines import TIMEOUT

    path = tmp_path / "tables.sqlite"
    store, other = SQLiteStore(path), SQLiteStore(path)
    info = store.create("1347", parse_seats("ann,bob", "ann"), {}, 3, "ann", {})
    out = Output()
    waits = 0

    def read(timeout: float | None = None) -> str | None:
        nonlocal waits
        t, match = other.load(info.id)
        if match.prompt.seat == 1:
            waits += 1
            if waits == 6:
                return "board areas"  # a command while waiting
            if waits > 12:
                return None
            other.append(info.id, "bob", match.prompt.moves[0].id, t.moves)
            return TIMEOUT
        return "1"

    assert join_table(store, info.id, "ann", read=read, say=out) == 0
    text = out.lines
    assert waits > 12 and "Areas:" in text
    assert text[-1] == f"Left table {info.id}; it stays in the store."
    _, match = other.load(info.id)
    said = [line for line in text if line.startswith("bob ")]
    mine = [line for _, line in match.events(0) if line.startswith("bob ")]
    assert said and said == mine[: len(said)]  # Ann reads Bob's moves publicly
    assert not any("point token" in line for line in said)
    store.close()
    other.close()


def test_a_table_says_a_move_taken_back(tmp_path: Path) -> None:
    """Ann plays while Bob's session waits, then takes her move back at her terminal while
    Bob decides: Bob hears it, as he may read the move."""
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats
    from boardgames_tui.plain import join_table
    from boardgames_tui.plain.lines import TIMEOUT

    path = tmp_path / "tables.sqlite"
    store, other = SQLiteStore(path), SQLiteStore(path)
    info = store.create("notre-dame", parse_seats("ann,bob", "ann"), {}, 3, "ann", {})
    out = Output()
    steps = iter(["play", "undo", "quit"])

    def read(timeout: float | None = None) -> str | None:
        step = next(steps, "quit")
        t, match = other.load(info.id)
        if step == "play":
            other.append(info.id, "ann", match.prompt.moves[0].id, t.moves)
            return TIMEOUT
        if step == "undo":  # while bob decides: his answer comes too late
            other.undo(info.id, "ann", t.moves)
            return "1"
        return None

    assert join_table(store, info.id, "bob", read=read, say=out) == 0
    told = [line for line in out.lines if "took back" in line]
    assert told == ["ann took back “ann keeps a card and passes two to bob”"]
    store.close()
    other.close()


def test_a_hint_in_lines(tmp_path: Path) -> None:
    m = Match.new("notre-dame", seats("notre-dame", 2), seed=1)
    out = Output()
    script = Script(m, out, ["hint", "quit"], [])
    play_match(m, read=script, say=out, saves_dir=str(tmp_path), hint_think=0.05)
    answer = script.answers()["hint"]
    assert answer[0] == "Thinking..."
    assert re.match(r"^Hint \(chance of winning\): \d+ Keep .+ \d+%", answer[1]), answer


def test_a_confined_plain_session_saves_only_inside_its_folder(tmp_path: Path) -> None:
    """In a room (--confine) `save` takes a name in the player's own folder, never a path."""
    folder = tmp_path / "alice"
    outside = tmp_path / "bob" / "game"
    m = Match.new("notre-dame", seats("notre-dame", 2), seed=1)
    out = Output()
    script = Script(m, out, [f"save {outside}", "save ../bob/game", "save mine", "quit"], [])
    play_match(m, read=script, say=out, saves_dir=str(folder), confine=True)
    answers = script.answers()
    assert answers[f"save {outside}"][0].startswith("Not saved: ")
    assert answers["save ../bob/game"][0].startswith("Not saved: ")
    assert answers["save mine"][0].startswith("Saved to ")
    assert not (tmp_path / "bob").exists()
    assert (saves.saves_dir(str(folder)) / "mine.toml").exists()


class ToyText:
    """A plug-in's own text board (the toy ships none: the test gives it one)."""

    def heading(self, view: Mapping[str, Any]) -> str:
        return f"Pile {view['pile']}"

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        return [
            (
                "table",
                [f"{n}: {s} stones" for n, s in zip(view["names"], view["scores"], strict=True)],
            )
        ]

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        return [f"Stones so far: {listed([str(s) for s in view['scores']])}."]


TOY_TEXT = ToyText()


def test_a_plugin_s_text_board_is_found_by_its_entry_point(tmp_path: Path) -> None:
    """Text boards are found like the screen's boards, through an entry point group: a
    plug-in's title reads with the generic board until it names its own, then with that."""
    assert type(board_for("notre-dame")).__name__ == "NotreDameBoard"  # from pyproject.toml
    assert isinstance(board_for("toy"), GenericBoard)
    registry.register("toy", "tests.shell.test_plain:TOY_TEXT", group=TEXT_BOARDS)
    try:
        assert board_for("toy") is TOY_TEXT
        m = Match.new("toy", seats("toy", 2), seed=3)
        out = Output()
        script = Script(m, out, ["board", "status", "scores"], ["quit"])
        assert play_match(m, read=script, say=out, saves_dir=str(tmp_path)) == 0
        got = script.answers()
        assert out.lines.count("== Pile 15 ==") == 1
        assert got["board"] == ["Board: table.", "Table:", "P1: 0 stones", "P2: 0 stones"]
        assert got["status"] == ["P1 to move, move 1. Pile 15."]
        assert got["scores"] == ["Stones so far: 0 and 0."]
    finally:
        registry.unregister("toy", group=TEXT_BOARDS)
    assert isinstance(board_for("toy"), GenericBoard)


def test_the_generic_board_reads_a_hand_of_cards_as_records() -> None:
    """A plug-in without a text board whose view holds its reader's cards as records (name
    and value) under `my_hand`: the board and the `hand` command say them (they said
    nothing: only words and numbers were read)."""
    view = {
        "round": 2,
        "my_hand": [{"name": "Princess", "value": 8}, {"name": "Guard", "value": 1}],
        "discards": [[1, 2], []],
        "deep": {"a": {"b": {"c": 1}}},
    }
    sections = dict(GenericBoard().sections(view, 0))
    cards = "(name Princess, value 8), (name Guard, value 1)"
    assert sections["hand"] == [f"Your hand: {cards}"]
    assert sections["board"] == ["round: 2", f"my hand: {cards}", "discards: (1, 2), ()"]


def test_shared_tables_in_the_line_mode_menu_with_talk_and_the_clock(tmp_path: Path) -> None:
    """The line mode's menu: Shared tables lists alice's table (her turn, its clock); a new
    table asked step by step; at the table `say` talks, bob's words and the table's own line
    (bob left) arrive while she decides, `clock` and `help` answer."""
    from argparse import Namespace

    from boardgames_tui.engine.tables import SQLiteStore, parse_seats
    from boardgames_tui.engine.tables.clock import ClockRules
    from boardgames_tui.plain.lines import TIMEOUT
    from boardgames_tui.plain.menu import menu

    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    t = other.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice", rules=ClockRules(600.0)
    )
    answers = iter(["4", "2", "help", "clock", "say hello bob", "wait", "wait", "quit"])
    answers_after = ["1", "1", "", "10m", "quit", "4", "7"]  # a new table, then back, quit
    out = Output()

    def read(timeout: float | None = None) -> str | None:
        line = next(answers, None)
        if line == "wait":  # bob talks and leaves while she decides
            if not any("» bob" in x for x in out.lines):
                other.say(t.id, "bob", "hi alice")
            else:
                other.leave(t.id, "bob")
            return TIMEOUT
        if line is None:
            return answers_after.pop(0) if answers_after else None
        return line

    args = Namespace(saves=str(tmp_path), think=None, store=str(path), user="alice")
    assert menu(args, read, out) == 0
    text = out.lines
    listed_row = next(x for x in text if x.startswith(f"2 {t.id}, Notre Dame"))
    assert "YOUR TURN, 10:00 left" in listed_row or "YOUR TURN, 9:59 left" in listed_row
    assert any(x.startswith("say: at a shared table") for x in text)  # help tells talk
    assert any(x.startswith("Clock: 9:5") or x == "Clock: 10:00 left." for x in text)
    assert "» you: hello bob" in text and "» bob: hi alice" in text
    assert any(x.startswith("Table: bob left the table") for x in text)
    assert any(
        x.startswith("Table ") and x.endswith("is set: the others find it under Shared tables.")
        for x in text
    )
    assert len(other.tables()) == 2
    other.close()


def test_the_line_mode_says_what_happened_since_you_last_looked(tmp_path: Path) -> None:
    from boardgames_tui.engine.tables import SQLiteStore, parse_seats
    from boardgames_tui.plain import join_table
    from boardgames_tui.plain.lines import script_reader

    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    info = store.create("notre-dame", parse_seats("ann,bob", "ann"), {}, 3, "ann", {})
    assert join_table(store, info.id, "bob", read=script_reader(["quit"]), say=Output()) == 0
    _, match = store.load(info.id)
    store.append(info.id, "ann", match.prompt.moves[0].id, 0)
    out = Output()
    assert join_table(store, info.id, "bob", read=script_reader(["quit"]), say=out) == 0
    assert "Since you last looked: 1 move(s)." in out.lines
    assert "ann keeps a card and passes two to bob" in out.lines
    store.close()
