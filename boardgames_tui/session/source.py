"""Where a game screen's moves come from: a local match or a shared table, behind one interface.

`GameScreen` (and any other front end, such as a line mode) plays through a `MoveSource` and
never asks which kind it has; the facts below are all that differ. Nothing here imports
Textual or rich.

Reading the position
    `match`            the position: prompt, state, steps, seats (a table's is re-read from the
                       store after every change, so read it again each time)
    `seat`             the one seat played here (a table), or None: every person's seat at this
                       screen (hotseat), or a spectator
    `reader`           a table's fixed reader (its seat, or PUBLIC for a spectator); None: the
                       front end picks one (hotseat: the seat to move, after a hand-over)
    `strict`, `shared` no undo and hints; a shared table (no hand-over, no redo, no autosave)
    `heading`, `who`   what the status line adds after the title, and who reads it ("you: bo");
                       `brief_heading` the heading where room is short (only what must show)
    `keys_off`         the screen actions that do nothing with this source ("redo", "bell"...)
    `talk`             what people said at a table (`boardgames_tui.engine.tables.Talk`), oldest first
    `waiting()`        why nobody can move yet ("seat 2 open (table join T1)"), or None
    `decides(seat)`    whether a person at this screen decides for `seat` now
    `view(viewer)`     what the board shows (a spectator: only what every seat sees alike)

Changing it (a refusal raises `Refused`, whose text is shown as it is)
    `play(move_id)`, `step_back()`, `undo_reasons(viewer)` + `undo()`, `can_redo()` + `redo()`,
    `goto(index)` (review's "continue from here"), `save_refusal()`

Computer players and other terminals
    `computer()` gives the next computer decision as a `ComputerTurn` whose `think` runs off
    the main thread, or None (not a computer's turn, or another process plays them); its
    answer goes back through `computer_done(turn, move_id)` (None: dropped). `changed()` is
    polled every `poll_seconds` (0: never): None (nothing new), True (the position moved
    elsewhere), False (something else: the computers may be due). `turn_arrived()` is True once
    when the turn came to this screen's seat by others' moves (the bell). `news()` says once what changed
    with no move to show (a table: "alice took back …"). `close()` at the end;
    `room_place(saves_dir)` says where a room's reconnect comes back to.

A table's clock and the people absent from it
    `clock_line()` the turn's clock in words ("4:59 left"; "" without one), read again every
    second; `notes()` the table's own log lines (someone left, is away: (after move n,
    text)); `reclaim()` takes back this screen's seat the computer plays (a line to show).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from boardgames_tui.engine.bots import make_bot
from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.engine.core.protocol import IllegalMove, Prompt

if TYPE_CHECKING:
    from boardgames_tui.engine.bots.base import Bot

SPECTATOR = PUBLIC  # a spectator reads every private line as its public text


class Refused(Exception):
    """The source did not take a move or an undo; the text says why.

    `reloaded`: the position was read again (draw it); `dialog`: the store itself has a
    problem (a dialog, once, rather than a passing note)."""

    def __init__(
        self, text: str, severity: str = "warning", reloaded: bool = False, dialog: bool = False
    ) -> None:
        super().__init__(text)
        self.severity, self.reloaded, self.dialog = severity, reloaded, dialog


@dataclass(frozen=True)
class ComputerTurn:
    """A computer's decision to make: `think()` may run on another thread (it reads a copy)."""

    seat: int
    prompt: Prompt
    think: Callable[[], str]
    at: object  # the position it was asked at (the answer is dropped anywhere else)


class MoveSource(Protocol):
    """A local match or a shared table, as a game screen plays it (see the module's text)."""

    @property
    def match(self) -> Match: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def reader(self) -> int | None: ...
    @property
    def strict(self) -> bool: ...
    @property
    def shared(self) -> bool: ...
    @property
    def heading(self) -> str: ...
    @property
    def brief_heading(self) -> str: ...
    @property
    def who(self) -> str: ...
    @property
    def keys_off(self) -> frozenset[str]: ...
    @property
    def poll_seconds(self) -> float: ...
    @property
    def talk(self) -> Sequence[Any]: ...
    def waiting(self) -> str | None: ...
    def decides(self, seat: int) -> bool: ...
    def view(self, viewer: int | None) -> Mapping[str, Any]: ...
    def play(self, move_id: str) -> None: ...
    def step_back(self) -> None: ...
    def undo_reasons(self, viewer: int | None) -> list[str] | None: ...
    def undo(self) -> None: ...
    def can_redo(self) -> bool: ...
    def redo(self) -> None: ...
    def goto(self, index: int) -> None: ...
    def reload(self) -> None: ...
    def news(self) -> list[str]: ...
    def save_refusal(self) -> str | None: ...
    def computer(self) -> ComputerTurn | None: ...
    def computer_done(self, turn: ComputerTurn, move_id: str | None) -> bool: ...
    def changed(self) -> bool | None: ...
    def turn_arrived(self) -> bool: ...
    def close(self) -> None: ...
    def room_place(self, saves_dir: str | None) -> dict[str, str]: ...
    def clock_line(self) -> str: ...
    def notes(self) -> list[tuple[int, str]]: ...
    def reclaim(self) -> str: ...


def _position(match: Match) -> tuple[int, tuple[str, ...]]:
    prompt = match.prompt
    return (match.cursor, tuple(prompt.ids()) if prompt else ())


class LocalSource:
    """A match played at this screen: people take turns at it, computers play here."""

    seat = None
    reader = None
    shared = False
    heading = brief_heading = who = ""
    keys_off = frozenset({"bell", "reclaim", "say"})
    poll_seconds = 0.0
    talk: tuple[Any, ...] = ()

    def __init__(self, match: Match, think: float | None = None) -> None:
        self._match = match
        self.strict = bool(match.settings["strict"])
        self.think = think  # strong players' seconds per decision (None: the default)
        self.bots: dict[int, Bot] = {}
        # one computer decision at a time: a dropped search still runs to its end, and the
        # next may use the same player (its random numbers)
        self._thinking = threading.Lock()

    @property
    def match(self) -> Match:
        return self._match

    def waiting(self) -> str | None:
        return None

    def decides(self, seat: int) -> bool:
        return not self._match.seats[seat].is_bot

    def clock_line(self) -> str:
        return ""

    def notes(self) -> list[tuple[int, str]]:
        return []

    def reclaim(self) -> str:
        raise Refused("Nobody plays for you here.")

    def view(self, viewer: int | None) -> Mapping[str, Any]:
        view: Mapping[str, Any] = self._match.view(viewer)  # computed once per position
        return view

    def play(self, move_id: str) -> None:
        try:
            self._match.play(move_id)
        except IllegalMove as exc:
            raise Refused(str(exc), "error") from None

    def step_back(self) -> None:
        self._match.undo()

    def _undo_target(self) -> int:
        m = self._match
        return m.last_human_cursor() if any(s.is_bot for s in m.seats) else m.cursor - 1

    def undo_reasons(self, viewer: int | None) -> list[str] | None:
        """Why the undo wants a yes (another person's move, a reveal); None: nothing to undo."""
        m = self._match
        if not m.can_undo():
            return None
        reasons = set()
        for i in range(self._undo_target(), m.cursor):
            step = m.steps[i]
            if not m.seats[step.seat].is_bot and step.seat != viewer:
                reasons.add(f"it takes back {m.seats[step.seat].name}'s move")
            if step.reveal:
                reasons.add("it goes back over a reveal (a draw comes out the same again)")
        return sorted(reasons)

    def undo(self) -> None:
        self._match.goto(self._undo_target())

    def can_redo(self) -> bool:
        return self._match.can_redo()

    def redo(self) -> None:
        m = self._match
        m.redo()
        while m.can_redo() and m.prompt is not None and m.seats[m.prompt.seat].is_bot:
            m.redo()

    def goto(self, index: int) -> None:
        self._match.goto(index)

    def reload(self) -> None:
        """Nothing to read again: the match lives here."""

    def news(self) -> list[str]:
        return []  # every change is made here, and shown

    def save_refusal(self) -> str | None:
        return None

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

    def changed(self) -> bool | None:
        return None

    def turn_arrived(self) -> bool:
        return False

    def close(self) -> None:
        """Nothing held."""

    def room_place(self, saves_dir: str | None) -> dict[str, str]:
        """Where a reconnect comes back to: this game's autosave."""
        return {"save": saves.autosave_path(self._match, saves_dir).name}


def fallback_move(turn: ComputerTurn) -> str:
    """A random legal move, for when a computer player fails (the game goes on)."""
    return random.Random(turn.prompt.seat).choice(turn.prompt.moves).id
