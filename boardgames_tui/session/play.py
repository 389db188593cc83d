"""A session at a seat: the one object every front end drives (the game screen, the line mode,
`table play`, or a new one; docs/architecture.md shows one in 50 lines).

A `Session` plays a `Source` (a local match or a shared table) and holds what a front end
would otherwise work out for itself: who is to act and whether this terminal decides, the
hand-over owed between people sharing a keyboard, a computer's turn, what an undo takes back
and whether it asks first, refusals, and what happened since this seat last looked. After
every change it makes one immutable `Position` (`session.position`); the front end draws it
and calls `play`, `undo`, `computer_done` or `poll`. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.session.autosave import Autosaver
from boardgames_tui.session.source import (
    ComputerTurn,
    Facts,
    LocalSource,
    Refused,
    Source,
    fallback_move,
)

if TYPE_CHECKING:
    from boardgames_tui.session.table_source import TableSource

T = TypeVar("T")


@dataclass(frozen=True)
class Handover:
    """People share this keyboard: `seat` takes it before anything private shows. `seen` is
    what the one leaving it (`holder`) learned alone, to show them first."""

    seat: int
    name: str
    what: str  # only the phase: a prompt's text may name private things ("keep Bank")
    holder: int | None
    holder_name: str
    seen: tuple[str, ...]


@dataclass(frozen=True)
class Position:
    """The game as this terminal shows it after one change (`n` counts the changes)."""

    n: int
    match: Match  # the history (read only: change it through the session)
    state: Any
    cursor: int
    prompt: Prompt | None
    viewer: int | None  # who reads the screen: a seat, PUBLIC, or None (the end, hotseat)
    view: Mapping[str, Any]
    to_move: int | None  # the seat to move (None: the game is over)
    decides: bool  # a person at this terminal decides now
    computer: bool  # a computer is to move
    handover: Handover | None  # owed before the seat to move may see its decision
    lines: tuple[str, ...]  # the reader's log lines of the moves since the last position
    news: tuple[str, ...]  # what changed with no move to show ("alice took back …")
    bell: bool  # the turn came to this seat by the others' moves
    facts: Facts = field(default_factory=Facts)

    @property
    def over(self) -> bool:
        return self.prompt is None

    @property
    def clock(self) -> str:
        return self.facts.clock

    @property
    def waiting(self) -> str | None:
        return self.facts.waiting


def detached(m: Match) -> Match:
    """A copy of `m` for another thread to read: its own lists, the snapshots shared (bytes,
    never changed), its position read again from them."""
    return dataclasses.replace(
        m,
        seats=list(m.seats),
        options=dict(m.options),
        snaps=list(m.snaps),
        steps=list(m.steps),
        settings=dict(m.settings),
        hints=set(m.hints),
        autopilot=set(m.autopilot),
        repairs=list(m.repairs),
    )


class Session:
    """One match (or table) played at this terminal; see the module's text."""

    def __init__(
        self,
        source: Source | Match,
        handover: bool | None = None,
        autosaver: Autosaver | None = None,
        saves_dir: str | None = None,
        think: float | None = None,
    ) -> None:
        if isinstance(source, Match):
            source = LocalSource(source, think=think)
        self.source: Source = source
        self.autosaver, self.saves_dir = autosaver, saves_dir
        self.last_autosave: str | None = None
        self.dirty = False  # changed here since the start: only then is there news to save
        match, facts = source.match, source.facts()
        if handover is None:
            handover = bool(match.settings.get("handover", True))
        self.humans = [i for i, s in enumerate(match.seats) if not s.is_bot]
        game = match.game
        # hand-overs only matter between people sharing one screen
        self.handover = bool(
            handover
            and facts.reader is None
            and len(self.humans) > 1
            and game.has_private_info
            and not game.cooperative
        )
        # who reads the screen: a table's seat (or the public, watching); in hotseat the
        # seat to move (set as play goes), the one person against computers, the public
        # when only computers play
        self.viewer: int | None = facts.reader
        if self.viewer is None:
            self.viewer = self.humans[0] if self.humans else PUBLIC
        self.unlocked: int | None = None if self.handover else self.viewer
        self.unlocked_at = match.cursor  # the move from which `unlocked` holds the keyboard
        self._n = 0
        self._shown = match.cursor  # the moves whose lines a position has carried
        self._mine: bool | None = None
        self._ring = False  # the last change came from elsewhere (the bell may ring)
        self.position = self.refresh()

    # ---- reading ---------------------------------------------------------------------
    @property
    def match(self) -> Match:
        """The position (a table's is read again after every change)."""
        return self.source.match

    @property
    def facts(self) -> Facts:
        return self.source.facts()

    @property
    def shared(self) -> bool:
        return self.source.facts().shared

    @property
    def table(self) -> TableSource | None:
        """The shared table's own source (talk, rematch, reclaim), or None."""
        return cast("TableSource", self.source) if self.shared else None

    def refresh(self) -> Position:
        """Work out who is to act now and make the change's position (`self.position`)."""
        source, m = self.source, self.source.match
        facts = source.facts()
        prompt = m.prompt
        reader = facts.reader  # a table's seat or spectator, whatever happens
        self.unlocked_at = min(self.unlocked_at, m.cursor)  # an undo went back
        handover = None
        if prompt is None:
            self.viewer = reader  # None in hotseat: at the end everything is shown
        elif reader is not None:
            self.viewer = reader
        elif not m.seats[prompt.seat].is_bot:
            if self.handover and prompt.seat != self.unlocked:
                handover = self._handover(prompt)
            else:
                self.viewer = prompt.seat
        computer = prompt is not None and m.seats[prompt.seat].is_bot
        decides = (
            prompt is not None
            and handover is None
            and facts.waiting is None
            and source.decides(prompt.seat)
        )
        mine = facts.shared and facts.seat is not None and decides
        bell = mine and self._mine is False and self._ring
        self._mine, self._ring = mine, False
        lines: tuple[str, ...] = ()
        if handover is None:  # else kept for the one who takes the keyboard
            start = min(self._shown, m.cursor)
            lines = tuple(x for s in m.steps[start : m.cursor] for x in s.lines_for(self.viewer))
            self._shown = m.cursor
        self._n += 1
        # nothing private shows while a hand-over is owed
        view = source.view(PUBLIC if handover else self.viewer)
        self.position = Position(
            n=self._n,
            match=m,
            state=m.state,
            cursor=m.cursor,
            prompt=prompt,
            viewer=self.viewer,
            view=view,
            to_move=None if prompt is None else prompt.seat,
            decides=decides,
            computer=computer,
            handover=handover,
            lines=lines,
            news=tuple(source.news()),
            bell=bell,
            facts=facts,
        )
        return self.position

    def _handover(self, prompt: Prompt) -> Handover:
        m, holder = self.match, self.unlocked
        return Handover(
            seat=prompt.seat,
            name=m.seats[prompt.seat].name,
            what=f"your turn ({prompt.phase or 'play'})",
            holder=holder,
            holder_name="" if holder is None else m.seats[holder].name,
            seen=tuple(self.seen_alone()) if holder is not None else (),
        )

    def seen_alone(self) -> list[str]:
        """What the seat holding the keyboard learned privately since it took it (a look at
        hidden cards, its draw): shown to it before it passes the keyboard on."""
        seat, m = self.unlocked, self.match
        if seat is None or self.unlocked_at >= m.cursor:
            return []
        return [
            e.text
            for step in m.steps[self.unlocked_at : m.cursor]
            for e in step.events
            if e.readers is not None and seat in e.readers and e.reveal and e.text != e.public
        ]

    def seen_said(self) -> None:
        """What the holder learned alone has been shown: not again."""
        self.unlocked_at = self.match.cursor

    def hand_over(self, seat: int) -> Position:
        """`seat` has the keyboard now."""
        self.unlocked = self.viewer = seat
        self.unlocked_at = self.match.cursor
        return self.refresh()

    def view(self, viewer: int | None, index: int | None = None) -> Mapping[str, Any]:
        """What `viewer` sees, now or after move `index` (a review); at a table, a spectator
        sees only what every seat sees alike, and None (the end) everything."""
        m = self.match
        if index is None and (viewer is not None or not self.shared):
            return self.source.view(viewer)
        state = m.state if index is None else m.state_at(index)
        if self.shared and viewer is not None and self.facts.seat is None:
            from boardgames_tui.engine.tables.store import public_view

            view: Mapping[str, Any] = public_view(m, state)
            return view
        shown: Mapping[str, Any] = m.game.view(state, viewer)
        return shown

    def can_step_back(self) -> bool:
        """Out of a move of several parts (its first part has been chosen)."""
        prompt = self.match.prompt
        return prompt is not None and prompt.step > 0 and self.source.decides(prompt.seat)

    def can_redo(self) -> bool:
        return not self.shared and self.match.can_redo()

    def clock(self) -> str:
        """The turn's clock now ("4:59 left"; "" without one)."""
        return self.source.facts().clock

    def place(self) -> dict[str, str]:
        """Where a room's reconnect comes back to: the table, or this game's autosave."""
        facts = self.source.facts()
        if facts.table_id is not None:
            return {"table": facts.table_id}
        return {"save": saves.autosave_path(self.match, self.saves_dir).name}

    # ---- changing --------------------------------------------------------------------
    def play(self, move_id: str, expected: int | None = None) -> Position:
        """A person's move here (Refused: not theirs, illegal, the table moved on);
        `expected`: the moves played so far it was chosen after (another: refused)."""
        self._change(lambda: self.source.play(move_id, expected))
        return self.position

    def _change(self, step: Callable[[], None]) -> None:
        self._asking(step)
        self.autosave()
        self.refresh()

    def _asking(self, call: Callable[[], T]) -> T:
        """`call()`; a refusal that read the source again (or lost its store) makes the
        position anew before it is raised."""
        try:
            return call()
        except Refused as exc:
            if exc.reloaded:
                self.refresh()
            raise

    def undo_reasons(self) -> list[str] | None:
        """Why an undo wants a yes (another person's move, a reveal); None: nothing to undo.
        A table's store allows only your own last move that revealed nothing: no question."""
        m = self.match
        if self.shared:
            return []
        if not m.can_undo():
            return None
        reasons = set()
        for i in range(self._undo_target(), m.cursor):
            step = m.steps[i]
            if not m.seats[step.seat].is_bot and step.seat != self.viewer:
                reasons.add(f"it takes back {m.seats[step.seat].name}'s move")
            if step.reveal:
                reasons.add("it goes back over a reveal (a draw comes out the same again)")
        return sorted(reasons)

    def _undo_target(self) -> int:
        m = self.match
        return m.last_human_cursor() if any(s.is_bot for s in m.seats) else m.cursor - 1

    def undo(self) -> Position:
        """Take back the last person's move (and the computers' after it); ask first with
        `undo_reasons`."""
        if self.source.facts().strict:
            raise Refused("Undo is off in this game (strict rules).")
        target = self._undo_target()
        self._change(lambda: self.source.goto(target))
        return self.position

    def step_back(self) -> Position:
        """Out of a move of several parts, one part back."""
        self._change(lambda: self.source.goto(self.match.cursor - 1))
        return self.position

    def redo(self) -> Position:
        """Play an undone move again, and the computers' moves after it."""
        m = self.match
        if not self.can_redo():
            raise Refused("Nothing to redo.", "information")
        target = m.cursor + 1
        while target < len(m.steps) and m.seats[m.steps[target].seat].is_bot:
            target += 1
        self._change(lambda: self.source.goto(target))
        return self.position

    def goto(self, index: int) -> Position:
        """Go on from move `index` (review's "continue from here")."""
        self._change(lambda: self.source.goto(index))
        return self.position

    def computer(self) -> ComputerTurn | None:
        """The computer decision due here, or None (not a computer's turn, or another
        terminal plays them); answer it with `computer_done`."""
        return self._asking(self.source.computer)

    def computer_done(self, turn: ComputerTurn, move_id: str | None) -> bool:
        """A computer's answer (None: dropped); whether it was played."""
        played = self._asking(lambda: self.source.computer_done(turn, move_id))
        if played:
            self.autosave()
            self.refresh()
        return played

    def think(self, turn: ComputerTurn) -> tuple[str, Exception | None]:
        """A computer's move for `turn`, found here and now (a failing player: a random legal
        move, and its error)."""
        try:
            return turn.think(), None
        except Exception as exc:  # a bot bug must not end the game
            return fallback_move(turn), exc

    def poll(self) -> bool | None:
        """Anything new from elsewhere? True: a new position (drawn from `position`);
        False: the computers may be due; None: nothing."""
        moved = self._asking(self.source.poll)
        if moved:
            self._ring = True
            self.refresh()
        return moved

    def autosave(self) -> None:
        """Queue the match for writing (a shared table keeps every move in its store)."""
        if self.autosaver is None or self.shared:
            return
        self.dirty = True
        m = self.match
        path = saves.autosave_path(m, self.saves_dir)
        if m.over:  # written before anything else happens (the end screen)
            self.autosaver.submit(path, saves.dumps(m), wait=True)
        else:  # the text is made in the writer thread, from a copy the next move leaves be
            self.autosaver.submit(path, functools.partial(saves.dumps, detached(m)))
        self.last_autosave = str(path)

    def close(self) -> None:
        self.source.close()


__all__ = ["Handover", "Position", "Session", "fallback_move"]
