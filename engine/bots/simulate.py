"""`boardgames-tui simulate`: many games without the UI, with a JSON-ready summary."""

from __future__ import annotations

import importlib
import math
import random
import time
from pathlib import Path
from typing import Any

from ..core import saves
from ..core.match import Match, Seat
from ..core.protocol import Game
from .players import make_bot


def _wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (round(max(0.0, c - h), 4), round(min(1.0, c + h), 4))


def _policy(game: Game, name: str) -> Any:
    """A game's own rule-following player: engine/<pkg>/policy.py `choose(state, prompt, rng)`."""
    module = importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".policy")
    fn = getattr(module, "choose", None)
    if fn is None:
        raise ValueError(f"{game.title} has no rule-following player {name!r}")
    return fn


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int = 1,
    seats: list[str] | None = None,
    policy: str | None = None,
    options: dict[str, str] | None = None,
    save_dir: str | None = None,
    think: float | None = None,
) -> dict[str, Any]:
    """Play `games` games; seat levels rotate every game so no level keeps a seat order."""
    options = game.check_options(options or {})
    levels = list(seats or ["random"])
    if policy:
        levels = ["policy"] * players
    while len(levels) < players:
        levels.append(levels[-1])
    levels = levels[:players]
    rotate = len(set(levels)) > 1
    policy_fn = _policy(game, policy or "rules") if "policy" in levels else None

    finished = 0
    moves_total = 0
    move_counts: list[int] = []
    winners_out: list[list[str]] = []
    scores_out: list[list[float]] = []
    wins_by_level: dict[str, float] = {lv: 0.0 for lv in levels}
    games_by_level: dict[str, int] = {lv: 0 for lv in levels}
    score_by_level: dict[str, float] = {lv: 0.0 for lv in levels}
    decide_time: dict[str, float] = {lv: 0.0 for lv in levels}
    decide_count: dict[str, int] = {lv: 0 for lv in levels}
    coop_wins = 0
    t0 = time.perf_counter()
    for g in range(games):
        gseed = seed + g
        shift = g % players if rotate else 0
        seat_levels = [levels[(i + shift) % players] for i in range(players)]
        names = [f"{lv.capitalize()} {i + 1}" for i, lv in enumerate(seat_levels)]
        state = game.new_state(names, options, gseed)
        rng = random.Random(gseed * 7919 + 17)
        bots = {
            i: make_bot(lv, game, seed=gseed * 31 + i, think=think)
            for i, lv in enumerate(seat_levels)
            if lv != "policy"
        }
        ids: list[str] = []
        while (prompt := game.prompt(state)) is not None:
            lv = seat_levels[prompt.seat]
            t = time.perf_counter()
            if lv == "policy":
                move_id = policy_fn(state, prompt, rng)  # type: ignore[misc]
            elif lv == "random":
                move_id = prompt.moves[rng.randrange(len(prompt.moves))].id
            else:
                move_id = bots[prompt.seat].choose(state, prompt)
            decide_time[lv] += time.perf_counter() - t
            decide_count[lv] += 1
            game.play(state, prompt.move(move_id))
            ids.append(move_id)
            if len(ids) > 200_000:
                raise RuntimeError(f"{game.id} seed {gseed}: the game does not end")
        finished += 1
        moves_total += len(ids)
        move_counts.append(len(ids))
        res = game.result(state)
        scores = [0.0] * players
        for line in res.lines:
            scores[line.seat] = float(line.score)
        scores_out.append(scores)
        winners_out.append([names[w] for w in res.winners])
        if game.cooperative and res.winners:
            coop_wins += 1
        for i, lv in enumerate(seat_levels):
            games_by_level[lv] += 1
            score_by_level[lv] += scores[i]
            if i in res.winners:
                wins_by_level[lv] += 1.0 / len(res.winners)
        if save_dir:
            m = Match.new(
                game,
                [
                    Seat(nm, lv if lv in ("random", "greedy", "strong") else "random")
                    for nm, lv in zip(names, seat_levels, strict=True)
                ],
                options,
                gseed,
            )
            for mid in ids:
                m.play(mid)
            saves.save(m, Path(save_dir) / f"{game.id}-{players}p-seed{gseed}.toml")
    elapsed = time.perf_counter() - t0
    per_level = {}
    for lv in levels:
        n = games_by_level[lv]
        seats_of = levels.count(lv)
        per_level[lv] = {
            "seats": seats_of,
            "win_share": round(wins_by_level[lv] / max(1, games), 4),
            "win_rate_per_seat": round(wins_by_level[lv] / max(1, n), 4),
            "ci95_per_seat": _wilson(wins_by_level[lv], n),
            "avg_score": round(score_by_level[lv] / max(1, n), 2),
            "seconds_per_decision": round(decide_time[lv] / max(1, decide_count[lv]), 5),
        }
    summary: dict[str, Any] = {
        "game": game.id,
        "players": players,
        "options": options,
        "games": games,
        "finished": finished,
        "seed": seed,
        "seats": levels,
        "moves_per_game": {
            "mean": round(moves_total / max(1, finished), 1),
            "min": min(move_counts, default=0),
            "max": max(move_counts, default=0),
        },
        "games_per_second": round(finished / elapsed, 2) if elapsed else None,
        "moves_per_second": round(moves_total / elapsed, 1) if elapsed else None,
        "levels": per_level,
        "winners": winners_out if games <= 50 else f"{len(winners_out)} games (list omitted)",
        "scores": scores_out if games <= 50 else "omitted",
    }
    if game.cooperative:
        summary["team_wins"] = coop_wins
        summary["team_win_rate"] = round(coop_wins / max(1, finished), 4)
        summary["team_ci95"] = _wilson(coop_wins, finished)
    return summary
