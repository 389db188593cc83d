"""Turn clocks at a table: the time a seat has for each turn, and who plays a seat now.

Pure functions over a table as read from the store (`TableInfo`, with the store's clock at
the moment it was read in `info.now`): nothing here reads a clock of its own, so two
processes reading the same table at the same store time agree on what is due. The store
applies the same functions inside the transaction that plays a move.

A seat is played by the computer (its "pilot", at the table's autopilot level) when
- its owner left the table (`LEFT`), or missed `STRIKES_OUT` turns in a row (`TIMEOUTS`,
  until they take it back),
- its owner is away and the table allows no vacation (`AWAY`), or
- its turn's time ran out at a table whose `--on-timeout` is `computer` (`TIMEOUT`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import BOT_LEVELS

if TYPE_CHECKING:
    from ..core.protocol import Prompt
    from .store import SeatInfo, TableInfo

COMPUTER, WAIT = "computer", "wait"
ON_TIMEOUT = (COMPUTER, WAIT)
DEFAULT_AUTOPILOT = "greedy"
DEFAULT_VACATION = 14.0  # days per seat and game that an away owner's clock may pause
DEFAULT_REMIND = 24.0  # hours of waiting on your turn before one reminder
STRIKES_OUT = 3  # timeouts in a row after which the computer keeps the seat
LEFT, TIMEOUTS, AWAY, TIMEOUT = "left", "timeouts", "away", "timeout"
AUTOPILOT = "autopilot"  # who a move played for a person's seat is recorded as
DAY = 86400.0

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$", re.IGNORECASE)
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": DAY}


class ClockError(ValueError):
    """A duration or clock setting that cannot be used, as one sentence."""


def parse_duration(text: str, what: str = "--turn-limit") -> float:
    """`90s`, `10m`, `24h`, `2d` (a bare number is seconds) as seconds; ClockError for a
    malformed, zero or negative duration."""
    m = _DURATION.match(text or "")
    if m is None:
        raise ClockError(
            f"{what} {text!r}: give a duration such as 90s, 10m, 24h or 2d (a positive number "
            "and s, m, h or d)"
        )
    seconds = float(m.group(1)) * _UNIT[m.group(2).lower()]
    if seconds <= 0:
        raise ClockError(f"{what} {text!r}: a turn needs some time (more than 0)")
    if seconds > 365 * DAY:
        raise ClockError(f"{what} {text!r}: at most a year")
    return seconds


def parse_until(text: str, now: float) -> float:
    """An end of being away: a date or date and time (local), or a duration from `now`;
    ClockError for anything else or a time that has passed."""
    from datetime import datetime

    try:
        return now + parse_duration(text, "--until")
    except ClockError:
        pass
    try:
        when = datetime.fromisoformat(text.strip()).astimezone().timestamp()
    except ValueError:
        raise ClockError(
            f"--until {text!r}: give a date (2026-12-24), a date and time "
            "('2026-12-24 18:00') or a duration (3d, 12h)"
        ) from None
    if when <= now:
        raise ClockError(f"--until {text!r}: that time has passed already")
    return when


def shown_duration(seconds: float) -> str:
    """A duration as a person reads it: `1:05` (minutes), `3h 20m`, `2d 4h`."""
    s = max(0, int(seconds + 0.999))  # a second that has begun counts
    if s < 3600:
        return f"{s // 60}:{s % 60:02d}"
    if s < DAY:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600}h"


def spoken_duration(seconds: float) -> str:
    """A duration in a message, with its units: `20 s`, `5 min`, `3 h`, `2 h 30 min`, `2 d 4 h`
    (a clock's `0:20` reads as twenty minutes as easily as twenty seconds)."""
    s = max(0, int(seconds + 0.5))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min" + (f" {s % 60} s" if s % 60 and s < 600 else "")
    if s < DAY:
        h, m = s // 3600, s % 3600 // 60
        return f"{h} h" + (f" {m} min" if m else "")
    d, h = s // 86400, s % 86400 // 3600
    return f"{d} d" + (f" {h} h" if h else "")


def limit_text(seconds: float) -> str:
    """A turn limit as it was probably given: `90s`, `10m`, `24h`."""
    for unit, size in (("d", DAY), ("h", 3600.0), ("m", 60.0)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


@dataclass(frozen=True, slots=True)
class ClockRules:
    """A table's clock: seconds per turn (None: no clock), what a timeout does, the
    computer level that plays for an absent person, and vacation days per seat."""

    turn_limit: float | None = None
    on_timeout: str = COMPUTER
    autopilot: str = DEFAULT_AUTOPILOT
    vacation: float = DEFAULT_VACATION

    def check(self) -> ClockRules:
        """The rules as given, or ClockError (one line)."""
        if self.on_timeout not in ON_TIMEOUT:
            raise ClockError(f"--on-timeout {self.on_timeout!r}: computer or wait")
        if self.autopilot not in BOT_LEVELS:
            raise ClockError(f"--autopilot {self.autopilot!r}: one of {', '.join(BOT_LEVELS)}")
        if not 0 <= self.vacation <= 365:
            raise ClockError(f"--vacation {self.vacation:g}: 0 to 365 days")
        if self.turn_limit is not None and self.turn_limit <= 0:
            raise ClockError("--turn-limit: a turn needs some time (more than 0)")
        return self


def turn_begins(before: Prompt | None, after: Prompt | None) -> bool:
    """A move that led from decision `before` to `after` ended a turn: another seat decides,
    the game is over, or the same seat begins a new phase (the next round's first decision
    after its last one of this round). Steps of one multi-part decision, and decisions in the
    same phase, are one turn: one clock, one timeout."""
    if before is None or after is None or after.seat != before.seat:
        return True
    return after.step == 0 and after.phase != before.phase


def away_credit(info: TableInfo, seat: SeatInfo) -> float:
    """Seconds of the current turn that `seat`'s owner has been away with vacation left,
    not yet banked: the clock stands still for them (0 when the table has no clock)."""
    rules = info.rules
    if (
        seat.away is None
        or rules.turn_limit is None
        or rules.vacation <= 0
        or info.turn_since is None
        or info.to_move_seat != seat.seat
    ):
        return 0.0
    since, until = seat.away
    start = max(since, info.turn_since)
    end = info.now if until is None else min(until, info.now)
    left = rules.vacation * DAY - seat.vacation_used
    return max(0.0, min(end - start, left))


def is_away(seat: SeatInfo, now: float) -> bool:
    return (
        seat.away is not None
        and seat.away[0] <= now
        and (seat.away[1] is None or now < seat.away[1])
    )


def deadline(info: TableInfo) -> float | None:
    """When the seat to move runs out of time (store clock, seconds since the epoch), or
    None: no clock, no person to move, or the computer plays that seat anyway."""
    if info.rules.turn_limit is None or info.status != "playing" or info.to_move_seat is None:
        return None
    seat = info.seats[info.to_move_seat]
    if seat.is_bot or seat.pilot is not None or info.turn_since is None:
        return None
    return info.turn_since + info.rules.turn_limit + seat.paused + away_credit(info, seat)


def clock_paused(info: TableInfo) -> bool:
    """The seat to move is away with vacation left: its clock stands still."""
    if info.to_move_seat is None or deadline(info) is None:
        return False
    seat = info.seats[info.to_move_seat]
    if not is_away(seat, info.now):
        return False
    return info.rules.vacation * DAY - seat.vacation_used - away_credit(info, seat) > 0


def seconds_left(info: TableInfo) -> float | None:
    d = deadline(info)
    return None if d is None else d - info.now


def pilot_reason(info: TableInfo) -> str | None:
    """Why the computer plays the seat to move now (LEFT, TIMEOUTS, AWAY, TIMEOUT), or None:
    a computer seat's own turn, a person's turn, or a game not being played."""
    if info.status != "playing" or info.to_move_seat is None:
        return None
    seat = info.seats[info.to_move_seat]
    if seat.is_bot or seat.user is None:
        return None
    if seat.pilot is not None:
        return seat.pilot
    if is_away(seat, info.now) and info.rules.vacation <= 0:
        return AWAY
    if info.rules.on_timeout == COMPUTER and not clock_paused(info):
        left = seconds_left(info)
        if left is not None and left <= 0:
            return TIMEOUT
    return None


def clock_text(info: TableInfo) -> str:
    """The clock of the seat to move in words ("4:59 left", "paused (away)"), or ""."""
    reason = pilot_reason(info)
    if reason is not None:
        return f"computer plays ({reason})"
    left = seconds_left(info)
    if left is None:
        return ""
    if clock_paused(info):
        return "clock paused (away)"
    if left <= 0:
        return "time is up (the table waits)"
    return f"{shown_duration(left)} left"


REASONS = {
    LEFT: "left the table",
    TIMEOUTS: f"missed {STRIKES_OUT} turns in a row",
    AWAY: "is away",
    TIMEOUT: "ran out of time",
}
