"""Finished tables' results, and the ratings and statistics read from them.

A table's result is written in the transaction of its last move (and, for tables finished
before the store kept results, by the upgrade to RESULTS_FORMAT, replaying them): its game,
options, player count, when, whether it counts for ratings and why not, and each seat's
player, rank and score. Ratings are not stored: they are worked out from the results in the
order the tables finished (openskill's Plackett-Luce, one rating per game), so a rule change
here never leaves a stale number behind. The computer levels are players too
(`computer:greedy`), so a newcomer sees where they stand against them.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ..core import HUMAN, Match
from .clock import AUTOPILOT

# the store format that added the results (store.UPGRADES: the step from RESULTS_FORMAT - 1)
RESULTS_FORMAT = 8
RESULT_TABLES = (
    "CREATE TABLE bg_results (table_id TEXT PRIMARY KEY, game TEXT NOT NULL, "
    "options TEXT NOT NULL, players INTEGER NOT NULL, finished TEXT NOT NULL, "
    "at DOUBLE PRECISION NOT NULL, rated INTEGER NOT NULL, why TEXT NOT NULL, team_won INTEGER)",
    "CREATE TABLE bg_result_seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "player TEXT NOT NULL, rank INTEGER NOT NULL, score DOUBLE PRECISION NOT NULL, "
    "PRIMARY KEY (table_id, seat))",
    "CREATE INDEX bg_result_seats_player ON bg_result_seats (player)",
    "CREATE INDEX bg_results_game ON bg_results (game, at)",
)
# PostgreSQL: everyone reads results; a result is written only for a finished table (by the
# role whose move finished it, in that transaction)
PG_RESULT_POLICIES = (
    "ALTER TABLE bg_results ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY bg_read ON bg_results FOR SELECT USING (true)",
    "CREATE POLICY bg_record ON bg_results FOR INSERT WITH CHECK (EXISTS (SELECT 1 FROM "
    "bg_tables t WHERE t.id = bg_results.table_id AND t.status = 'finished'))",
    "ALTER TABLE bg_result_seats ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY bg_read ON bg_result_seats FOR SELECT USING (true)",
    "CREATE POLICY bg_record ON bg_result_seats FOR INSERT WITH CHECK (EXISTS (SELECT 1 FROM "
    "bg_tables t WHERE t.id = bg_result_seats.table_id AND t.status = 'finished'))",
)
COMPUTER = "computer:"  # a computer level as a rated player: computer:greedy
PROVISIONAL_GAMES = 5  # a rating from fewer games is shown as provisional
UNRATED = "unrated"  # a table's setting: its creator made it not count


class Query(Protocol):
    """A transaction's statements (sqlstore.Sql)."""

    def __call__(self, q: str, p: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def many(self, q: str, rows: Iterable[Sequence[Any]]) -> None: ...


def player_of(kind: str, user: str | None) -> str:
    """The rated player at a seat: the person, or the computer level."""
    return user or "" if kind == HUMAN else f"{COMPUTER}{kind}"


def player_label(player: str) -> str:
    """A player as people read it: `greedy (computer)` for a level."""
    if player.startswith(COMPUTER):
        return f"{player[len(COMPUTER) :]} (computer)"
    return player


def why_unrated(
    game_cooperative: bool,
    settings: Mapping[str, Any],
    seats: Sequence[tuple[str, str | None]],
    moves_by: Sequence[tuple[int, str]],
    seed_kind: str = "secret",
) -> str:
    """Why a finished table does not count for ratings ("" when it does): `seats` are
    (kind, user), `moves_by` (seat, who played it) for every move, `seed_kind` whether its
    seed was drawn in secret, chosen, or shown (a table made before secret seeds)."""
    if game_cooperative:
        return "a co-operative game: it keeps a team record"
    if settings.get(UNRATED):
        return "its creator made it unrated"
    if seed_kind == "chosen":
        return "its seed was chosen"
    if seed_kind == "shown":
        return "its seed was shown (made before seeds were secret)"
    players = [player_of(k, u) for k, u in seats]
    if len(set(players)) < 2:
        return "fewer than two different players"
    if all(k != HUMAN for k, _ in seats):
        return ""  # computers against each other: the ladder that places the levels
    played: dict[int, int] = defaultdict(int)
    piloted: dict[int, int] = defaultdict(int)
    for seat, who in moves_by:
        played[seat] += 1
        if who == AUTOPILOT:
            piloted[seat] += 1
    for seat, (kind, user) in enumerate(seats):
        if kind == HUMAN and played[seat] and piloted[seat] * 2 > played[seat]:
            return f"the computer played most of {user}'s moves"
    return ""


def counts(info: Any, match: Match) -> str:
    """Why the table does not count for ratings, as its moves stand ("" when it does)."""
    seats = [(s.kind, s.user) for s in info.seats]
    moves_by = [
        (step.seat, AUTOPILOT if n in match.autopilot else "")
        for n, step in enumerate(match.steps[: match.cursor], 1)
    ]
    return why_unrated(match.game.cooperative, info.settings, seats, moves_by, info.seed_kind)


def record(q: Query, info: Any, match: Match, at: float | None = None) -> None:
    """Write the finished table's result (in the transaction that finished it); `at`: when,
    on the store's clock (None: when it was last changed, to the second: an upgrade)."""
    if at is None:
        at = datetime.fromisoformat(info.updated).timestamp()
    game = match.game
    result = game.result(match.state)
    seats = [(s.kind, s.user) for s in info.seats]
    moves_by = [
        (int(s), str(u))
        for s, u in q('SELECT seat, "user" FROM bg_moves WHERE table_id = ? ORDER BY n', (info.id,))
    ]
    why = why_unrated(game.cooperative, info.settings, seats, moves_by, info.seed_kind)
    team_won = int(bool(result.winners)) if game.cooperative else None
    lines = {line.seat: line for line in result.lines}
    scores = [lines[i].score if i in lines else 0.0 for i in range(len(seats))]
    ranks = [
        (lines[i].rank if i in lines and lines[i].rank else 1 + sum(x > scores[i] for x in scores))
        for i in range(len(seats))
    ]
    q("DELETE FROM bg_result_seats WHERE table_id = ?", (info.id,))
    q("DELETE FROM bg_results WHERE table_id = ?", (info.id,))
    q(
        "INSERT INTO bg_results (table_id, game, options, players, finished, at, rated, why, "
        "team_won) VALUES (?,?,?,?,?,?,?,?,?)",
        (
            info.id,
            game.id,
            json.dumps(info.options, sort_keys=True),
            len(seats),
            info.updated,
            at,
            int(not why),
            why,
            team_won,
        ),
    )
    q.many(
        "INSERT INTO bg_result_seats (table_id, seat, player, rank, score) VALUES (?,?,?,?,?)",
        [(info.id, i, player_of(k, u), ranks[i], scores[i]) for i, (k, u) in enumerate(seats)],
    )


@dataclass
class SeatResult:
    seat: int
    player: str
    rank: int
    score: float


@dataclass
class TableResult:
    """One finished table's result, as stored."""

    table_id: str
    game: str
    options: dict[str, str]
    players: int
    finished: str
    rated: bool
    why: str
    team_won: bool | None
    seats: list[SeatResult] = field(default_factory=list)


def read(q: Query, game: str | None = None, table_id: str | None = None) -> list[TableResult]:
    """The results (of one game, or one table), in the order the tables finished."""
    where, args = [], []
    if game is not None:
        where.append("r.game = ?")
        args.append(game)
    if table_id is not None:
        where.append("r.table_id = ?")
        args.append(table_id)
    cond = f" WHERE {' AND '.join(where)}" if where else ""
    rows = q(
        "SELECT r.table_id, r.game, r.options, r.players, r.finished, r.rated, r.why, "
        f"r.team_won, s.seat, s.player, s.rank, s.score FROM bg_results r JOIN bg_result_seats s "
        f"ON s.table_id = r.table_id{cond} ORDER BY r.at, r.table_id, s.seat",
        args,
    )
    out: dict[str, TableResult] = {}
    for tid, g, opts, n, fin, rated, why, team, seat, player, rank, score in rows:
        r = out.get(tid)
        if r is None:
            try:
                options = json.loads(opts)
            except ValueError:
                options = {}
            won = None if team is None else bool(team)
            r = out[tid] = TableResult(tid, g, options, int(n), fin, bool(rated), why, won)
        r.seats.append(SeatResult(int(seat), str(player), int(rank), float(score)))
    return list(out.values())


# ---- ratings -------------------------------------------------------------------------------
@dataclass
class Rating:
    """A player's rating at one game: openskill's mu and sigma, and the number shown
    (the ordinal, mu - 3 sigma, scaled like a familiar rating: 1000 + 40 x ordinal)."""

    player: str
    mu: float
    sigma: float
    games: int = 0
    history: list[float] = field(default_factory=list)  # the shown rating after each game

    @property
    def shown(self) -> int:
        return round(1000 + 40 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def label(self) -> str:
        return player_label(self.player)


def ratings(results: Iterable[TableResult]) -> dict[str, Rating]:
    """Every player's rating at the game of `results` (rated tables only, in order)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    out: dict[str, Rating] = {}
    for r in results:
        if not r.rated:
            continue
        seats = [s for s in r.seats]
        players = [out.setdefault(s.player, Rating(s.player, model.mu, model.sigma)) for s in seats]
        teams = [[model.rating(mu=p.mu, sigma=p.sigma, name=p.player)] for p in players]
        rated = model.rate(teams, ranks=[s.rank for s in seats])
        for p, team in zip(players, rated, strict=True):
            p.mu, p.sigma = team[0].mu, team[0].sigma
            p.games += 1
            p.history.append(p.shown)
    return out


def leaderboard(results: Iterable[TableResult]) -> list[Rating]:
    """The players of one game, best rating first (a provisional one after the others)."""
    return sorted(ratings(results).values(), key=lambda p: (p.provisional, -p.shown, p.player))


def standing(player: str, board: Sequence[Rating]) -> str:
    """Where `player` stands against the computer levels: "above greedy", "below strong"."""
    me = next((p for p in board if p.player == player), None)
    if me is None:
        return ""
    levels = sorted((p for p in board if p.player.startswith(COMPUTER)), key=lambda p: p.shown)
    above = [p for p in levels if p.shown < me.shown]
    if above:
        return f"above {above[-1].player[len(COMPUTER) :]}"
    if levels:
        return f"below {levels[0].player[len(COMPUTER) :]}"
    return ""


# ---- statistics ----------------------------------------------------------------------------
@dataclass
class Line:
    """Played, won, win rate, average score and rank over some games."""

    played: int = 0
    won: int = 0
    score: float = 0.0
    rank: float = 0.0

    def add(self, rank: int, score: float) -> None:
        self.played += 1
        self.won += rank == 1
        self.score += score
        self.rank += rank

    def as_dict(self) -> dict[str, Any]:
        n = max(1, self.played)
        return {
            "played": self.played,
            "won": self.won,
            "win_rate": round(self.won / n, 3),
            "average_score": round(self.score / n, 2),
            "average_rank": round(self.rank / n, 2),
        }


def stats(player: str, results: Iterable[TableResult]) -> dict[str, Any]:
    """A player's statistics: all games, by game, by game and player count, the best game
    (highest score), and the co-operative games' team record."""
    total = Line()
    by_game: dict[str, Line] = defaultdict(Line)
    by_count: dict[tuple[str, int], Line] = defaultdict(Line)
    team: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0])
    best: dict[str, Any] | None = None
    for r in results:
        mine = [s for s in r.seats if s.player == player]
        if not mine:
            continue
        s = mine[0]
        if r.team_won is not None:  # co-operative: the team's record, by variant and count
            variant = ",".join(f"{k}={v}" for k, v in sorted(r.options.items())) or "standard"
            rec = team[(r.game, variant, r.players)]
            rec[0] += 1
            rec[1] += int(r.team_won)
            continue
        total.add(s.rank, s.score)
        by_game[r.game].add(s.rank, s.score)
        by_count[(r.game, r.players)].add(s.rank, s.score)
        if best is None or s.score > best["score"]:
            best = {"table": r.table_id, "game": r.game, "score": s.score, "rank": s.rank}
    return {
        "player": player,
        **total.as_dict(),
        "by_game": {g: line.as_dict() for g, line in sorted(by_game.items())},
        "by_players": [
            {"game": g, "players": n, **line.as_dict()} for (g, n), line in sorted(by_count.items())
        ],
        "best_game": best,
        "team": [
            {"game": g, "variant": v, "players": n, "played": p, "won": w}
            for (g, v, n), (p, w) in sorted(team.items())
        ],
    }
