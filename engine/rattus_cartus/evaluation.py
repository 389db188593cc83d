"""What the computer players know of Rattus Cartus: an evaluation with a calibrated plague risk
(the bots' default here, instead of `Game.evaluate`) and the search settings."""

from __future__ import annotations

import functools
import math

from ..core.titles import AIHints, SearchSettings
from . import data, scoring
from .state import RattusState


def evaluate(s: RattusState, seat: int) -> float:
    """Rattus Cartus: the game's evaluation with a calibrated plague risk.

    The game's own value counts a rat near the nun margin as several victory points and one
    far from it as nothing (a steep logistic). Here the unseen Nun-row cards are a sum of
    random nun counts (mean and variance of the population deck), and the risk is the chance
    that this sum ends below the rats, times what dying costs.
    """
    if s.phase == "over":
        sc = scoring.compute(s, True)
        v = float(sc.totals[seat])
        if sc.dead[seat]:
            return v - 100.0
        best_other = max((t for i, t in enumerate(sc.totals) if i != seat), default=0)
        return v + (0.5 if v > best_other else 0.0)
    v = float(points(s, seat))
    p = s.players[seat]
    v += 0.4 * (len(p.pop) + p.jokers) + 0.3 * (p.swords + p.flutes + p.passes)
    v += 0.2 * sum(p.track)
    rats = p.rats
    if not p.revealed and 0 <= p.entered < len(s.row):
        own = data.CLASSES.index(data.building_of(s.row[p.entered]).cls)
        v += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
        card_class = data.CARD_CLASS
        rats += sum(1 for c in p.c_pop if card_class[c] != own)
    nuns = data.CARD_NUNS
    seen = sum(nuns[s.nun_row[pos]] for pos in p.seen)
    unseen = data.NUN_ROW_SIZE - len(p.seen)
    nun_mean, nun_var = _nun_stats()
    mean = seen + nun_mean * unseen
    # rats still move before the end: later rounds add spread
    var = nun_var * unseen + 0.5 * max(0, s.rounds - s.round)
    if var <= 0:
        risk = 1.0 if rats > mean else 0.0
    else:
        risk = 0.5 * math.erfc((mean + 0.5 - rats) / math.sqrt(2 * var))
    return v - DEATH * risk


def win_chance(s: RattusState, seat: int) -> float:
    """Two players, at the start of a round: the chance that `seat` wins.

    It survives the plague (a logistic of its margin of nuns over rats) and the rival dies,
    or both survive and it scores more (a logistic of the differences in points, hand cards,
    who leads the hand majority, special cards, influence, and who starts the round). The
    weights are fitted per round on 2,000 games of greedy against greedy (`WIN_MODEL`);
    on held-out games they predict the winner far better than `evaluate` does.
    """
    r = min(max(s.round, 1), len(WIN_MODEL)) - 1
    a, b, w_pts, w_hand, w_lead, w_spec, w_infl, w_start = WIN_MODEL[r]
    nuns = scoring.nun_total(s)
    me, rival = s.players[seat], s.players[1 - seat]
    die_me = _logistic(a + b * (nuns - me.rats))
    die_rival = _logistic(a + b * (nuns - rival.rats))
    hand = len(me.pop) + me.jokers - len(rival.pop) - rival.jokers
    lead = (hand > 0) - (hand < 0)
    special = me.swords + me.flutes + me.passes - rival.swords - rival.flutes - rival.passes
    start = 1 if s.start == seat else -1
    z = (
        w_pts * (points(s, seat) - points(s, 1 - seat))
        + w_hand * hand
        + w_lead * lead
        + w_spec * special
        + w_infl * (sum(me.track) - sum(rival.track))
        + w_start * start
    )
    return (1.0 - die_me) * (die_rival + (1.0 - die_rival) * _logistic(z))


def win_value(s: RattusState, seat: int) -> float:
    """`win_chance` on the value scale the search turns into rewards: with two players the
    reward of a leaf (the logistic of the value lead over `AI.scale`) is then that chance.
    Other player counts, and a finished game, keep `evaluate`."""
    if len(s.players) != 2 or s.phase == "over":
        return evaluate(s, seat)
    p = min(max(win_chance(s, seat), 1e-6), 1.0 - 1e-6)
    return 0.5 * SCALE * math.log(p / (1.0 - p))


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def game_evaluate(s: RattusState, seat: int) -> float:
    """`Game.evaluate`: a heuristic value for `seat`: public points now, plus hand value,
    minus the plague risk (a steep logistic of the expected nun margin)."""
    over = s.phase == "over"
    sc = scoring.compute(s, over)
    value = float(sc.totals[seat])
    if over:
        if sc.dead[seat]:
            return value - 100.0
        best_other = max((t for i, t in enumerate(sc.totals) if i != seat), default=0)
        return value + (0.5 if value > best_other else 0.0)
    p = s.players[seat]
    value += 0.4 * (len(p.pop) + p.jokers) + 0.3 * (p.swords + p.flutes + p.passes)
    # Influence not (yet) in a paying place still counts a little.
    value += 0.2 * sum(p.track)
    rats = p.rats
    if not p.revealed and p.entered >= 0 and p.entered < len(s.row):
        # Cards face down: the influence (and rats) they will bring when revealed.
        own = data.CLASSES.index(data.building_of(s.row[p.entered]).cls)
        value += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
        rats += sum(1 for c in p.c_pop if data.CARD_CLASS[c] != own)
    seen = sum(data.CARD_NUNS[s.nun_row[pos]] for pos in p.seen)
    expected = seen + AVERAGE_NUNS * (data.NUN_ROW_SIZE - len(p.seen))
    margin = expected - rats
    value -= 25.0 / (1.0 + math.exp(margin))
    return value


def points(s: RattusState, seat: int) -> int:
    """`seat`'s provisional points (tracks, VP tokens, Gold), as `scoring.compute` counts
    them while playing, without scoring the other seats (this runs in every playout step)."""
    players = s.players
    me = players[seat]
    total = data.VP_TOKEN_VALUE * me.vp
    for c, mine in enumerate(me.track):
        if mine >= 1:
            total += _shared(mine, [p.track[c] for p in players], data.TRACK_PAYOUT)
    if me.gold >= 1:
        total += _shared(me.gold, [p.gold for p in players], data.GOLD_PAYOUT)
    return total


def _shared(mine: int, values: list[int], payout: tuple[int, ...]) -> int:
    """The points of a place (tied seats share the places they cover, rounded down)."""
    above = 0
    tied = 0
    for x in values:
        if x > mine:
            above += 1
        elif x == mine:
            tied += 1
    return sum(payout[above : above + tied]) // tied


@functools.cache
def _nun_stats() -> tuple[float, float]:
    """Mean and variance of the nuns on one population card."""
    n = len(data.CARD_NUNS)
    mean = sum(data.CARD_NUNS) / n
    return mean, sum((x - mean) ** 2 for x in data.CARD_NUNS) / n


DEATH = 30.0  # value lost by dying of the plague
AVERAGE_NUNS = sum(data.CARD_NUNS) / data.POPULATION_CARDS  # 2.0 with this edition's cards

SCALE = 6.0  # value points of a clear lead

# Per round of a 2-player game: plague death (intercept, per nun of margin), then the score
# weights (points, hand cards, hand-majority lead, special cards, influence, start player).
# Fitted by logistic regression on the positions at each round's start of 2,000 games of
# greedy against greedy (see docs/computer-players.md, "Rattus Cartus with 2 players").
WIN_MODEL: tuple[tuple[float, ...], ...] = (
    (-5.161, -0.299, 0.000, 0.000, 0.000, 0.000, 0.000, 0.194),  # round 1
    (-4.731, -0.266, 0.034, 0.007, 0.090, 0.186, 0.095, -0.224),  # round 2
    (-4.401, -0.268, 0.046, 0.056, 0.116, 0.180, 0.045, 0.142),  # round 3
    (-4.101, -0.247, 0.032, 0.087, -0.049, 0.180, 0.077, -0.233),  # round 4
    (-3.786, -0.295, 0.037, 0.069, 0.099, 0.202, 0.085, 0.195),  # round 5
    (-3.477, -0.379, 0.052, 0.098, -0.158, 0.153, 0.056, -0.248),  # round 6
    (-3.281, -0.410, 0.069, 0.091, 0.013, 0.235, 0.042, 0.167),  # round 7
    (-3.102, -0.483, 0.085, 0.088, 0.124, 0.229, 0.045, -0.423),  # round 8
    (-3.316, -0.453, 0.119, 0.089, 0.254, 0.260, 0.036, 0.107),  # round 9
    (-3.569, -0.476, 0.188, 0.135, 0.170, 0.192, 0.016, -0.745),  # round 10
)

AI = AIHints(
    scale=SCALE,
    search={
        # two rounds ahead: at the next round's start the evaluation misjudges entries and
        # commits (measured against full-game playouts); two rounds are right far more often
        0: SearchSettings(mode="rollout", confidence=2.0, horizon="2"),
        # two players: several times the playouts per option of 4-5 players, so greedy's
        # choice is left at a smaller margin
        2: SearchSettings(mode="rollout", confidence=1.0, horizon="2"),
    },
    evaluators={"": evaluate, "win": win_value},
)
