"""The setup screen asks an option's per-group picks (Rattus Cartus: one building per class)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.setup import SetupScreen


async def test_rattus_buildings_chosen_one_per_class_in_the_setup_screen(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # awaited: its widgets mounted (a Select given a value before its own children are
        # composed fails inside Textual, now and then on a busy machine)
        await app.push_screen(SetupScreen("rattus-cartus"))
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        picks = setup.query_one("#picks-buildings")
        assert not picks.display  # hidden until the players choose
        setup.query_one("#opt-buildings", Select).value = "choose"
        for _ in range(500):  # Select.Changed is handled in its own turn (slow on a busy host)
            await pilot.pause(0.02)
            if picks.display:
                break
        assert picks.display
        # six classes, each starting at its recommended building
        assert setup.query_one("#pick-buildings-0", Select).value == "farm"
        setup.query_one("#pick-buildings-0", Select).value = "brewery"
        setup.query_one("#pick-buildings-3", Select).value = "guard_tower"
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        chosen = "brewery,marketplace,monastery,guard_tower,palace,fortune_teller"
        assert screen.match.options["buildings"] == chosen
        assert screen.match.state.buildings == chosen.split(",")
