"""The invariants of a state of The Cathedral of Orléans (checked by the playout tests):
every subject, good, stained glass and tile is somewhere, exactly once."""

from __future__ import annotations

from . import data
from .state import CathedralState, empty_items, pack_size


def invariants(s: CathedralState) -> list[str]:
    """Broken invariants of `s` (empty when all hold)."""
    errs = _subjects(s) + _items(s) + _tiles(s)
    if not 0 <= s.sections <= data.SECTIONS:
        errs.append(f"sections {s.sections}")
    if s.sections == data.SECTIONS and not s.won:
        errs.append("8 sections but not won")
    if not 1 <= s.round <= data.ROUNDS:
        errs.append(f"round {s.round}")
    if s.over and not s.won and s.round != data.ROUNDS:
        errs.append("lost before round 3 ended")
    return errs


def _subjects(s: CathedralState) -> list[str]:
    errs: list[str] = []
    count = dict.fromkeys(data.SUBJECTS, 0)
    for bag in data.BAGS:
        for k, n in s.bags[bag].items():
            if n < 0:
                errs.append(f"{bag} bag has {n} {k}")
            count[k] += n
    for subj in s.spaces.values():
        if subj:
            count[subj] += 1
    for subj in (s.bell, s.drawn, *s.removed):
        if subj:
            count[subj] += 1
    count["monk"] += s.monk_supply
    if s.monk_supply < 0:
        errs.append("monk supply negative")
    if count != data.SUBJECT_COUNT:
        errs.append(f"subjects {count} != {data.SUBJECT_COUNT}")
    return errs


def _items(s: CathedralState) -> list[str]:
    """Goods and stained glass."""
    errs: list[str] = []
    items = empty_items()
    for g in data.GOODS:
        if s.black[g] < 0:
            errs.append(f"black bag has {s.black[g]} {g}")
        items[g] += s.black[g]
    for road in s.roads:
        for g in road:
            if g:
                items[g] += 1
    for i, b in enumerate(s.builders):
        n = pack_size(b)
        if n > data.BACKPACK_SIZE or min(b.pack.values()) < 0:
            errs.append(f"backpack {i} holds {b.pack}")
        for k, c in b.pack.items():
            items[k] += c
    for w in s.workshops:
        for k, c in w.filled.items():
            items[k] += c
            if c > data.WORKSHOP_NEED[w.key][k]:
                errs.append(f"workshop {w.key} overfilled")
    for k, c in s.hourglass_filled.items():
        items[k] += c
    items["glass"] += s.glass_supply + s.glass_space
    if s.glass_supply < 0:
        errs.append("glass supply negative")
    want = dict(data.GOODS_COUNT, glass=data.GLASS_TOTAL)
    if items != want:
        errs.append(f"items {items} != {want}")
    return errs


def _tiles(s: CathedralState) -> list[str]:
    errs: list[str] = []
    if len(s.blueprints) + len(s.blueprints_flipped) != data.BLUEPRINT_COUNT:
        errs.append("blueprints not conserved")
    if len(s.events) + len(s.event_discard) + (1 if s.order else 0) != len(data.EVENTS):
        errs.append("events not conserved")
    hg = (
        len(s.hourglass_stack)
        + len(s.hourglass_box)
        + len(s.hourglass_done)
        + len(s.hourglass_lost)
        + (1 if s.hourglass else 0)
    )
    if hg != len(data.HOURGLASSES):
        errs.append("hourglass tiles not conserved")
    return errs
