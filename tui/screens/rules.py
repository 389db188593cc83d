"""The in-app rules reference of a game, including its table rules of this edition."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from engine.core.protocol import Game

from .dialogs import ScreenHelp


class RulesScreen(ScreenHelp, Screen[None]):
    HELP_TITLE = "Rules reference"
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("escape,q,g", "close", "Back"),
        Binding("j,down", "scroll(1)", "Down", show=False),
        Binding("k,up", "scroll(-1)", "Up", show=False),
        Binding("space,pagedown", "page(1)", "Page down"),
        Binding("b,pageup", "page(-1)", "Page up"),
        Binding("home", "top", "Top", show=False),
    ]

    def __init__(self, game: Game, options: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.game = game
        self.options = options

    def compose(self) -> ComposeResult:
        yield Static(f" Rules reference · {self.game.title}", id="status")
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(self.game.rules_reference(self.options), id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def action_scroll(self, delta: int) -> None:
        s = self.query_one("#rules-scroll", VerticalScroll)
        s.scroll_relative(y=delta * 2, animate=False)

    def action_page(self, delta: int) -> None:
        s = self.query_one("#rules-scroll", VerticalScroll)
        s.scroll_relative(y=delta * max(1, s.size.height - 2), animate=False)

    def action_top(self) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
