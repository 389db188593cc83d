"""Where the moves of a plain session come from: a local match or a shared table.

A small adapter of its own (the game screen's `MoveSource` may replace it): the session reads
`match`, asks `mine(seat)` whether a person at this terminal decides, and changes the game only
through `play`, `undo_to`, `redo` and `computer_move`.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgames_tui.engine.bots import make_bot
from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.session.autosave import Autosaver
from boardgames_tui.session.errors import bot_error_message, write_error

if TYPE_CHECKING:
    from boardgames_tui.engine.tables.store import TableStore


class SourceError(Exception):
    """A change the source refused (not your turn, the table moved on): one line for the user."""


class LocalSource:
    """A match on this machine: people share the keyboard, computers play in turn."""

    table = False

    def __init__(
        self, match: Match, saves_dir: str | None = None, think: float | None = None
    ) -> None:
        self.match = match
        self.saves_dir = saves_dir
        self.think = think
        self.bots: dict[int, Any] = {}
        self.autosaver = Autosaver()
        self.last_autosave: Path | None = None
        self.dirty = False  # a move or an undo since the start: only then is there news to save
        self.warnings: list[str] = []  # lines for the session to say (a computer's problem)

    @property
    def strict(self) -> bool:
        return bool(self.match.settings.get("strict"))

    @property
    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.match.seats) if not s.is_bot]

    def mine(self, seat: int) -> bool:
        return not self.match.seats[seat].is_bot

    def home_viewer(self) -> int | None:
        """Who reads before anyone decides: the first person, or the public."""
        people = self.people
        return people[0] if people else PUBLIC

    def view(self, state: Any, viewer: int | None) -> Any:
        return self.match.game.view(state, viewer)

    def play(self, move_id: str) -> None:
        self.match.play(move_id)
        self.autosave()

    def computer_to_move(self) -> bool:
        p = self.match.prompt
        return p is not None and self.match.seats[p.seat].is_bot

    def computer_move(self) -> None:
        """Let the computer to move decide and play (a bot error: a random legal move)."""
        m = self.match
        prompt = m.prompt
        assert prompt is not None
        seat = prompt.seat
        if seat not in self.bots:
            self.bots[seat] = make_bot(
                m.seats[seat].kind, m.game, seed=m.seed * 31 + seat, think=self.think
            )
        try:
            move_id = self.bots[seat].choose(m.game.clone(m.state), prompt)
        except Exception as exc:  # a bot bug must not end the game
            move_id = random.Random(m.cursor).choice(prompt.moves).id
            log = write_error(f"computer player {m.seats[seat].name}", exc)
            self.warnings.append(bot_error_message(m.seats[seat].name, log))
        self.play(move_id)

    def undo_to(self, target: int) -> None:
        self.match.goto(target)
        self.autosave()

    def redo(self) -> None:
        m = self.match
        m.redo()
        while m.can_redo() and m.prompt is not None and m.seats[m.prompt.seat].is_bot:
            m.redo()
        self.autosave()

    def refresh(self) -> bool:
        return False  # nobody else changes a local match

    def autosave(self) -> None:
        self.dirty = True
        path = saves.autosave_path(self.match, self.saves_dir)
        self.autosaver.submit(path, saves.dumps(self.match), wait=self.match.over)
        self.last_autosave = path

    def close(self) -> None:
        if self.dirty:
            self.autosave()
        self.autosaver.flush()


class TableSource:
    """A shared table from `user`'s seat: the others' moves arrive through the store."""

    table = True

    def __init__(
        self, store: TableStore, table_id: str, user: str, think: float | None = None
    ) -> None:
        from boardgames_tui.engine.tables.computer import lease_owner

        self.store = store
        self.table_id = table_id
        self.user = user
        self.think = think
        self.owner = lease_owner()
        self.warnings: list[str] = []
        self.info, self.match = store.load(table_id)
        self.seat = self.info.seat_of(user)
        self.talk_said = 0  # the table's talk and own lines said so far
        self.notes_said = 0
        self.recent_talk = self._talk_lines()[-5:]  # what was said before this terminal came
        self._news()
        self.last_look = self._looked()  # the moves seen when this user last looked, if ever
        self._here_at = 0.0
        self._heartbeat()

    @property
    def strict(self) -> bool:
        return self.info.strict

    def _talk_lines(self) -> list[str]:
        from boardgames_tui.engine.tables import StoreError

        try:
            talk = self.store.talk(self.table_id, self.user)
        except StoreError:
            return []
        return [f"» {t.user}{' (watching)' if t.spectator else ''}: {t.text}" for t in talk]

    def _news(self) -> None:
        """The talk and the table's own lines (a timeout, someone left) not said yet, to
        `warnings` (said before the moves that follow them)."""
        from boardgames_tui.engine.tables import StoreError

        talk = self._talk_lines()
        try:
            notes = [f"Table: {e.text}" for e in self.store.events(self.table_id)]
        except StoreError:
            notes = []
        if self.talk_said or self.notes_said:
            self.warnings += notes[self.notes_said :] + talk[self.talk_said :]
        self.talk_said, self.notes_said = len(talk), len(notes)

    def _looked(self) -> int | None:
        from boardgames_tui.engine.tables import StoreError

        try:
            seen = self.store.looked(self.table_id, self.user)
            self.store.look(self.table_id, self.user, self.info.moves, self.talk_said)
        except StoreError:
            return None
        return None if seen is None else seen[0]

    def _heartbeat(self) -> None:
        """Tell the others this user is here (every HEARTBEAT seconds)."""
        import time

        from boardgames_tui.engine.tables import StoreError
        from boardgames_tui.engine.tables.store import HEARTBEAT

        if time.monotonic() - self._here_at >= HEARTBEAT:
            self._here_at = time.monotonic()
            with contextlib.suppress(StoreError):
                self.store.here(self.user)

    def say(self, text: str) -> None:
        """Say something at the table (SourceError: too long, too fast, not there)."""
        from boardgames_tui.engine.tables import StoreError

        try:
            self.store.say(self.table_id, self.user, text)
        except StoreError as exc:
            raise SourceError(str(exc)) from None
        self.talk_said += 1  # the speaker's own words are not said back to them
        self.refresh()

    def clock_line(self) -> str:
        """The clock of the seat to move ("4:59 left"), or ""."""
        from boardgames_tui.engine.tables.clock import clock_text

        return "" if self.info.finished else clock_text(self.info)

    @property
    def people(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    def mine(self, seat: int) -> bool:
        return seat == self.seat and self.info.status != "waiting"

    def home_viewer(self) -> int | None:
        return PUBLIC if self.seat is None else self.seat

    def view(self, state: Any, viewer: int | None) -> Any:
        from boardgames_tui.engine.tables import view_for

        if viewer is None:
            return self.match.game.view(state, None)
        return view_for(self.info, self.match, self.user, state)

    def play(self, move_id: str) -> None:
        from boardgames_tui.engine.tables import StoreError

        try:
            self.store.append(self.table_id, self.user, move_id, self.info.moves)
        except StoreError as exc:
            self.refresh()
            raise SourceError(str(exc)) from None
        self.refresh()

    def computer_to_move(self) -> bool:
        from boardgames_tui.engine.tables.computer import computer_to_move

        return computer_to_move(self.info, self.match)

    def computer_move(self) -> None:
        """Play the computers if this process gets the lease; else another process does."""
        from boardgames_tui.engine.tables.computer import play_computers

        play_computers(self.store, self.table_id, self.owner, self.think, limit=1)
        self.refresh()

    def undo_to(self, target: int) -> None:
        from boardgames_tui.engine.tables import StoreError

        try:
            self.store.undo(self.table_id, self.user, self.info.moves)
        except StoreError as exc:
            raise SourceError(str(exc)) from None
        self.refresh(tell=False)

    def redo(self) -> None:
        raise SourceError("a table has no redo: a taken-back move is gone")

    def refresh(self, tell: bool = True) -> bool:
        """Read the table again; whether anything changed. A move this terminal showed that
        is gone (taken back at another) is said once, unless `tell` is off (our own undo)."""
        from boardgames_tui.engine.tables import StoreError, taken_back

        rev = self.info.rev
        shown = self.match.steps[: self.match.cursor]  # the store brings the match up to date
        self.info, self.match = self.store.load(self.table_id)
        self.seat = self.info.seat_of(self.user)
        if tell:
            self.warnings += taken_back(shown, self.match, self.home_viewer(), self.seat)
        self._heartbeat()
        if self.info.rev != rev:
            self._news()
            with contextlib.suppress(StoreError):
                self.store.look(self.table_id, self.user, self.info.moves, self.talk_said)
        return self.info.rev != rev

    def autosave(self) -> None:
        pass  # the store keeps every move

    def close(self) -> None:
        from boardgames_tui.engine.tables import StoreError

        self.store.release_lease(self.table_id, self.owner)  # the caller closes the store
        with contextlib.suppress(StoreError):
            self.store.gone(self.user)
