"""Seeded, deterministic chance: every draw derives from (match seed, draw counter).

Never use the global `random`. Replaying the same moves from the same seed gives the same
game, which is what makes saves, replays, undo and bug reports exact.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def _rng(state: Any) -> random.Random:
    state.draws += 1
    return random.Random(state.seed * 1_000_003 + state.draws)


def shuffle(state: Any, items: MutableSequence[Any]) -> None:
    """Shuffle `items` in place with the state's next draw."""
    _rng(state).shuffle(items)


def choice(state: Any, items: Sequence[T]) -> T:
    """One item at random."""
    return _rng(state).choice(items)


def randint(state: Any, a: int, b: int) -> int:
    """An integer in [a, b]."""
    return _rng(state).randint(a, b)


def draw_index(state: Any, n: int) -> int:
    """An index in [0, n)."""
    return _rng(state).randrange(n)
