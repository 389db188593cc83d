"""Two plug-ins that leak through history, as a plug-in author might get them wrong (issue 41):
each passes the checks of the current position (views, twins of the hands, the computer
players), and the seed-twin property (test_seed_twins.py) must fail it.

Both are the example plug-in with one more rule at setup: the bottom card of the deck is set
aside face down (it is never drawn in a game of 15 stones).

- `ShownInRecord`: the first seat is shown the card set aside, and may know it (its view
  says so), but the log line that says so was written for everyone: a privately shown card
  in a public record.
- `NamedInLog`: nobody is shown it, and the public log line naming the setup says which card
  it is: a face-down card named in a public log line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from boardgames_toy.game import ToyGame, ToyState

from boardgames_tui.engine.core import registry
from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.engine.core.titles import Title


class ShownInRecord(ToyGame):
    """The first seat looks at the card set aside; the line saying which is public."""

    meta = Title(id="leaky-shown", title="Leaky shown", min_players=2, max_players=4)

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        s = super().new_state(names, options, seed)
        s.opening = [Event(f"{names[0]} looks at the card set aside: a {s.deck[0]}")]  # type: ignore[attr-defined]
        return s

    def view(self, s: ToyState, seat: int | None) -> Any:
        v: dict[str, Any] = dict(super().view(s, seat))
        v["set_aside"] = s.deck[0] if seat is None or seat == 0 else None  # first seat knows
        return v


class NamedInLog(ToyGame):
    """The setup's public line names the card set aside face down."""

    meta = Title(id="leaky-named", title="Leaky named", min_players=2, max_players=4)

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        s = super().new_state(names, options, seed)
        s.opening = [Event(f"A {s.deck[0]} is set aside face down")]  # type: ignore[attr-defined]
        return s


SHOWN = ShownInRecord()
NAMED = NamedInLog()


@contextmanager
def installed(attr: str) -> Iterator[str]:
    """The game named `attr` here ("SHOWN", "NAMED") installed as a title, with the toy's
    board, while the block runs (a shared table finds its game by id)."""
    game = globals()[attr]
    registry.register(game.id, f"{__name__}:{attr}")
    registry.register(game.id, "boardgames_toy.board:UI", group="boardgames_tui.boards")
    try:
        yield game.id
    finally:
        registry.unregister(game.id, group="boardgames_tui.boards")
        registry.unregister(game.id)
