"""A seat that learns something privately sees it before it passes the keyboard on (issue 34).

Hotseat, hand-over screens on: a Rattus Cartus Fortune-teller look or a 1347 informer's report
came out, and the hand-over to the next person followed at once; the looker saw it only on
its next turn. Now a screen shows it the lines only it may read and waits for a key.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game
from boardgames_tui.engine.core.match import Step
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import HandoverScreen, SeenScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.picker import MovePicker


def private_to_mover(step: Step) -> list[str]:
    return [e.text for e in step.events if e.seat == step.seat and e.reveal and e.text != e.public]


def first_private_reveal(game_id: str) -> tuple[Match, str] | None:
    """A seeded hotseat game just before a move that tells its mover something only it sees,
    after which another seat moves; and that move's id."""
    game = get_game(game_id)
    for seed in range(4):
        seats = [Seat(f"P{i}") for i in range(game.max_players)]
        m = Match.new(game_id, seats, seed=seed)
        rng = random.Random(seed)
        while m.prompt is not None and m.cursor < 300:
            step = m.play(rng.choice(m.prompt.moves).id)
            nxt = m.prompt
            if nxt is not None and nxt.seat != step.seat and private_to_mover(step):
                m.goto(m.cursor - 1)
                m.truncate()
                return m, step.move_id
    return None


CASES = [g for g in game_ids() if first_private_reveal(g) is not None]


def test_the_titles_with_private_reveals_are_covered() -> None:
    assert {"rattus-cartus", "1347"} <= set(CASES)


@pytest.mark.parametrize("game_id", CASES)
async def test_a_private_reveal_is_shown_before_the_hand_over(game_id: str, tmp_path: Path) -> None:
    found = first_private_reveal(game_id)
    assert found is not None
    match, move_id = found
    mover = match.prompt.seat
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        await pilot.press("enter")  # the mover takes the keyboard
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        picker = screen.query_one(MovePicker)
        await pilot.press(picker.keys[move_id])
        await pilot.pause()
        seen = app.screen
        assert type(seen) is SeenScreen, "the hand-over came before the mover saw its reveal"
        assert seen.seat == mover
        assert seen.lines == private_to_mover(match.steps[-1])
        await pilot.pause(0.3)
        assert app.screen is seen  # it waits for a key
        await pilot.press("enter")
        await pilot.pause()
        handover = app.screen
        assert type(handover) is HandoverScreen and handover.seat == match.prompt.seat
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
