"""No leaks: what is drawn for a seat never depends on what that seat may not see.

For many random positions of every game with private information, the state is resampled
with `determinize` (hidden parts redrawn from what the seat knows). The view and the rendered
board for that seat must be identical for both states: if anything hidden were drawn, the
two renderings would differ. The hand-over screen and the log are checked too.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from engine.core import Match, Seat, all_games, get_game
from tui.games import ui_for

# every installed title where a seat sees something the others may not
GAMES = [g.id for g in all_games() if g.has_private_info]


def render(game_id: str, view: dict, viewer: int, compact: bool) -> str:
    console = Console(width=120, file=io.StringIO(), color_system=None)
    ui = ui_for(game_id)
    with console.capture() as cap:
        console.print(ui.status(view))
        for panel in ui.panels(view, viewer, compact):
            console.print(panel.title)
            console.print(panel.body)
    return cap.get()


def positions(game_id: str, players: int, seed: int, every: int):  # type: ignore[no-untyped-def]
    game = get_game(game_id)
    state = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), seed)
    rng = random.Random(seed)
    n = 0
    while (p := game.prompt(state)) is not None:
        if n % every == 0:
            yield state, p
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        n += 1


@pytest.mark.parametrize("game_id", GAMES)
def test_rendered_board_ignores_hidden_information(game_id: str) -> None:
    game = get_game(game_id)
    checked = 0
    # 1347's games run to 300-900 moves: sample them more thinly; a short game (under 60
    # moves, the example plug-in) at every decision
    every = 41 if game_id == "1347" else 13
    if len(list(positions(game_id, game.min_players, 0, every=1))) < 60:
        every = 1
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(2):
            for state, prompt in positions(game_id, players, seed, every=every):
                seat = prompt.seat
                other = game.determinize(state, seat, random.Random(seed * 1000 + checked))
                v1, v2 = game.view(state, seat), game.view(other, seat)
                assert v1 == v2, f"{game_id}: the view of seat {seat} shows something hidden"
                compact = checked % 2 == 0
                assert render(game_id, v1, seat, compact) == render(game_id, v2, seat, compact)
                # the decision offered must not depend on hidden parts either
                assert [m.id for m in prompt.moves] == [m.id for m in game.prompt(other).moves]
                checked += 1
    assert checked > 60


@pytest.mark.parametrize("game_id", GAMES)
def test_log_lines_for_a_seat_ignore_hidden_information(game_id: str) -> None:
    """Private events read by another seat are the public version, never the private text."""
    game = get_game(game_id)
    n = game.min_players + 1
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(n)], seed=5)
    rng = random.Random(5)
    private = 0
    while m.prompt is not None:
        step = m.play(rng.choice(m.prompt.moves).id)
        for ev in step.events:
            if ev.seat is None:
                continue
            private += 1
            for viewer in range(n):
                line = ev.for_seat(viewer)
                if viewer != ev.seat:
                    assert line == ev.public
                    assert line != ev.text or ev.public == ev.text
    assert private > 0


@pytest.mark.parametrize("game_id", GAMES)
async def test_handover_screen_draws_nothing_private(game_id: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tui.app import BoardgamesApp, Launch
    from tui.screens.dialogs import HandoverScreen

    game = get_game(game_id)
    n = max(3, game.min_players)
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(n)], seed=2)
    rng = random.Random(2)
    for _ in range(25):
        m.play(rng.choice(m.prompt.moves).id)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        text = app.export_screenshot()
        seat = m.prompt.seat
        # nothing of the board is drawn: no panel title, no move label, no log line
        board = render(game_id, game.view(m.state, seat), seat, False)
        for line in board.splitlines():
            line = line.strip()
            if len(line) > 12:
                assert line not in text
        for move in m.prompt.moves:
            if len(move.label) > 6:
                assert move.label not in text
