"""Computers at a speed people can follow (issue 34): the setup screen sets how long a
computer's turn stays in view, and a turn of several steps pauses once, not at every step."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import Select

from engine.core import Match, Seat
from tui.app import BoardgamesApp, Launch
from tui.screens.game import GameScreen
from tui.screens.setup import SetupScreen

FOREVER = 10_000.0  # a pause no test waits out: a step played meanwhile did not wait for it


async def test_the_setup_screen_sets_the_computer_speed(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.6))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen("notre-dame"))
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


@pytest.mark.parametrize(("game_id", "players"), [("rattus-cartus", 3), ("1347", 3)])
async def test_a_computers_turn_pauses_once(game_id: str, players: int, tmp_path: Path) -> None:
    match = in_a_computers_turn(game_id, players)
    seat, at = match.prompt.seat, match.cursor  # type: ignore[union-attr]
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=FOREVER))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if match.cursor > at and (
                match.prompt is None or match.prompt.seat != seat or match.prompt.step == 0
            ):
                break
        # the rest of the turn came without its own pauses, then the next turn waits
        assert match.cursor > at, "the turn's next step waited for the delay"
        assert all(s.seat == seat for s in match.steps[at : match.cursor])
