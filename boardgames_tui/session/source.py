"""Where a session's moves come from: a local match or a shared table, behind one interface.

A `Source` is what `boardgames_tui.session.play.Session` plays through (boardgame.io's client
`Transport` is the model); no front end talks to one directly. Nothing here imports Textual or
Rich. Its members:

    `match`              the position (a table's is read again after every change)
    `facts()`            what this source says about itself now (`Facts`: the seat played here,
                         the reader, strict, shared, the keys it turns off, the heading, the
                         clock, the table's own lines and talk, why nobody can move yet)
    `decides(seat)`      whether a person at this terminal decides for `seat` now
    `view(viewer)`       what the board shows (a spectator: only what every seat sees alike)
    `play(move_id, expected)`  a move of a person here (`expected`: the moves played so far
                         it was chosen after, as boardgame.io's state id; another: refused)
    `goto(index)`        to move `index` of the history: back (undo, step back, review) or
                         forward again (redo); a table only takes back your own last move
    `computer()`         the next computer decision (`ComputerTurn`, its `think` runs off the
                         main thread), or None; its answer goes back by `computer_done`
    `poll()`             anything from elsewhere? None (nothing), True (the position moved),
                         False (something else: the computers may be due)
    `news()`             what changed with no move to show, once ("alice took back …")
    `close()`            the end (a table: another terminal may play the computers)

A refusal raises `Refused`, whose text is shown as it is.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from boardgames_tui.engine.bots import make_bot
from boardgames_tui.engine.core import PUBLIC, Match
from boardgames_tui.engine.core.protocol import IllegalMove, Prompt

if TYPE_CHECKING:
    from boardgames_tui.engine.bots.base import Bot

SPECTATOR = PUBLIC  # a spectator reads every private line as its public text


class Refused(Exception):
    """The source did not take a move or an undo; the text says why.

    `reloaded`: the position was read again (draw it); `dialog`: the store itself has a
    problem (a dialog, once, rather than a passing note); `error`: the store's own error, if
    it was one (a script reports that one)."""

    def __init__(
        self,
        text: str,
        severity: str = "warning",
        reloaded: bool = False,
        dialog: bool = False,
        error: Exception | None = None,
    ) -> None:
        super().__init__(text)
        self.severity, self.reloaded, self.dialog = severity, reloaded, dialog
        self.error = error


@dataclass(frozen=True)
class ComputerTurn:
    """A computer's decision to make: `think()` may run on another thread (it reads a copy)."""

    seat: int
    prompt: Prompt
    think: Callable[[], str]
    at: object  # the position it was asked at (the answer is dropped anywhere else)


@dataclass(frozen=True)
class Facts:
    """What a source says about itself at one moment (a table's change as it is played)."""

    seat: int | None = None  # the one seat played here (a table), or None: hotseat, watching
    reader: int | None = None  # a table's fixed reader (its seat, or PUBLIC); None: hotseat
    strict: bool = False  # no undo, no hints
    shared: bool = False  # a shared table: no hand-over, no redo, no autosave
    keys_off: frozenset[str] = frozenset()  # the actions that do nothing here ("redo", ...)
    poll_seconds: float = 0.0  # how often to `poll()` (0: never)
    heading: str = ""  # what the status line adds after the title
    brief_heading: str = ""  # the heading where room is short (only what must show)
    who: str = ""  # who reads it ("you: bo", "watching")
    waiting: str | None = None  # why nobody can move yet ("seat 2 open (table join T1)")
    clock: str = ""  # the turn's clock in words ("4:59 left")
    notes: tuple[tuple[int, str], ...] = ()  # the table's own lines: (after move n, text)
    talk: tuple[Any, ...] = ()  # what people said (`engine.tables.Talk`), oldest first
    save_refusal: str | None = None  # why a save cannot be written now
    table_id: str | None = None  # the shared table's id


class Source(Protocol):
    """A local match or a shared table, as a `Session` plays it (see the module's text)."""

    @property
    def match(self) -> Match: ...
    def facts(self) -> Facts: ...
    def decides(self, seat: int) -> bool: ...
    def view(self, viewer: int | None) -> Mapping[str, Any]: ...
    def play(self, move_id: str, expected: int | None = None) -> None: ...
    def goto(self, index: int) -> None: ...
    def computer(self) -> ComputerTurn | None: ...
    def computer_done(self, turn: ComputerTurn, move_id: str | None) -> bool: ...
    def poll(self) -> bool | None: ...
    def news(self) -> list[str]: ...
    def close(self) -> None: ...


def _position(match: Match) -> tuple[int, tuple[str, ...]]:
    prompt = match.prompt
    return (match.cursor, tuple(prompt.ids()) if prompt else ())


class LocalSource:
    """A match played at this terminal: people take turns at it, computers play here."""

    def __init__(self, match: Match, think: float | None = None) -> None:
        self._match = match
        self.think = think  # strong players' seconds per decision (None: the default)
        self.bots: dict[int, Bot] = {}
        # one computer decision at a time: a dropped search still runs to its end, and the
        # next may use the same player (its random numbers)
        self._thinking = threading.Lock()
        self._facts = Facts(
            strict=bool(match.settings["strict"]),
            keys_off=frozenset({"bell", "reclaim", "say"}),
        )

    @property
    def match(self) -> Match:
        return self._match

    def facts(self) -> Facts:
        return self._facts

    def decides(self, seat: int) -> bool:
        return not self._match.seats[seat].is_bot

    def view(self, viewer: int | None) -> Mapping[str, Any]:
        view: Mapping[str, Any] = self._match.view(viewer)  # computed once per position
        return view

    def play(self, move_id: str, expected: int | None = None) -> None:
        if expected is not None and expected != self._match.cursor:
            raise Refused(f"The game is at move {self._match.cursor}, not {expected}.")
        try:
            self._match.play(move_id)
        except IllegalMove as exc:
            raise Refused(str(exc), "error") from None

    def goto(self, index: int) -> None:
        self._match.goto(index)

    def bot_for(self, seat: int) -> Bot:
        if seat not in self.bots:
            m = self._match
            kind = m.seats[seat].kind
            self.bots[seat] = make_bot(kind, m.game, seed=m.seed * 31 + seat, think=self.think)
        return self.bots[seat]

    def computer(self) -> ComputerTurn | None:
        prompt = self._match.prompt
        if prompt is None or not self._match.seats[prompt.seat].is_bot:
            return None
        bot = self.bot_for(prompt.seat)
        state = self._match.game.clone(self._match.state)  # the live state moves on

        def think() -> str:
            with self._thinking:
                return bot.choose(state, prompt)

        return ComputerTurn(prompt.seat, prompt, think, _position(self._match))

    def computer_done(self, turn: ComputerTurn, move_id: str | None) -> bool:
        if move_id is None or turn.at != _position(self._match):
            return False
        try:
            self._match.play(move_id)
        except IllegalMove:
            return False
        return True

    def poll(self) -> bool | None:
        return None  # nobody else changes a local match

    def news(self) -> list[str]:
        return []  # every change is made here, and shown

    def close(self) -> None:
        """Nothing held."""


def fallback_move(turn: ComputerTurn) -> str:
    """A random legal move, for when a computer player fails (the game goes on)."""
    return random.Random(turn.prompt.seat).choice(turn.prompt.moves).id
