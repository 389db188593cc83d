"""Each seat's score over a finished game: sampled from the game's provisional result after
every move, for the end screen's and review's chart and the line mode's numbers (no Rich)."""

from __future__ import annotations

from boardgames_tui.engine.core import Match

MAX_POINTS = 60  # samples along the game (a chart's columns)


def score_history(match: Match, points: int = MAX_POINTS) -> tuple[list[int], list[list[float]]]:
    """(move numbers, each seat's scores at them) from the start to the end of a finished,
    competitive game; ([], []) when there is nothing to show (unfinished: a provisional score
    could tell what is hidden; co-operative; a title whose result needs the end)."""
    if not match.over or match.game.cooperative or match.length == 0:
        return [], []
    last = match.length
    step = max(1, -(-last // max(1, points - 1)))
    at = [*range(0, last, step), last]
    scores: list[list[float]] = [[] for _ in match.seats]
    try:
        for n in at:
            lines = {x.seat: x.score for x in match.game.result(match.state_at(n)).lines}
            for seat, row in enumerate(scores):
                row.append(float(lines.get(seat, 0.0)))
    except Exception:  # a result that only the end can give: no chart, nothing else lost
        return [], []
    return at, scores


def history_lines(match: Match) -> list[str]:
    """The score history as lines of numbers (the line mode's chart)."""
    at, scores = score_history(match, points=12)
    if not at:
        return []
    out = [f"Score over the game, after moves {', '.join(str(n) for n in at)}:"]
    for seat, row in zip(match.seats, scores, strict=True):
        out.append(f"  {seat.name}: {', '.join(f'{v:g}' for v in row)}")
    return out
