"""The coach in the app (issue 19): `h` shows a hint; review marks mistakes, `n` / `p` jump."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from textual.widgets import OptionList, Static

from boardgames_tui.engine.bots.analysis import Rating
from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.engine.core.registry import get_game
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.review import ReviewScreen, stored_analysis
from boardgames_tui.tui.widgets.hint import HintPanel


def plain(renderable: object) -> str:
    """A move list's row as one line of plain text, spaces folded."""
    console = Console(width=400, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return " ".join(cap.get().split())


def _app(tmp_path: Path, strict: bool = False) -> BoardgamesApp:
    game = get_game("rattus-cartus")
    match = Match.new(game, [Seat("Ann"), Seat("Bob", "greedy")], game.check_options({}), 7)
    launch = Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0, think=0.05)
    launch.strict = strict
    match.settings["strict"] = strict
    return BoardgamesApp(launch)


async def test_h_shows_a_hint_and_the_save_records_it(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        prompt = screen.match.prompt
        assert prompt is not None and prompt.seat == 0 and len(prompt.moves) > 1
        panel = screen.query_one(HintPanel)
        assert not panel.display or not panel.shown
        await pilot.press("h")
        for _ in range(600):  # the search runs in a worker: wait for its last report
            await pilot.pause(0.05)
            if panel.border_subtitle != "thinking…":
                break
        assert panel.shown and panel.region.width > 0
        text = str(panel.content)
        labels = [m.label for m in prompt.moves]
        assert any(label[:12] in text for label in labels), text
        assert "%" in text and "chance of winning" in text
        assert "simulations" in str(panel.border_subtitle)
        assert screen.match.hints == {1}
        # the hint goes away with the decision it was for
        await pilot.press("1")
        await pilot.pause()
        assert not panel.shown
        assert saves.to_dict(screen.match)["hints"] == [1]


async def test_no_hints_in_a_strict_game(tmp_path: Path) -> None:
    app = _app(tmp_path, strict=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("h")
        await pilot.pause(0.2)
        assert not screen.query_one(HintPanel).shown
        assert screen.match.hints == set()


def _rating(n: int, seat: int, tag: str) -> Rating:
    return Rating(n, seat, "a", "b", "A", "B", 0.3, 0.5, tag, ())


async def test_review_marks_mistakes_and_jumps_between_them(tmp_path: Path) -> None:
    game = get_game("toy")
    match = Match.new(game, [Seat("Ann"), Seat("Bob")], {}, seed=3)
    while match.prompt is not None:
        match.play(match.prompt.moves[0].id)
    match.hints.add(2)
    ratings = stored_analysis(match)
    ratings.update({2: _rating(2, 0, "mistake"), 3: _rating(3, 1, "best")})
    ratings[5] = _rating(5, 0, "blunder")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, review=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("home", "n")
        assert review.index == 2
        status = str(review.query_one("#status", Static).content)
        assert "mistake: played 30%, best B 50%" in status and "hint used" in status
        await pilot.press("n")
        assert review.index == 5
        await pilot.press("n")  # no later mistake: stays
        assert review.index == 5
        await pilot.press("p")
        assert review.index == 2
        lines = [
            plain(review.query_one("#review-moves", OptionList).get_option_at_index(i).prompt)
            for i in (2, 3, 5)
        ]
        assert lines[0].startswith("2 ? hint ") and "??" not in lines[1]
        assert lines[2].startswith("5 ?? ")


async def test_review_m_rates_the_moves_in_the_background(tmp_path: Path) -> None:
    game = get_game("toy")
    match = Match.new(game, [Seat("Ann"), Seat("Bob", "greedy")], {}, seed=3)
    while match.prompt is not None:
        match.play(match.prompt.moves[0].id)
    launch = Launch(saves_dir=str(tmp_path), match=match, review=True, think=0.01)
    app = BoardgamesApp(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("m")
        for _ in range(600):
            await pilot.pause(0.05)
            if review._analysing is None:
                break
        rated = sorted(review.ratings)
        assert rated and all(match.steps[n - 1].seat == 0 for n in rated)  # Ann's only


async def test_review_file_m_rates_everyone_in_an_unfinished_hotseat_game(tmp_path: Path) -> None:
    """Issue 34: `review FILE` of a hotseat game, `m`: "No decisions of yours to rate"."""
    game = get_game("toy")
    match = Match.new(game, [Seat("Ann"), Seat("Bob")], {}, seed=3)
    for _ in range(4):
        match.play(match.prompt.moves[0].id)
    assert not match.over
    path = saves.save(match, tmp_path / "hotseat.toml")
    launch = Launch(saves_dir=str(tmp_path), match=saves.load(path), review=True, think=0.01)
    app = BoardgamesApp(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("m")
        for _ in range(600):
            await pilot.pause(0.05)
            if review._analysing is None:
                break
        assert {review.match.steps[n - 1].seat for n in review.ratings} == {0, 1}
        assert all(review._rating(n) is not None for n in review.ratings)


async def test_in_game_analysis_says_why_it_rates_only_your_moves(tmp_path: Path) -> None:
    game = get_game("toy")
    match = Match.new(game, [Seat("Ann"), Seat("Bob", "greedy")], {}, seed=3)
    match.play(match.prompt.moves[0].id)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0, think=0.01))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(ReviewScreen(match, 0))
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        said = " ".join(str(n.message) for n in app._notifications)
        assert "only your own decisions are rated" in said and "hidden cards" in said
