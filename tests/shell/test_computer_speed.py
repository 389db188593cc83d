"""Computers at a speed people can follow (issue 34): the setup screen sets how long a
computer's turn stays in view, and a turn of several steps pauses once, not at every step."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import Select

from boardgames_tui.engine.core import Match, Seat
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.setup import SetupScreen

FOREVER = 10_000.0  # a pause no test waits out: a step played meanwhile did not wait for it


async def test_the_setup_screen_sets_the_computer_speed(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.6))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(SetupScreen("notre-dame"))
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        speed = setup.query_one("#speed", Select)
        assert speed.value == 0.6  # --bot-delay (or its default) chosen at first
        speed.value = 1.5
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert screen.bot_delay == 1.5
        assert app.launch.bot_delay == 1.5  # the next game starts with it too


def in_a_computers_turn(game_id: str, players: int) -> Match:
    """A seeded game stopped where a computer has made the first step of a turn of several."""
    seats = [Seat("Ann")] + [Seat(f"C{i}", "random") for i in range(1, players)]
    for seed in range(20):
        m = Match.new(game_id, seats, seed=seed)
        m.settings["handover"] = False
        rng = random.Random(seed)
        while m.prompt is not None and m.cursor < 300:
            p = m.prompt
            if (
                m.seats[p.seat].is_bot
                and p.step > 0
                and m.steps[m.cursor - 1].seat == p.seat
                and m.cursor >= 2
                and m.steps[m.cursor - 2].seat != p.seat
            ):
                return m
            m.play(rng.choice(p.moves).id)
    raise AssertionError("no computer turn of several steps")


def at_its_start(m: Match) -> Match:
    """The same game one step earlier: the computer's turn about to begin."""
    start = Match.new(m.game.id, m.seats, seed=m.seed, options=m.options)
    start.settings["handover"] = False
    for move_id in m.move_ids(m.cursor - 1):
        start.play(move_id)
    return start


@pytest.mark.parametrize(("game_id", "players"), [("rattus-cartus", 2), ("1347", 2)])
async def test_a_computers_turn_pauses_once(game_id: str, players: int, tmp_path: Path) -> None:
    """The first step of a computer's turn comes after the delay (0 here), then the delay is
    made endless: the turn's further steps come all the same, the next turn (Ann's) waits."""
    match = at_its_start(in_a_computers_turn(game_id, players))
    seat, at = match.prompt.seat, match.cursor
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if match.cursor > at:
                break
        assert match.cursor > at, "the computer's turn did not begin"
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.bot_delay = FOREVER  # from the turn's second step on
        for _ in range(100):
            await pilot.pause(0.02)
            if match.prompt is None or match.prompt.seat != seat or match.prompt.step == 0:
                break
        # the rest of the turn came without its own pauses
        assert match.prompt is None or match.prompt.seat != seat or match.prompt.step == 0, (
            "the turn's next step waited for the delay"
        )
        assert all(s.seat == seat for s in match.steps[at : match.cursor])


async def test_a_game_opened_in_a_computers_turn_pauses_first(tmp_path: Path) -> None:
    """Opened in the middle of a computer's turn (a saved game), the screen shows who thinks
    before the computer goes on: the delay is waited once, from here."""
    match = in_a_computers_turn("1347", 3)
    at = match.cursor
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=FOREVER))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(10):
            await pilot.pause(0.02)
        assert match.cursor == at
        assert "is thinking" in str(app.screen.query_one("#picker-title").render())
