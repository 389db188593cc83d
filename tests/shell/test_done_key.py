"""The option that ends a decision has one key in every title, and a Rattus Cartus hand shows
no nuns (issue 34: "Done" moved over 5, 6, 7 with the hand; nuns on hand cards never matter)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgames_tui.engine.core import Match, Seat, get_game
from boardgames_tui.plain.boards import board_for
from boardgames_tui.session.keys import DONE_KEY
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.board import panel_text
from boardgames_tui.tui.widgets.picker import MovePicker


def until(game_id: str, found: object, seed: int = 1, limit: int = 3000) -> Match:
    """A seeded random game stopped at the first prompt where `found(prompt)` holds."""
    game = get_game(game_id)
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(game.max_players)], seed=seed)
    m.settings["handover"] = False
    rng = random.Random(seed)
    while m.prompt is not None and m.cursor < limit:
        if found(m.prompt):  # type: ignore[operator]
            return m
        m.play(rng.choice(m.prompt.moves).id)
    raise AssertionError(f"no such prompt in {game_id}")


def has_done(prompt: object) -> bool:
    moves = prompt.moves  # type: ignore[attr-defined]
    return len(moves) >= 3 and sum(m.id in ("done", "pass", "end") for m in moves) == 1


@pytest.mark.parametrize("game_id", ["rattus-cartus", "1347", "cathedral-of-orleans"])
async def test_done_has_the_same_key(game_id: str, tmp_path: Path) -> None:
    match = until(game_id, has_done)
    prompt = match.prompt
    assert prompt is not None
    done = next(m for m in prompt.moves if m.id in ("done", "pass", "end"))
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        picker = screen.query_one(MovePicker)
        assert picker.keys[done.id] == DONE_KEY
        # the other options keep 1, 2, 3 … in their order, none of them 0
        others = [picker.keys[m.id] for m in prompt.moves if m.id != done.id]
        assert others == [str(i) for i in range(1, len(others) + 1)][: len(others)]
        at = match.cursor
        await pilot.press(DONE_KEY)
        await pilot.pause()
        assert match.cursor == at + 1 and match.steps[at].move_id.endswith(done.id)


def test_rattus_hand_shows_no_nuns() -> None:
    seat = 0
    for seed in range(20):  # a hand dealt with nuns on its cards
        match = Match.new("rattus-cartus", [Seat("Ann"), Seat("Bob")], seed=seed)
        view = match.view(seat)
        if any(c["nuns"] for c in view["you"]["cards"]):
            break
    else:
        raise AssertionError("no hand with nuns")
    hand = next(p for p in ui_for("rattus-cartus").panels(view, seat, True) if p.key == "hand")
    text = panel_text(hand)
    assert "nun" not in text.lower(), text
    plain = board_for("rattus-cartus").sections(view, seat)
    lines = [line for key, ls in plain if key == "hand" for line in ls]
    assert lines and not any("nun" in line.lower() for line in lines), lines
