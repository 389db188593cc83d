"""`boardgames-tui simulate`: many games without the UI, with a JSON-ready summary."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core import saves
from ..core.match import Match, Seat
from ..core.protocol import Game, Result
from ..core.registry import ai_hints
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
    """A game's own rule-following player (`AIHints.policy`: `choose(state, prompt, rng)`)."""
    fn = ai_hints(game).policy
    if fn is None:
        raise ValueError(f"{game.title} has no rule-following player {name!r}")
    return fn


def _better(res: Result, a: int, b: int) -> float:
    """1 if seat `a` finished ahead of seat `b`, 0 if behind, 0.5 if level."""
    wa, wb = a in res.winners, b in res.winners
    if wa != wb:
        return 1.0 if wa else 0.0
    line = {ln.seat: ln for ln in res.lines}
    ra, rb = line[a].rank, line[b].rank
    if ra and rb and ra != rb:
        return 1.0 if ra < rb else 0.0
    sa, sb = line[a].score, line[b].score
    if (ra and rb) or sa == sb:
        return 0.5
    return 1.0 if sa > sb else 0.0


BotFactory = Callable[[str, int], Any]


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
    factory: BotFactory | None = None,
    progress: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play `games` games between computer players and summarize them.

    With different levels at the table, the levels rotate through the seats and every deal
    (seed) is played once per rotation, so no level keeps a seat order or a luckier deal:
    games g = r * players + k uses seed `seed + r` with the levels shifted by k.
    `factory(level, seed)` makes the players (default `make_bot(level, game, seed, think)`).
    """
    options = game.check_options(options or {})
    levels = list(seats or ["random"])
    if policy:
        levels = ["policy"] * players
    while len(levels) < players:
        levels.append(levels[-1])
    levels = levels[:players]
    rotate = len(set(levels)) > 1
    policy_fn = _policy(game, policy or "rules") if "policy" in levels else None
    make = factory or (lambda lv, s: make_bot(lv, game, seed=s, think=think))
    kinds = list(dict.fromkeys(levels))

    finished = 0
    moves_total = 0
    move_counts: list[int] = []
    winners_out: list[list[str]] = []
    scores_out: list[list[float]] = []
    wins_by_level = dict.fromkeys(kinds, 0.0)
    games_by_level = dict.fromkeys(kinds, 0)
    score_by_level = dict.fromkeys(kinds, 0.0)
    decide_time = dict.fromkeys(kinds, 0.0)
    decide_count = dict.fromkeys(kinds, 0)
    choice_time = dict.fromkeys(kinds, 0.0)  # decisions with more than one option
    choice_count = dict.fromkeys(kinds, 0)
    choice_max = dict.fromkeys(kinds, 0.0)
    pair_sum: dict[tuple[str, str], float] = {}
    pair_n: dict[tuple[str, str], int] = {}
    coop_wins = 0
    t0 = time.perf_counter()
    for g in range(games):
        shift = g % players if rotate else 0
        gseed = seed + (g // players if rotate else g)
        seat_levels = [levels[(i + shift) % players] for i in range(players)]
        names = [f"{lv.capitalize()} {i + 1}" for i, lv in enumerate(seat_levels)]
        state = game.new_state(names, options, gseed)
        rng = random.Random(gseed * 7919 + 17 + 1_000_003 * shift)
        bots = {i: make(lv, gseed * 31 + i) for i, lv in enumerate(seat_levels) if lv != "policy"}
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
            dt = time.perf_counter() - t
            decide_time[lv] += dt
            decide_count[lv] += 1
            if len(prompt.moves) > 1:
                choice_time[lv] += dt
                choice_count[lv] += 1
                choice_max[lv] = max(choice_max[lv], dt)
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
            for j, lw in enumerate(seat_levels):
                if lw != lv:
                    key = (lv, lw)
                    pair_sum[key] = pair_sum.get(key, 0.0) + _better(res, i, j)
                    pair_n[key] = pair_n.get(key, 0) + 1
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
            name = f"{game.id}-{players}p-seed{gseed}"
            if rotate:
                name += f"-r{shift}"
            saves.save(m, Path(save_dir) / f"{name}.toml")
        if progress is not None:
            progress(g + 1, {"winners": res.winners, "levels": seat_levels, "result": res})
    elapsed = time.perf_counter() - t0
    per_level = {}
    for lv in kinds:
        n = games_by_level[lv]
        entry: dict[str, Any] = {
            "seats": levels.count(lv),
            "win_share": round(wins_by_level[lv] / max(1, games), 4),
            "ci95_win_share": _wilson(wins_by_level[lv], games),
            "win_rate_per_seat": round(wins_by_level[lv] / max(1, n), 4),
            "ci95_per_seat": _wilson(wins_by_level[lv], n),
            "avg_score": round(score_by_level[lv] / max(1, n), 2),
            "seconds_per_decision": round(decide_time[lv] / max(1, decide_count[lv]), 5),
            "seconds_per_choice": round(choice_time[lv] / max(1, choice_count[lv]), 5),
            "max_seconds_per_choice": round(choice_max[lv], 4),
        }
        # head to head: how often a seat of this level finished ahead of a seat of another
        beats = {}
        for other in kinds:
            key = (lv, other)
            if key in pair_n:
                beats[other] = {
                    "rate": round(pair_sum[key] / pair_n[key], 4),
                    "pairs": pair_n[key],
                    "ci95": _wilson(pair_sum[key], pair_n[key]),
                }
        if beats:
            entry["finishes_ahead_of"] = beats
        per_level[lv] = entry
    summary: dict[str, Any] = {
        "game": game.id,
        "players": players,
        "options": options,
        "games": games,
        "finished": finished,
        "seed": seed,
        "seats": levels,
        "rotation": (
            "levels rotate through the seats; each deal is played once per rotation"
            if rotate
            else "none (one level)"
        ),
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
    if think is not None:
        summary["think"] = think
    if game.cooperative:
        summary["team_wins"] = coop_wins
        summary["team_win_rate"] = round(coop_wins / max(1, finished), 4)
        summary["team_ci95"] = _wilson(coop_wins, finished)
    return summary
