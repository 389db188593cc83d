"""The move picker never highlights an option that is off screen (issue 34).

For every title, at 80x24 and 120x40, the longest option list that seeded games reach: each
option in turn is highlighted and must be drawn, whole, inside the picker's frame; a list
longer than its room says so ("↓ N more"); a question that wraps takes rows from the list,
never options out of sight.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.picker import MovePicker

GAMES = [g for g in game_ids() if g != "toy"]
SEEDS = range(3)


@cache
def longest(game_id: str) -> tuple[int, int]:
    """(seed, move number) of the longest option list in random seeded games at most players."""
    game = get_game(game_id)
    best = (0, 0, 0)
    for seed in SEEDS:
        m = Match.new(game_id, [Seat(f"P{i}") for i in range(game.max_players)], seed=seed)
        rng = random.Random(seed)
        while m.prompt is not None and m.cursor < 400:
            if len(m.prompt.moves) > best[0]:
                best = (len(m.prompt.moves), seed, m.cursor)
            m.play(rng.choice(m.prompt.moves).id)
    return best[1], best[2]


def at_longest(game_id: str) -> Match:
    seed, cursor = longest(game_id)
    game = get_game(game_id)
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(game.max_players)], seed=seed)
    rng = random.Random(seed)
    while m.cursor < cursor:
        m.play(rng.choice(m.prompt.moves).id)
    m.settings["handover"] = False
    return m


def assert_highlight_shown(app: BoardgamesApp, picker: MovePicker) -> None:
    ol = picker.options
    seen = app.screen.find_widget(ol).visible_region
    assert seen == ol.region, "the frame cuts the list off"
    index = ol.highlighted
    assert index is not None
    first = ol._index_to_line[index]
    top = ol.content_region.y - round(ol.scroll_y)
    rows = range(top + first, top + first + ol._heights[index])
    body = ol.scrollable_content_region
    assert all(body.y <= y < body.bottom for y in rows), (index, list(rows), body)
    hidden = len(ol._lines) > body.height
    assert ("more" in str(picker.border_subtitle or "")) == hidden, picker.border_subtitle


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", GAMES)
async def test_every_option_is_shown_when_highlighted(
    game_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    match = at_longest(game_id)
    count = len(match.prompt.moves)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        picker = screen.query_one(MovePicker)
        assert picker.options.option_count == count
        titles = ["", "a question long enough to wrap " * 5] if size[0] == 80 else [""]
        for title in titles:
            if title:  # the question takes three rows: the list has fewer
                picker.set_prompt(match.prompt, title)
                await pilot.pause()
            for i in [*range(count), *reversed(range(count))]:  # what ↓ and ↑ do
                picker.options.highlighted = i
                assert_highlight_shown(app, picker)
            await pilot.press(*["down"] * (count // 2))  # the keys themselves
            await pilot.pause()
            assert picker.options.highlighted == count // 2
            assert_highlight_shown(app, picker)
            await pilot.press("home")
        # Enter plays the option shown highlighted
        await pilot.press("end")
        await pilot.pause()
        assert_highlight_shown(app, picker)
        last = picker.shown[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert match.steps[-1].move_id == last.id
