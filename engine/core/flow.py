"""The one flow driver: who decides next, for every game (boardgame.io's `flow.ts` as model).

A game declares its decisions (a `DecisionTable` over the kinds in `state.pending`); the core
owns the turn: after a move it runs the automatic kinds at the head of `pending`, settles the
choices that offer nothing to choose, and, when the queue is empty, asks the game one hook,
`next_decisions`: "what comes next?" (a new phase, the next round, or nothing: the game is
over). Between moves the head of `pending` is always a choice that waits for its seat.

The contract with the handlers: a handler owns the queue. Its `play`, `run` or a `settle`
that returns True takes its own decision off `pending` (or turns it into the next step in
place) and puts its follow-ups in front (`pending.insert(0, d)`) or at the back; the driver
only reads the head.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from .decisions import Decision, DecisionTable
from .protocol import Event, Game, IllegalMove, Move, Prompt, S, V


def queue(state: Any) -> list[Any]:
    """A driven state's pending decisions, the head first (`state.pending`)."""
    pending: list[Any] = state.pending
    return pending


D = TypeVar("D", bound=Decision)  # the game's decision type


class FlowGame(Game[S, V], Generic[S, D, V]):
    """A game whose turns the core drives (`FlowGame[MyState, MyDecision, MyView]`): `prompt`/`play` come from `decisions` and `pending`.

    A subclass sets `decisions` and may override the two hooks:

    - `next_decisions(state, events)`: the queue is empty; put what comes next in `pending`
      (True), or say the game is over (False, the default);
    - `before(state, head, events)`: a rule that fires before the head is taken up (an order
      met between two steps); True when it changed `pending`.
    """

    decisions: ClassVar[DecisionTable[Any, Any, Any]]

    def next_decisions(self, state: S, events: list[Event]) -> bool:
        """The queue is empty: queue what comes next (True), or the game is over (False)."""
        return False

    def before(self, state: S, head: D, events: list[Event]) -> bool:
        """A rule that fires before `head` is taken up; True when it changed `pending`."""
        return False

    def prompt(self, state: S) -> Prompt | None:
        pending = queue(state)
        if not pending:
            return None
        return self.decisions.prompt(self, state, pending[0])

    def play(self, state: S, move: Move) -> list[Event]:
        pending = queue(state)
        if not pending:
            raise IllegalMove("the game is over: no move can be played")
        events = opening_events(state)
        self.decisions.play(self, state, pending[0], move.id, events)
        drive(self, state, events)
        return events


def opening_events(state: Any) -> list[Event]:
    """The setup's lines (a state's `opening`), which open the first move's log, taken once."""
    opening = getattr(state, "opening", None)
    if not opening:
        return []
    state.opening = []
    return [Event(line) if isinstance(line, str) else line for line in opening]


def drive(game: FlowGame[Any, Any, Any], state: Any, events: list[Event]) -> None:
    """Run the flow on until a choice waits for its seat or the game is over."""
    table = game.decisions
    choices = table.choices
    before = game.before if type(game).before is not FlowGame.before else None
    while True:
        pending = state.pending  # a handler may replace the list
        if not pending:
            if not game.next_decisions(state, events):
                return
            continue
        d = pending[0]
        if before is not None and before(state, d, events):
            continue
        if d.kind in choices:
            if not table.settle(game, state, d, events):
                return
        else:
            table.run(game, state, d, events)


__all__ = ["FlowGame", "drive", "opening_events", "queue"]
