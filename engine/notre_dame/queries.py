"""Small queries on a Notre Dame state that the rules, the view and the evaluation share
(module functions: they are on the hot path)."""

from __future__ import annotations

from . import data
from .state import NotreDameState

_PERSONS = data.PERSON_BY_KEY


def count(s: NotreDameState, seat: int, loc: int) -> int:
    """Seat `s`'s markers at `loc` (a sector or Notre Dame), the trusted friend included."""
    if loc == data.NOTRE_DAME:
        return s.nd[seat] + (s.friend[seat] == data.NOTRE_DAME)
    return s.sectors[seat][loc] + (s.friend[seat] == loc)


def park_bonus(s: NotreDameState, seat: int) -> int:
    """Extra prestige on every other prestige gain (1 per 2 park markers, friend included)."""
    return count(s, seat, data.PARK) // data.PARK_MARKERS_PER_BONUS


def plague_value(s: NotreDameState) -> int:
    """Sum of the rat icons on the face-up persons."""
    return sum(_PERSONS[k].rats for k in s.persons)


def rat_after_plague(s: NotreDameState, seat: int) -> tuple[int, bool]:
    """Where `s`'s rat would end this round's plague phase, and whether it overflows."""
    value = 0 if s.doctor[seat] else plague_value(s)
    new = s.rat[seat] + value - count(s, seat, data.HOSPITAL)
    if new < 0:
        return 0, False
    if new > data.PLAGUE_MAX:
        return data.PLAGUE_MAX, True
    return new, False
