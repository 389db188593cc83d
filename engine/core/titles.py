"""What the app knows about a title besides its rules: the catalog entry (`Title`) and the
hints its computer players use (`AIHints`). Every game states these once, in its own package.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .protocol import Prompt


@dataclass(frozen=True)
class Title:
    """A title as the menu, the command line, bench and screenshots see it, readable without
    importing the game's rules (start-up stays quick)."""

    id: str  # stable: saves and the command line use it (the entry point's name)
    title: str
    min_players: int
    max_players: int
    aliases: tuple[str, ...] = ()  # other names the command line accepts (lower case)
    # the usual table: bench measures at this count (0: the smallest table of 2 or more)
    typical_players: int = 0
    # the table of the screenshots and screen snapshots (0: the typical one)
    picture_players: int = 0
    # "module:ATTR" of the title's AIHints (its evaluations, search settings and policy for
    # the computer players), loaded when a computer player first needs it; "" for none
    ai: str = ""
    # place in the menu and other lists (then by discovery order); installed metadata lists
    # entry points alphabetically, so the order is stated here
    order: int = 100

    @property
    def players(self) -> int:
        """The typical player count (bench, simulate's default)."""
        return self.typical_players or min(self.max_players, max(2, self.min_players))

    @property
    def picture_table(self) -> int:
        """The player count of screenshots and snapshots."""
        return self.picture_players or self.players


@dataclass(frozen=True)
class SearchSettings:
    """Knobs of the strong computer player's search (engine/bots/search.py), tuned per game
    with `simulate`."""

    c: float = 0.7  # UCB exploration constant
    depth: int = 0  # playout plies after the tree before the heuristic scores it
    # playout policy: "random" (tree mode) or "greedy" (rollout mode), or "policy": the
    # game's own rule-following player (`AIHints.policy`)
    rollout: str = "random"
    min_iterations: int = 16  # even under time pressure, at least this many
    # determinizations per decision, reused in turn (sampling costs more); 0: a new one for
    # every iteration or pass (a greedy playout is the same on the same world, so in rollout
    # mode a reused world adds no evidence, only a smaller-looking standard error)
    worlds: int = 48
    # "tree": ISMCTS; "rollout": every option is played out on the same sampled worlds by
    # greedy players up to the next checkpoint (a new round), the worst options dropped as
    # evidence comes in (Monte Carlo policy improvement over the greedy player)
    mode: str = "tree"
    epsilon: float = 0.0  # rollout mode: share of random moves in the playouts
    # rollout mode: 0, the playout players decide on the playout's world (fast, but they see
    # its deck and hidden cards); N, each greedy step decides on N worlds sampled from the
    # mover's view, as the greedy player does
    playout_worlds: int = 0
    max_plies: int = 400  # rollout mode: playout length cap
    confidence: float = 1.0  # rollout mode: standard errors an option must beat the base by
    evaluator: str | None = None  # a named variant of the evaluation (`AIHints.evaluators`)
    playout_evaluator: str | None = None  # a cheaper one for the greedy playout steps
    # rollout mode: also weigh the base player's line through the seat's multi-part move
    # stopped after each of its steps, not only each first step followed by that line (off
    # in every game: measured at Rattus Cartus, 2 players, no better)
    plans: bool = False
    # rollout mode: play out to the next "round", over "2" or more checkpoints, or to the "end"
    horizon: str = "round"


Value = Callable[[Any, int], float]  # (state, seat) -> a score-like value for the seat
Policy = Callable[[Any, "Prompt", random.Random], str]  # (state, prompt, rng) -> a move id


@dataclass(frozen=True)
class AIHints:
    """A game's knowledge for the computer players, owned by the game's package."""

    # value points that make a clear lead (the scale of the logistic that turns a lead into a
    # win chance)
    scale: float = 4.0
    # player count -> search settings; key 0 for every other count
    search: Mapping[int, SearchSettings] = field(default_factory=dict)
    # named evaluations: "" is the bots' default (else `Game.evaluate`), other names are
    # variants the search settings may pick
    evaluators: Mapping[str, Value] = field(default_factory=dict)
    # where a playout may stop and be scored: a value that changes at a natural break (None:
    # the state's `round`)
    checkpoint: Callable[[Any], Any] | None = None
    # the game's own rule-following player, if it has one
    policy: Policy | None = None

    def settings(self, players: int = 0) -> SearchSettings:
        """The search settings for a table of `players`."""
        return self.search.get(players) or self.search.get(0) or SearchSettings()


def rules_on_first_use(package: str, *names: str) -> Callable[[str], Any]:
    """A game package's module `__getattr__`: `names` (GAME and the Game class) come from its
    `rules` module, imported on first use, so that reading the package's TITLE stays cheap."""

    def __getattr__(name: str) -> Any:
        if name in names:
            import importlib

            return getattr(importlib.import_module(f"{package}.rules"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
