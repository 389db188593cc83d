"""The move picker survives being removed while it mounts (a rematch or a table closing the
game screen under it): it once raised NoMatches from its mount handler, ending the app."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical

from boardgames_tui.tui.widgets.picker import MovePicker


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Vertical(id="box")


async def test_a_picker_removed_while_it_mounts() -> None:
    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        box.mount(MovePicker())  # not awaited: the container goes before the picker mounts
        box.remove()
        await pilot.pause()
        assert app.is_running and not app.query(MovePicker)
