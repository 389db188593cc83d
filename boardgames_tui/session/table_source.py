"""A shared table as a session's source of moves (see `boardgames_tui.session.source`)."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

from boardgames_tui.engine.core import Match, get_game
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.engine.tables import (
    WAITING,
    Disconnected,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    Talk,
    results,
    taken_back,
    view_for,
)
from boardgames_tui.engine.tables import Refused as StoreRefused
from boardgames_tui.engine.tables.clock import clock_text, deadline, is_away, pilot_reason
from boardgames_tui.engine.tables.computer import choose, computer_to_move, lease_owner
from boardgames_tui.engine.tables.store import HEARTBEAT
from boardgames_tui.engine.tables.watch import TableWatch
from boardgames_tui.session.source import SPECTATOR, ComputerTurn, Facts, Refused

CLOCK_CHECK_SECONDS = 1.0
HERE_CHECK_SECONDS = 5.0  # who is connected now is read this often


class _Frozen:
    """Just enough of a match for the table's `choose`: a fixed position (the thread must not
    see the live match move on)."""

    def __init__(self, game: Any, state: Any, prompt: Prompt, cursor: int) -> None:
        self.game, self.state, self.prompt, self.cursor = game, state, prompt, cursor


class TableSource:
    """A shared table from `user`'s seat (or as a spectator): every move goes through the
    store, which checks the seat, the turn, the move and the move number in one transaction;
    the others' moves come in by polling it (`PRAGMA data_version` costs next to nothing)."""

    poll_seconds = 0.15

    def __init__(
        self,
        store: TableStore,
        table_id: str,
        user: str,
        think: float | None = None,
        presence: bool = False,
        script: bool = False,
    ) -> None:
        self.store, self.user, self.think = store, user, think
        # a command's one move (`table play`): no look recorded, no talk read, and the
        # store's own refusals as they are
        self.script = script
        # say "here" while polling and "gone" at the end (the app's turn watcher does it
        # for the game screen; the line mode has no other)
        self.presence = presence
        self._said_here = -HEARTBEAT
        self.last_look: int | None = None  # the moves seen when this user last looked
        if not script:
            table_id = store.check_watch(table_id, user).id
        self.info, self._match = store.load(table_id)
        self.talk: list[Talk] = [] if script else store.talk(self.info.id, user)
        self._talk_rev = self.info.rev  # the revision the talk and the notes were read at
        self._looked: tuple[int, int] | None = None  # the look last recorded here
        self._read_at = time.monotonic()  # when `info.now` (the store's clock) was read
        self._notes = self._read_notes()
        self._clock_check = 0.0  # when an expired turn was last looked for in the store
        self.strict = self.info.strict
        self.offline = False  # the store's server is unreachable: "reconnecting…"
        self.owner = lease_owner()
        self._version = store.version(self.info.id)
        self._watch: TableWatch | None = None
        self._busy = False  # a computer decision of this table is being thought here
        self._leased = False  # this process has held the computers' lease
        self._news: list[str] = []  # moves taken back at other terminals, not said yet
        self._seated()
        self.here: set[str] = set()  # the others seated here with a session open now
        self._here_at = 0.0
        if not script:
            self._read_here()
            self._since_last_look()
            self._heartbeat()

    def _seated(self) -> None:
        self.seat = self.info.seat_of(self.user)
        self.reader = SPECTATOR if self.seat is None else self.seat
        self.who = "watching" if self.seat is None else f"you: {self.user}"
        # nothing offered that would only be refused: a spectator has no moves to undo, hint
        # at or ring for; a strict table has neither undo nor hints; only a seat the computer
        # plays for its owner can be taken back
        off = {"redo"} | ({"undo", "hint", "bell"} if self.seat is None else set())
        if not self._piloted():
            off.add("reclaim")
        if self.strict:
            off |= {"undo", "hint"}
        if self.rated_in_play():  # a rated table: no hint (or analysis) until it ends
            off.add("hint")
        self.keys_off = frozenset(off)

    def counts_note(self) -> str:
        """Whether the table counts for ratings, and why not, in a line."""
        why = results.counts(self.info, self._match)
        return f"Not rated: {why}" if why else "Rated: this table counts for ratings"

    def rated_in_play(self) -> bool:
        """The table counts for ratings and has not ended: no hint or analysis yet."""
        info = self.info
        if info.finished:
            return False
        seats = [(s.kind, s.user) for s in info.seats]
        cooperative = get_game(info.game).cooperative
        return not results.why_unrated(cooperative, info.settings, seats, [], info.seed_kind)

    def _piloted(self) -> bool:
        """The computer plays this screen's seat (left, timeouts) or its owner is away."""
        if self.seat is None or self.info.finished:
            return False
        mine = self.info.seats[self.seat]
        return mine.pilot is not None or is_away(mine, self.info.now)

    def _read_here(self) -> bool:
        """Who of the others seated here is connected now (at most every few seconds);
        whether that changed."""
        self._here_at = time.monotonic()
        try:
            now = self.store.present()
        except StoreError:
            return False
        here = {s.user for s in self.info.seats if s.user and s.user != self.user} & now
        changed, self.here = here != self.here, here
        return changed

    def _since_last_look(self) -> None:
        """On opening the table: what happened since this user last looked (once), then
        this look recorded."""
        try:
            seen = self.store.looked(self.info.id, self.user)
        except StoreError:
            return
        if seen is not None:
            moves, talk = seen
            self.last_look = moves
            lines = [line for n, line in self._match.events(self.reader) if n > moves]
            said = len([t for t in self.talk if t.n > talk])
            notes = [text for n, text in self._notes if n >= moves][-3:]
            if lines or said or notes:
                parts = [f"{self.info.moves - moves} move(s)"] if self.info.moves > moves else []
                parts += [f"{said} message(s)"] if said else []
                head = (
                    f"Since you last looked ({', '.join(parts)})"
                    if parts
                    else "Since you last looked"
                )
                self._news.append(
                    "\n".join([head + ":", *(f"  {x}" for x in [*notes, *lines][-6:])])
                )
        self._record_look()

    def _record_look(self) -> None:
        look = (self.info.moves, max((t.n for t in self.talk), default=0))
        if look == self._looked:
            return
        with contextlib.suppress(StoreError):
            self.store.look(self.info.id, self.user, *look)
            self._looked = look

    def _read_notes(self) -> list[tuple[int, str]]:
        if self.script:
            return []
        try:
            return [(e.n, e.text) for e in self.store.events(self.info.id)]
        except StoreError:
            return []

    def _estimate(self) -> TableInfo:
        """The table as read, at the store's clock now (as far as this process can tell)."""
        return dataclasses.replace(self.info, now=self.info.now + time.monotonic() - self._read_at)

    def facts(self) -> Facts:
        return Facts(
            seat=self.seat,
            reader=self.reader,
            strict=self.strict,
            shared=True,
            keys_off=self.keys_off,
            poll_seconds=self.poll_seconds,
            heading=self.heading,
            brief_heading=self.brief_heading,
            who=self.who,
            waiting=self.waiting(),
            clock=self.clock_line(),
            notes=tuple(self._notes),
            talk=tuple(self.talk),
            save_refusal=self.save_refusal(),
            table_id=self.info.id,
        )

    def clock_line(self) -> str:
        if self.info.finished or self.waiting() is not None:
            return ""
        return clock_text(self._estimate())

    def notes(self) -> list[tuple[int, str]]:
        return self._notes

    def reclaim(self) -> str:
        if self.seat is None:
            raise Refused("A spectator has no seat to take back.")
        try:
            self.info = self.store.reclaim(self.info.id, self.user)
        except StoreError as exc:
            raise Refused(str(exc)) from None
        self.reload()
        return f"You play seat {self.seat + 1} again."

    @property
    def heading(self) -> str:
        """What the status line says after the game's title."""
        note = f" · {self.info.seed_note}" if self.info.seed_chosen else ""
        return f" · table {self.info.id}{note}{self.brief_heading}"

    @property
    def brief_heading(self) -> str:
        """The heading where room is short: the table's id goes; abandoned and a lost store
        stay."""
        gone = " · abandoned" if self.info.abandoned else ""
        here = f" · here: {', '.join(sorted(self.here))}" if self.here else ""
        return gone + here + (" · reconnecting…" if self.offline else "")

    @property
    def match(self) -> Match:
        return self._match

    def _problem(self, exc: Exception, reloaded: bool = False) -> Refused:
        if isinstance(exc, Disconnected):  # a move not acknowledged is not shown as played
            self.offline = True
            return Refused(str(exc), "warning", reloaded=True, error=exc)
        dialog = isinstance(exc, StoreUnavailable)
        return Refused(str(exc), "error", reloaded, dialog=dialog, error=exc)

    def reload(self, tell: bool = True) -> None:
        """Read the table again (others moved, or a move was refused); moves shown here that
        are gone (taken back elsewhere) are told once, unless `tell` is off (our own undo)."""
        shown = self._match.steps[: self._match.cursor]  # the store brings the match up to date
        try:
            self.info, self._match = self.store.load(self.info.id)
            # talk and notes change the revision; a command's one move reads neither
            fresh = not self.script and self.info.rev != self._talk_rev
            if fresh:
                self.talk = self.store.talk(self.info.id, self.user)
        except StoreError as exc:
            raise self._problem(exc) from None
        self._read_at = time.monotonic()
        if fresh:
            self._notes = self._read_notes()
            self._talk_rev = self.info.rev
        self._seated()
        if not self.script:
            self._record_look()
        if tell:
            self._news += taken_back(shown, self._match, self.reader, self.seat)

    def news(self) -> list[str]:
        """What changed here without a move to show (a move taken back elsewhere), once."""
        news, self._news = self._news, []
        return news

    def waiting(self) -> str | None:

        if self.info.abandoned:
            return (
                f"none — table {self.info.id} was abandoned after 30 days without a move "
                f"(`table rematch {self.info.id}` plays it again)"
            )
        if self.info.status != WAITING:
            return None
        open_seats = ", ".join(str(s.seat + 1) for s in self.info.seats if s.is_open)
        return f"seat {open_seats} open (table join {self.info.id})"

    def decides(self, seat: int) -> bool:
        """This screen's seat, unless the computer plays it now (left, out of time, away)."""
        if self.seat is None or seat != self.seat or self.waiting() is not None:
            return False
        return pilot_reason(self._estimate()) is None

    def _my_turn(self) -> bool:
        prompt = self._match.prompt
        return prompt is not None and self.decides(prompt.seat)

    def view(self, viewer: int | None) -> Mapping[str, Any]:

        return view_for(self.info, self._match, self.user)

    def play(self, move_id: str, expected: int | None = None) -> None:
        if not self.script and not self._my_turn():
            raise Refused("Not your turn.")
        at = self.info.moves if expected is None else expected
        try:
            self._own_change(self.store.append(self.info.id, self.user, move_id, at))
        except Stale as exc:
            if self.script:
                raise Refused(str(exc), error=exc) from None
            self.reload()
            raise Refused(
                "Someone moved first: the table has been reloaded.", reloaded=True
            ) from None
        except StoreError as exc:
            problem = self._problem(exc, reloaded=True)
            if not self.offline:
                self.reload()
            raise problem from None
        if not self.script:  # a script reads no more changes after its move
            with contextlib.suppress(StoreError):
                self._version = self.store.version(self.info.id)
        self.reload()

    def _own_change(self, info: TableInfo) -> None:
        """The table after this screen's own move: the talk and notes read at the revision
        before it are still the table's when nothing else changed in between."""
        if info.rev == self.info.rev + 1 and self._talk_rev == self.info.rev:
            self._talk_rev = info.rev
        self.info = info

    def goto(self, index: int) -> None:
        """Take back this seat's last move (the store allows only that, if it revealed
        nothing): a table goes on from its last move, never from an earlier one."""
        if index >= self._match.cursor:
            raise Refused("A shared table goes on from its last move.")
        if self.seat is None:
            raise Refused("A spectator has no moves to undo.")
        try:
            self.info = self.store.undo(self.info.id, self.user, self.info.moves)
        except Stale:
            self.reload()
            raise Refused("Someone has moved since: your move stands.", reloaded=True) from None
        except StoreError as exc:
            raise Refused(str(exc)) from None
        self.reload(tell=False)

    def save_refusal(self) -> str | None:
        if self.info.shown_seed is None:
            return (
                "A save carries the seed, which gives every hand and every draw to come: it "
                "can be written when the game is over."
            )
        return None

    def computer(self) -> ComputerTurn | None:
        """The computer seat to move, if this process holds (or takes) the table's lease."""

        if self._busy or not computer_to_move(self.info, self._match):
            return None
        try:
            if not self.store.take_lease(self.info.id, self.owner):
                return None  # another terminal plays the computers
            self._leased = True
        except StoreError as exc:
            raise self._problem(exc) from None
        self._busy = True
        info, match = self.info, self._match
        prompt = match.prompt
        assert prompt is not None
        position = _Frozen(match.game, match.game.clone(match.state), prompt, info.moves)
        think = self.think

        def decide() -> str:
            return choose(info, position, think)  # type: ignore[arg-type]

        return ComputerTurn(prompt.seat, prompt, decide, info)

    def computer_done(self, turn: ComputerTurn, move_id: str | None) -> bool:

        self._busy = False
        if move_id is None:
            return False
        info = turn.at
        assert isinstance(info, TableInfo)
        try:
            self._own_change(
                self.store.append(info.id, None, move_id, info.moves, lease=self.owner)
            )
        except StoreRefused:
            pass  # someone else played it, or the position changed: just show what is there
        except StoreError as exc:
            problem = self._problem(exc, reloaded=True)
            self.reload()
            raise problem from None
        self.reload()
        return True

    def _heartbeat(self) -> None:
        """Tell the others this user is here (every HEARTBEAT seconds), if this source says so."""
        if self.presence and time.monotonic() - self._said_here >= HEARTBEAT:
            self._said_here = time.monotonic()
            with contextlib.suppress(StoreError):
                self.store.here(self.user)

    def poll(self) -> bool | None:
        self._heartbeat()
        try:
            v = self.store.version(self.info.id)
            if self.offline:  # back: whatever happened meanwhile is read afresh
                self.offline = False
                self._version = v
                self.reload()
                return True
            if time.monotonic() - self._here_at >= HERE_CHECK_SECONDS and self._read_here():
                return True  # someone came or went: the status line says who is here
            if v == self._version and not self._busy:
                return self._clock_due()
            self._version = v
            if self._busy:  # the computer is thinking here: keep its lease
                self.store.take_lease(self.info.id, self.owner)
            rev = self.info.rev
            self.reload()  # no move read when none is new (the store's cache)
            if self.info.rev != rev:
                return True
        except StoreError as exc:
            was_offline = self.offline
            problem = self._problem(exc)
            if was_offline and self.offline:
                return None  # still away: said once already
            raise problem from None
        return False if computer_to_move(self.info, self._match) else None

    def _clock_due(self) -> bool | None:
        """Nothing changed in the store, but the turn's time may have run out: read the table
        again (the store's clock decides, at most once a second); False when the computer
        is due to play."""
        est = self._estimate()
        due = deadline(est)
        if due is None or due > est.now or pilot_reason(est) is None:
            return None
        now = time.monotonic()
        if now < self._clock_check + CLOCK_CHECK_SECONDS:
            return None
        self._clock_check = now
        self.reload()
        return False if computer_to_move(self.info, self._match) else None

    # ---- around the table ----------------------------------------------------------------
    def say(self, text: str) -> None:
        """Say something at the table (Refused: too long, too fast, not there)."""
        try:
            self.store.say(self.info.id, self.user, text)
        except StoreError as exc:
            raise self._problem(exc) from None
        self.reload()

    def can_rematch(self) -> bool:
        return self.seat is not None and self.info.finished

    def rematch(self) -> str:
        """The id of the table's rematch: opened now (this user seated, the others offered
        their seats), or the one opened already."""
        try:  # a new seed, drawn by the store and kept from everyone until the end
            info, _ = self.store.rematch(self.info.id, self.user)
        except StoreError as exc:
            raise Refused(str(exc)) from None
        return info.id

    def watch(self, wake: Callable[[], None]) -> None:
        """Call `wake()` (from a thread) whenever the table may have changed, until `close`:
        the screen then asks `changed()`, instead of polling on a timer."""
        try:
            self._watch = TableWatch(self.store, self.info.id, wake)
        except StoreError:  # no second connection now: the screen's slow timer still asks
            self._watch = None

    def close(self) -> None:
        """Let another terminal play the computers (and say this user has gone); stop
        watching the table."""
        if self._watch is not None:
            self._watch.stop()
        if self._leased:  # else there is nothing of ours to release (one statement saved)
            with contextlib.suppress(StoreError):
                self.store.release_lease(self.info.id, self.owner)
        if self.presence:
            with contextlib.suppress(StoreError):
                self.store.gone(self.user)
