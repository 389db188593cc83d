"""What every screen of the app shares: `app` typed as the BoardgamesApp, and the messages
screens post to it (the app decides what opens; a screen only says what was asked for)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.message import Message
from textual.screen import Screen

from boardgames_tui.engine.core import Match

if TYPE_CHECKING:
    from textual import getters

    from boardgames_tui.tui.app import BoardgamesApp

ResultT = TypeVar("ResultT")


class BaseScreen(Screen[ResultT]):
    """A screen of this app: `self.app` is the BoardgamesApp (for the type checker only:
    at run time it is Textual's own property)."""

    if TYPE_CHECKING:  # Textual's typed `app`; at run time its own property, no check per use
        app = getters.app(BoardgamesApp)


def key_to_top(screen: Screen[Any], event: events.Key) -> bool:
    """Send on a key that reached a screen no longer on top: it closed (or another opened)
    while the key was on its way, e.g. Esc then 1 typed fast, Enter at a hand-over then the
    move's hotkey. The key goes to the screen now on top instead of being lost."""
    app = screen.app
    if app.screen is screen or not app.is_running:
        return False
    event.stop()
    event.prevent_default()
    app.post_message(events.Key(event.key, event.character))
    return True


class StartMatch(Message):
    """Play this match (from the setup screen; `replace`: the screen it takes the place of)."""

    def __init__(
        self,
        match: Match,
        handover: bool | None = None,
        strict: bool | None = None,
        think: float | None = None,
        replace: Screen[Any] | None = None,
        bot_delay: float | None = None,
    ) -> None:
        super().__init__()
        self.match, self.handover, self.strict = match, handover, strict
        self.think, self.replace = think, replace
        self.bot_delay = bot_delay  # seconds a computer's turn stays in view (None: as it is)


class OpenFile(Message):
    """Open a save to play on (or review); a bad file gets a dialog."""

    def __init__(self, path: Path, review: bool, replace: Screen[Any] | None = None) -> None:
        super().__init__()
        self.path, self.review, self.replace = path, review, replace
