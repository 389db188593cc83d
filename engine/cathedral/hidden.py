"""What a computer player may not know of The Cathedral of Orléans: the face-down tiles.

Bag contents are public (every token going in and out is seen; only the order of a draw is
not), so a world a player imagines differs only in the order of the event stack, the
blueprint pile and the hourglass tiles still face down, and in the seed of future draws.
"""

from __future__ import annotations

import random

from .state import CathedralState


def resample(s: CathedralState, rng: random.Random) -> None:
    """Shuffle the face-down stacks of `s` (a copy) with `rng` and re-seed its chance."""
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
