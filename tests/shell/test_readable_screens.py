"""Readable screens (issue 16, the parts outside the board panels): the log, focus, hotkeys
that stay put, the phase help, review's layout, the score sheets, the menus."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

from boardgames_tui.engine.core import Match, Seat, get_game, saves
from boardgames_tui.engine.core.protocol import Move, Prompt
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import HelpScreen
from boardgames_tui.tui.screens.end import merged_order, result_renderable, split_label
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.load import LoadScreen, players_text
from boardgames_tui.tui.screens.log import LogScreen
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.screens.rules import phase_help
from boardgames_tui.tui.screens.setup import SetupScreen
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.log import FRESH_MARK, GameLog, log_entries
from boardgames_tui.tui.widgets.picker import MovePicker
from tests.root import ROOT

if TYPE_CHECKING:
    from textual.pilot import Pilot

EXAMPLES = ROOT / "saves"


def plain(renderable: object, width: int = 118) -> str:
    console = Console(width=width, color_system=None, record=True)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


def app_for(match: Match, tmp_path: Path, handover: bool = True) -> BoardgamesApp:
    """The app opened on `match`, saving under `tmp_path`, computers moving at once
    (`handover=False`: no screen hands the keyboard over between the seats)."""
    if not handover:
        match.settings["handover"] = False
    return BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))


async def game_screen(pilot: Pilot[int]) -> GameScreen:
    """The game screen that the app of `pilot` shows once it has settled."""
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


# ---- tabs at 80x24 -------------------------------------------------------------------------
async def test_hidden_tabs_say_they_changed_until_shown(tmp_path: Path) -> None:
    match = Match.new("notre-dame", [Seat("Ann"), Seat("Bob"), Seat("Cy")], seed=7)
    app = app_for(match, tmp_path, handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_screen(pilot)
        board = screen.query_one(BoardView)
        tabs = screen.query_one("#tabs")
        assert not board.unseen and "✱" not in str(tabs.render())
        rng = random.Random(1)
        while not board.unseen:
            screen.play(rng.choice(match.prompt.moves))
            await pilot.pause()
        changed = {board.panels[i].title.split()[0] for i, p in enumerate(board.panels)
                   if p.key in board.unseen}  # fmt: skip
        shown = str(tabs.render())
        assert all(f"{word}✱" in shown for word in changed)
        for _ in board.panels:  # each tab in turn: once shown, its mark is gone
            await pilot.press("tab")
            await pilot.pause()
            assert board.panels[board.tab].key not in board.unseen
        assert not board.unseen and "✱" not in str(tabs.render())


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("rattus-cartus-5p-seed10.toml", "end"),
        ("notre-dame-5p-seed10.toml", "players"),
        ("1347-6p-seed10.toml", "players"),
    ],
)
async def test_at_80x24_the_end_of_a_game_opens_on_its_result(
    tmp_path: Path, name: str, result: str
) -> None:
    """The first tab at the last move is the result (not the empty row of a finished game) and
    the status line names the winner; a tab other than the first stays on its panel when the
    order changes."""
    match = saves.load(EXAMPLES / name)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, review=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        board = screen.query_one(BoardView)
        screen.action_jump(-1)
        await pilot.pause()
        assert board.tab == 0 and board.panels[0].key == result
        winner = match.game.result(match.state).winners[0]
        status = str(screen.query_one("#status", Static).content)
        assert f"move {len(match.steps)}/{len(match.steps)} · Winner: " in status
        assert match.seats[winner].name in status
        screen.action_step(-1)
        await pilot.pause()
        assert "Winner" not in str(screen.query_one("#status", Static).content)
        assert board.panels[board.tab].key != result  # before the end: the board first
        screen.action_cycle(2)
        await pilot.pause()
        kept = board.panels[board.tab].key
        screen.action_jump(-1)
        await pilot.pause()
        assert board.panels[board.tab].key == kept


# ---- the log ------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["1347", "notre-dame", "rattus-cartus", "cathedral-of-orleans"])
async def test_the_log_opens_with_the_setup_before_the_first_move(
    game_id: str, tmp_path: Path
) -> None:
    match = Match.new(game_id, [Seat("Ann"), Seat("Bob"), Seat("Cy")], seed=7)
    match.settings["handover"] = False
    opening = match.opening(0)
    assert opening
    app = app_for(match, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await game_screen(pilot)
        log = screen.query_one(GameLog)
        assert [e.text for e in log.entries] == opening
        await pilot.press("1")
        await pilot.pause()
        texts = [e.text for e in log.entries]
        assert texts[: len(opening)] == opening  # once: the first move wrote them again
        assert not any(t in opening for t in texts[len(opening) :])
        assert texts == [line for _, line in match.events(screen.viewer)]


async def test_computer_moves_are_marked_until_the_person_decides(tmp_path: Path) -> None:
    match = Match.new("toy", [Seat("Ann"), Seat("Bob", "random")], seed=3)
    app = app_for(match, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await game_screen(pilot)
        for _ in range(2):  # Ann's two-part move, then Bob answers
            await pilot.press("1")
            await pilot.pause()
        for _ in range(50):
            if match.prompt is not None and match.prompt.seat == 0:
                break
            await pilot.pause(0.02)
        log = screen.query_one(GameLog)
        bob = [e for e in log.entries if e.text.startswith("Bob")]
        assert bob and all(e.fresh for e in bob)
        assert not any(e.fresh for e in log.entries if e.text.startswith("Ann"))
        assert FRESH_MARK in "".join(line.text for line in log.lines)
        # the full-screen log shows every line, with the same marks
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        full = app.screen.query_one(GameLog)
        assert [e.text for e in full.entries] == [e.text for e in log.entries]
        await pilot.press("escape")
        await pilot.pause()
        # Ann decides: Bob's lines are no longer marked
        await pilot.press("1")
        await pilot.pause()
        assert not any(e.fresh for e in screen.query_one(GameLog).entries)


def test_log_entries_mark_only_the_computers_run_since_the_last_person() -> None:
    match = Match.new("toy", [Seat("Ann"), Seat("Bob", "random")], seed=3)
    rng = random.Random(2)
    while match.prompt is not None and match.cursor < 12:
        match.play(rng.choice(match.prompt.moves).id)
    entries = log_entries(match, 0, 0, match.cursor)
    last_ann = max(i for i, st in enumerate(match.steps[: match.cursor]) if st.seat == 0)
    for e in entries:
        if e.move == 0:  # the setup's lines
            assert not e.fresh
            continue
        step = match.steps[e.move - 1]
        assert e.fresh == (step.seat == 1 and e.move - 1 > last_ann)


# ---- focus and keys -------------------------------------------------------------------------
async def test_tab_keeps_the_picker_working_and_help_says_so(tmp_path: Path) -> None:
    match = Match.new("toy", [Seat("Ann"), Seat("Bob")], seed=3)
    app = app_for(match, tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await game_screen(pilot)
        picker = screen.query_one(MovePicker)
        await pilot.press("tab", "tab", "shift+tab")
        await pilot.pause()
        assert app.focused is picker.options
        before = match.cursor
        await pilot.press("enter")  # arrows + Enter still pick
        await pilot.pause()
        assert match.cursor == before + 1
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.export_screenshot().replace("&#160;", " ")
        assert "switch board views (80×24)" not in text and "move list keeps the keys" in text


def test_hotkeys_stay_with_their_moves_through_a_multi_part_choice() -> None:
    picker = MovePicker()

    def prompt(step: int, ids: list[str]) -> Prompt:
        return Prompt(0, "commit", tuple(Move(i, i) for i in ids), step=step)

    def keys(p: Prompt) -> dict[str, str]:
        picker.prompt, picker.moves = p, list(p.moves)
        picker._assign_keys(previous)
        return {m.id: picker.keys[m.id] for m in p.moves}

    previous = None
    first = keys(prompt(1, ["a", "b", "c", "done"]))
    assert first == {"a": "1", "b": "2", "c": "3", "done": "0"}  # Done: always 0
    previous = prompt(1, ["a", "b", "c", "done"])
    assert keys(prompt(2, ["b", "c", "done"])) == {"b": "2", "c": "3", "done": "0"}
    picker.moves = list(prompt(2, ["b", "c", "done"]).moves)
    assert picker.hotkey("1") is None and picker.hotkey("0").id == "done"
    # a new question (another seat, or step 0) numbers from 1 again
    previous = prompt(2, ["b", "c", "done"])
    assert keys(Prompt(1, "x", (Move("b", "b"), Move("z", "z")), step=0)) == {"b": "1", "z": "2"}


# ---- the phase help -------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347"])
def test_every_phase_is_explained_from_the_rules_reference(game_id: str) -> None:
    game = get_game(game_id)
    n = min(4, game.max_players)
    match = Match.new(game_id, [f"P{i}" for i in range(n)], seed=5)
    reference = game.rules_reference(match.options)
    rng = random.Random(5)
    phases: set[str] = set()
    while match.prompt is not None and match.cursor < 1500:
        phases.add(match.prompt.phase)
        match.play(rng.choice(match.prompt.moves).id)
    for phase in phases - {""}:
        text = phase_help(reference, [phase])
        assert text and len(text.splitlines()) >= 2, phase


async def test_question_mark_explains_the_phase(tmp_path: Path) -> None:
    match = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=3)
    app = app_for(match, tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "keep 1" in app.screen.explanation  # the Draft step of the round
        assert "Ann: Ann" not in app.screen.phase_text


# ---- review ---------------------------------------------------------------------------------
async def test_review_gives_the_board_the_whole_width(tmp_path: Path) -> None:
    match = saves.load(EXAMPLES / "notre-dame-4p-example.toml")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, review=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.query_one(BoardView).size.width == 120
        moves = screen.query_one("#review-moves")
        assert moves.region.y > screen.query_one(BoardView).region.y  # below the board
        rows = [o.prompt for o in screen.query_one("#review-moves", OptionList).options]
        texts = [plain(r) for r in rows]
        assert not any(f"{n}: {n} " in t for t in texts for n in ("Ann", "Bob", "Cy", "Dee"))


# ---- end screens ----------------------------------------------------------------------------
def test_labels_split_into_category_and_detail() -> None:
    assert split_label("coins (39 / 10)") == ("coins", "39 / 10")
    assert split_label("Peasantry track (1st, tied)") == ("Peasantry track", "1st, tied")
    assert split_label("Plague (returned)") == ("Plague (returned)", "")
    assert merged_order([["a", "c"], ["a", "b", "c"], ["c", "d"]]) == ["a", "b", "c", "d"]
    # the Rattus tracks: nobody scores in all six, the order still comes out whole
    tracks = [["P", "Ch", "R", "M", "VP"], ["P", "B", "Cv", "M"], ["B", "Ch", "Cv", "R", "VP"]]
    assert merged_order(tracks) == ["P", "B", "Ch", "Cv", "R", "M", "VP"]


@pytest.mark.parametrize(
    "name",
    ["1347-6p-seed10.toml", "rattus-cartus-5p-seed10.toml", "notre-dame-5p-seed10.toml"],
)
def test_score_sheet_has_one_row_per_category(name: str) -> None:
    match = saves.load(EXAMPLES / name)
    match.goto(match.length)
    text = plain(result_renderable(match), 118)
    rows = [line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│")]
    labels = [r for r in rows if r]
    assert len(labels) == len(set(labels)), labels  # each category once
    assert "Total" in labels and "Place" in labels
    assert not any("Tie-break" in r for r in labels)  # beneath the table
    if name.startswith("1347"):
        assert "coins" in labels and not any("/ 10)" in r for r in labels)
    if name.startswith("rattus"):
        tracks = [r for r in labels if r.endswith("track")]
        board = [
            f"{c} track"
            for c in ("Peasantry", "Bourgeoisie", "Church", "Chivalry", "Royalty", "Magic")
        ]
        assert tracks and tracks == [t for t in board if t in tracks]  # the board's order


def test_cathedral_result_once_and_in_words() -> None:
    match = saves.load(EXAMPLES / "cathedral-of-orleans-3p-seed10.toml")
    match.goto(match.length)
    text = plain(result_renderable(match))
    assert text.count("Section 1") == 1 and text.count("blueprint 1") == 1
    assert "8-8" not in text
    assert text.splitlines()[:2] == [
        "The team lost.",
        "Only 1 of 8 sections after round 3: everybody loses.",
    ]


def test_a_team_win_is_headed_in_words_any_team_game_fits() -> None:
    """The headline is the team's fate; the game's own words (what was built) follow it."""
    match = saves.load(EXAMPLES / "cathedral-example.toml")
    match.goto(match.length)
    head = plain(result_renderable(match)).splitlines()[:2]
    assert head == ["The team wins!", "The cathedral is built in round 3: everybody wins!"]


# ---- menus ----------------------------------------------------------------------------------
def test_players_text() -> None:
    assert players_text([("Ann", "human"), ("Bob", "greedy"), ("Cy", "strong")]) == (
        "3 players: Ann + 2 computers (greedy, strong)"
    )
    assert players_text([("Ann", "human"), ("Bob", "human")]) == "2 players: Ann, Bob"


async def test_setup_remembers_the_seats_and_ctrl_b_plays_against_computers(
    tmp_path: Path,
) -> None:
    from textual.widgets import Input, Select

    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=3600.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#name-0", Input).focus()
        await pilot.press("enter")  # Enter in a name moves on
        await pilot.pause()
        assert app.focused is not setup.query_one("#name-0", Input)
        await pilot.press("ctrl+o", "ctrl+s")
        await pilot.pause()
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert [s.is_bot for s in game.match.seats] == [False, True, True]
        game.action_leave()
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        while setup.building:
            await pilot.pause()
        assert setup.query_one("#kind-1", Select).value == "greedy"
        assert setup.query_one("#kind-0", Select).value == "human"


async def test_load_list_names_game_players_and_state(tmp_path: Path) -> None:
    match = Match.new("toy", [Seat("Ann"), Seat("Bob", "random")], seed=3)
    saves.save(match, tmp_path / "mine.toml")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(LoadScreen())
        await pilot.pause()
        rows = [str(o.prompt) for o in app.screen.query_one("#load-files", OptionList).options]
        assert rows[0].startswith("Toy · unfinished") and "Ann + 1 computer (random)" in rows[0]
        assert any(r.startswith("Notre Dame · finished") for r in rows)  # the examples
        # the file name too (issue 34): a named save and its autosave otherwise look the same
        assert "mine.toml" in rows[0]


# ---- the hand-over and the "too small" screen ------------------------------------------------
async def test_a_handover_due_while_the_window_is_small_shows_once_it_is_big(
    tmp_path: Path,
) -> None:
    from boardgames_tui.tui.app import TooSmallScreen
    from boardgames_tui.tui.screens.dialogs import HandoverScreen

    match = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=3)
    app = app_for(match, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Ann takes the keyboard
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        while match.prompt is not None and match.prompt.seat == 0:
            game.play(match.prompt.moves[0])  # Bob's turn comes while the window is small
            await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)  # the hand-over waits, not under it
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is game


# ---- errors -------------------------------------------------------------------------------------
async def test_a_failing_computer_player_is_reported_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        def choose(self, state: object, prompt: Prompt) -> str:
            raise KeyError("bad internal detail 4711")

    monkeypatch.setattr("boardgames_tui.session.source.make_bot", lambda *a, **k: Broken())
    match = Match.new("toy", [Seat("Ann"), Seat("Bob", "random")], seed=3)
    app = app_for(match, tmp_path)
    notes: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await game_screen(pilot)
        monkeypatch.setattr(screen, "notify", lambda message, **kw: notes.append(message))
        for _ in range(2):
            await pilot.press("1")
            await pilot.pause()
        for _ in range(50):
            if notes:
                break
            await pilot.pause(0.02)
    assert notes and "Bob" in notes[0] and "safe" in notes[0]
    assert "4711" not in notes[0] and "KeyError" not in notes[0]
    from boardgames_tui.session.crash import log_path

    path = log_path()
    assert path is not None and path.parent.name == "boardgames-tui"
    log = path.read_text()
    assert "4711" in log and "KeyError" in log and str(path) in notes[0]
    assert not (tmp_path / "errors.log").exists()  # nothing of it beside the saves
