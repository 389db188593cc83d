"""Game analysis: every decision of a match rated by the strong player's search.

For each decision with a choice (more than one legal option) of a rated seat, the coach
(`coach.option_values`) values every option from that seat's view at that moment — hidden
information sampled as the seat knew it, nothing seen in hindsight — and the move played is
compared with the best one. The drop in estimated winning chance gives the tag (`TAGS`); a
player's accuracy is the share of their decisions tagged best or good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..core.match import Match
from ..core.protocol import Game
from .coach import OptionValue, option_values

# (tag, largest drop in winning chance it covers); a drop beyond the last is a blunder.
# The search's estimates have a noise of a few points at the default thinking time, so a
# drop below 3 points counts as playing the best move.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("best", 0.03),
    ("good", 0.06),
    ("inaccuracy", 0.12),
    ("mistake", 0.25),
)
TAGS = ("best", "good", "inaccuracy", "mistake", "blunder")
# marks beside a move in review (chess notation: words are in the detail line)
MARKS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
FLAWS = ("inaccuracy", "mistake", "blunder")


def tag_for(drop: float) -> str:
    """The tag of a move whose estimated winning chance is `drop` below the best option's."""
    for tag, limit in THRESHOLDS:
        if drop <= limit + 1e-9:
            return tag
    return "blunder"


@dataclass(frozen=True)
class Rating:
    """One decision: the move played against the best one, valued from the seat's view."""

    n: int  # move number (1 = the first move of the game)
    seat: int
    played: str  # move ids
    best: str
    played_label: str
    best_label: str
    played_value: float  # estimated winning chance (co-op: the team's), 0-1
    best_value: float
    tag: str
    options: tuple[OptionValue, ...]  # every option, best first

    @property
    def drop(self) -> float:
        return self.best_value - self.played_value

    def to_json(self) -> dict[str, Any]:
        """The issue's shape: n, seat (counted from 1), played, best, values, tag."""
        return {
            "n": self.n,
            "seat": self.seat + 1,
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 3),
            "best_value": round(self.best_value, 3),
            "tag": self.tag,
        }


def rate(n: int, seat: int, played: str, values: list[OptionValue]) -> Rating:
    """The rating of move `n` (id `played`) given the options' values, best first."""
    mine = next(v for v in values if v.move_id == played)
    best = values[0]
    if mine.value >= best.value:  # the best option's value is never below the played one's
        best = mine
    tag = "best" if best is mine else tag_for(best.value - mine.value)
    return Rating(
        n,
        seat,
        played,
        best.move_id,
        mine.label,
        best.label,
        mine.value,
        best.value,
        tag,
        tuple(values),
    )


def rated_seats(match: Match) -> list[int]:
    """The seats analysis rates: the people at the table, or every seat if none is one."""
    humans = [i for i, s in enumerate(match.seats) if not s.is_bot]
    return humans or list(range(len(match.seats)))


def decisions(match: Match, seats: Iterable[int] | None = None) -> list[int]:
    """Move numbers of the decisions to rate: a rated seat's moves that had a choice."""
    rated = set(rated_seats(match) if seats is None else seats)
    out = []
    for i, step in enumerate(match.steps):
        if step.seat not in rated:
            continue
        prompt = match.game.prompt(match.state_at(i))
        if prompt is not None and len(prompt.moves) > 1:
            out.append(i + 1)
    return out


def decision_seed(match: Match, n: int) -> int:
    """The search seed for move `n` of a match (the hint for that move uses the same)."""
    return (match.seed * 1_000_003 + n * 7919) & 0x7FFFFFFF


def rate_move(
    match: Match,
    n: int,
    think: float | None = None,
    iterations: int | None = None,
) -> Rating:
    """Rate move `n` of `match` from its seat's view before it was played."""
    step = match.steps[n - 1]
    return rate_position(
        match.game,
        match.state_at(n - 1),
        n,
        step.move_id,
        decision_seed(match, n),
        think=think,
        iterations=iterations,
    )


def rate_position(
    game: Game,
    state: Any,
    n: int,
    played: str,
    seed: int,
    think: float | None = None,
    iterations: int | None = None,
) -> Rating:
    """Rate move `played`, taken as move `n` at `state`, from the view of the seat to move."""
    prompt = game.prompt(state)
    assert prompt is not None, "no decision to rate: the game is over"
    values = option_values(
        game, state, prompt, seed=seed, think=think, iterations=iterations, pinned=[played]
    )
    return rate(n, prompt.seat, played, values)


def analyse(
    match: Match,
    think: float | None = None,
    iterations: int | None = None,
    seats: Iterable[int] | None = None,
    progress: Callable[[int, int], bool | None] | None = None,
    numbers: Iterable[int] | None = None,
) -> list[Rating]:
    """Rate every decision of the rated seats (or only those among move `numbers`);
    `progress(done, total)` after each one (returning False stops early)."""
    todo = decisions(match, seats)
    if numbers is not None:
        wanted = set(numbers)
        todo = [n for n in todo if n in wanted]
    out = []
    if progress is not None:
        progress(0, len(todo))
    for k, n in enumerate(todo, start=1):
        out.append(rate_move(match, n, think, iterations))
        if progress is not None and progress(k, len(todo)) is False:
            break
    return out


def summary(
    match: Match, ratings: Iterable[Rating], seats: Iterable[int] | None = None
) -> list[dict[str, Any]]:
    """Per rated seat: decisions, accuracy (% best or good), and each tag's count."""
    ratings = list(ratings)
    out = []
    for seat in rated_seats(match) if seats is None else seats:
        mine = [r for r in ratings if r.seat == seat]
        counts = {t: sum(1 for r in mine if r.tag == t) for t in TAGS}
        sound = counts["best"] + counts["good"]
        out.append(
            {
                "seat": seat + 1,
                "name": match.seats[seat].name,
                "decisions": len(mine),
                "accuracy": round(100.0 * sound / len(mine), 1) if mine else None,
                "best": counts["best"],
                "good": counts["good"],
                "inaccuracies": counts["inaccuracy"],
                "mistakes": counts["mistake"],
                "blunders": counts["blunder"],
                "average_drop": round(sum(r.drop for r in mine) / len(mine), 3) if mine else None,
            }
        )
    return out


def to_json(match: Match, ratings: list[Rating]) -> dict[str, Any]:
    """`{"moves": [...], "players": [...]}` as `analyse --json` prints it."""
    return {"moves": [r.to_json() for r in ratings], "players": summary(match, ratings)}
