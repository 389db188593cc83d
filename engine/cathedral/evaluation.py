"""What the computer players know of The Cathedral of Orléans: the rule-following player and
the search settings (the evaluation is the game's own `Game.evaluate`)."""

from __future__ import annotations

from ..core.titles import AIHints, SearchSettings
from . import policy

AI = AIHints(
    scale=4.0,
    # co-operative: the game's own rule player plays every option out to the end of the
    # game (a real result, no heuristic bias); the search leaves its choice only for a
    # clearly better one
    search={0: SearchSettings(mode="rollout", rollout="policy", horizon="end")},
    policy=policy.choose,
)
