"""One pattern for pending decisions, shared by every game.

A state keeps what is still to be decided as a list of `Decision`s, the head first. A decision
is a small dataclass: its `kind` (a name from the rulebook: "commit", "sword", "invest"), the
`seat` that decides (-1: nobody, an automatic step) and the parameters of that kind, as typed
fields of the game's own subclass. A game's `DecisionTable` maps each kind to what it does:

- a decision kind has a `prompt` (the question and the legal moves) and a `play` (apply the
  chosen move id, appending log events);
- an automatic kind (the rules resolve it without anyone choosing) has a `run`;
- a decision kind that can offer nothing to choose (an empty hand, one road) may have a
  `settle`: it resolves the decision without asking when so (True), else leaves it (False).

So `Game.prompt` is "the table's prompt for the head decision" and `Game.play` is "the table's
play for it", and every kind reads as one short function pair named after the rule it is.

A kind whose parameters differ from the others' is best its own small dataclass, its `kind`
fixed (`kind: str = field(default="give", init=False)`), with `decision(Give, choice(...))` as
its table entry: the handlers then take that class, and mypy checks that they do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, Generic, TypeVar

from .protocol import Event, IllegalMove, Prompt


@dataclass(slots=True)
class Decision:
    """Something still to be decided (or resolved): its kind and the seat that decides."""

    kind: str
    seat: int = -1


G = TypeVar("G")  # the game object the handlers are methods of
S = TypeVar("S")  # the game's state
D = TypeVar("D", bound=Decision)  # the game's decision type


@dataclass(frozen=True, slots=True)
class Kind(Generic[G, S, D]):
    """What one kind of decision does: `prompt` + `play` (a choice) or `run` (automatic)."""

    prompt: Callable[[G, S, D], Prompt] | None = None
    play: Callable[[G, S, D, str, list[Event]], None] | None = None
    run: Callable[[G, S, D, list[Event]], None] | None = None
    settle: Callable[[G, S, D, list[Event]], bool] | None = None

    def __post_init__(self) -> None:
        choice = self.prompt is not None and self.play is not None and self.run is None
        automatic = self.prompt is None and self.play is None and self.run is not None
        automatic = automatic and self.settle is None
        if not (choice or automatic):
            raise ValueError("a Kind has a prompt and a play, or a run alone")

    @property
    def automatic(self) -> bool:
        return self.run is not None


def choice(
    prompt: Callable[[G, S, D], Prompt],
    play: Callable[[G, S, D, str, list[Event]], None],
    settle: Callable[[G, S, D, list[Event]], bool] | None = None,
) -> Kind[G, S, D]:
    """A kind that a seat decides (`settle`: resolves it when there is nothing to choose)."""
    return Kind(prompt=prompt, play=play, settle=settle)


def automatic(run: Callable[[G, S, D, list[Event]], None]) -> Kind[G, S, D]:
    """A kind that the rules resolve on their own."""
    return Kind(run=run)


K = TypeVar("K", bound=Decision)  # one class of decision


def kind_of(cls: type[Decision]) -> str:
    """The kind of every decision of class `cls`: the default of its fixed `kind` field."""
    default = next((f.default for f in fields(cls) if f.name == "kind"), MISSING)
    if not isinstance(default, str):
        raise ValueError(
            f"{cls.__name__} fixes no kind (kind: str = field(default=..., init=False))"
        )
    return default


def decision(cls: type[K], kind: Kind[G, S, K]) -> tuple[str, Kind[G, S, Any]]:
    """The table entry of a decision class: its kind and what it does, the handlers typed for
    `cls` (the table dispatches on the kind, which only `cls` has)."""
    return kind_of(cls), kind


class DecisionTable(Generic[G, S, D]):
    """From a decision's kind to its prompt and its play (or its automatic run): a mapping,
    or the entries `decision(cls, kind)` of the game's decision classes."""

    __slots__ = ("_kinds", "choices")

    def __init__(
        self, kinds: Mapping[str, Kind[G, S, D]] | Iterable[tuple[str, Kind[G, S, Any]]]
    ) -> None:
        self._kinds = dict(kinds)
        self.choices = frozenset(k for k, v in self._kinds.items() if not v.automatic)

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def kinds(self) -> Iterable[str]:
        return self._kinds.keys()

    def is_choice(self, d: Decision) -> bool:
        """Whether `d` waits for a seat (False: the rules resolve it)."""
        return d.kind in self.choices

    def prompt(self, game: G, state: S, d: D) -> Prompt:
        """The question `d` asks and its legal moves."""
        kind = self._kinds.get(d.kind)
        if kind is None or kind.prompt is None:
            raise IllegalMove(f"nothing to decide ({d.kind})")
        return kind.prompt(game, state, d)

    def play(self, game: G, state: S, d: D, move_id: str, events: list[Event]) -> None:
        """Apply `move_id` as the answer to `d` (IllegalMove when it is not an answer)."""
        kind = self._kinds.get(d.kind)
        if kind is None or kind.play is None:
            raise IllegalMove(f"nothing to decide ({d.kind})")
        kind.play(game, state, d, move_id, events)

    def settle(self, game: G, state: S, d: D, events: list[Event]) -> bool:
        """Resolve the decision `d` without asking when it offers nothing to choose (True)."""
        kind = self._kinds.get(d.kind)
        if kind is None or kind.settle is None:
            return False
        return kind.settle(game, state, d, events)

    def run(self, game: G, state: S, d: D, events: list[Event]) -> None:
        """Resolve the automatic step `d`."""
        kind = self._kinds.get(d.kind)
        if kind is None or kind.run is None:
            raise ValueError(f"{d.kind!r} is not an automatic step")
        kind.run(game, state, d, events)


def head(pending: list[D]) -> D | None:
    """The decision at the head of a pending list, None when nothing is pending."""
    return pending[0] if pending else None
