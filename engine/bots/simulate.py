"""`boardgames-tui simulate`: many games without the UI, with a JSON-ready summary."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import saves
from ..core.match import Match, Seat
from ..core.protocol import Game, Prompt, Result
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
# who chooses at a seat: (state, prompt) -> move id
Chooser = Callable[[Any, Prompt], str]


@dataclass
class _Level:
    """What one level did over all its seats: wins, scores and the time its decisions took."""

    seats: int
    wins: float = 0.0
    games: int = 0
    score: float = 0.0
    decide_time: float = 0.0
    decide_count: int = 0
    choice_time: float = 0.0  # decisions with more than one option
    choice_count: int = 0
    choice_max: float = 0.0
    pair_sum: dict[str, float] = field(default_factory=dict)  # other level -> finished ahead
    pair_n: dict[str, int] = field(default_factory=dict)

    def decided(self, dt: float, options: int) -> None:
        self.decide_time += dt
        self.decide_count += 1
        if options > 1:
            self.choice_time += dt
            self.choice_count += 1
            self.choice_max = max(self.choice_max, dt)

    def against(self, other: str, score: float) -> None:
        self.pair_sum[other] = self.pair_sum.get(other, 0.0) + score
        self.pair_n[other] = self.pair_n.get(other, 0) + 1

    def summary(self, kinds: list[str], games: int) -> dict[str, Any]:
        n = self.games
        entry: dict[str, Any] = {
            "seats": self.seats,
            "win_share": round(self.wins / max(1, games), 4),
            "ci95_win_share": _wilson(self.wins, games),
            "win_rate_per_seat": round(self.wins / max(1, n), 4),
            "ci95_per_seat": _wilson(self.wins, n),
            "avg_score": round(self.score / max(1, n), 2),
            "seconds_per_decision": round(self.decide_time / max(1, self.decide_count), 5),
            "seconds_per_choice": round(self.choice_time / max(1, self.choice_count), 5),
            "max_seconds_per_choice": round(self.choice_max, 4),
        }
        # head to head: how often a seat of this level finished ahead of a seat of another
        beats = {
            other: {
                "rate": round(self.pair_sum[other] / self.pair_n[other], 4),
                "pairs": self.pair_n[other],
                "ci95": _wilson(self.pair_sum[other], self.pair_n[other]),
            }
            for other in kinds
            if other in self.pair_n
        }
        if beats:
            entry["finishes_ahead_of"] = beats
        return entry


def _table(seats: list[str] | None, policy: str | None, players: int) -> list[str]:
    """The level of every seat: the given ones, the last repeated (all `policy` with one)."""
    levels = list(seats or ["random"])
    if policy:
        levels = ["policy"] * players
    while len(levels) < players:
        levels.append(levels[-1])
    return levels[:players]


def _choosers(
    seat_levels: list[str], make: BotFactory, policy_fn: Any, gseed: int, rng: random.Random
) -> list[Chooser]:
    """Who chooses at each seat of one game: the game's policy, a random pick or a bot."""
    # every seat but a policy's gets its bot made (as the factory has always been asked)
    bots = {i: make(lv, gseed * 31 + i) for i, lv in enumerate(seat_levels) if lv != "policy"}
    out: list[Chooser] = []
    for i, lv in enumerate(seat_levels):
        if lv == "policy":
            out.append(lambda state, prompt: policy_fn(state, prompt, rng))
        elif lv == "random":
            out.append(lambda state, prompt: prompt.moves[rng.randrange(len(prompt.moves))].id)
        else:
            out.append(bots[i].choose)
    return out


def _play_game(
    game: Game,
    state: Any,
    choosers: list[Chooser],
    seat_levels: list[str],
    by_level: dict[str, _Level],
    gseed: int,
) -> list[str]:
    """Play one game to its end; the move ids, each decision's time on its level."""
    ids: list[str] = []
    while (prompt := game.prompt(state)) is not None:
        t = time.perf_counter()
        move_id = choosers[prompt.seat](state, prompt)
        by_level[seat_levels[prompt.seat]].decided(time.perf_counter() - t, len(prompt.moves))
        game.play(state, prompt.move(move_id))
        ids.append(move_id)
        if len(ids) > 200_000:
            raise RuntimeError(f"{game.id} seed {gseed}: the game does not end")
    return ids


def _record(res: Result, seat_levels: list[str], by_level: dict[str, _Level]) -> list[float]:
    """One finished game into the levels' tallies; the seats' scores."""
    scores = [0.0] * len(seat_levels)
    for line in res.lines:
        scores[line.seat] = float(line.score)
    for i, lv in enumerate(seat_levels):
        acc = by_level[lv]
        acc.games += 1
        acc.score += scores[i]
        if i in res.winners:
            acc.wins += 1.0 / len(res.winners)
        for j, lw in enumerate(seat_levels):
            if lw != lv:
                acc.against(lw, _better(res, i, j))
    return scores


def _save(
    game: Game,
    names: list[str],
    seat_levels: list[str],
    options: dict[str, str],
    gseed: int,
    ids: list[str],
    path: Path,
) -> None:
    """One simulated game as a save (a policy seat is saved as a random computer player)."""
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
    saves.save(m, path)


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
    levels = _table(seats, policy, players)
    rotate = len(set(levels)) > 1
    policy_fn = _policy(game, policy or "rules") if "policy" in levels else None
    make = factory or (lambda lv, s: make_bot(lv, game, seed=s, think=think))
    kinds = list(dict.fromkeys(levels))
    by_level = {lv: _Level(seats=levels.count(lv)) for lv in kinds}
    move_counts: list[int] = []
    winners_out: list[list[str]] = []
    scores_out: list[list[float]] = []
    coop_wins = 0
    t0 = time.perf_counter()
    for g in range(games):
        shift = g % players if rotate else 0
        gseed = seed + (g // players if rotate else g)
        seat_levels = [levels[(i + shift) % players] for i in range(players)]
        names = [f"{lv.capitalize()} {i + 1}" for i, lv in enumerate(seat_levels)]
        state = game.new_state(names, options, gseed)
        rng = random.Random(gseed * 7919 + 17 + 1_000_003 * shift)
        choosers = _choosers(seat_levels, make, policy_fn, gseed, rng)
        ids = _play_game(game, state, choosers, seat_levels, by_level, gseed)
        move_counts.append(len(ids))
        res = game.result(state)
        scores_out.append(_record(res, seat_levels, by_level))
        winners_out.append([names[w] for w in res.winners])
        if game.cooperative and res.winners:
            coop_wins += 1
        if save_dir:
            name = f"{game.id}-{players}p-seed{gseed}" + (f"-r{shift}" if rotate else "")
            _save(game, names, seat_levels, options, gseed, ids, Path(save_dir) / f"{name}.toml")
        if progress is not None:
            progress(g + 1, {"winners": res.winners, "levels": seat_levels, "result": res})
    elapsed = time.perf_counter() - t0
    finished, moves_total = len(move_counts), sum(move_counts)
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
        "levels": {lv: by_level[lv].summary(kinds, games) for lv in kinds},
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
