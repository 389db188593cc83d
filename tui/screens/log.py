"""The whole log of a game on the full screen, at any terminal size."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from boardgames_tui.engine.core import Match
from boardgames_tui.tui.screens.dialogs import ScreenHelp
from boardgames_tui.tui.widgets.log import FRESH_MARK, GameLog, fresh_from, log_entries


class LogScreen(ScreenHelp, Screen[None]):
    """Every line of the game so far as the reader may read it; the newest at the bottom."""

    HELP_TITLE = "Game log"
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("escape,l,q", "close", "Back", id="log.close"),
        Binding("up,k", "scroll(-1)", "Up", show=False, id="log.scroll-back"),
        Binding("down,j", "scroll(1)", "Down", show=False, id="log.scroll-forward"),
        Binding("pageup,b", "page(-1)", "Page up", id="log.page-back"),
        Binding("pagedown,space", "page(1)", "Page down", id="log.page-forward"),
        Binding("home", "edge(0)", "First move", id="log.edge-first"),
        Binding("end", "edge(1)", "Latest", id="log.edge-latest"),
    ]

    def __init__(self, match: Match, viewer: int | None) -> None:
        super().__init__()
        self.match = match
        self.viewer = viewer

    def compose(self) -> ComposeResult:
        moves = f"{self.match.cursor} move{'' if self.match.cursor == 1 else 's'}"
        title = Text(f" Log · {self.match.game.title} · {moves}", style="bold")
        m = self.match
        if any(m.seats[s.seat].is_bot for s in m.steps[fresh_from(m) : m.cursor]):
            # only where a line is marked: never at an all-human table or hotseat
            title.append(f"   {FRESH_MARK} the computers' moves since your last decision")
        yield Static(title, id="status")
        yield GameLog(id="full-log")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._write()

    def on_resize(self, event: events.Resize) -> None:
        # the lines are wrapped at the width they were written at: write them again
        self.call_after_refresh(self._write)

    def _write(self) -> None:
        log = self.query_one(GameLog)
        log.show(log_entries(self.match, self.viewer, 0, self.match.cursor))
        log.scroll_end(animate=False)

    def action_scroll(self, delta: int) -> None:
        self.query_one(GameLog).scroll_relative(y=delta, animate=False)

    def action_page(self, delta: int) -> None:
        self.query_one(GameLog).page(delta)

    def action_edge(self, end: int) -> None:
        log = self.query_one(GameLog)
        log.scroll_end(animate=False) if end else log.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
