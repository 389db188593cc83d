"""The game screen at a shared table: woken by the table's watch when it changes, and a
slow tick for what no change announces (a turn run out, who is here, a lost store back)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from boardgames_tui.session.source import Refused
from boardgames_tui.tui.screens.game_actions import GameActions

if TYPE_CHECKING:
    from textual.timer import Timer

    from boardgames_tui.session.play import Position

HERE_TICK = 5.0  # a shared table without a clock: who is here, a lost store back, this often


class TableUpdates(GameActions):
    """What the game screen does at a table (`GameScreen` is one)."""

    # what the screen provides
    _ticking: Timer | None
    _clock_shown: str

    if TYPE_CHECKING:

        def _render_status(self, pos: Position) -> None: ...
        def _start_computer(self) -> None: ...

    def _follow_table(self, poll_seconds: float) -> None:
        """Moves by others: the store's watch wakes the screen (a source without one is
        polled); the turn's clock counts down each second, and without one a slower tick
        asks the table and starts the fast one if a clock comes."""
        table = self.session.table
        if table is not None:
            table.watch(self._woken)
        else:
            self.set_interval(poll_seconds, self._poll)
        self.set_interval(HERE_TICK, self._tick)
        if self.session.clock():
            self._ticking = self.set_interval(1.0, self._tick)

    def _woken(self) -> None:
        """The table's watch (a thread) saw a change: ask the source on the app's thread."""
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.app.call_from_thread(self._poll)

    def _tick(self) -> None:
        """Once a second while a clock shows, else every HERE_TICK: the clock in the status
        line; and the table asked (a turn run out, who is here, a lost store back), as its
        watch wakes the screen only on changes."""
        if self.session.table is not None:
            self._poll()
        if self._ticking is None and self.session.clock():
            self._ticking = self.set_interval(1.0, self._tick)
        if self.session.clock() != self._clock_shown and not self._waiting_handover:
            self._render_status(self.session.position)

    def _poll(self) -> None:
        """Anything new from the other terminals at this table?"""
        try:
            moved = self.session.poll()
        except Refused as exc:
            self._refused(exc)
            return
        if moved:
            self.refresh_game()
        elif moved is not None:
            self._start_computer()
