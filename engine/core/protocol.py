"""The protocol every game implements: state, prompt, legal moves, apply, views, results.

A game is a stateless object (one instance per title) whose methods take and return plain
dataclass states. At every point exactly one seat decides; the engine names that seat, what is
being decided and the legal options, each a `Move` with a stable id.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic

from typing_extensions import TypeVar  # with a default (PEP 696): `Game[S]` stays valid

from .titles import Title

PUBLIC = -1
"""The viewer who is none of the seats: a spectator, or the review of an unfinished game that
nobody at the table opened. Reads only what every seat may read. (`None` is the omniscient
observer: the game is over, or a test or a computer player's search looks at everything.)"""


def may_read(viewer: int | None, seat: int | None) -> bool:
    """Whether `viewer` may read what `seat` alone knows (`seat` None: something public).

    The one rule behind every text and view: the seat itself and the omniscient observer may,
    every other seat and the public may not.
    """
    return seat is None or viewer is None or viewer == seat


def hidden_choice(phase: str) -> str:
    """How a private decision of another seat reads: its phase, nothing of what was chosen."""
    return f"a hidden choice ({phase})" if phase else "a hidden choice"


class IllegalMove(ValueError):
    """A move that is not in the legal list of the current prompt."""


class SetupError(ValueError):
    """Options or a player count that the game cannot start with."""


@dataclass(frozen=True, slots=True)
class Move:
    """One legal option: a stable id (`play:bank`), a label for people and an effect preview."""

    id: str
    label: str
    preview: str = ""


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who decides, what is decided, and the legal moves.

    `private` says the decision shows the seat something the others may not see (a hand, a
    face-down token), so a shared screen needs a hand-over first. `step` > 0 marks a later step
    of a multi-part decision by the same seat: Esc steps back out of it (undoes one step).
    `reveal` marks moves that, once applied, reveal hidden information or draw by chance.
    """

    seat: int
    text: str
    moves: tuple[Move, ...]
    private: bool = False
    step: int = 0
    phase: str = ""

    def move(self, move_id: str) -> Move:
        for m in self.moves:
            if m.id == move_id:
                return m
        raise IllegalMove(f"{move_id!r} is not a legal move here ({self.text})")

    def ids(self) -> list[str]:
        return [m.id for m in self.moves]

    def text_for(self, viewer: int | None) -> str:
        """The decision as `viewer` may read it: a private one of another seat by its phase."""
        if not self.private or may_read(viewer, self.seat):
            return self.text
        return hidden_choice(self.phase)


@dataclass(frozen=True, slots=True)
class Event:
    """A log line. `seat` set: only that seat reads `text`; the others read `public` (if any).

    `seats` shows `text` to a chosen set of seats instead (a card shown by one seat to
    another, a trade between two): `Event("Ann shows Bob a 3", seats={0, 1}, public="Ann
    shows Bob a card")`; every other seat and the public read `public`.
    """

    text: str
    seat: int | None = None
    public: str | None = None
    reveal: bool = False  # hidden information or chance came out with this event
    seats: Collection[int] | None = None  # the readers of `text`, with `seat` (None: `seat`)

    def __post_init__(self) -> None:
        if self.seats is not None:  # any iterable of seats, kept as a frozenset
            object.__setattr__(self, "seats", frozenset(self.seats))

    @property
    def readers(self) -> frozenset[int] | None:
        """The seats that read `text` (None: everybody)."""
        if self.seats is None:
            return None if self.seat is None else frozenset((self.seat,))
        return frozenset(self.seats) | ({self.seat} if self.seat is not None else set())

    def for_seat(self, viewer: int | None) -> str | None:
        """The line as `viewer` may read it (None: an observer who may see everything)."""
        readers = self.readers
        if readers is None or viewer is None or viewer in readers:
            return self.text
        return self.public


@dataclass(frozen=True, slots=True)
class Option:
    """A setup option shown in the new-game screen and stored in saves."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]  # (value, label)
    default: str
    help: str = ""
    # Values picked one group at a time (e.g. one building per class): when the option is set
    # to PICK_VALUE, the setup screen asks one value per group and the option's value becomes
    # the picks joined by commas, in group order. Each group: (label, choices, default value).
    picks: tuple[tuple[str, tuple[tuple[str, str], ...], str], ...] = ()
    # an option added after saves existed: the value those saves were played with, taken when
    # a save does not name the option (so they load as they were played)
    legacy: str | None = None


PICK_VALUE = "choose"  # the option value that asks for per-group picks (see Option.picks)


@dataclass(slots=True)
class ScoreLine:
    """One seat's final standing with where every point came from."""

    seat: int
    score: float
    breakdown: list[tuple[str, float | str]] = field(default_factory=list)
    rank: int = 0
    note: str = ""


@dataclass(slots=True)
class Result:
    """The end of a game: winners (empty when nobody wins), per-seat lines, a summary sentence."""

    winners: list[int]
    lines: list[ScoreLine]
    summary: str
    cooperative: bool = False
    details: list[str] = field(default_factory=list)  # co-op: what was built, what was missing


@dataclass
class BaseState:
    """Fields every game state has. Subclasses add the game's own plain data."""

    names: list[str]
    seed: int
    options: dict[str, str]
    draws: int = 0  # chance counter: every random draw increments it


S = TypeVar("S", bound=BaseState)  # a game's state type
# a game's view type (a TypedDict): what `view` returns and its board reads
V = TypeVar("V", bound=Mapping[str, Any], default=Mapping[str, Any], covariant=True)


class Game(ABC, Generic[S, V]):
    """A title: setup, prompts, rules, views and scoring. Stateless; one instance per title.

    `Game[MyState, MyView]` names the state type its methods take and the view type its
    `view` returns (plain `Game` takes any state; `Game[MyState]` returns a Mapping view).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    cooperative: ClassVar[bool] = False
    # The shape of the state that `digest` fingerprints; see `digest_data`.
    state_layout: ClassVar[int] = 1
    # Whether a seat ever sees something the others may not (hands, face-down tokens): a
    # shared screen then needs hand-over screens between seats.
    has_private_info: ClassVar[bool] = True
    # The title's catalog entry (its package's TITLE): id, title and player counts are read
    # from it, so that they are stated once.
    meta: ClassVar[Title | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        meta = cls.__dict__.get("meta")
        if meta is not None:
            cls.id, cls.title = meta.id, meta.title
            cls.min_players, cls.max_players = meta.min_players, meta.max_players

    # ---- lifecycle -------------------------------------------------------------------
    @abstractmethod
    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> S:
        """The state after setup. Raises SetupError for a bad player count or option."""

    @abstractmethod
    def prompt(self, state: S) -> Prompt | None:
        """The decision to be taken now, or None when the game is over."""

    @abstractmethod
    def play(self, state: S, move: Move) -> list[Event]:
        """Apply a legal move to `state` in place and return the log events."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """Final (or, during play, provisional) scores with breakdowns."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """Everything `seat` may see, as plain data (None: an omniscient observer; PUBLIC:
        what every seat may see, nobody's hand)."""

    @abstractmethod
    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        """The in-app rules reference (Markdown), including the table rules of this edition."""

    # ---- provided --------------------------------------------------------------------
    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """Options with defaults filled in; SetupError for an unknown key or value."""
        known = {o.key: o for o in self.options}
        out = {o.key: o.default for o in self.options}
        for key, value in options.items():
            if key not in known:
                raise SetupError(f"unknown option {key!r} for {self.title}")
            values = [v for v, _ in known[key].choices]
            if value not in values:
                raise SetupError(f"option {key} must be one of {', '.join(values)} (not {value!r})")
            out[key] = value
        return out

    def recorded_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """The options of a game recorded earlier (a save, a table): an option it does not
        name takes its `legacy` value, the one it was played with before the option existed."""
        return {o.key: o.legacy for o in self.options if o.legacy is not None} | dict(options)

    def check_players(self, n: int) -> None:
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                f"{self.title} is for {self.min_players}-{self.max_players} players (not {n})"
            )

    def is_over(self, state: S) -> bool:
        return self.prompt(state) is None

    def legal_moves(self, state: S) -> tuple[Move, ...]:
        p = self.prompt(state)
        return p.moves if p else ()

    def clone(self, state: S) -> S:
        """A deep copy (pickle is several times faster than copy.deepcopy)."""
        new: S = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        return new

    def apply(self, state: S, move_id: str) -> tuple[S, list[Event]]:
        """A new state with `move_id` applied; IllegalMove (state untouched) if not legal."""
        p = self.prompt(state)
        if p is None:
            raise IllegalMove("the game is over: no move can be played")
        move = p.move(move_id)
        new = self.clone(state)
        events = self.play(new, move)
        return new, events

    def digest(self, state: S) -> str:
        """A stable fingerprint of the whole state, stored in saves."""
        data = self.digest_data(state)
        text = json.dumps(data, sort_keys=True, default=_jsonable, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def digest_data(self, state: S) -> object:
        """What `digest` fingerprints: the state as plain data.

        A game whose state changes shape without a rule changing keeps its old digests by
        rendering the changed part here the way `state_layout` 1 held it; when that cannot be
        done, it raises `state_layout` instead (saves written with another layout are then
        replayed without the digest comparison: the moves, all legal, are the authority).
        """
        is_state = dataclasses.is_dataclass(state) and not isinstance(state, type)
        return dataclasses.asdict(state) if is_state else state

    def determinize(self, state: S, seat: int, rng: Any) -> S:
        """A copy of `state` whose hidden parts (for `seat`) are resampled with `rng`.

        The result must depend only on what `seat` can see plus `rng`. Games without hidden
        information (other than chance they draw from the seed) may keep the default, which
        re-seeds future chance so a bot cannot foresee draws.
        """
        new = self.clone(state)
        new.seed = rng.randrange(2**31)
        return new

    def twin(self, state: S, seat: int, rng: Any) -> S | None:
        """A state that `seat` cannot tell from `state` but differs in something another seat
        sees and `seat` does not (a card of another hand swapped with one of the deck), or
        None when there is none here.

        Written by hand, apart from `determinize`, for the conformance tests: the computer
        players, the hint and `determinize` itself must treat both states alike. (The tests
        also make twins by playing another seat's private move differently.)
        """
        return None

    def evaluate(self, state: S, seat: int) -> float:
        """A heuristic value of `state` for `seat` (higher is better), for computer players."""
        res = self.result(state)
        for line in res.lines:
            if line.seat == seat:
                return float(line.score)
        return 0.0

    def invariants(self, state: S) -> list[str]:
        """Broken invariants of `state` (empty when all hold); checked by playout tests."""
        return []

    def public_label(self, prompt: Prompt, move: Move) -> str:
        """How the other seats read `move`, taken at the private decision `prompt`.

        Every surface that names a move (review, log, status, dialogs) shows another seat's
        private move by this text, never by its label; what the move made public comes with its
        events. The default names only the phase; a game may say more that everybody sees.
        """
        return hidden_choice(prompt.phase)

    def seat_name(self, state: S, seat: int) -> str:
        return state.names[seat]


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, set | frozenset):
        return sorted(obj, key=repr)
    if isinstance(obj, tuple):
        return list(obj)
    if hasattr(obj, "value"):  # enums
        return obj.value
    return repr(obj)
