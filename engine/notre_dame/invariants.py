"""The invariants of a Notre Dame state (checked by the tests and the conformance suite):
conservation of markers, gold, cards and messages, and the ranges of every count."""

from __future__ import annotations

from . import data
from .state import OVER, NotreDameState

_CPC = data.CARDS_PER_COLOUR


def invariants(s: NotreDameState) -> list[str]:
    """Conservation and range checks: markers, gold, cards, messages, prestige."""
    errs: list[str] = []
    n = s.n
    for seat in range(n):
        who = s.names[seat]
        for label, v in (
            ("gold", s.gold[seat]),
            ("prestige", s.prestige[seat]),
            ("supply", s.supply[seat]),
            ("general supply", s.general[seat]),
            ("Notre Dame markers", s.nd[seat]),
            ("rat", s.rat[seat]),
        ):
            if v < 0:
                errs.append(f"{who}: negative {label} {v}")
        if min(s.sectors[seat]) < 0:
            errs.append(f"{who}: negative sector count {s.sectors[seat]}")
        if s.rat[seat] > data.PLAGUE_MAX:
            errs.append(f"{who}: rat beyond {data.PLAGUE_MAX}")
        markers = s.supply[seat] + s.general[seat] + sum(s.sectors[seat]) + s.nd[seat]
        if markers != data.MARKERS_PER_COLOUR:
            errs.append(f"{who}: {markers} markers, not {data.MARKERS_PER_COLOUR}")
        if not data.PLAY_AREA <= s.friend[seat] <= data.NOTRE_DAME:
            errs.append(f"{who}: friend at {s.friend[seat]}")
        if s.published and s.friend[seat] == data.NOTRE_DAME:
            errs.append(f"{who}: friend in Notre Dame under the published rules")
        if s.prestige[seat] != sum(s.sources[seat].values()):
            errs.append(f"{who}: prestige {s.prestige[seat]} != sources {s.sources[seat]}")
        if min(s.msgs[seat]) < 0:
            errs.append(f"{who}: negative messages")
    if s.bank < 0:
        errs.append(f"bank negative {s.bank}")
    gold = s.bank + sum(s.gold)
    if gold != data.GOLD_COINS:
        errs.append(f"gold {gold} != {data.GOLD_COINS}")
    for colour in set(s.borough_colour):
        total = sum(1 for m in s.board_msg if m >= 0 and m // 4 == colour)
        total += sum(s.msgs[seat][colour] for seat in range(n))
        if total != data.MESSAGES_PER_COLOUR:
            errs.append(f"{data.COLOURS[colour]}: {total} messages")
    cards: list[int] = list(s.discard)
    for seat in range(n):
        cards += s.decks[seat] + s.drawn[seat] + s.hands[seat] + s.incoming[seat] + s.thirds[seat]
    if sorted(cards) != list(range(n * _CPC)):
        errs.append("action cards lost or duplicated")
    for seat in range(n):
        if any(c // _CPC != seat for c in s.decks[seat]):
            errs.append(f"{s.names[seat]}'s deck holds another colour")
    if not 1 <= s.round <= data.ROUNDS:
        errs.append(f"round {s.round}")
    if s.phase != OVER and len(s.persons) != data.BROWN_PER_ROUND + data.GRAY_PER_ROUND:
        errs.append(f"{len(s.persons)} persons face up")
    return errs
