"""What every screen of the app shares: `app` typed as the BoardgamesApp, and the messages
screens post to it (the app decides what opens; a screen only says what was asked for)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual.message import Message
from textual.screen import Screen

from engine.core import Match

if TYPE_CHECKING:
    from textual import getters

    from ..app import BoardgamesApp

ResultT = TypeVar("ResultT")


class BaseScreen(Screen[ResultT]):
    """A screen of this app: `self.app` is the BoardgamesApp (for the type checker only:
    at run time it is Textual's own property)."""

    if TYPE_CHECKING:  # Textual's typed `app`; at run time its own property, no check per use
        app = getters.app(BoardgamesApp)


class StartMatch(Message):
    """Play this match (from the setup screen; `replace`: the screen it takes the place of)."""

    def __init__(
        self,
        match: Match,
        handover: bool | None = None,
        strict: bool | None = None,
        think: float | None = None,
        replace: Screen[Any] | None = None,
    ) -> None:
        super().__init__()
        self.match, self.handover, self.strict = match, handover, strict
        self.think, self.replace = think, replace


class OpenFile(Message):
    """Open a save to play on (or review); a bad file gets a dialog."""

    def __init__(self, path: Path, review: bool, replace: Screen[Any] | None = None) -> None:
        super().__init__()
        self.path, self.review, self.replace = path, review, replace
