"""The final scoring of Notre Dame (also the provisional score during play): prestige, then
gold + personal supply markers as the tie-break. (The Notre Dame scoring after rounds 3, 6
and 9 belongs to the round's flow, in `rules`.)"""

from __future__ import annotations

from ..core.protocol import Result, ScoreLine
from . import data
from .state import OVER, NotreDameState


def tiebreak(s: NotreDameState, seat: int) -> int:
    """Gold + personal supply markers: the first tie-break."""
    return s.gold[seat] + s.supply[seat]


def result(s: NotreDameState) -> Result:
    """Most prestige; tie: most gold + supply markers; still tied: a shared win."""
    keys = [(s.prestige[seat], tiebreak(s, seat)) for seat in range(s.n)]
    best = max(keys)
    winners = [seat for seat in range(s.n) if keys[seat] == best]
    lines = []
    for seat in range(s.n):
        breakdown: list[tuple[str, float | str]] = [
            (label, float(s.sources[seat][key]))
            for key, label in data.SOURCE_LABELS.items()
            if s.sources[seat].get(key)
        ]
        breakdown.append(("Tie-break: gold + supply markers", str(tiebreak(s, seat))))
        rank = 1 + sum(1 for k in keys if k > keys[seat])
        note = "tie-break" if any(k[0] == keys[seat][0] and k != keys[seat] for k in keys) else ""
        lines.append(ScoreLine(seat, float(s.prestige[seat]), breakdown, rank, note))
    names = [s.names[seat] for seat in winners]
    if len(winners) == 1:
        w = winners[0]
        summary = f"{names[0]} wins with {s.prestige[w]} prestige"
        if sum(1 for k in keys if k[0] == best[0]) > 1:
            summary += f" (tie-break: {tiebreak(s, w)} gold + supply)"
    else:
        summary = f"{' and '.join(names)} share the win with {best[0]} prestige"
    if s.phase != OVER:
        summary = "Provisional: " + summary
    return Result(winners, lines, summary)
