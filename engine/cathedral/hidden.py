"""What a computer player may not know of The Cathedral of Orléans: the face-down tiles.

Bag contents are public (every token going in and out is seen; only the order of a draw is
not), so a world a player imagines differs only in the order of the event stack, the
blueprint pile and the hourglass tiles still face down, and in the seed of future draws.
"""

from __future__ import annotations

import random

from ..core.protocol import Game
from .state import CathedralState


def determinize(
    game: Game[CathedralState], state: CathedralState, seat: int, rng: random.Random
) -> CathedralState:
    """A copy of `state` with the face-down stacks shuffled by `rng` and its chance re-seeded
    (the same for every seat: nobody sees a face-down tile)."""
    s = game.clone(state)
    events = sorted(s.events)
    rng.shuffle(events)
    s.events = events
    bps = sorted(s.blueprints)
    rng.shuffle(bps)
    s.blueprints = bps
    unseen_hg = sorted(s.hourglass_stack + s.hourglass_box)
    rng.shuffle(unseen_hg)
    k = len(s.hourglass_stack)
    s.hourglass_stack = unseen_hg[:k]
    s.hourglass_box = sorted(unseen_hg[k:])
    s.seed = rng.randrange(2**31)
    return s


def twin(
    game: Game[CathedralState], s: CathedralState, seat: int, rng: random.Random
) -> CathedralState:
    """Another order of the face-down events and blueprints (nobody sees them)."""
    t = game.clone(s)
    t.events.reverse()
    t.blueprints.reverse()
    return t
