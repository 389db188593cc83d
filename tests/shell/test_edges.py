"""Rough edges found by playing shared tables over days (issue 43): toasts, labels, keys and
words that were each a little wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast, ToastRack

from boardgames_tui.engine.core import Match, Seat, get_game, saves
from boardgames_tui.engine.core.playout import random_playout
from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.session.keys import DONE_KEY
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.end import result_renderable
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.keys import keys_of
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.screens.tables import ProposeScreen, TablesScreen
from boardgames_tui.tui.widgets.picker import MovePicker
from tests.root import ROOT
from tests.shell.test_done_key import until
from tests.tables.test_notify import Hook


def app_for(match: Match, tmp_path: Path) -> BoardgamesApp:
    """The app opened on `match` without hand-over screens, computers moving at once."""
    match.settings["handover"] = False
    return BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))


# ---- 1. toasts never cover the move list ---------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_toasts_stay_off_the_move_list(tmp_path: Path, size: tuple[int, int]) -> None:
    match = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=3)
    async with app_for(match, tmp_path).run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        for i in range(6):  # more than fit: the oldest go, the newest is seen
            pilot.app.notify(f"note {i}", title="Shared tables" if i % 2 else "")
            await pilot.pause()
        await pilot.pause()
        picker = screen.query_one(MovePicker).region
        toasts = {str(t.render()).splitlines()[-1].strip(): t.region
                  for t in screen.get_child_by_type(ToastRack).query(Toast)}  # fmt: skip
        assert len(toasts) == 6
        for said, region in toasts.items():
            assert not region.overlaps(picker), (said, region, picker)
        assert screen.region.contains_region(toasts["note 5"])


# ---- 2. a rematch's offered seat goes by its player's name ---------------------------------
def test_a_rematch_names_the_seat_offered_to_its_player(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables.sqlite")
    tid = store.create("cathedral", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    while True:
        info, match = store.load(tid)
        if match.prompt is None:
            break
        store.append(tid, info.to_move, match.prompt.moves[0].id, info.moves)
    rematch, _ = store.rematch(tid, "alice", 9)
    assert [s.label for s in rematch.seats] == ["bob?", "alice"]
    assert store.load(rematch.id)[1].names == ["bob", "alice"]  # the board said "Seat 1"
    store.close()


# ---- 3. a tab's label is a word that says what the tab holds ------------------------------
@pytest.mark.parametrize("game_id", ["1347", "notre-dame", "rattus-cartus", "cathedral-of-orleans"])
def test_every_tab_label_is_a_word_of_its_own(game_id: str) -> None:
    """At 80x24 a tab not shown is labelled by its title's first word: never an article
    (the end of Rattus Cartus read "The")."""
    game = get_game(game_id)
    ui = ui_for(game_id)
    for seats in (game.min_players, game.max_players):
        start = game.new_state([f"P{i}" for i in range(seats)], {}, 4)
        for state in (start, random_playout(game, seats, 4).state):
            for viewer in (None, 0):
                for panel in ui.panels(game.view(state, viewer), viewer, True):
                    word = panel.title.split()[0]
                    assert word.lower() not in {"the", "a", "an"}, panel.title


# ---- 4. review's keys mean what they mean in the game ----------------------------------------
def test_review_steps_with_one_key_the_game_does_not_use() -> None:
    """The game's h (hint) and l (log) stepped through the review: one key per step now."""
    game_keys = set().union(*(keys_of(b.id, {}) for b in GameScreen.BINDINGS if b.id))
    for ident in ("review.step-back", "review.step-forward"):
        keys = keys_of(ident, {})
        assert len(keys) == 1 and not keys & game_keys, (ident, keys)


async def test_review_footer_names_its_step_keys(tmp_path: Path) -> None:
    match = saves.load(ROOT / "saves" / "notre-dame-2p-seed10.toml")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, review=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        keys = {(k.key_display, k.description) for k in app.screen.query(FooterKey)}
        assert {("←", "Prev"), ("→", "Next")} <= keys
        at = app.screen.index
        await pilot.press("h", "l", "left")
        assert app.screen.index == at - 1


# ---- 5. 1347 names its periods as the rulebook does ------------------------------------------
def test_1347_says_period_in_roman_numerals_everywhere() -> None:
    """The status said "Period I", the log "Period 1": the rulebook's I, II, III in both."""
    match = Match.new("1347", ["Ann", "Bob", "Cy"], {}, seed=2)
    ui = ui_for("1347")
    said: set[str] = set()
    while match.prompt is not None:
        said.update(re.findall(r"Period \w+", ui.status(match.game.view(match.state, None))))
        match.play(match.prompt.moves[0].id)
    said.update(re.findall(r"Period \w+", "\n".join(line for _, line in match.events())))
    assert said == {"Period I", "Period II", "Period III"}


# ---- 6. without a terminal: what helps where it was run ------------------------------------
@pytest.mark.parametrize("over_ssh", [False, True])
def test_the_no_terminal_line_fits_where_the_app_was_run(tmp_path: Path, over_ssh: bool) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSH_")}
    if over_ssh:  # what sshd sets for a session, ssh -T too
        env["SSH_CONNECTION"] = "192.0.2.1 50000 192.0.2.2 22"
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "--saves", str(tmp_path)],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, env=env,
    )  # fmt: skip
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out
    assert out.stderr.startswith("boardgames-tui needs a terminal")
    if over_ssh:
        assert "ssh -t" in out.stderr
    else:  # on this machine ssh has nothing to do with it: the line mode needs no terminal
        assert "ssh" not in out.stderr and "--plain" in out.stderr


# ---- 7. the score sheet fits 80 columns ------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "width", "beside"),  # the end screen's room at 80 and 120 columns
    [(5, 76, False), (5, 116, False), (3, 116, True)],
)
def test_score_sheet_has_a_line_per_category(players: int, width: int, beside: bool) -> None:
    """Rattus Cartus with five players at 80x24 wrapped its cells and cut "survives": each
    category is one line, the details beside the values where they fit, else beneath."""
    match = saves.load(ROOT / "saves" / f"rattus-cartus-{players}p-seed10.toml")
    console = Console(width=width, color_system=None, record=True)
    with console.capture() as cap:
        console.print(result_renderable(match))
    text = cap.get()
    body = text.split("┡")[1].split("├")[0].splitlines()[1:]
    assert len(body) == 9 and all(line[2] != " " for line in body), text
    assert "…" not in text and max(map(len, text.splitlines())) <= width
    assert ("10 (1st)" in text) == beside and ("Church track: A 1st" in text) != beside


# ---- 8. the plague's line in words that fit any name -------------------------------------------
def test_the_plague_line_builds_no_possessive_and_no_empty_arrow() -> None:
    """Review read "Me's rat 2→2": a player named Me, whose rat did not move."""
    match = Match.new("notre-dame", [Seat("Me"), Seat("Bob")], seed=5)
    while match.prompt is not None:
        match.play(match.prompt.moves[0].id)
    lines = [line for _, line in match.events() if "rat" in line and "(" in line]
    plague = [line for line in lines if line.startswith(("Me: rat", "Bob: rat"))]
    assert plague and not any("'s rat" in line for line in lines)
    for line in plague:
        if m := re.search(r"rat (\d+)→(\d+)", line):
            assert m.group(1) != m.group(2), line
    assert any("rat stays on" in line for line in plague)


# ---- 9. 0 declines in every title ----------------------------------------------------------------
async def test_the_cathedral_declines_with_0(tmp_path: Path) -> None:
    """The Cathedral's "Decline the action" had the key 2 (after the one option before it)."""
    match = until("cathedral-of-orleans", lambda p: any(m.id == "decline" for m in p.moves))
    prompt = match.prompt
    assert prompt is not None
    async with app_for(match, tmp_path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert pilot.app.screen.query_one(MovePicker).keys["decline"] == DONE_KEY
        at = match.cursor
        await pilot.press(DONE_KEY)
        await pilot.pause()
        assert match.steps[at].move_id.endswith("decline")


# ---- 10. the Tables screen proposes and turns down, as the command line does ---------------------
async def test_tables_screen_turns_down_and_proposes_a_change(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    bob = SQLiteStore(path)  # bob's terminal
    tid = bob.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    bob.propose(tid, "bob", ["limit", "24h"])
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), store=str(path), user="alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        assert isinstance(app.screen, TablesScreen)
        assert "d turns down" in app.export_screenshot().replace("&#160;", " ")
        await pilot.press("d")  # table agree --no
        await pilot.pause()
        assert bob.proposal(tid) is None
        await pilot.press("p", *"limit soon", "enter")  # refused: asked again, nothing lost
        await pilot.pause()
        assert isinstance(app.screen, ProposeScreen) and bob.proposal(tid) is None
        field = app.screen.query_one(Input)
        problem = str(app.screen.query_one("#propose-problem", Static).render())
        assert field.value == "limit soon" and "give a duration" in problem
        field.value = "limit 2d"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TablesScreen)
    made = bob.proposal(tid)
    assert made is not None and made.text == "a turn limit of 2d from now on"
    assert made.waiting_for == ("bob",)
    bob.close()


# ---- 11. the line mode sets where messages go and who is away --------------------------------
def test_the_line_mode_menu_has_away_and_notifications(tmp_path: Path) -> None:
    """The app had a screen for it, the command line `table notify`/`table away`: the line
    mode's menu had nothing."""
    from argparse import Namespace

    from boardgames_tui.plain.lines import script_reader
    from boardgames_tui.plain.menu import menu

    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    hook = Hook()
    said: list[str] = []
    answers = ["5", "1", hook.url("alice"), "4", "5", "soon", "5", "3", "3", "9", "3", "1"]
    answers += ["6", "", "6", "2", "1", "7", "7"]  # away, back, remove 1, to the menu, quit
    args = Namespace(saves=str(tmp_path), think=None, store=str(path), user="alice")
    try:
        assert menu(args, script_reader(answers), said.append) == 0
    finally:
        hook.close()
    assert "Target 1 added: your turn messages go there too." in said
    assert "No target 9: yours are 1." in said
    assert "Target 1 takes the talk at your tables." in said
    assert any(x.startswith(f"Target 1: {hook.url('alice')}") for x in said)  # then listed
    assert [post[:2] for post in hook.posts] == [("/alice", "boardgames-tui: a test")]
    assert "'soon': give hours, 0 (never) or more." in said and "Reminded once after 3 h." in said
    assert 'You are away: 1 table(s) told; "I am back" here ends it.' in said
    assert "You are back: your clocks run and you play your seats." in said
    assert store.targets("alice") == [] and store.remind_hours("alice") == 3
    assert store.away("alice") is None
    told = [e.text for e in store.events(tid)]
    assert told[0].startswith("alice is away") and told[1].startswith("alice is back")
    store.close()


# ---- the log's legend only where a line is marked -----------------------------------------
@pytest.mark.parametrize("computer", [False, True])
async def test_the_log_legend_shows_only_where_a_line_is_marked(
    tmp_path: Path, computer: bool
) -> None:
    """The full log says what ▸ marks (the computers' moves since your last decision) only
    when it marks a line: never in an all-human game."""
    from boardgames_tui.tui.screens.log import LogScreen

    seats = [Seat("Ann"), Seat("Cy", "random" if computer else "human")]
    match = Match.new("notre-dame", seats, seed=3)
    while match.prompt is not None and match.prompt.seat == 0:
        match.play(match.prompt.moves[0].id)
    while match.prompt is not None and match.prompt.seat == 1:  # Cy's turn: played
        match.play(match.prompt.moves[0].id)
    app = app_for(match, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(LogScreen(match, 0))
        status = str(app.screen.query_one("#status", Static).render())
        assert ("the computers' moves" in status) == computer, status
