"""The invariants of a 1347 state: conservation of tokens, coins, grave-diggers and cards."""

from __future__ import annotations

from . import data
from .state import PestisState


def invariants(s: PestisState) -> list[str]:
    """Conservation and bounds; written to be cheap (checked after every playout move).

    Tokens: each seat holds (in hand or invested) exactly the starting five plus one
    per healed subject — checked by count and total value. Cards: the exact
    multisets of the decks. Grave-diggers: 15 per colour wherever they are.
    """
    bad: list[str] = []
    n = s.n
    coins = s.coins
    if sum(coins) != data.START_COINS * n + s.bank_net:
        bad.append(f"coins not conserved: {sum(coins)} vs {data.START_COINS * n + s.bank_net}")
    if min(coins) < 0 or min(s.reserve) < 0 or min(s.agrus) < 0 or min(s.docks) < 0:
        bad.append("negative coins or grave-diggers")
    reinf_by_seat = [sum(col) for col in zip(*s.reinf, strict=True)]
    law_by_seat = [sum(col) for col in zip(*s.gdtok, strict=True)]
    if min(map(min, s.reinf)) < 0 or min(map(min, s.gdtok)) < 0:
        bad.append("negative investment")
    for seat, invested in enumerate(zip(*s.invest, strict=True)):
        hand = s.hand[seat]
        held = (len(hand) + sum(map(len, invested)), sum(hand) + sum(map(sum, invested)))
        gd = s.reserve[seat] + s.agrus[seat] + len(s.devs[seat]) + s.docks[seat]
        gd += reinf_by_seat[seat] + law_by_seat[seat]
        if gd != data.GRAVE_DIGGERS_PER_COLOUR:
            bad.append(f"grave-diggers of colour {seat}: {gd}")
        if law_by_seat[seat] > 1:
            bad.append(f"seat {seat} invested more than one law grave-digger")
        ecnt, etot = _START_TOKENS
        for key, healed in s.subjects[seat].items():
            if healed:
                ecnt += 1
                etot += _TOKEN[key]
        if held != (ecnt, etot):
            bad.append(f"tokens of seat {seat} not conserved")
        if len(set(s.devs[seat])) != len(s.devs[seat]):
            bad.append(f"seat {seat} has two developments of a kind")
    res = s.res_deck + s.res_discard
    subs = s.subj_deck + s.subj_discard + s.burgus
    for seat in range(n):
        res += s.res_hand[seat]
        res += s.res_played[seat]
        subs += s.subjects[seat].keys()
    res.sort()
    subs.sort()
    if res != _RESOURCES_SORTED:
        bad.append("resource cards not conserved")
    if subs != _SUBJECTS_SORTED:
        bad.append("subject cards not conserved")
    seen = s.events_seen
    evs = len(seen) + sum(len(d) for d in s.event_decks)
    if evs != data.EVENTS_PER_PERIOD * 3 or len(set(seen)) != len(seen):
        bad.append("event cards not conserved")
    if not 1 <= s.round <= data.ROUNDS:
        bad.append(f"round {s.round} out of range")
    if len(seen) != s.round + (1 if s.phase == "event" else 0):
        bad.append(f"{len(seen)} events revealed in round {s.round}")
    if s.phase == "over" and s.round != data.ROUNDS:
        bad.append("game over before the last round")
    return bad


_START_TOKENS = (len(data.START_TOKENS), sum(data.START_TOKENS))
_TOKEN = {k: sub.token for k, sub in data.SUBJECTS.items()}
_RESOURCES_SORTED = sorted(data.RESOURCE_DECK)
_SUBJECTS_SORTED = sorted(data.SUBJECT_DECK)
