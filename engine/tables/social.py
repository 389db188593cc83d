"""What a group around a table does besides moving: rematches, private tables (invite codes),
who may watch, table talk, and the limits (open tables per user, abandoned tables).

The rules are here, written once in the shared SQL of `sqlstore` (a mixin of `SQLStore`), so
both backends enforce them alike, each change in one transaction.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from ..core import HUMAN, Match
from ..core.match import now_iso
from ..core.registry import get_game
from .store import (
    ABANDONED,
    ID_ALPHABET,
    PLAYING,
    SPECTATE_NONE,
    SPECTATE_PLAYERS,
    WAITING,
    Refused,
    SeatInfo,
    TableInfo,
    new_table_probe,
    normalize_id,
    owe_notice,
    talk_notice,
)

if TYPE_CHECKING:
    from .sqlstore import Sql

MAX_OPEN = 30  # unfinished tables a user may sit at (0: no limit)
ABANDON_DAYS = 30  # a table with no move for this long is ended as abandoned
TALK_MAX = 200  # characters in one message
TALK_GAP = 1.0  # seconds between two messages of one user
TALK_KEEP = 200  # the latest messages read back
CODE_LENGTH = 8  # an invite code: 8 of ID_ALPHABET, shown as two groups of four
# a "player" of a store, for `--spectators players`: someone seated at a table together with
# another person (a seat of one's own against the computer is no such thing: anyone can make it)
PLAYED_WITH_SOMEONE = (
    'SELECT 1 FROM bg_seats a JOIN bg_seats b ON b.table_id = a.table_id AND b."user" IS NOT '
    'NULL AND b."user" <> a."user" WHERE a."user" = ? LIMIT 1'
)


def default_max_open() -> int:
    """$BOARDGAMES_MAX_OPEN (a room's `serve --max-open`), else MAX_OPEN."""
    value = os.environ.get("BOARDGAMES_MAX_OPEN", "").strip()
    return int(value) if value.isdigit() else MAX_OPEN


@dataclass(frozen=True, slots=True)
class Talk:
    """One message said at a table (`moves`: how many moves were played when it was said)."""

    n: int
    user: str
    spectator: bool
    at: str
    moves: int
    text: str


def clean_talk(text: object) -> str:
    """A message as stored: one line, no control or format characters, spaces squeezed."""
    out = []
    for ch in str(text):
        cat = unicodedata.category(ch)
        if ch in "\t\n\r" or cat in ("Zl", "Zp"):
            out.append(" ")
        elif cat not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append(ch)
    return " ".join("".join(out).split())


def show_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normalize_code(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch not in "- \t")


def looks_like_code(text: str) -> bool:
    """An invite code rather than a table id (`table join` takes either)."""
    return len(normalize_code(text)) == CODE_LENGTH


def rotated_seats(info: TableInfo, user: str) -> list[SeatInfo]:
    """A rematch's seats: the old ones moved up by one (the next seat starts), computers
    kept, `user` seated, every other person's seat offered to them."""
    old = info.seats
    seats = []
    for i in range(len(old)):
        src = old[(i + 1) % len(old)]
        if src.is_bot:
            seats.append(SeatInfo(i, src.kind))
        elif src.user == user:
            seats.append(SeatInfo(i, HUMAN, user))
        else:
            seats.append(SeatInfo(i, HUMAN, None, offered=src.user or src.offered))
    return seats


class SocialSQL(ABC):
    """The social operations of an SQL store (see the module's docstring)."""

    ROW_LOCK = ""

    @abstractmethod
    def _tx(
        self, write: bool = True, snapshot: bool = False
    ) -> contextlib.AbstractContextManager[Sql]: ...

    @abstractmethod
    def _info(self, q: Sql, table_id: str, lock: bool = False) -> TableInfo: ...

    @abstractmethod
    def _match(self, q: Sql, info: TableInfo) -> Match: ...

    @abstractmethod
    def _as(self, user: str | None) -> None: ...

    @abstractmethod
    def _sit(self, q: Sql, info: TableInfo, seat: int, user: str, max_open: int | None) -> int: ...

    @abstractmethod
    def _insert_new(self, q: Sql, probe: TableInfo) -> TableInfo: ...

    # ---- limits ----------------------------------------------------------------------------
    def _check_open_count(self, q: Sql, user: str, max_open: int | None) -> None:
        limit = default_max_open() if max_open is None else max_open
        if limit <= 0:
            return
        row = q.one(
            'SELECT count(*) FROM bg_seats s JOIN bg_tables t ON t.id = s.table_id WHERE s."user" = ? '
            "AND t.status IN (?, ?)",
            (user, WAITING, PLAYING),
        )
        n = int(row[0]) if row else 0
        if n >= limit:
            raise Refused(
                f"{user} sits at {n} unfinished tables already (at most {limit}): finish one "
                "first, or raise the limit with --max-open"
            )

    def open_tables(self, user: str) -> int:
        """How many unfinished tables `user` sits at."""
        with self._tx(write=False) as q:
            row = q.one(
                "SELECT count(*) FROM bg_seats s JOIN bg_tables t ON t.id = s.table_id "
                'WHERE s."user" = ? AND t.status IN (?, ?)',
                (user, WAITING, PLAYING),
            )
        return int(row[0]) if row else 0

    def end_abandoned(self, now: float | None = None, days: float = ABANDON_DAYS) -> list[str]:
        """End every unfinished table with no change for `days` (a move, an undo, a seat
        taken: `updated`): its status becomes abandoned, and each person seated is told
        through their notification targets. The ids ended. Cheap when there are none: one
        read of the index on `updated`."""
        stamp = datetime.fromtimestamp(time.time() if now is None else now, UTC)
        cutoff = (stamp - timedelta(days=days)).replace(microsecond=0).isoformat()
        idle = "SELECT id FROM bg_tables WHERE status IN (?, ?) AND updated < ?"
        with self._tx(write=False) as q:
            if not q(idle, (PLAYING, WAITING, cutoff)):
                return []
        ended = []
        with self._tx() as q:
            for (tid,) in q(idle, (PLAYING, WAITING, cutoff)):
                info = self._info(q, str(tid), lock=True)
                if info.finished or info.updated >= cutoff:  # someone moved meanwhile
                    continue
                q(
                    "UPDATE bg_tables SET status = ?, rev = rev + 1, updated = ? WHERE id = ?",
                    (ABANDONED, now_iso(), info.id),
                )
                self._tell_abandoned(q, info, days)
                ended.append(info.id)
        return ended

    TARGET_NUMBERS = "bg_targets"  # where the targets' numbers are read (PostgreSQL: a view)

    def _tell_offered(self, q: Sql, made: TableInfo, old: TableInfo, user: str) -> None:
        """Each person offered a seat at a rematch is told (a notice about the table)."""
        title = f"Rematch offered: {get_game(made.game).title} at table {made.id}"
        body = (
            f"{user} opened a rematch of table {old.id} ({get_game(made.game).title}) with "
            f"the same people.\nAccept: boardgames-tui table join {made.id}"
        )
        for s in made.seats:
            if s.offered is None:
                continue
            owe_notice(q, self.TARGET_NUMBERS, made.id, -1, s.offered, title, body)

    def _tell_abandoned(self, q: Sql, info: TableInfo, days: float) -> None:
        title = f"Table {info.id} abandoned: {get_game(info.game).title}"
        body = (
            f"Table {info.id} ({get_game(info.game).title}) had no move for {days:g} days and "
            f"has been ended as abandoned after {info.moves} moves.\n"
            f"Play it again: boardgames-tui table rematch {info.id}"
        )
        for s in info.seats:
            if s.user is None:
                continue
            # n < 0: about the table, not a turn (never dropped as a passed turn)
            owe_notice(q, self.TARGET_NUMBERS, info.id, -(info.moves + 1), s.user, title, body)

    # ---- watching ------------------------------------------------------------------------
    def _watch_refusal(self, q: Sql, info: TableInfo, user: str) -> str | None:
        if info.seat_of(user) is not None or info.offered_to(user) is not None:
            return None
        if info.private:  # its id is no key: only those it let in (a seat, an offer) see it
            return f"table {info.id} is private: only its players see it"
        if info.spectators == SPECTATE_NONE:
            return f"table {info.id} has no spectators: only its players see it"
        if info.spectators == SPECTATE_PLAYERS and q.one(PLAYED_WITH_SOMEONE, (user,)) is None:
            return (
                f"table {info.id} may be watched only by players (people who sit at a table "
                f"here with someone else); {user} does not"
            )
        return None

    def check_watch(self, table_id: str, user: str) -> TableInfo:
        """The table, if `user` may see it (a player, or a spectator its setting allows);
        Refused, one line, if not."""
        with self._tx(write=False) as q:
            info = self._info(q, table_id)
            why = self._watch_refusal(q, info, user)
        if why:
            raise Refused(why)
        return info

    # ---- rematch ---------------------------------------------------------------------------
    def rematch(
        self,
        table_id: str,
        user: str,
        seed: int | None = None,
        max_open: int | None = None,
        chosen: bool = False,
    ) -> tuple[TableInfo, bool]:
        """The rematch of a finished table: the same game, options and people, the next seat
        starting, a new seed (as `create`'s: None draws one, `chosen` only at a table of one
        person against computers); `user` seated, the others' seats offered to them. Asked
        again (by anyone) it is the same table: (the table, True if made now)."""
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            if info.seat_of(user) is None:
                raise Refused(
                    f"you ({user}) did not play at table {info.id}: only its players can ask "
                    "for a rematch"
                )
            if not info.finished:
                raise Refused(f"table {info.id} is not over yet: a rematch follows a finished game")
            row = q.one("SELECT rematch FROM bg_rematches WHERE table_id = ?", (info.id,))
            if row is not None:
                return self._info(q, str(row[0])), False
            self._check_open_count(q, user, max_open)
            probe = new_table_probe(
                info.game,
                rotated_seats(info, user),
                info.options,
                seed,
                user,
                info.settings,
                info.rules,  # the same clock too
                chosen,
            )
            made = self._insert_new(q, probe)
            q("INSERT INTO bg_rematches (table_id, rematch) VALUES (?, ?)", (info.id, made.id))
            self._tell_offered(q, made, info, user)
            q("UPDATE bg_tables SET rev = rev + 1 WHERE id = ?", (info.id,))
            return made, True

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the table's rematch, if one was opened."""
        with self._tx(write=False) as q:
            row = q.one(
                "SELECT rematch FROM bg_rematches WHERE table_id = ?", (normalize_id(table_id),)
            )
        return None if row is None else str(row[0])

    # ---- private tables --------------------------------------------------------------------
    def invite(self, table_id: str, user: str) -> str:
        """A new invite code (shown as `abcd-efgh`) that takes an open seat at the table once;
        only a player there may make one, while a seat is open."""
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            if info.seat_of(user) is None:
                raise Refused(
                    f"you ({user}) have no seat at table {info.id}: only its players invite"
                )
            if info.finished:
                raise Refused(f"table {info.id} is over: nobody can join it")
            if info.first_open() is None:
                raise Refused(f"table {info.id} has no open seat to invite anyone to")
            code = "".join(secrets.choice(ID_ALPHABET) for _ in range(CODE_LENGTH))
            q(
                "INSERT INTO bg_invites (code, table_id, made_by, made) VALUES (?, ?, ?, ?)",
                (code, info.id, user, now_iso()),
            )
        return show_code(code)

    def join_code(self, code: str, user: str, max_open: int | None = None) -> tuple[str, int]:
        """Take the seat an invite code opens: (table id, seat). A code works once; its
        user asking again keeps their seat."""
        self._as(user)
        key = normalize_code(code)
        with self._tx() as q:
            row = q.one(
                f"SELECT table_id, used_by FROM bg_invites WHERE code = ?{self.ROW_LOCK}", (key,)
            )
            if row is None:
                raise Refused(
                    f"no invite code {code.strip()!r} (a player makes one: `table invite ID`)"
                )
            info = self._info(q, str(row[0]), lock=True)
            mine = info.seat_of(user)
            if row[1] is not None:
                if row[1] == user and mine is not None:
                    return info.id, mine
                raise Refused(
                    f"invite code {show_code(key)} was used already (by {row[1]}): ask for a new one"
                )
            if mine is not None:
                return info.id, mine
            if info.finished:
                raise Refused(f"table {info.id} is over: nobody can join it")
            seat = info.offered_to(user)
            seat = info.first_open() if seat is None else seat
            if seat is None:
                raise Refused(f"table {info.id} has no open seat left")
            used = q.count(
                "UPDATE bg_invites SET used_by = ?, used = ? WHERE code = ? AND used_by IS NULL",
                (user, now_iso(), key),
            )
            if used != 1:
                raise Refused(f"invite code {show_code(key)} was used already: ask for a new one")
            return info.id, self._sit(q, info, seat, user, max_open)

    # ---- table talk ------------------------------------------------------------------------
    def say(self, table_id: str, user: str, text: str, now: float | None = None) -> Talk:
        """Say `text` at the table: a player, or a spectator who may watch it; at most
        TALK_MAX characters, one message a second per user (Refused, one line, if not)."""
        self._as(user)
        body = clean_talk(text)
        if not body:
            raise Refused("nothing to say: the message is empty")
        if len(body) > TALK_MAX:
            raise Refused(f"a message is at most {TALK_MAX} characters (this one has {len(body)})")
        now = time.time() if now is None else now
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            spectator = info.seat_of(user) is None
            why = self._watch_refusal(q, info, user) if spectator else None
            if why or (spectator and info.offered_to(user) is not None):
                raise Refused(f"you ({user}) are not at table {info.id}: {why or 'join it first'}")
            q(
                'INSERT INTO bg_talkers ("user", last) VALUES (?, ?) ON CONFLICT DO NOTHING',
                (user, 0.0),
            )
            if not q.count(
                'UPDATE bg_talkers SET last = ? WHERE "user" = ? AND last <= ?',
                (now, user, now - TALK_GAP),
            ):
                raise Refused("one message a second: wait a moment, then say it again")
            top = q.one("SELECT coalesce(max(n), 0) FROM bg_talk WHERE table_id = ?", (info.id,))
            n = int(top[0] if top else 0) + 1
            at = now_iso()
            q(
                'INSERT INTO bg_talk (table_id, n, "user", spectator, at, moves, body) '
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (info.id, n, user, int(spectator), at, info.moves, body),
            )
            q("UPDATE bg_tables SET rev = rev + 1 WHERE id = ?", (info.id,))
            if not spectator or info.finished:  # (players do not hear the gallery mid-game)
                title = get_game(info.game).title
                for s in info.seats:
                    if s.user is not None and s.user != user:
                        said = talk_notice(info, title, user, body, s.user)
                        owe_notice(q, self.TARGET_NUMBERS, info.id, -n, s.user, *said, "talk")
        return Talk(n, user, spectator, at, info.moves, body)

    def talk(self, table_id: str, user: str) -> list[Talk]:
        """The messages `user` may read at the table, oldest first: while the game runs a
        player does not see the spectators' (no hints from the gallery)."""
        with self._tx(write=False) as q:
            info = self._info(q, table_id)
            hide = info.seat_of(user) is not None and not info.finished
            rows = q(
                'SELECT n, "user", spectator, at, moves, body FROM bg_talk WHERE table_id = ? '
                + ("AND spectator = 0 " if hide else "")
                + "ORDER BY n DESC LIMIT ?",
                (info.id, TALK_KEEP),
            )
        return [
            # cleaned again on the way out: a row written behind the app's back is data too
            Talk(int(n), clean_talk(u), bool(s), str(a), int(m), clean_talk(b))
            for n, u, s, a, m, b in reversed(rows)
        ]


def table_group(info: TableInfo, user: str, plays_here: bool) -> str | None:
    """Where a table is listed for `user`: yours, offered (a rematch for you to accept),
    open (to join), others (to watch), damaged (its rows make no sense), or None: not listed
    (private, or not to be watched)."""
    if info.damage is not None:
        return "damaged"
    if info.seat_of(user) is not None:
        return "yours"
    if info.offered_to(user) is not None:
        return "offered"
    if info.private:
        return None
    if info.status == WAITING and info.first_open() is not None:
        return "open"
    if info.spectators == SPECTATE_NONE or (info.spectators == SPECTATE_PLAYERS and not plays_here):
        return None
    return "others"


def listed(infos: list[TableInfo], user: str) -> list[tuple[str, TableInfo]]:
    """The tables `user` sees listed, grouped, and in order: yours (your turn first, the
    longest waiting first), offered, open, others."""
    plays_here = any(
        i.seat_of(user) is not None and any(s.user not in (None, user) for s in i.seats)
        for i in infos
    )
    order = {"yours": 0, "offered": 1, "open": 2, "others": 3, "damaged": 4}
    rows = [(g, i) for i in infos if (g := table_group(i, user, plays_here)) is not None]
    rows.sort(key=lambda r: r[1].updated if r[1].your_turn(user) else "")
    rows.sort(key=lambda r: (order[r[0]], not r[1].your_turn(user), r[1].finished))
    return rows


def talk_lines(talk: Sequence[Talk]) -> list[str]:
    """The messages as plain lines (`table show`): who, then what, marked apart from moves."""
    return [f"{'(watching) ' if t.spectator else ''}{t.user}: {t.text}" for t in talk]


__all__ = [
    "ABANDON_DAYS",
    "MAX_OPEN",
    "TALK_GAP",
    "TALK_MAX",
    "SocialSQL",
    "Talk",
    "clean_talk",
    "listed",
    "looks_like_code",
    "table_group",
    "talk_lines",
]
