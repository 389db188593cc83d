"""A match: setup + seed + the list of moves + a cursor, with snapshots for O(1) undo/review."""

from __future__ import annotations

import pickle
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .protocol import Event, Game, IllegalMove, Prompt, SetupError, may_read
from .registry import get_game

HUMAN = "human"
BOT_LEVELS = ("random", "greedy", "strong")


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the table: a name and who plays it (a person or a computer level)."""

    name: str
    kind: str = HUMAN

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN


@dataclass(frozen=True, slots=True)
class Step:
    """One applied move: who played it, and the events it produced.

    Text about a step is read through `label_for`/`line_for`, for a viewer, so that no
    surface shows another seat's private move by its label.
    """

    move_id: str
    label: str
    seat: int
    events: tuple[Event, ...]
    reveal: bool  # hidden information or chance came out (undo across it asks first)
    public: str | None = None  # how the others read the move (None: the label is public)

    def label_for(self, viewer: int | None) -> str:
        """The move as `viewer` may read it: its label, or its public description."""
        if self.public is None or may_read(viewer, self.seat):
            return self.label
        return self.public

    def lines_for(self, viewer: int | None) -> list[str]:
        """The log lines of this move as `viewer` may read them."""
        return [line for ev in self.events if (line := ev.for_seat(viewer))]

    def line_for(self, viewer: int | None) -> str:
        """One line naming this move for `viewer` (a move list): its first log line, or the
        move as `viewer` may read it."""
        lines = self.lines_for(viewer)
        return lines[0] if lines else self.label_for(viewer)


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class Match:
    """A live or loaded game with its full history.

    `state_at(i)` is the state after `i` moves; `cursor` is the current position. Undo moves
    the cursor back, redo forward; a new move after an undo drops the redo branch.

    Every position is kept as a pickled snapshot (compact, and O(1) to reach); the position at
    the cursor is also kept as a live object, which the next move advances in place. So the
    object `state` returns is valid until the next `play`: clone it to keep it longer.
    """

    game: Game
    seats: list[Seat]
    options: dict[str, str]
    seed: int
    snaps: list[bytes] = field(default_factory=list, repr=False)
    steps: list[Step] = field(default_factory=list)
    cursor: int = 0
    created: str = field(default_factory=now_iso)
    save_path: str | None = None
    # table settings that are not rules: hand-over screens, strict (no undo)
    settings: dict[str, bool] = field(default_factory=lambda: {"handover": True, "strict": False})
    # move numbers (1 = the first move) decided after the seat asked the computer for a hint
    hints: set[int] = field(default_factory=set)
    # move numbers played for a person's seat by the computer (a shared table's autopilot)
    autopilot: set[int] = field(default_factory=set)
    # what loading its save had to mend (said once when the game opens; the next write fixes it)
    repairs: list[str] = field(default_factory=list, repr=False)

    @classmethod
    def new(
        cls,
        game_id: str | Game,
        seats: Sequence[Seat | str],
        options: Mapping[str, str] | None = None,
        seed: int = 0,
    ) -> Match:
        game = game_id if isinstance(game_id, Game) else get_game(game_id)
        seat_list = [s if isinstance(s, Seat) else Seat(s) for s in seats]
        game.check_players(len(seat_list))
        opts = game.check_options(options or {})
        names = [s.name for s in seat_list]
        if len(set(names)) != len(names):
            raise SetupError("player names must be different")
        state = game.new_state(names, opts, seed)
        m = cls(game=game, seats=seat_list, options=opts, seed=seed)
        m.snaps.append(_dump(state))
        m._live = (0, state)
        return m

    def __post_init__(self) -> None:
        self._live: tuple[int, Any] | None = None
        self._recent: OrderedDict[int, Any] = OrderedDict()
        # one position per move: the prompt and the views at the cursor, computed once and
        # shared by every reader (cleared when the cursor moves or the history changes)
        self._at: int = -1
        self._prompt: tuple[Prompt | None] | None = None
        self._views: dict[int | None, Any] = {}

    def _here(self) -> None:
        if self._at != self.cursor:
            self._at = self.cursor
            self._prompt = None
            self._views = {}

    # ---- reading -----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position at the cursor (valid until the next move)."""
        if self._live is None or self._live[0] != self.cursor:
            self._live = (self.cursor, pickle.loads(self.snaps[self.cursor]))
        return self._live[1]

    @property
    def prompt(self) -> Prompt | None:
        """The decision at the cursor (computed once per position)."""
        self._here()
        if self._prompt is None:
            self._prompt = (self.game.prompt(self.state),)
        return self._prompt[0]

    def view(self, viewer: int | None) -> Any:
        """What `viewer` sees at the cursor (computed once per position and viewer; treat it
        as read-only)."""
        self._here()
        if viewer not in self._views:
            self._views[viewer] = self.game.view(self.state, viewer)
        return self._views[viewer]

    @property
    def over(self) -> bool:
        return self.prompt is None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def state_at(self, index: int) -> Any:
        """The state after `index` moves (0 = setup), O(1). Treat it as read-only."""
        if not 0 <= index < len(self.snaps):
            raise IndexError(index)
        if index == self.cursor:
            return self.state
        if index in self._recent:
            self._recent.move_to_end(index)
            return self._recent[index]
        state = pickle.loads(self.snaps[index])
        self._recent[index] = state
        if len(self._recent) > 16:
            self._recent.popitem(last=False)
        return state

    @property
    def length(self) -> int:
        """Moves in the whole history, including an undone (redo) branch."""
        return len(self.steps)

    def move_ids(self, upto: int | None = None) -> list[str]:
        return [s.move_id for s in self.steps[: self.cursor if upto is None else upto]]

    def events(self, viewer: int | None = None, upto: int | None = None) -> list[tuple[int, str]]:
        """(move index, line) for every event up to the cursor, as `viewer` may read them."""
        steps = self.steps[: self.cursor if upto is None else upto]
        return [(i + 1, line) for i, step in enumerate(steps) for line in step.lines_for(viewer)]

    def opening(self, viewer: int | None = None) -> list[str]:
        """The setup's lines (a state's `opening`) as `viewer` may read them: the first move
        writes them to the log, so before it they are only here."""
        out = []
        for line in getattr(self.state_at(0), "opening", ()):
            text = line if isinstance(line, str) else line.for_seat(viewer)
            if text:
                out.append(text)
        return out

    # ---- changing ----------------------------------------------------------------------
    def move_line(self, index: int, viewer: int | None) -> str:
        """The move list's line for move `index` (1-based) as `viewer` may read it.

        The first move's log begins with the setup's lines (a state's `opening`), which name
        no move: they are skipped here.
        """
        step = self.steps[index - 1]
        if index == 1:
            skip = len(getattr(self.state_at(0), "opening", ()))
            lines = step.lines_for(viewer)[skip:]
            return lines[0] if lines else step.label_for(viewer)
        return step.line_for(viewer)

    def play(self, move_id: str) -> Step:
        """Apply a legal move at the cursor; drops any redo branch. IllegalMove otherwise."""
        prompt = self.prompt
        if prompt is None:
            raise IllegalMove("the game is over")
        move = prompt.move(move_id)
        state = self.state  # its snapshot is kept: advancing the live object is safe
        events = self.game.play(state, move)
        step = Step(
            move_id=move.id,
            label=move.label,
            seat=prompt.seat,
            events=tuple(events),
            reveal=any(e.reveal for e in events),
            public=self.game.public_label(prompt, move) if prompt.private else None,
        )
        del self.snaps[self.cursor + 1 :]
        del self.steps[self.cursor :]
        self._recent.clear()
        self.hints = {n for n in self.hints if n <= self.cursor + 1}  # not the dropped branch's
        self.autopilot = {n for n in self.autopilot if n <= self.cursor}
        self.snaps.append(_dump(state))
        self.steps.append(step)
        self.cursor += 1
        self._live = (self.cursor, state)
        self._at = -1  # a new position (even where a dropped branch was)
        return step

    def can_undo(self) -> bool:
        return self.cursor > 0

    def can_redo(self) -> bool:
        return self.cursor < len(self.steps)

    def undo(self) -> Step:
        if not self.can_undo():
            raise IllegalMove("nothing to undo")
        self.cursor -= 1
        return self.steps[self.cursor]

    def redo(self) -> Step:
        if not self.can_redo():
            raise IllegalMove("nothing to redo")
        self.cursor += 1
        return self.steps[self.cursor - 1]

    def goto(self, index: int) -> None:
        """Move the cursor to any point of the history (review); the redo branch is kept."""
        if not 0 <= index <= len(self.steps):
            raise IndexError(index)
        self.cursor = index

    def truncate(self) -> None:
        """Drop the redo branch (continue from here); with none, nothing changes (the
        position cache stays)."""
        if self.cursor < len(self.steps):
            del self.snaps[self.cursor + 1 :]
            del self.steps[self.cursor :]
            self._recent.clear()
            self._at = -1
        self.hints = {n for n in self.hints if n <= self.cursor}
        self.autopilot = {n for n in self.autopilot if n <= self.cursor}

    def undo_warning(self, viewer: int | None) -> str | None:
        """Why undoing the last move needs confirmation, or None.

        Undoing another seat's move or a move that revealed hidden information or drew by
        chance (which comes out the same again) asks first.
        """
        if not self.can_undo():
            return None
        step = self.steps[self.cursor - 1]
        reasons = []
        if viewer is not None and step.seat != viewer and not self.seats[step.seat].is_bot:
            reasons.append(f"it takes back {self.seats[step.seat].name}'s move")
        if step.reveal:
            reasons.append("it undoes a reveal (a draw comes out the same again)")
        return " and ".join(reasons) or None

    def last_human_cursor(self) -> int:
        """The cursor just before the latest move taken by a person (undo over bot moves)."""
        i = self.cursor
        while i > 0:
            i -= 1
            if not self.seats[self.steps[i].seat].is_bot:
                return i
        return 0


def _dump(state: Any) -> bytes:
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
