"""A ladder of the computer levels: each pair of levels plays a few two-seat tables in a
throwaway store, through the same path as any table (so each result is recorded and rated as a
person's would be), and the game's rating table is printed.

    python -m tools.ladder [GAME] [--games N] [--think S] [--json]

Where the levels stand tells a newcomer what "above greedy" means.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

from boardgames_tui.engine.core import BOT_LEVELS
from boardgames_tui.engine.tables import open_store, parse_seats
from boardgames_tui.engine.tables import results as res
from boardgames_tui.engine.tables.computer import lease_owner, play_computers


def ladder(game: str, games: int, think: float, seed: int = 1) -> list[res.Rating]:
    """Play `games` tables per pair of levels (seats swapped each time); the leaderboard."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "tables.sqlite"))
        owner = lease_owner()
        try:
            for (a, b), k in itertools.product(itertools.combinations(BOT_LEVELS, 2), range(games)):
                seats = f"{a},{b}" if k % 2 == 0 else f"{b},{a}"
                t = store.create(game, parse_seats(seats, "ladder"), {}, seed + k, "ladder")
                while play_computers(store, t.id, owner, think):
                    pass
            return res.leaderboard(store.results(game))
        finally:
            store.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.ladder", description=__doc__)
    p.add_argument("game", nargs="?", default="notre-dame")
    p.add_argument("--games", type=int, default=4, help="tables per pair of levels (4)")
    p.add_argument("--think", type=float, default=0.1, help="the strong level's seconds (0.1)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    started = time.monotonic()
    board = ladder(args.game, args.games, args.think)
    took = time.monotonic() - started
    if args.json:
        rows = [{"player": r.player, "rating": r.shown, "mu": r.mu, "sigma": r.sigma,
                 "games": r.games} for r in board]  # fmt: skip
        print(json.dumps({"game": args.game, "seconds": round(took, 1), "ratings": rows}))
        return 0
    print(f"{args.game}: {args.games} tables per pair of levels, strong thinks {args.think:g} s")
    print(f"{'level':<20} {'rating':>6} {'mu':>6} {'sigma':>6} {'games':>5}")
    for r in board:
        print(f"{r.label:<20} {r.shown:>6} {r.mu:>6.2f} {r.sigma:>6.2f} {r.games:>5}")
    print(f"({took:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
