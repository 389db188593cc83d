"""Shared tables: what a table is, the store interface, and the rules every backend enforces.

A table is one match played by several people, each from their own terminal: a game, its
options and seed, the seats (a user, an open seat, or a computer level), and the ordered list
of moves (the same move ids as saves). The store keeps tables; a backend (SQLite now, a server
database later) only has to provide the methods of `TableStore` with one guarantee: `append`
and `undo` are transactions that check the move number, so racing terminals can never lose,
duplicate or reorder a move. What makes a move acceptable is decided here, by `check_append`
and `check_undo`, the same for every backend.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import re
import secrets
import time
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from ..core import BOT_LEVELS, HUMAN, Match, Seat
from ..core.match import Step, now_iso
from ..core.protocol import IllegalMove, SetupError
from ..core.registry import UnknownGame, get_game
from ..core.saves import saves_dir
from .clock import AUTOPILOT, REASONS, ClockRules, pilot_reason
from .results import RESULT_TABLES, UNRATED, TableResult

OPEN = "open"
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
ABANDONED = "abandoned"  # ended with no move for ABANDON_DAYS: over, without a result
SPECTATE_NONE, SPECTATE_PLAYERS, SPECTATE_ANYONE = "none", "players", "anyone"
SPECTATOR_SETTINGS = (SPECTATE_NONE, SPECTATE_PLAYERS, SPECTATE_ANYONE)
DAMAGED = "damaged"  # a table whose stored rows make no sense: listed, never played
LEASE_SECONDS = 5.0  # a computer seat's player: renewed while it plays, taken over after this
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read out and type
ID_LENGTH = 5
USER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,15}$")
RESERVED = {OPEN, *BOT_LEVELS, "human"}  # never a stored seat's user
# nor a name given now: what the app calls itself (the computer playing a person's turn,
# `me` in a list of seats), and anything that looks like one of them
RESERVED_NAMES = {*RESERVED, AUTOPILOT, "me"}
# characters that look alike in a terminal's font, read as one (after NFKC and case folding)
LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "_": "-", ".": "-"})


def name_key(name: str) -> str:
    """What a name looks like: two names with the same key are one name to a reader (`Alice`,
    `ALICE`, `a1ice`, `alice` in full-width letters)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return text.replace("rn", "m").replace("vv", "w").translate(LOOKALIKE)


_RESERVED_KEYS = {name_key(n): n for n in RESERVED_NAMES}
# where a table's seed comes from (`bg_tables.seed_kind`): drawn by the store and kept from
# every seat until the table ends; chosen by the one person at a table against computers
# (never rated); or shown when the table was made, by a version before store format 6
SEED_SECRET, SEED_CHOSEN, SEED_SHOWN = "secret", "chosen", "shown"
SEED_BITS = 64
SEED_REFUSAL = (
    "a seed can be chosen only at a table of one person against computers: whoever knows "
    "the seed knows every hand and every draw"
)


class StoreError(Exception):
    """Anything a table command cannot do, as one sentence for the user."""


class StoreUnavailable(StoreError):
    """The store itself: missing, unwritable, locked for too long, or not a table store."""


class NoStore(StoreUnavailable):
    """There is no table store at that address (yet)."""


class Disconnected(StoreUnavailable):
    """The store's server cannot be reached right now; the next call tries again."""


class UnknownTable(StoreError):
    def __init__(self, table_id: str) -> None:
        super().__init__(f"no table {table_id!r} (see `table list`)")
        self.table_id = table_id


class Damaged(StoreError):
    """A table whose stored rows make no sense (edited by hand, or written by a fault): it is
    listed as damaged, and every action on it gives this one line; the others go on."""

    def __init__(self, table_id: object, problem: str) -> None:
        self.table_id, self.problem = shown_id(table_id), printable(problem)
        super().__init__(f"table {self.table_id} is damaged: {self.problem}")


def printable(text: object, limit: int = 300) -> str:
    """`text` on one line with every character a terminal would obey written as an escape
    (`\\x1b`): a stored value quoted in a message is data, whatever it holds."""
    out = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))
    return out if len(out) <= limit else out[: limit - 1] + "…"


def quoted(value: object, limit: int = 40) -> str:
    """A stored value quoted for a message (repr: unprintable characters escaped)."""
    if not isinstance(value, str):
        return printable(repr(value), limit)
    return repr(value if len(value) <= limit else value[:limit] + "…")


ID_RE = re.compile(r"^[a-z0-9]{1,16}$")


def shown_id(table_id: object) -> str:
    """A table id as printed: itself, or quoted when it is not one a table could have."""
    text = str(table_id)
    return text if ID_RE.match(text) else quoted(text, 20)


class Refused(StoreError):
    """A move, undo or join the rules of the table do not allow (not your seat, not your
    turn, an illegal move, the table is over)."""


class Stale(Refused):
    """The caller's picture of the table is out of date: someone else moved first."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"table {table_id} has moved on: {actual} moves played, not {expected} (reload it)"
        )
        self.expected, self.actual = expected, actual


def default_user() -> str:
    """The name of the account this process runs as, as a valid user name ("player" if it
    has none). Not $USER or $LOGNAME: anyone can set those."""
    try:
        import pwd

        name = pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):  # no passwd entry (a container): the login, if any
        try:
            name = getpass.getuser()
        except Exception:
            name = ""
    name = re.sub(r"[^A-Za-z0-9._-]", "", name)[:16].lstrip("._-")
    return name if name and name_key(name) not in _RESERVED_KEYS else "player"


def check_claim(location: str, user: str) -> None:
    """StoreError (one line) when this process may not act as `user` at the SQLite store at
    `location`: a name other than the login name is taken only by the store file's owner (a
    room's service account); on a shared file anyone who can write it could claim any seat.
    A server store enforces identity itself (database roles)."""
    if is_server_url(location) or user == default_user():
        return
    try:
        owner = Path(location).stat().st_uid
    except OSError:  # no store yet (this process makes it, and owns it), or none to open
        return
    if owner == os.geteuid():
        return
    raise StoreError(
        f"--user {user}: you are {default_user()}, and the table store {location} belongs to "
        f"{_account(owner)}: anyone who can write a shared file could claim any seat, so only "
        "its owner may play under another name; players whose identity is enforced use the "
        "ssh room (boardgames-tui serve, docs/ssh.md) or a PostgreSQL store with a database "
        "role each (docs/tables.md)"
    )


def _account(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"user id {uid}"


def check_user(name: str, stored: bool = False) -> str:
    """A user name as given, or StoreError saying what a user name may be; `stored`: a name
    read from a store's rows (written before more names were reserved)."""
    if not USER_RE.match(name or ""):
        raise StoreError(
            f"user name {name!r}: 1-16 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    if name.lower() in RESERVED or (not stored and name_key(name) in _RESERVED_KEYS):
        like = _RESERVED_KEYS.get(name_key(name), name.lower())
        what = "is reserved" if like == name.lower() else f"looks like {like!r}, a reserved name"
        raise StoreError(
            f"user name {name!r} {what} (the app's own names: open, me, autopilot and the "
            "computer levels)"
        )
    return name


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that a reader would take for `name` (not `name` itself)."""
    key = name_key(name)
    return next((o for o in others if o != name and name_key(o) == key), None)


def default_store_path() -> Path:
    """`tables.sqlite` in the app's data folder (the parent of the saves folder)."""
    return saves_dir(None).parent / "tables.sqlite"


def store_path(override: str | os.PathLike[str] | None = None) -> Path:
    """--store PATH, else $BOARDGAMES_STORE, else the default in the data folder."""
    chosen = override or os.environ.get("BOARDGAMES_STORE")
    return Path(chosen).expanduser() if chosen else default_store_path()


SERVER_SCHEMES = ("postgresql://", "postgres://")


def store_location(override: str | os.PathLike[str] | None = None) -> str:
    """--store, else $BOARDGAMES_STORE, else the default file: a server URL or a path."""
    chosen = str(override or os.environ.get("BOARDGAMES_STORE") or "")
    return chosen if is_server_url(chosen) else str(store_path(override))


def is_server_url(location: str | os.PathLike[str] | None) -> bool:
    """A PostgreSQL address (`postgresql://…`) rather than a SQLite file."""
    return str(location or "").startswith(SERVER_SCHEMES)


def draw_seed() -> int:
    """A table's seed: SEED_BITS from the operating system's CSPRNG (no seat can guess it)."""
    return secrets.randbits(SEED_BITS)


def seed_to_row(seed: int) -> int:
    """A seed as the store's signed 64-bit column holds it (two's complement above 2**63)."""
    return seed - (1 << SEED_BITS) if seed >= 1 << (SEED_BITS - 1) else seed


def seed_from_row(value: int) -> int:
    """The seed a stored value stands for (a seed below 2**63 is stored as it is)."""
    return value % (1 << SEED_BITS)


def solo(seats: Sequence[SeatInfo]) -> bool:
    """One person (seated, not an open or offered seat) against computers only."""
    people = [s for s in seats if not s.is_bot]
    return len(people) == 1 and people[0].user is not None


def new_table_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def normalize_id(table_id: str) -> str:
    return table_id.strip().lower()


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat at a table: a person's seat (`user` None while it is open) or a computer."""

    seat: int
    kind: str = HUMAN  # HUMAN or a computer level
    user: str | None = None
    _: KW_ONLY
    # the clock (see clock.py): why the computer plays this person's seat (None: they do),
    # timeouts in a row, vacation seconds banked in this turn and in the whole game, and
    # the owner's time away (store clock: since, until or None), if any
    pilot: str | None = None
    strikes: int = 0
    paused: float = 0.0
    vacation_used: float = 0.0
    away: tuple[float, float | None] | None = None
    offered: str | None = None  # an open seat kept for this user (a rematch): theirs to take

    @property
    def is_open(self) -> bool:
        return self.kind == HUMAN and self.user is None

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN

    @property
    def label(self) -> str:
        """The user, the computer level, "open", or "bob?" while offered to bob."""
        if self.offered and self.user is None:
            return f"{self.offered}?"
        return self.user or (self.kind if self.is_bot else OPEN)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as listed: everything but the moves themselves."""

    id: str
    game: str
    seed: int
    options: dict[str, str]
    settings: dict[str, Any]  # strict, private (bools), spectators (SPECTATOR_SETTINGS)
    creator: str
    created: str
    updated: str
    status: str  # WAITING (open seats), PLAYING, FINISHED, ABANDONED; DAMAGED (see `damage`)
    moves: int
    rev: int  # bumped by every change (move, undo, join): a cheap "anything new?"
    to_move_seat: int | None
    seats: tuple[SeatInfo, ...] = field(default_factory=tuple)
    damage: str | None = None  # what is wrong with a damaged table's rows (one line)
    rules: ClockRules = field(default_factory=ClockRules)
    turn_since: float | None = None  # when the seat to move began its turn (store clock)
    timed_out: bool = False  # this turn has counted as a timeout already
    now: float = field(default=0.0, compare=False)  # the store's clock when this was read
    seed_kind: str = SEED_SECRET  # SEED_SECRET, SEED_CHOSEN or SEED_SHOWN

    @property
    def seed_secret(self) -> bool:
        """Nobody at the table may learn the seed yet: it was drawn and the game goes on."""
        return self.seed_kind == SEED_SECRET and not self.finished

    @property
    def seed_chosen(self) -> bool:
        """A person chose the seed (a table of one person against computers): never rated."""
        return self.seed_kind == SEED_CHOSEN

    @property
    def seed_note(self) -> str | None:
        """What a list or a table's page says about its seed (None: nothing to say)."""
        if self.seed_kind == SEED_CHOSEN:
            return "chosen seed (not rated)"
        if self.seed_kind == SEED_SHOWN and not self.finished:
            return "seed was shown (made before store format 6)"
        return None

    @property
    def shown_seed(self) -> int | None:
        """The seed where it may be shown: after the end, or one the person chose."""
        return self.seed if self.finished or self.seed_kind == SEED_CHOSEN else None

    @property
    def strict(self) -> bool:
        return bool(self.settings.get("strict"))

    @property
    def private(self) -> bool:
        """Not listed among the open tables: joined by an invite code (or an offered seat)."""
        return bool(self.settings.get("private"))

    @property
    def spectators(self) -> str:
        """Who may watch: none, players (people who play at some table here), anyone."""
        value = self.settings.get("spectators")
        return value if value in SPECTATOR_SETTINGS else SPECTATE_ANYONE

    @property
    def finished(self) -> bool:
        """Over: played to the end, or abandoned."""
        return self.status in (FINISHED, ABANDONED)

    @property
    def abandoned(self) -> bool:
        return self.status == ABANDONED

    @property
    def to_move(self) -> str | None:
        """Whose turn: the user, the computer level, "open"; None when the game is over."""
        if self.to_move_seat is None or self.finished:
            return None
        return self.seats[self.to_move_seat].label

    def seat_of(self, user: str) -> int | None:
        for s in self.seats:
            if s.user == user:
                return s.seat
        return None

    def first_open(self) -> int | None:
        """The first open seat anyone may take (not one offered to someone)."""
        return next((s.seat for s in self.seats if s.is_open and not s.offered), None)

    def offered_to(self, user: str) -> int | None:
        """The open seat kept for `user` (a rematch offered to them), if any."""
        return next((s.seat for s in self.seats if s.is_open and s.offered == user), None)

    def your_turn(self, user: str) -> bool:
        """`user` is to move (not while the computer plays their seat for them)."""
        if self.status != PLAYING or self.to_move != user or self.to_move_seat is None:
            return False
        return self.seats[self.to_move_seat].pilot is None


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    """The players' names inside the match: users (the one a seat is offered to, too),
    "Greedy bot", "Seat 2" while open."""
    names = []
    for s in seats:
        if s.user or s.offered:
            name = s.user or s.offered or ""
        elif s.is_bot:
            name = f"{s.kind.capitalize()} bot"
            k = 2
            while name in names:
                name = f"{s.kind.capitalize()} bot {k}"
                k += 1
        else:
            name = f"Seat {s.seat + 1}"
        names.append(name)
    return names


def build_match(info: TableInfo, move_ids: Sequence[str], autopilot: Sequence[int] = ()) -> Match:
    """The table's match, replayed through the rules (StoreError if a move does not replay)."""
    names = seat_names(info.seats)
    seats = [Seat(n, s.kind) for n, s in zip(names, info.seats, strict=True)]
    try:
        game = get_game(info.game)
        match = Match.new(game, seats, game.recorded_options(info.options), info.seed)
    except (SetupError, KeyError, ValueError, TypeError) as exc:  # KeyError: UnknownGame too
        raise Damaged(info.id, f"it cannot be set up: {exc}") from None
    match.settings.update({"handover": False, "strict": info.strict})
    match.created = info.created
    extend_match(match, info, move_ids)
    match.autopilot = set(autopilot)
    return match


def extend_match(match: Match, info: TableInfo, move_ids: Sequence[str]) -> None:
    for n in range(match.cursor, len(move_ids)):
        try:
            match.play(move_ids[n])
        except IllegalMove as exc:
            raise Damaged(
                info.id, f"move {n + 1} ({quoted(move_ids[n])}) does not replay: {exc}"
            ) from None


def parse_seats(text: str, creator: str) -> list[SeatInfo]:
    """`alice,bob,open,greedy` -> seats; a user may sit once; `me` is the creator."""
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in parts):
        raise StoreError(f"seats {text!r}: give users, open or levels separated by commas")
    seats: list[SeatInfo] = []
    users: set[str] = set()
    for i, part in enumerate(parts):
        low = part.lower()
        if low == OPEN:
            seats.append(SeatInfo(i))
        elif low in BOT_LEVELS:
            seats.append(SeatInfo(i, low))
        else:
            user = creator if low == "me" else check_user(part)
            if user in users:
                raise StoreError(f"seats: {user} can sit at a table only once")
            users.add(user)
            seats.append(SeatInfo(i, HUMAN, user))
    return seats


def offered_seats(text: str, creator: str) -> list[SeatInfo]:
    """The seats of a table `creator` makes (`parse_seats`), each other person's seat offered
    to them rather than taken for them: an invitation they accept (`table join`), counted
    toward nobody's limit until then, never a turn they did not choose."""
    return [
        SeatInfo(s.seat, s.kind, None, offered=s.user) if s.user not in (None, creator) else s
        for s in parse_seats(text, creator)
    ]


def check_append(
    info: TableInfo, match: Match, user: str | None, move_id: str, lease_ok: bool
) -> int:
    """The seat that plays `move_id` now, or Refused saying why it may not.

    `user` None with `lease_ok` True: a process holding the table's computer lease plays a
    computer seat, or a person's seat the computer plays now (`clock.pilot_reason`, at the
    store's clock in `info.now`). The move number is checked by the backend before this is
    called.
    """
    if info.abandoned:
        raise Refused(f"table {info.id} was abandoned (no move for a long time): no more moves")
    if info.finished or match.prompt is None:
        raise Refused(f"table {info.id} is over: no more moves")
    if info.status == WAITING:
        raise Refused(f"table {info.id} is waiting for players to join (open seats)")
    prompt = match.prompt
    seat = info.seats[prompt.seat]
    reason = None if seat.is_bot else pilot_reason(info)
    if seat.is_bot:
        if user is not None or not lease_ok:
            raise Refused(f"not your turn at table {info.id}: the computer ({seat.kind}) plays")
    elif user is None:
        if not lease_ok or reason is None:
            raise Refused(f"not the computer's turn at table {info.id}: {seat.label} is to move")
    else:
        mine = info.seat_of(user)
        if mine is None:
            raise Refused(f"you ({user}) have no seat at table {info.id}")
        if seat.user != user:
            raise Refused(f"not your turn at table {info.id}: {seat.label} is to move")
        if reason is not None:
            raise Refused(pilot_refusal(info, reason))
    try:
        prompt.move(move_id)
    except IllegalMove:
        raise Refused(
            f"{move_id!r} is not a legal move at table {info.id} now (see `table show {info.id}`)"
        ) from None
    return prompt.seat


def pilot_refusal(info: TableInfo, reason: str) -> str:
    """Why a person may not move at their own seat now: the computer plays it."""
    level = info.rules.autopilot
    if reason == "timeout":
        return (
            f"your time for this turn at table {info.id} ran out: the computer ({level}) plays it"
        )
    if reason == "away":
        return (
            f"you are away (table {info.id} allows no vacation): the computer ({level}) plays "
            "for you; `table away --off` when you are back"
        )
    return (
        f"you {REASONS[reason]} at table {info.id}: the computer ({level}) plays your seat; "
        f"take it back with `table reclaim {info.id}`"
    )


def check_undo(info: TableInfo, match: Match, user: str) -> None:
    """Undo on a table: only your own last move, while nobody has moved since, and only if
    it revealed nothing; never at a strict table."""
    if info.strict:
        raise Refused(f"table {info.id} is strict: no undo")
    if not match.steps:
        raise Refused("nothing to undo")
    last = match.steps[-1]
    owner = info.seats[last.seat]
    if len(match.steps) in match.autopilot:
        raise Refused("the computer played that move for you (autopilot): it stands")
    if owner.user != user:
        raise Refused("only your own last move can be taken back (someone has moved since)")
    if last.reveal:
        raise Refused("that move revealed hidden information or drew by chance: it stands")


def taken_back(
    shown: Sequence[Step], match: Match, viewer: int | None, me: int | None = None
) -> list[str]:
    """What a screen says when moves it showed are gone from the table (someone took them
    back at another terminal): one line per move, the last taken back first, each naming
    the move as `viewer` read it ("alice took back “alice keeps a card…”"; "You took back"
    for `me`'s own seat, played at another terminal). `shown`: the steps the screen showed."""
    now = match.steps[: match.cursor]
    same = 0
    while same < min(len(shown), len(now)) and shown[same].move_id == now[same].move_id:
        same += 1
    out = []
    for index in range(len(shown), same, -1):
        step = shown[index - 1]
        lines = step.lines_for(viewer)
        if index == 1:  # the first move's log opens with the setup's lines: not the move
            lines = lines[len(getattr(match.state_at(0), "opening", ())) :]
        line = lines[0] if lines else step.label_for(viewer)
        who = "You" if me is not None and step.seat == me else match.seats[step.seat].name
        out.append(f"{who} took back “{line}”")
    return out


def public_view(match: Match, state: Any = None) -> dict[str, Any]:
    """What a spectator may see: only what every seat sees alike.

    Built from the seats' own views, so it can never show more than the seat that sees
    least: a value that differs between seats is hidden (None), a key some seat lacks is
    dropped, and a part about the viewing seat itself (a dict with its own `seat`) goes.
    """
    game = match.game
    state = match.state if state is None else state
    views = [game.view(state, s) for s in range(len(match.seats))]
    common: dict[str, Any] = _common(views)
    return common


def _common(values: list[Any]) -> Any:
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        if all("seat" in v for v in values) and len({repr(v["seat"]) for v in values}) > 1:
            return _DROP
        keys = [k for k in first if all(k in v for v in values)]
        out = {}
        for k in keys:
            c = _common([v[k] for v in values])
            if c is not _DROP:
                out[k] = c
        return out
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        items = [_common([v[i] for v in values]) for i in range(len(first))]
        return [None if x is _DROP else x for x in items]
    return None


_DROP = object()


def view_for(info: TableInfo, match: Match, user: str, state: Any = None) -> Mapping[str, Any]:
    """The view of `user`'s seat, or the public view for a spectator."""
    seat = info.seat_of(user)
    state = match.state if state is None else state
    if seat is not None:
        return match.game.view(state, seat)
    return public_view(match, state)


# ---- turn notifications: what is owed, shared by every backend -------------------------------
Run = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
"""One statement (`?` placeholders) in the backend's open transaction: its rows."""

NOTICE_HOLD = 30.0  # a claimed notice is another process's to send after this (a crash)
RETRY_SECONDS = 60.0  # a failed send is tried again after this, doubled each time
MAX_TRIES = 8
NOTICE_MOVES = 8  # at most this many lines of the others' moves in one message
HEARTBEAT = 20.0  # a session says it is here this often
PRESENT_SECONDS = 50.0  # and counts as here this long after it last did
MAX_TARGETS = 5  # notification targets a user may have
MAX_URL = 2048  # characters in a target's URL


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A line of a table's log that is not a move: after move `n`, at `at` (ISO time)."""

    n: int
    at: str
    text: str


@dataclass(frozen=True, slots=True)
class Target:
    """Where a user's turn notifications go: an Apprise URL, numbered per user."""

    n: int
    url: str
    added: str
    error: str | None = None  # the last failure, until a send succeeds
    talk: bool = False  # the table talk of the user's tables goes here too


@dataclass(frozen=True, slots=True)
class Notice:
    """One message owed: table `table_id` became `user`'s turn at move count `n`."""

    table_id: str
    n: int
    user: str
    target: int
    url: str
    title: str
    body: str
    tries: int
    kind: str = "turn"  # or "remind": the reminder after hours of waiting on the same turn


def turn_notice(info: TableInfo, match: Match, actor: str | None) -> tuple[str, str, str] | None:
    """(user, title, body) when the change `actor` just committed made it a person's turn.

    Not when the person moving is the one who acted, nor when the last person to move was
    that person (one multi-part turn, or computers playing in between); `actor` None is a
    computer seat, played for the creator's table at the start. The body is the moves since
    the person's last one as their own log reads them (`moves_for`): never another seat's
    private choice."""
    if info.status != PLAYING or match.prompt is None:
        return None
    seat = info.seats[match.prompt.seat]
    if seat.is_bot or seat.user is None or seat.user == actor or pilot_reason(info):
        return None  # (nor when the computer plays for them: left, away without vacation)
    steps = match.steps[: match.cursor]
    person = next((st for st in reversed(steps) if not info.seats[st.seat].is_bot), None)
    if person is not None and person.seat == seat.seat:
        return None
    if person is None and actor is None and seat.user == info.creator:
        return None
    since = max((i + 1 for i, st in enumerate(steps) if st.seat == seat.seat), default=0)
    # stored names and labels are data: whatever they hold reaches nobody's terminal raw
    names = [printable(n, 40) for n in seat_names(info.seats)]
    done = [printable(line) for line in moves_for(match, seat.seat, since)]
    tid, game = shown_id(info.id), printable(match.game.title)
    title = f"Your turn: {game} at table {tid}"
    lines = [f"It is your turn ({names[seat.seat]}) at table {tid} ({game})."]
    if done:
        more = len(done) - NOTICE_MOVES
        lines.append("Since your last move:" if since > 0 else "So far:")
        if more > 0:
            lines.append(f"  … {more} earlier line(s)")
        lines += [f"  {d}" for d in done[-NOTICE_MOVES:]]
    lines.append(play_line(tid, seat.user))
    return seat.user, title, "\n".join(lines)


def moves_for(match: Match, reader: int, since: int = 0) -> list[str]:
    """The moves after the first `since`, as `reader` reads them in their own log: each
    move's log lines (the setup's lines left out), or, for a move that wrote none, the move
    as `reader` may read it, named with its seat ("alice: a hidden choice (Draft)"), once
    for consecutive steps alike."""
    out: list[str] = []
    for n in range(since + 1, match.cursor + 1):
        step = match.steps[n - 1]
        lines = step.lines_for(reader)
        if n == 1:  # the first move's log opens with the setup's lines: not the move
            lines = lines[len(getattr(match.state_at(0), "opening", ())) :]
        if lines:
            out += lines
            continue
        said = f"{match.seats[step.seat].name}: {step.label_for(reader)}"
        if not out or out[-1] != said:  # the steps of one hidden choice: said once
            out.append(said)
    return out


def play_line(table_id: str, user: str) -> str:
    """A message's last line: how `user` reaches the table. In a room (its sessions carry
    $BOARDGAMES_ROOM_PLAY, `ssh -p PORT {user}@HOST`) by ssh, never a host's command or path."""
    room = os.environ.get("BOARDGAMES_ROOM_PLAY", "")
    if room and "{user}" in room:
        login = printable(room.replace("{user}", user), 120)
        return f"Play: {login} (table {shown_id(table_id)} is in the menu)"
    return f"Play: boardgames-tui table show {shown_id(table_id)}"


def over_notice(info: TableInfo, match: Match, user: str) -> tuple[str, str] | None:
    """(title, body) of the one message each person seated (`user`) gets when the change
    just committed ended the game: the result as everyone reads it (public texts only)."""
    if info.status != FINISHED or match.prompt is not None:
        return None
    result = match.game.result(match.state)
    names = [printable(n, 40) for n in seat_names(info.seats)]
    tid, game = shown_id(info.id), printable(match.game.title)
    lines = [f"The game at table {tid} ({game}) is over after {info.moves} moves."]
    lines.append(printable(result.summary))
    for line in sorted(result.lines, key=lambda x: (x.rank, x.seat)):
        lines.append(f"  {line.rank or '-'}. {names[line.seat]}: {line.score:g}")
    lines.append(play_line(tid, user))
    return f"Game over: {game} at table {tid}", "\n".join(lines)


def queue_turn_notice(
    run: Run, info: TableInfo, match: Match, actor: str | None, targets: str = "bg_targets"
) -> None:
    """In the transaction that committed a change: the message it owes, one per target of
    the person whose turn it now is (recorded once: keyed by table, move count, user).
    `targets`: where the targets' numbers are read (on PostgreSQL a view: a role may not
    read another's URLs)."""
    for s in info.seats:  # the end: one message to every person seated
        over = over_notice(info, match, s.user) if s.user is not None else None
        if s.user is not None and over is not None:
            owe_notice(run, targets, info.id, info.moves, s.user, *over, "over")
    owed = turn_notice(info, match, actor)
    if owed is None or at_the_table(run, info, match, owed[0]):
        return
    user, title, body = owed
    owe_notice(run, targets, info.id, info.moves, user, title, body)


def at_the_table(run: Run, info: TableInfo, match: Match, user: str) -> bool:
    """Whether `user` has the table on their screen now, so that a turn message would only
    repeat what they see: connected (a heartbeat within PRESENT_SECONDS) and their look at
    this table (recorded by an open table at every change) up to their own last move."""
    assert match.prompt is not None  # (a turn is owed)
    seat = match.prompt.seat
    own = max(
        (i + 1 for i, st in enumerate(match.steps[: match.cursor]) if st.seat == seat), default=0
    )
    return bool(
        run(
            'SELECT 1 FROM bg_presence p JOIN bg_looked l ON l."user" = p."user" '
            'WHERE p."user" = ? AND l.table_id = ? AND p.seen >= ? AND l.moves >= ?',
            (user, info.id, info.now - PRESENT_SECONDS, own),
        )
    )


def talk_notice(info: TableInfo, title: str, speaker: str, text: str, user: str) -> tuple[str, str]:
    """(title, body) of the message to `user`'s talk targets when `speaker` said `text` at
    the table (`title`: the game's): the words as data, on one line."""
    tid = shown_id(info.id)
    who, said = printable(speaker, 40), printable(text, 220)
    return (
        f"{who} at table {tid}: {said[:60]}",
        f"{who} said at table {tid} ({printable(title)}): {said}\n{play_line(tid, user)}",
    )


def owe_notice(
    run: Run,
    targets: str,
    table_id: str,
    n: int,
    user: str,
    title: str,
    body: str,
    kind: str = "turn",
) -> None:
    """Record a message owed to `user`, one per target of theirs, once: keyed by table, `n`
    (a move count; below 0, news about the table), user, target and kind. `targets`: where
    the targets' numbers are read (on PostgreSQL a view: a role may not read others' URLs)."""
    only = " AND talk = 1" if kind == "talk" else ""  # talk: the targets that opted in
    # one statement, whose result nobody reads: it goes with the commit
    run(
        'INSERT INTO bg_notices (table_id, n, "user", target, kind, title, body) '
        f'SELECT ?, ?, ?, n, ?, ?, ? FROM {targets} WHERE "user" = ?{only} '
        "ON CONFLICT DO NOTHING",
        (table_id, n, user, kind, title, body, user),
    )


class TableStore(ABC):
    """Where tables live. Every method is one transaction; errors are StoreError."""

    path: str

    def _session(self) -> contextlib.AbstractContextManager[Run]:
        """One transaction for the notification methods below (a backend provides it)."""
        raise StoreError(f"{self.path} keeps no notification targets")

    # ---- notification targets and what is owed to them ----------------------------------
    def add_target(self, user: str, url: str) -> int:
        """A new target for `user` (the URL checked by the caller); its number. At most
        MAX_TARGETS a user, of at most MAX_URL characters each."""
        if len(url) > MAX_URL:
            raise StoreError(f"a notification URL has at most {MAX_URL} characters")
        with self._session() as q:
            (top, count) = q(
                'SELECT coalesce(max(n), 0), count(*) FROM bg_targets WHERE "user" = ?', (user,)
            )[0]
            if int(count) >= MAX_TARGETS:
                raise StoreError(
                    f"{user} has {MAX_TARGETS} notification targets, as many as a user may "
                    "have: remove one first (`table notify remove N`)"
                )
            n = int(top) + 1
            q(
                'INSERT INTO bg_targets ("user", n, url, added) VALUES (?,?,?,?)',
                (user, n, url, now_iso()),
            )
            return n

    def notices_due(self, now: float | None = None) -> bool:
        """A message is due now that nobody has claimed (cheap: a sender is started only
        then)."""
        now = time.time() if now is None else now
        with self._session() as q:
            return bool(
                q(
                    "SELECT 1 FROM bg_notices WHERE state = 'due' AND due <= ? "
                    "AND claim_until < ? LIMIT 1",
                    (now, now),
                )
            )

    def targets(self, user: str) -> list[Target]:
        with self._session() as q:
            rows = q(
                'SELECT n, url, added, error, talk FROM bg_targets WHERE "user" = ? ORDER BY n',
                (user,),
            )
        return [Target(int(n), str(u), str(a), e, bool(t)) for n, u, a, e, t in rows]

    def set_target_talk(self, user: str, n: int, on: bool) -> bool:
        """Whether target `n` of `user` takes the table talk too; False if there is none."""
        with self._session() as q:
            done = q(
                'UPDATE bg_targets SET talk = ? WHERE "user" = ? AND n = ? RETURNING n',
                (int(on), user, n),
            )
        return bool(done)

    def remove_target(self, user: str, n: int) -> bool:
        """Forget target `n` of `user` and what it was still owed; False if there is none."""
        with self._session() as q:
            q('DELETE FROM bg_notices WHERE "user" = ? AND target = ?', (user, n))
            gone = q('DELETE FROM bg_targets WHERE "user" = ? AND n = ? RETURNING n', (user, n))
        return bool(gone)

    def claim_notices(self, now: float | None = None, hold: float = NOTICE_HOLD) -> list[Notice]:
        """The messages due now, each claimed by this caller alone for `hold` seconds (one
        statement: a second process finds them claimed). A message for a turn that has
        passed already is dropped, not sent."""
        now = time.time() if now is None else now
        with self._session() as q:
            q(
                # n < 0: a notice about the table itself (abandoned), not about a turn
                "UPDATE bg_notices SET state = 'stale' WHERE state = 'due' AND n >= 0 AND NOT EXISTS "
                "(SELECT 1 FROM bg_tables t WHERE t.id = bg_notices.table_id "
                "AND t.moves = bg_notices.n)",
                (),
            )
            q(  # nor a turn that is no longer this person's to play: the game is over, they
                # left, or the computer plays their seat now
                "UPDATE bg_notices SET state = 'stale' WHERE state = 'due' AND n >= 0 "
                "AND kind IN ('turn', 'remind') AND NOT EXISTS (SELECT 1 FROM bg_tables t "
                "JOIN bg_seats s ON s.table_id = t.id AND s.seat = t.to_move_seat "
                "LEFT JOIN bg_clocks c ON c.table_id = t.id AND c.seat = s.seat "
                "WHERE t.id = bg_notices.table_id AND t.status = ? "
                'AND s."user" = bg_notices."user" AND c.pilot IS NULL)',
                (PLAYING,),
            )
            rows = q(  # only messages whose target this caller may read (its own, on
                # PostgreSQL with players as roles; the service role's: everyone's)
                "UPDATE bg_notices SET claim_until = ? WHERE state = 'due' AND due <= ? "
                "AND claim_until < ? AND EXISTS (SELECT 1 FROM bg_targets g "
                'WHERE g."user" = bg_notices."user" AND g.n = bg_notices.target) '
                'RETURNING table_id, n, "user", target, title, body, tries, kind',
                (now + hold, now, now),
            )
            out = []
            for tid, n, user, target, title, body, tries, kind in rows:
                url = q('SELECT url FROM bg_targets WHERE "user" = ? AND n = ?', (user, target))
                if url:
                    out.append(Notice(tid, n, user, target, url[0][0], title, body, tries, kind))
        return sorted(out, key=lambda x: (x.table_id, x.n, x.user, x.target, x.kind))

    def settle_notice(self, notice: Notice, error: str | None, now: float | None = None) -> None:
        """A claimed message sent (`error` None) or not: then tried again later, doubling
        the wait, up to MAX_TRIES; the target's failure is reported once to its owner."""
        now = time.time() if now is None else now
        key = (notice.table_id, notice.n, notice.user, notice.target, notice.kind)
        where = 'table_id = ? AND n = ? AND "user" = ? AND target = ? AND kind = ?'
        with self._session() as q:
            if error is None:
                q(f"UPDATE bg_notices SET state = 'sent' WHERE {where}", key)
                q(
                    'UPDATE bg_targets SET error = NULL WHERE "user" = ? AND n = ?',
                    (notice.user, notice.target),
                )
                return
            tries = notice.tries + 1
            q(
                f"UPDATE bg_notices SET tries = ?, state = ?, due = ?, claim_until = 0 WHERE {where}",
                (
                    tries,
                    "failed" if tries >= MAX_TRIES else "due",
                    now + RETRY_SECONDS * 2 ** (tries - 1),
                    *key,
                ),
            )
            q(
                "UPDATE bg_targets SET reported = CASE WHEN error IS NULL THEN 0 ELSE reported "
                'END, error = ? WHERE "user" = ? AND n = ?',
                (error[:300], notice.user, notice.target),
            )

    def take_failures(self, user: str) -> list[tuple[int, str]]:
        """`user`'s targets that began failing since last asked: (number, error), once."""
        with self._session() as q:
            return [
                (int(n), str(e))
                for n, e in q(
                    'UPDATE bg_targets SET reported = 1 WHERE "user" = ? AND reported = 0 '
                    "AND error IS NOT NULL RETURNING n, error",
                    (user,),
                )
            ]

    @abstractmethod
    def create(
        self,
        game: str,
        seats: Sequence[SeatInfo],
        options: Mapping[str, str],
        seed: int | None,
        creator: str,
        settings: Mapping[str, Any] | None = None,
        *,
        rules: ClockRules | None = None,
        max_open: int | None = None,
        chosen: bool = False,
    ) -> TableInfo:
        """A new table (the game set up and checked); its id is short and unique; `rules`:
        its clock (none by default). Refused if a user seated at it has `max_open` unfinished
        tables already (None: MAX_OPEN). `seed` None: the store draws it (`draw_seed`) and
        keeps it from everyone until the end; an int is the host's own (tests, benchmarks);
        `chosen`: a person chose it, only at a table of one person against computers."""

    @abstractmethod
    def info(self, table_id: str) -> TableInfo:
        """The table's row; UnknownTable if there is none."""

    @abstractmethod
    def load(self, table_id: str) -> tuple[TableInfo, Match]:
        """The table and its match replayed to the last move (cached between calls)."""

    @abstractmethod
    def tables(self) -> list[TableInfo]:
        """Every table, the most recently changed first."""

    @abstractmethod
    def join(self, table_id: str, user: str, max_open: int | None = None) -> int | None:
        """Take the seat offered to `user`, else the first open seat (or keep the one `user`
        has); None if there is none. Refused at a private table without an offer (an
        invite code opens it: `join_code`) or past `max_open` unfinished tables."""

    @abstractmethod
    def append(
        self, table_id: str, user: str | None, move_id: str, expected: int, lease: str | None = None
    ) -> TableInfo:
        """Play `move_id` as move number `expected + 1`, in one transaction: Stale if the
        table has another number of moves, Refused if `check_append` says no."""

    @abstractmethod
    def undo(self, table_id: str, user: str, expected: int) -> TableInfo:
        """Take back the last move if `check_undo` allows it (and the number still fits)."""

    @abstractmethod
    def take_lease(self, table_id: str, owner: str, seconds: float = LEASE_SECONDS) -> bool:
        """Hold (or renew) the right to play the table's computer seats for `seconds`."""

    @abstractmethod
    def release_lease(self, table_id: str, owner: str) -> None:
        """Give the computer seats back at once (the screen closed)."""

    @abstractmethod
    def version(self, table_id: str | None = None) -> int:
        """A number that changes when the tables may have changed (given `table_id`: that
        table), and stays the same until then: cheap enough to ask several times a second
        (no read of the tables while nothing changed)."""

    def reopen(self) -> TableStore:
        """Another connection to this same store (for a thread of its own)."""
        raise StoreError(f"{self.path} cannot be opened twice")

    def wait(self, seconds: float) -> None:
        """Return after `seconds`, or sooner when the store may have changed (a server that
        notifies changes wakes its listener); `version` then says whether anything did."""
        time.sleep(seconds)

    @abstractmethod
    def move_ids(self, table_id: str) -> list[str]:
        """The table's moves in order."""

    @abstractmethod
    def close(self) -> None: ...

    # ---- clocks, absent people, the table's own log lines (see clock.py) ------------------
    def _no_clocks(self) -> StoreError:
        return StoreError(f"{self.path} keeps no turn clocks")

    def events(self, table_id: str) -> list[TableEvent]:
        """The table's log lines that are not moves (leaving, away, timeouts), in order."""
        raise self._no_clocks()

    def leave(self, table_id: str, user: str) -> TableInfo:
        """`user`'s seat goes to the computer (the table's autopilot level) for good."""
        raise self._no_clocks()

    def reclaim(self, table_id: str, user: str) -> TableInfo:
        """`user` takes back the seat the computer played for them (ending their away)."""
        raise self._no_clocks()

    def propose(self, table_id: str, user: str, words: list[str]) -> tuple[Any, bool]:
        """`user` proposes a change the players agree to (`agree.py`); whether it took effect."""
        raise self._no_clocks()

    def agree(self, table_id: str, user: str, yes: bool = True) -> tuple[Any, bool]:
        """`user` agrees to (or turns down) the change proposed at the table."""
        raise self._no_clocks()

    def proposal(self, table_id: str) -> Any:
        """The change proposed at the table, waiting for agreement (`agree.Proposal`), or None."""
        return None

    # ---- who is here, and what each person has seen ---------------------------------------
    def here(self, user: str) -> None:
        """`user` has a session open now (called every HEARTBEAT seconds while it is)."""
        return None  # a store that keeps no presence

    def gone(self, user: str) -> None:
        """`user`'s session closed."""
        return None  # a store that keeps no presence

    def present(self) -> set[str]:
        """The users with a session open now (a heartbeat within PRESENT_SECONDS)."""
        return set()

    def looked(self, table_id: str, user: str) -> tuple[int, int] | None:
        """(moves, messages) of the table when `user` last looked at it, if ever."""
        return None

    def look(self, table_id: str, user: str, moves: int, talk: int) -> None:
        """`user` has seen the table up to `moves` moves and `talk` messages."""
        return None  # a store that keeps no presence

    def cancel(self, table_id: str, user: str) -> TableInfo:
        """The creator takes back a table no game has begun at (open seats, no move): it is
        gone, and the people seated there are told; the table as it was."""
        raise self._no_clocks()

    def set_away(self, user: str, until: float | None) -> list[TableInfo]:
        """`user` is away from now until `until` (store clock; None: until `end_away`);
        their unfinished tables."""
        raise self._no_clocks()

    def end_away(self, user: str) -> list[TableInfo]:
        """`user` is back: their unfinished tables (none if they were not away)."""
        raise self._no_clocks()

    def away(self, user: str) -> tuple[float, float | None] | None:
        """(since, until) while `user` is away, else None."""
        raise self._no_clocks()

    def set_remind(self, user: str, hours: float) -> None:
        """After how many hours on one turn `user` is reminded (0: never)."""
        raise self._no_clocks()

    def remind_hours(self, user: str) -> float:
        raise self._no_clocks()

    def due_tables(self) -> list[str]:
        """The tables where the computer is to play a person's seat now (store clock)."""
        return []

    def queue_reminders(self) -> int:
        """Owe a reminder to each person waited for longer than their setting, once per
        turn; how many turns were reminded."""
        return 0

    def clock_now(self) -> float:
        """The store's clock (seconds since the epoch)."""
        return time.time()

    # ---- around the table (engine/tables/social.py) ---------------------------------------
    @abstractmethod
    def check_watch(self, table_id: str, user: str) -> TableInfo:
        """The table if `user` may see it (a player, or a spectator it allows); else Refused."""

    @abstractmethod
    def rematch(
        self,
        table_id: str,
        user: str,
        seed: int | None = None,
        max_open: int | None = None,
        chosen: bool = False,
    ) -> tuple[TableInfo, bool]:
        """The finished table's rematch (made now: True), offered to its other players; its
        seed as `create`'s."""

    @abstractmethod
    def rematch_of(self, table_id: str) -> str | None: ...

    @abstractmethod
    def invite(self, table_id: str, user: str) -> str:
        """A code that takes an open seat at the table once."""

    @abstractmethod
    def join_code(self, code: str, user: str, max_open: int | None = None) -> tuple[str, int]:
        """Take the seat an invite code opens: (table id, seat)."""

    @abstractmethod
    def say(self, table_id: str, user: str, text: str, now: float | None = None) -> Any:
        """A message at the table (a `social.Talk`); Refused if too long, too fast, not there."""

    @abstractmethod
    def talk(self, table_id: str, user: str) -> list[Any]:
        """The messages `user` may read at the table (`social.Talk`), oldest first."""

    @abstractmethod
    def open_tables(self, user: str) -> int: ...

    @abstractmethod
    def end_abandoned(self, now: float | None = None, days: float = 30) -> list[str]:
        """End the tables with no move for `days`, telling their players; the ids."""

    def export_table(self, table_id: str) -> tuple[TableInfo, list[MoveRow]]:
        """The table and its moves as stored (for `table copy-store`)."""
        raise StoreError(f"{self.path} cannot be copied from")

    def results(self, game: str | None = None, table_id: str | None = None) -> list[TableResult]:
        """Finished tables' results (of one game, or one table), in the order they finished."""
        raise StoreError(f"{self.path} keeps no results")

    def import_table(self, info: TableInfo, rows: Sequence[MoveRow], digest: str) -> None:
        """Store a table copied from another store, in one transaction that is committed
        only if the table replays here to `digest`."""
        raise StoreError(f"{self.path} cannot be copied to")


# ---- store formats, shared by every backend ------------------------------------------------
# The format of a store's tables, recorded in `bg_meta`. An older store is brought up to date
# in place, in one transaction, by the steps below (plain SQL both backends read alike).
FORMAT = 9
# 2 -> 3: turn notifications: each user's targets (Apprise URLs) and what is owed to them
NOTICE_TABLES = (
    'CREATE TABLE bg_targets ("user" TEXT NOT NULL, n INTEGER NOT NULL, url TEXT NOT NULL, '
    "added TEXT NOT NULL, error TEXT, reported INTEGER NOT NULL DEFAULT 1, "
    'PRIMARY KEY ("user", n))',
    'CREATE TABLE bg_notices (table_id TEXT NOT NULL, n INTEGER NOT NULL, "user" TEXT NOT NULL, '
    "target INTEGER NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, "
    "state TEXT NOT NULL DEFAULT 'due', tries INTEGER NOT NULL DEFAULT 0, "
    "due DOUBLE PRECISION NOT NULL DEFAULT 0, claim_until DOUBLE PRECISION NOT NULL DEFAULT 0, "
    'PRIMARY KEY (table_id, n, "user", target))',
    "CREATE INDEX bg_notices_due ON bg_notices (state, due)",
)
# 3 -> 4: turn clocks (clock.py): the table's rules and when its turn began, each seat's
# clock (`bg_clocks`: who plays it, timeouts in a row, vacation), people away, each user's
# reminder setting, the table's log lines that are not moves, and a notice's kind (a turn's
# message and its reminder are both owed once)
CLOCK_TABLES = (
    "ALTER TABLE bg_tables ADD COLUMN turn_limit DOUBLE PRECISION",
    "ALTER TABLE bg_tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer'",
    "ALTER TABLE bg_tables ADD COLUMN autopilot TEXT NOT NULL DEFAULT 'greedy'",
    "ALTER TABLE bg_tables ADD COLUMN vacation DOUBLE PRECISION NOT NULL DEFAULT 14",
    "ALTER TABLE bg_tables ADD COLUMN turn_since DOUBLE PRECISION",
    "ALTER TABLE bg_tables ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE bg_tables ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0",
    "CREATE TABLE bg_clocks (table_id TEXT NOT NULL, seat INTEGER NOT NULL, pilot TEXT, "
    "strikes INTEGER NOT NULL DEFAULT 0, paused DOUBLE PRECISION NOT NULL DEFAULT 0, "
    "vacation_used DOUBLE PRECISION NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seat))",
    'CREATE TABLE bg_away ("user" TEXT PRIMARY KEY, starts DOUBLE PRECISION NOT NULL, '
    "ends DOUBLE PRECISION)",
    'CREATE TABLE bg_prefs ("user" TEXT PRIMARY KEY, remind DOUBLE PRECISION)',
    "CREATE TABLE bg_events (table_id TEXT NOT NULL, k INTEGER NOT NULL, n INTEGER NOT NULL, "
    "at TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (table_id, k))",
    'CREATE TABLE bg_notices4 (table_id TEXT NOT NULL, n INTEGER NOT NULL, "user" TEXT NOT NULL, '
    "target INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'turn', title TEXT NOT NULL, "
    "body TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'due', tries INTEGER NOT NULL DEFAULT 0, "
    "due DOUBLE PRECISION NOT NULL DEFAULT 0, claim_until DOUBLE PRECISION NOT NULL DEFAULT 0, "
    'PRIMARY KEY (table_id, n, "user", target, kind))',
    'INSERT INTO bg_notices4 (table_id, n, "user", target, title, body, state, tries, due, '
    'claim_until) SELECT table_id, n, "user", target, title, body, state, tries, due, '
    "claim_until FROM bg_notices",
    "DROP TABLE bg_notices",
    "ALTER TABLE bg_notices4 RENAME TO bg_notices",
    "CREATE INDEX bg_notices_due ON bg_notices (state, due)",
)
# 4 -> 5: rematches, private tables (invite codes), offered seats, table talk
SOCIAL_TABLES = (
    "CREATE TABLE bg_offers (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    '"user" TEXT NOT NULL, PRIMARY KEY (table_id, seat))',
    'CREATE INDEX bg_offers_user ON bg_offers ("user")',
    "CREATE TABLE bg_rematches (table_id TEXT PRIMARY KEY, rematch TEXT NOT NULL)",
    "CREATE TABLE bg_invites (code TEXT PRIMARY KEY, table_id TEXT NOT NULL, "
    "made_by TEXT NOT NULL, made TEXT NOT NULL, used_by TEXT, used TEXT)",
    "CREATE TABLE bg_talk (table_id TEXT NOT NULL, n INTEGER NOT NULL, "
    '"user" TEXT NOT NULL, spectator INTEGER NOT NULL, at TEXT NOT NULL, '
    "moves INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (table_id, n))",
    'CREATE TABLE bg_talkers ("user" TEXT PRIMARY KEY, last DOUBLE PRECISION NOT NULL)',
)
# 5 -> 6: secret seeds: where each table's seed came from (`SEED_SECRET`…); a table made
# before was told its (24-bit) seed when it was made: marked as shown
SEED_TABLES = ("ALTER TABLE bg_tables ADD COLUMN seed_kind TEXT NOT NULL DEFAULT 'shown'",)
# 8 -> 9: a notification target may also take the table talk (opt-in, per target); a change
# the players of a table agree to (agree.py: a turn limit, a pause, a seat handed over)
TALK_TARGETS = (
    "ALTER TABLE bg_targets ADD COLUMN talk INTEGER NOT NULL DEFAULT 0",
    "CREATE TABLE bg_proposals (table_id TEXT PRIMARY KEY, kind TEXT NOT NULL, "
    "value TEXT NOT NULL, made_by TEXT NOT NULL, made TEXT NOT NULL, agreed TEXT NOT NULL)",
    # who is connected now (a session's heartbeat, store clock), and how far each person had
    # seen each table when they last looked (what happened since, on reopening)
    'CREATE TABLE bg_presence ("user" TEXT PRIMARY KEY, seen DOUBLE PRECISION NOT NULL)',
    'CREATE TABLE bg_looked (table_id TEXT NOT NULL, "user" TEXT NOT NULL, '
    'moves INTEGER NOT NULL, talk INTEGER NOT NULL, PRIMARY KEY (table_id, "user"))',
)
# 6 -> 7: when the turn that the last move ended began, so that taking the move back gives
# that turn back with its time used, not a fresh turn
UNDO_CLOCK = ("ALTER TABLE bg_tables ADD COLUMN ended_turn_since DOUBLE PRECISION",)
UPGRADES: dict[int, tuple[str, ...]] = {
    # 1 -> 2: `tables()` lists the most recently changed first
    1: ("CREATE INDEX IF NOT EXISTS bg_tables_updated ON bg_tables (updated)",),
    2: NOTICE_TABLES,
    3: CLOCK_TABLES,
    4: SOCIAL_TABLES,
    5: SEED_TABLES,
    6: UNDO_CLOCK,
    # 7 -> 8: finished tables' results (results.py); the tables that finished before are
    # replayed into them by the backend's upgrade (`SQLStore._after_upgrade`)
    7: RESULT_TABLES,
    8: TALK_TARGETS,
}


def upgrade_steps(
    found: str | None, where: str, extra: Mapping[int, Sequence[str]] | None = None
) -> list[str]:
    """The SQL that brings a store of format `found` to FORMAT (none when it is current),
    with a backend's own `extra` steps after the shared ones of the same number;
    StoreUnavailable, one line, for a newer format or no format at all."""
    if found is None or not found.isdigit():
        raise StoreUnavailable(f"{where} is not a table store (no format)")
    n = int(found)
    if n > FORMAT:
        raise StoreUnavailable(
            f"{where} was written by a newer version (format {n}, this reads {FORMAT}): upgrade "
            "boardgames-tui"
        )
    extra = extra or {}
    # (a number without steps of its own changed nothing both backends share)
    return [stmt for k in range(n, FORMAT) for stmt in (*UPGRADES.get(k, ()), *extra.get(k, ()))]


# ---- what every backend does alike -----------------------------------------------------------
MoveRow = tuple[int, str, int, str, str]  # n, move id, seat, user (or computer level), when


def new_table_probe(
    game: str,
    seats: Sequence[SeatInfo],
    options: Mapping[str, str],
    seed: int | None,
    creator: str,
    settings: Mapping[str, Any] | None,
    rules: ClockRules | None = None,
    chosen: bool = False,
) -> TableInfo:
    """A table about to be created, checked (game, players, options, clock, seed) and set up:
    its id is "new" and `to_move_seat` is the first seat to move. `seed` None: drawn here
    (`draw_seed`); `chosen`: a person chose it, refused unless the table is `solo`."""
    try:
        g = get_game(game)
    except UnknownGame as exc:
        raise StoreError(str(exc)) from None
    seated = tuple(SeatInfo(i, s.kind, s.user, offered=s.offered) for i, s in enumerate(seats))
    if chosen and (seed is None or not solo(seated)):
        raise Refused(SEED_REFUSAL)
    if seed is None:
        seed = draw_seed()
    elif not 0 <= seed < 1 << SEED_BITS:
        raise StoreError(f"seed {seed}: give a whole number from 0 to 2**{SEED_BITS} - 1")
    kind = SEED_CHOSEN if chosen else SEED_SECRET
    given = dict(settings or {})
    spectators = str(given.get("spectators") or SPECTATE_ANYONE)
    if spectators not in SPECTATOR_SETTINGS:
        raise StoreError(f"spectators {spectators!r}: give none, players or anyone")
    sets: dict[str, Any] = {
        "strict": bool(given.get("strict", False)),
        "private": bool(given.get("private", False)),
        "spectators": spectators,
    }
    if given.get(UNRATED):  # its creator made it not count for ratings (results.py)
        sets[UNRATED] = True
    stamp = now_iso()
    status = WAITING if any(s.is_open for s in seated) else PLAYING
    try:
        g.check_players(len(seated))
        opts = g.check_options(dict(options))
        rules = (rules or ClockRules()).check()
    except (SetupError, ValueError) as exc:
        raise StoreError(str(exc)) from None
    probe = TableInfo("new", g.id, seed, opts, sets, creator, stamp, stamp, status, 0, 0, 0, seated)
    match = build_match(probe, [])
    to_move = match.prompt.seat if match.prompt else None
    return TableInfo(
        "new",
        g.id,
        seed,
        opts,
        sets,
        creator,
        stamp,
        stamp,
        status,
        0,
        0,
        to_move,
        seated,
        rules=rules,
        seed_kind=kind,
    )


def cached_match(
    cache: dict[str, Match], info: TableInfo, ids: Sequence[str], autopilot: Sequence[int] = ()
) -> Match:
    """The match at the table's last move: the cached one brought up to date (or rebuilt);
    `autopilot`: the move numbers the computer played for a person's seat."""
    if len(ids) != info.moves:
        raise Damaged(info.id, f"{len(ids)} moves stored, {info.moves} counted")
    m = cache.get(info.id)
    if m is not None and m.names == seat_names(info.seats) and m.length >= m.cursor:
        have = m.move_ids(m.length)
        k = min(len(have), len(ids))
        if have[:k] == ids[:k]:
            m.goto(k)
            m.truncate()
            try:
                extend_match(m, info, ids)
            except StoreError:
                cache.pop(info.id, None)
                raise
            m.autopilot = set(autopilot)
            return m
    m = build_match(info, ids, autopilot)
    cache[info.id] = m
    return m


def check_moves(tid: str, rows: Sequence[Sequence[Any]], first: int = 1) -> list[str]:
    """Move ids from (n, move id) rows in order, numbered from `first`: StoreError at a gap."""
    out: list[str] = []
    for n, mid in rows:
        if n != len(out) + first or not isinstance(n, int):
            raise Damaged(tid, f"move {len(out) + first} is missing")
        if not isinstance(mid, str) or not mid.isprintable() or not mid:
            raise Damaged(tid, f"move {n} ({quoted(mid)}) is not a move id")
        out.append(mid)
    return out


def table_digest(info: TableInfo, move_ids: Sequence[str]) -> str:
    """The table replayed through the rules, fingerprinted (the moves and the final state)."""
    match = build_match(info, move_ids)
    return f"{len(move_ids)}:{match.game.digest(match.state)}"


def copy_tables(source: TableStore, target: TableStore) -> list[str]:
    """Every table of `source` into `target`, each checked to replay to the same digest
    there before it is committed; the ids copied. A table `target` has already is refused."""
    have = {t.id for t in target.tables()}
    bad = next((t for t in source.tables() if t.damage is not None), None)
    if bad is not None:
        raise StoreError(f"table {bad.id} is damaged: {bad.damage}: nothing copied")
    clash = sorted(t.id for t in source.tables() if t.id in have)
    if clash:
        raise StoreError(f"{target.path} already has table(s) {', '.join(clash)}: nothing copied")
    done = []
    for t in source.tables():
        info, rows = source.export_table(t.id)
        digest = table_digest(info, [r[1] for r in rows])
        target.import_table(info, rows, digest)
        done.append(info.id)
    return done
