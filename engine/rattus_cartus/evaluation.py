"""What the computer players know of Rattus Cartus: an evaluation with a calibrated plague risk
(the bots' default here, instead of `Game.evaluate`), the forecast and lead the strong player
judges by at 2 players, and the search settings."""

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
    own = _face_down_class(s, seat)
    if own >= 0:
        v += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
    return v - DEATH * _plague_risk(s, p.seen, _rats_after_reveal(s, seat, own))


def lead(s: RattusState, seat: int) -> float:
    """`seat`'s forecast less its best rival's: what a seat must maximise to finish ahead
    (the strong player's evaluation at 2 players, where every point a rival makes is one
    point of the lead)."""
    tracks = _tracks_after_reveal(s)
    mine = forecast(s, seat, tracks)
    return mine - max(forecast(s, o, tracks) for o in range(len(s.players)) if o != seat)


def forecast(s: RattusState, seat: int, tracks: list[list[int]] | None = None) -> float:
    """`seat`'s value looking ahead to the game's end, unlike `evaluate`, which counts the
    points of now.

    The cards face down count as the influence they will bring on reveal, and every track and
    the Gold pay as much as the chance that their order holds to the end: a narrow lead with
    rounds to go is worth little more than a tie, a wide one the whole place. So committing a
    card is worth what it adds to the majority, not a flat bonus (the flat bonus commits
    every card of the building's class, however safe the lead already is).
    """
    if s.phase == "over":
        return evaluate(s, seat)
    if tracks is None:
        tracks = _tracks_after_reveal(s)
    players = s.players
    p = players[seat]
    spread = math.sqrt(max(0, s.rounds - s.round))
    mine = tracks[seat]
    v = float(data.VP_TOKEN_VALUE * p.vp)
    for c, x in enumerate(mine):
        v += _expected_place(x, [t[c] for t in tracks], data.TRACK_PAYOUT, TRACK_SWING * spread)
    v += _expected_place(p.gold, [q.gold for q in players], data.GOLD_PAYOUT, GOLD_SWING * spread)
    v += 0.4 * (len(p.pop) + p.jokers) + 0.3 * (p.swords + p.flutes + p.passes)
    v += 0.2 * sum(mine)
    own = _face_down_class(s, seat)
    if own >= 0:
        v += 0.3 * (len(p.c_pop) + p.c_jokers + p.c_swords + p.c_flutes)
    return v - DEATH * _plague_risk(s, p.seen, _rats_after_reveal(s, seat, own))


def _face_down_class(s: RattusState, seat: int) -> int:
    """The class of the building where `seat`'s cards lie face down, or -1 (none now)."""
    p = s.players[seat]
    if p.revealed or not 0 <= p.entered < len(s.row):
        return -1
    return data.CLASSES.index(data.building_of(s.row[p.entered]).cls)


def _rats_after_reveal(s: RattusState, seat: int, own: int) -> int:
    """`seat`'s rats once its face-down population cards of another class than `own` (the
    building's, -1: none face down) bring theirs."""
    p = s.players[seat]
    if own < 0:
        return p.rats
    card_class = data.CARD_CLASS
    return p.rats + sum(1 for c in p.c_pop if card_class[c] != own)


def _tracks_after_reveal(s: RattusState) -> list[list[int]]:
    """Every seat's influence once the cards now face down are revealed."""
    out = []
    for seat, p in enumerate(s.players):
        t = list(p.track)
        own = _face_down_class(s, seat)
        if own >= 0:
            t[own] += len(p.c_pop) + p.c_jokers
        out.append(t)
    return out


def _expected_place(mine: int, values: list[int], payout: tuple[int, ...], sigma: float) -> float:
    """The points of a place, each other seat being ahead with the chance that the gap
    closes (a normal spread of `sigma`; 0 at the end: the exact place, ties shared)."""
    if sigma <= 0:
        return float(_shared(mine, values, payout)) if mine >= 1 else 0.0
    above = -0.5  # oneself, compared with oneself
    for x in values:
        above += 0.5 * math.erfc((mine - x) / (sigma * _SQRT2))
    lo = int(above)
    a = payout[lo] if lo < len(payout) else 0
    b = payout[lo + 1] if lo + 1 < len(payout) else 0
    v = a + (b - a) * (above - lo)
    if mine < 1:  # still on the start space, which scores nothing
        v *= 0.5 * math.erfc(0.5 / (sigma * _SQRT2))
    return v


def _plague_risk(s: RattusState, seen: list[int], rats: int) -> float:
    """The chance that `rats` end above the Nun-row's nuns, from the cards seen and the
    population deck's mean and variance for the rest."""
    nuns = data.CARD_NUNS
    known = sum(nuns[s.nun_row[pos]] for pos in seen)
    unseen = data.NUN_ROW_SIZE - len(seen)
    nun_mean, nun_var = _nun_stats()
    mean = known + nun_mean * unseen
    # rats still move before the end: later rounds add spread
    var = nun_var * unseen + 0.5 * max(0, s.rounds - s.round)
    if var <= 0:
        return 1.0 if rats > mean else 0.0
    return 0.5 * math.erfc((mean + 0.5 - rats) / math.sqrt(2 * var))


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
    own = _face_down_class(s, seat)
    if own >= 0:  # cards face down: the influence (and rats) they will bring when revealed
        value += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
    rats = _rats_after_reveal(s, seat, own)
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
# how far a track's (or the Gold's) order may still move, per square root of the rounds left
# (in influence or Gold; chosen by play against greedy, not fitted)
TRACK_SWING = 1.5
GOLD_SWING = 0.7
_SQRT2 = math.sqrt(2.0)
AVERAGE_NUNS = sum(data.CARD_NUNS) / data.POPULATION_CARDS  # 2.0 with this edition's cards

AI = AIHints(
    scale=6.0,
    search={
        # two rounds ahead: at the next round's start the evaluation misjudges entries and
        # commits (measured against full-game playouts); two rounds are right far more often
        0: SearchSettings(mode="rollout", confidence=2.0, horizon="2"),
        # two players: several times the playouts per option of 4-5 players, so greedy's
        # choice is left at a smaller margin; and positions judged by the lead over the
        # other seat, face-down cards counted as the influence they bring (a greedy player
        # judging so finishes ahead of greedy in 66% of 800 games; strong with it in 63% of
        # 242, against 58% of 134 without: docs/computer-players.md)
        2: SearchSettings(mode="rollout", confidence=1.0, horizon="2", evaluator="lead"),
    },
    evaluators={"": evaluate, "lead": lead},
)
