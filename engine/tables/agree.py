"""Changes the players of a table make together: a new turn limit, a pause of the clock, and
a seat whose player is gone for good handed to a new player.

One proposal at a time per table (`bg_proposals`): whoever makes it agrees to it; it takes
effect, in the same transaction, when the last person it needs agrees. Who is needed: every
person seated who still plays their seat (one the computer plays for good, `left`, is not
asked), and for a seat handed over, its new player too. Each step is one transaction that
locks the table's row first, on both backends; the table's log says what was proposed,
agreed and done.
"""

from __future__ import annotations

import contextlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import Match
from ..core.match import now_iso
from .clock import LEFT, TIMEOUTS, ClockError, limit_text, parse_duration
from .store import Refused, StoreError, TableInfo, check_user, printable

if TYPE_CHECKING:
    from .sqlstore import Sql

LIMIT, PAUSE, RESUME, SEAT = "limit", "pause", "resume", "seat"
NO_LIMIT = "none"
PAUSED_LIMIT = "paused_limit"  # the setting that keeps a paused table's turn limit


@dataclass(frozen=True, slots=True)
class Proposal:
    """A change proposed at a table: its kind, value, who made it and who agreed so far."""

    kind: str
    value: str
    made_by: str
    agreed: tuple[str, ...]
    needed: tuple[str, ...]

    @property
    def waiting_for(self) -> tuple[str, ...]:
        return tuple(u for u in self.needed if u not in self.agreed)

    @property
    def text(self) -> str:
        """The change in words: "the turn limit becomes 24h", "pause the clock"."""
        if self.kind == LIMIT:
            limit = "no turn limit" if self.value == NO_LIMIT else f"a turn limit of {self.value}"
            return f"{limit} from now on"
        if self.kind == PAUSE:
            return "pause the clock (no turn runs out until it is resumed)"
        if self.kind == RESUME:
            return "resume the clock (the turn under way starts afresh)"
        seat, user = self.value.split(":", 1)
        return f"seat {int(seat) + 1} goes to {printable(user, 16)}"


def parse_change(words: list[str], info: TableInfo) -> tuple[str, str]:
    """`limit 24h` / `limit none` / `pause` / `resume` / `seat N USER` as (kind, value);
    StoreError (one line) for anything else or a change that makes no sense here."""
    what = words[0].lower() if words else ""
    if what == LIMIT and len(words) == 2:
        if words[1].lower() == NO_LIMIT:
            return LIMIT, NO_LIMIT
        try:
            return LIMIT, limit_text(parse_duration(words[1], "limit"))
        except ClockError as exc:
            raise StoreError(str(exc)) from None
    if what in (PAUSE, RESUME) and len(words) == 1:
        paused = PAUSED_LIMIT in info.settings
        if what == PAUSE and (paused or info.rules.turn_limit is None):
            raise Refused(f"table {info.id} has no clock running to pause")
        if what == RESUME and not paused:
            raise Refused(f"table {info.id} is not paused")
        return what, ""
    if what == SEAT and len(words) == 3 and words[1].isdigit():
        seat = int(words[1]) - 1
        if not 0 <= seat < len(info.seats):
            raise StoreError(f"seat {words[1]}: table {info.id} has seats 1 to {len(info.seats)}")
        gone = info.seats[seat]
        if gone.is_bot or gone.user is None or gone.pilot not in (LEFT, TIMEOUTS):
            raise Refused(
                f"seat {seat + 1} at table {info.id} has a player: only a seat whose player "
                "left (or missed three turns in a row) is handed to someone else"
            )
        user = check_user(words[2])
        if info.seat_of(user) is not None:
            raise Refused(f"{user} has a seat at table {info.id} already")
        return SEAT, f"{seat}:{user}"
    raise StoreError("give the change: limit DURATION (or none), pause, resume, or seat N USER")


def needed(info: TableInfo, kind: str, value: str) -> tuple[str, ...]:
    """Who must agree: the people who play their seats (not those gone for good), and the
    new player of a seat handed over."""
    people = [s.user for s in info.seats if s.user is not None and s.pilot not in (LEFT, TIMEOUTS)]
    if kind == SEAT:
        people.append(value.split(":", 1)[1])
    return tuple(dict.fromkeys(people))


class AgreeSQL(ABC):
    """Proposals and agreement at a table, for the SQL stores (see the module's docstring)."""

    _cache: dict[str, Match]

    @abstractmethod
    def _tx(
        self, write: bool = True, snapshot: bool = False
    ) -> contextlib.AbstractContextManager[Sql]: ...

    @abstractmethod
    def _info(self, q: Sql, table_id: str, lock: bool = False) -> TableInfo: ...

    @abstractmethod
    def _as(self, user: str | None) -> None: ...

    @abstractmethod
    def _event(self, q: Sql, info: TableInfo, text: str, bump: bool = True) -> None: ...

    @abstractmethod
    def _now(self, q: Sql) -> float: ...

    def proposal(self, table_id: str) -> Proposal | None:
        """The change proposed at the table and not yet agreed by all, if any."""
        with self._tx(write=False) as q:
            info = self._info(q, table_id)
            return self._proposal(q, info)

    def _proposal(self, q: Sql, info: TableInfo) -> Proposal | None:
        row = q.one(
            "SELECT kind, value, made_by, agreed FROM bg_proposals WHERE table_id = ?", (info.id,)
        )
        if row is None:
            return None
        kind, value, by, agreed = (str(x) for x in row)
        return Proposal(kind, value, by, tuple(json.loads(agreed)), needed(info, kind, value))

    def propose(self, table_id: str, user: str, words: list[str]) -> tuple[Proposal, bool]:
        """`user` proposes a change (and agrees to it): the proposal, and whether it took
        effect (nobody else needed to agree). One open proposal per table."""
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            self._check_player(info, user)
            open_one = self._proposal(q, info)
            if open_one is not None:
                raise Refused(
                    f"table {info.id} has a proposal open already ({open_one.text}): "
                    f"`table agree {info.id}` or `table agree {info.id} --no`"
                )
            kind, value = parse_change(words, info)
            q(
                "INSERT INTO bg_proposals (table_id, kind, value, made_by, made, agreed) "
                "VALUES (?,?,?,?,?,?)",
                (info.id, kind, value, user, now_iso(), json.dumps([user])),
            )
            made = self._proposal(q, info)
            assert made is not None
            self._event(q, info, f"{user} proposes: {made.text}")
            return made, self._settle_proposal(q, info, made)

    def agree(self, table_id: str, user: str, yes: bool = True) -> tuple[Proposal, bool]:
        """`user` agrees to (or, `yes` False, turns down) the open proposal: it, and whether
        it took effect now. Turned down, it is gone."""
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            made = self._proposal(q, info)
            if made is None:
                raise Refused(f"nothing is proposed at table {info.id}")
            if user not in made.needed:
                raise Refused(f"you ({user}) are not asked about this change at table {info.id}")
            if not yes:
                q("DELETE FROM bg_proposals WHERE table_id = ?", (info.id,))
                self._event(q, info, f"{user} turned down: {made.text}")
                return made, False
            agreed = tuple(dict.fromkeys((*made.agreed, user)))
            q(
                "UPDATE bg_proposals SET agreed = ? WHERE table_id = ?",
                (json.dumps(list(agreed)), info.id),
            )
            made = Proposal(made.kind, made.value, made.made_by, agreed, made.needed)
            return made, self._settle_proposal(q, info, made)

    @staticmethod
    def _check_player(info: TableInfo, user: str) -> None:
        if info.seat_of(user) is None:
            raise Refused(f"you ({user}) have no seat at table {info.id}")
        if info.finished:
            raise Refused(f"table {info.id} is over: nothing to change")

    def _settle_proposal(self, q: Sql, info: TableInfo, made: Proposal) -> bool:
        """Carry the change out if everyone needed has agreed; whether it was."""
        if made.waiting_for:
            return False
        run = q
        run("DELETE FROM bg_proposals WHERE table_id = ?", (info.id,))
        now = self._now(q)
        settings = dict(info.settings)
        if made.kind == LIMIT:
            limit = None if made.value == NO_LIMIT else parse_duration(made.value, "limit")
            if PAUSED_LIMIT in settings:  # paused: the new limit waits for the resume
                settings[PAUSED_LIMIT] = made.value
                self._write_settings(q, info, settings)
            else:
                run(
                    "UPDATE bg_tables SET turn_limit = ?, turn_since = ?, timed_out = 0 "
                    "WHERE id = ?",
                    (limit, now, info.id),
                )
        elif made.kind == PAUSE:
            limit = info.rules.turn_limit
            settings[PAUSED_LIMIT] = NO_LIMIT if limit is None else limit_text(limit)
            self._write_settings(q, info, settings)
            run("UPDATE bg_tables SET turn_limit = NULL WHERE id = ?", (info.id,))
        elif made.kind == RESUME:
            kept = str(settings.pop(PAUSED_LIMIT, NO_LIMIT))
            limit = None if kept == NO_LIMIT else parse_duration(kept, "limit")
            self._write_settings(q, info, settings)
            run(
                "UPDATE bg_tables SET turn_limit = ?, turn_since = ?, timed_out = 0 WHERE id = ?",
                (limit, now, info.id),
            )
        else:
            seat_text, user = made.value.split(":", 1)
            seat = int(seat_text)
            run(
                'UPDATE bg_seats SET "user" = ? WHERE table_id = ? AND seat = ?',
                (user, info.id, seat),
            )
            run(
                "INSERT INTO bg_clocks (table_id, seat, pilot, strikes) VALUES (?,?,NULL,0) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET pilot = NULL, strikes = 0",
                (info.id, seat),
            )
            if info.to_move_seat == seat:  # their turn now: its time starts now
                run(
                    "UPDATE bg_tables SET turn_since = ?, timed_out = 0 WHERE id = ?",
                    (now, info.id),
                )
            self._cache.pop(info.id, None)
        self._event(q, info, f"agreed by {', '.join(made.agreed)}: {made.text}")
        return True

    @staticmethod
    def _write_settings(q: Sql, info: TableInfo, settings: dict[str, object]) -> None:
        q("UPDATE bg_tables SET settings = ? WHERE id = ?", (json.dumps(settings), info.id))
