"""Wealth points: the final scoring (provisional during play) and the result."""

from __future__ import annotations

from boardgames_tui.engine.core.protocol import Result, ScoreLine

from . import data, logic
from .state import PestisState


def tokens_owned(s: PestisState, seat: int) -> list[int]:
    """The influence token values `seat` owns: the starting five and one per healed subject."""
    out = list(data.START_TOKENS)
    for key, is_healed in s.subjects[seat].items():
        if is_healed:
            out.append(data.SUBJECTS[key].token)
    return out


def score(s: PestisState, seat: int) -> list[tuple[str, int]]:
    """Wealth points of `seat` by source (end scoring, provisional during play)."""
    coins, gds = s.coins[seat], s.reserve[seat] + s.agrus[seat]
    heal_tokens = sum(data.SUBJECTS[k].token for k, h in s.subjects[seat].items() if h)
    rows = [
        ("influence tokens", sum(data.START_TOKENS) + heal_tokens),
        (f"coins ({coins} / {data.WP_COINS})", coins // data.WP_COINS),
        ("subject cards", len(s.subjects[seat])),
        ("resources played", len(s.res_played[seat])),
        ("developments", len(s.devs[seat])),
        (f"grave-diggers ({gds} / {data.WP_GRAVE_DIGGERS})", gds // data.WP_GRAVE_DIGGERS),
    ]
    if logic.healed(s, seat, "nobleman"):
        rows.append(("Nobleman", data.NOBLEMAN_WP))
    return rows


def wealth(s: PestisState, seat: int) -> int:
    """`seat`'s wealth points now."""
    return sum(v for _, v in score(s, seat))


def result(s: PestisState) -> Result:
    """The winners (most wealth points; a tie shares the victory) and every seat's score."""
    lines = []
    for seat in range(s.n):
        rows = score(s, seat)
        lines.append(ScoreLine(seat, float(sum(v for _, v in rows)), list(rows)))
    best = max(line.score for line in lines)
    winners = [line.seat for line in lines if line.score == best]
    for line in lines:  # tied seats share a place and the next is skipped: 1, 1, 3
        line.rank = 1 + sum(other.score > line.score for other in lines)
    names = " and ".join(s.names[w] for w in winners)
    verb = "share the victory" if len(winners) > 1 else "wins"
    if s.phase == "over":
        summary = f"{names} {verb} with {int(best)} wealth points."
    else:
        summary = f"Provisional: {names} lead with {int(best)} wealth points."
    return Result(winners, lines, summary)
