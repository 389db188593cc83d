"""The leaderboard and player card in the app (issue 46): Ctrl+P, Ratings and statistics;
the user's own row first, their card beside it; a highlighted row shows that player's card."""

from __future__ import annotations

import random
from pathlib import Path

from textual.widgets import OptionList, Static

from boardgames_tui.engine.tables import open_store, parse_seats
from boardgames_tui.engine.tables.computer import lease_owner, play_computers
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.ratings import RatingsScreen


def played(location: str) -> None:
    """Five tables of alice and bob, and one of alice against the greedy computer."""
    store = open_store(location)
    owner = lease_owner()
    for k, seats in enumerate(["alice,bob", "bob,alice"] * 2 + ["alice,bob", "alice,greedy"]):
        t = store.create("notre-dame", parse_seats(seats, "alice"), {}, 30 + k, "alice")
        rng = random.Random(k)
        while True:
            info, match = store.load(t.id)
            if match.prompt is None:
                break
            seat = info.seats[match.prompt.seat]
            if seat.is_bot:
                play_computers(store, t.id, owner, None, limit=1)
            else:
                store.append(t.id, seat.user, rng.choice(match.prompt.moves).id, info.moves)
    store.close()


async def test_the_leaderboard_and_the_players_card(tmp_path: Path) -> None:
    location = str(tmp_path / "tables.sqlite")
    played(location)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), store=location, user="alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"ratings")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RatingsScreen)
        board = screen.query_one("#board", OptionList)
        ids = [board.get_option_at_index(i).id for i in range(board.option_count)]
        assert set(ids) == {"alice", "bob", "computer:greedy"}
        assert ids[board.highlighted or 0] == "alice"
        card = str(screen.query_one("#card", Static).render())
        assert card.startswith("alice\nNotre Dame: rating ") and "6 rated games" in card
        assert "alice: 6 played" in card
        board.highlighted = ids.index("computer:greedy")
        await pilot.pause()
        card = str(screen.query_one("#card", Static).render())
        assert card.startswith("greedy (computer)\n") and "1 rated games" in card


async def test_no_results_yet_says_so(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), store=str(tmp_path / "none.sqlite")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(RatingsScreen())
        await pilot.pause()
        card = str(app.screen.query_one("#card", Static).render())
        assert "No shared table has finished yet" in card
