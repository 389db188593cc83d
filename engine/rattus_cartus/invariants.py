"""The invariants of a Rattus Cartus state, checked after every move by the playout tests."""

from __future__ import annotations

from .data import BUILDING_CARDS_IN_GAME, CLASSES, NUN_ROW_SIZE, POPULATION_CARDS, SUPPLY_TOTALS
from .state import RattusState


def invariants(s: RattusState) -> list[str]:
    """Conservation and non-negativity: 84 population cards, supplies, buildings, discs."""
    bad: list[str] = []
    cards = list(s.deck) + list(s.discard) + list(s.nun_row)
    for p in s.players:
        cards += p.pop
        cards += p.c_pop
    if sorted(cards) != list(range(POPULATION_CARDS)):
        bad.append(
            f"population cards not conserved: {len(cards)} cards, {len(set(cards))} distinct"
        )
    if len(s.nun_row) != NUN_ROW_SIZE:
        bad.append(f"Nun-row has {len(s.nun_row)} cards")
    held = {
        "joker": sum(p.jokers + p.c_jokers for p in s.players),
        "sword": sum(p.swords + p.c_swords for p in s.players),
        "flute": sum(p.flutes + p.c_flutes for p in s.players),
        "pass": sum(p.passes for p in s.players),
        "gold": sum(p.gold for p in s.players),
        "vp": sum(p.vp for p in s.players),
    }
    for kind, total in SUPPLY_TOTALS.items():
        if s.supply.get(kind, -1) < 0:
            bad.append(f"negative {kind} supply")
        if s.supply.get(kind, 0) + held[kind] != total:
            bad.append(f"{kind}: supply {s.supply.get(kind)} + held {held[kind]} != {total}")
    for i, p in enumerate(s.players):
        for fld in ("jokers", "swords", "flutes", "passes", "gold", "vp", "rats",
                    "c_jokers", "c_swords", "c_flutes", "gained"):  # fmt: skip
            if getattr(p, fld) < 0:
                bad.append(f"seat {i}: negative {fld}")
        if any(v < 0 for v in p.track) or len(p.track) != len(CLASSES):
            bad.append(f"seat {i}: bad track {p.track}")
        if len(set(p.seen)) != len(p.seen) or any(not 0 <= x < NUN_ROW_SIZE for x in p.seen):
            bad.append(f"seat {i}: bad seen list {p.seen}")
        if p.committed() and p.entered < 0:
            bad.append(f"seat {i}: cards committed without entering")
    buildings = len(s.bdeck) + len(s.replacement) + len(s.row) + len(s.bout)
    if buildings != BUILDING_CARDS_IN_GAME:
        bad.append(f"{buildings} building cards instead of {BUILDING_CARDS_IN_GAME}")
    entered = [o for d in s.discs for o in d]
    if len(entered) != len(set(entered)):
        bad.append(f"a seat entered twice: {s.discs}")
    for i, d in enumerate(s.discs):
        for o in d:
            if s.players[o].entered != i:
                bad.append(f"seat {o}: disc in row {i} but entered {s.players[o].entered}")
    if not 1 <= s.round <= s.rounds:
        bad.append(f"round {s.round} of {s.rounds}")
    if s.phase == "over" and s.pending:
        bad.append("game over with pending tasks")
    if s.phase != "over" and not s.pending:
        bad.append("no pending task while playing")
    return bad
