"""End of the game: the Nun-row against the rats, and the victory points with breakdowns."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.protocol import Result, ScoreLine
from .data import (
    CARD_NUNS,
    CLASS_NAMES,
    CLASSES,
    GOLD_PAYOUT,
    HAND_MAJORITY_VP,
    TRACK_PAYOUT,
    VP_TOKEN_VALUE,
)
from .state import RattusState

PLACE_NAMES = ("1st", "2nd", "3rd", "4th", "5th")


def shared_places(
    values: list[int], payout: tuple[int, ...], minimum: int
) -> list[tuple[int, int, bool]]:
    """(points, place, tied) per seat: ranked by value, tied seats share the covered places.

    Seats below `minimum` take no place. Shared points are rounded down; place 0 = none.
    """
    out = [(0, 0, False)] * len(values)
    ranked = sorted((v for v in values if v >= minimum), reverse=True)
    place = 0
    done: set[int] = set()
    for v in ranked:
        if v in done:
            continue
        done.add(v)
        group = [seat for seat, val in enumerate(values) if val == v]
        pts = sum(payout[place : place + len(group)]) // len(group)
        for seat in group:
            out[seat] = (pts, place + 1, len(group) > 1)
        place += len(group)
    return out


def nun_total(s: RattusState) -> int:
    """The nuns shown by the whole Nun-row."""
    return sum(CARD_NUNS[c] for c in s.nun_row)


def hand_majority_count(s: RattusState, seat: int) -> int:
    """Population cards + Jokers in a seat's hand (the hand majority counts these)."""
    p = s.players[seat]
    return len(p.pop) + p.jokers


@dataclass
class Scores:
    """Every seat's points with their sources, and who died of the plague."""

    totals: list[int]
    breakdowns: list[list[tuple[str, float | str]]]
    dead: list[bool] = field(default_factory=list)
    nuns: int = 0


def compute(s: RattusState, final: bool) -> Scores:
    """The scores. `final`: the game is over (hand majority and deaths count).

    While playing (provisional) only public things are counted: the tracks, VP tokens and
    Gold; the hand majority and the rats are hidden until the end.
    """
    n = len(s.players)
    totals = [0] * n
    brk: list[list[tuple[str, float | str]]] = [[] for _ in range(n)]
    for ci, cls in enumerate(CLASSES):
        values = [p.track[ci] for p in s.players]
        for seat, (pts, place, tied) in enumerate(shared_places(values, TRACK_PAYOUT, 1)):
            if pts:
                tag = f"{PLACE_NAMES[place - 1]}{', tied' if tied else ''}"
                brk[seat].append((f"{CLASS_NAMES[cls]} track ({tag})", pts))
                totals[seat] += pts
    for seat, p in enumerate(s.players):
        if p.vp:
            brk[seat].append((f"VP tokens ({p.vp} × {VP_TOKEN_VALUE})", p.vp * VP_TOKEN_VALUE))
            totals[seat] += p.vp * VP_TOKEN_VALUE
    golds = [p.gold for p in s.players]
    for seat, (pts, place, tied) in enumerate(shared_places(golds, GOLD_PAYOUT, 1)):
        if pts:
            tag = f"{PLACE_NAMES[place - 1]}{', tied' if tied else ''}"
            brk[seat].append((f"Gold ({tag}: {golds[seat]} Gold)", pts))
            totals[seat] += pts
    dead = [False] * n
    nuns = 0
    if final:
        counts = [hand_majority_count(s, i) for i in range(n)]
        best = max(counts)
        if best >= 1:
            for seat in range(n):
                if counts[seat] == best:
                    brk[seat].append((f"Most cards in hand ({best})", HAND_MAJORITY_VP))
                    totals[seat] += HAND_MAJORITY_VP
        nuns = nun_total(s)
        for seat, p in enumerate(s.players):
            dead[seat] = p.rats > nuns
            brk[seat].append(
                ("Rats", f"{p.rats} {'>' if dead[seat] else '<='} {nuns} nuns: "
                 f"{'dies of the plague' if dead[seat] else 'survives'}")
            )  # fmt: skip
    return Scores(totals, brk, dead, nuns)


def _rats(n: int) -> str:
    return f"{n} rat" if n == 1 else f"{n} rats"


def result(s: RattusState) -> Result:
    """Winners and score lines (provisional while the game is running)."""
    final = s.phase == "over"
    sc = compute(s, final)
    n = len(s.players)
    names = s.names
    alive = [i for i in range(n) if not sc.dead[i]]

    # Survivors first, by VP then fewest rats (final only: rats are hidden while playing).
    def key(i: int) -> tuple[int, int, int]:
        return (1 if sc.dead[i] else 0, -sc.totals[i], s.players[i].rats if final else 0)

    order = sorted(range(n), key=key)
    ranks = [0] * n
    for pos, seat in enumerate(order):
        prev = order[pos - 1] if pos else None
        ranks[seat] = ranks[prev] if prev is not None and key(prev) == key(seat) else pos + 1
    winners = [i for i in alive if key(i) == key(order[0])] if alive else []
    lines = []
    for seat in range(n):
        note = ""
        if final:
            note = (
                "died of the plague"
                if sc.dead[seat]
                else f"survived with {_rats(s.players[seat].rats)}"
            )
        lines.append(ScoreLine(seat, sc.totals[seat], sc.breakdowns[seat], ranks[seat], note))
    if not final:
        lead = ", ".join(names[w] for w in winners)
        summary = f"Provisional (tracks, VP tokens, Gold): {lead} ahead"
    elif not alive:
        summary = f"The plague wins: every player has more rats than the {sc.nuns} nuns"
    elif len(winners) == 1:
        w = winners[0]
        summary = (
            f"{names[w]} wins with {sc.totals[w]} VP ({_rats(s.players[w].rats)}, {sc.nuns} nuns)"
        )
    else:
        summary = (
            f"{' and '.join(names[w] for w in winners)} share the victory with "
            f"{sc.totals[winners[0]]} VP"
        )
    return Result(winners, lines, summary)
