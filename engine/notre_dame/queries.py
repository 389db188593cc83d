"""Small queries on a Notre Dame state that the rules, the view and the evaluation share
(module functions: they are on the hot path)."""

from __future__ import annotations

from . import data as D
from .state import NotreDameState

_PERSONS = D.PERSON_BY_KEY


def count(st: NotreDameState, s: int, loc: int) -> int:
    """Seat `s`'s markers at `loc` (a sector or Notre Dame), the trusted friend included."""
    if loc == D.NOTRE_DAME:
        return st.nd[s] + (st.friend[s] == D.NOTRE_DAME)
    return st.sectors[s][loc] + (st.friend[s] == loc)


def park_bonus(st: NotreDameState, s: int) -> int:
    """Extra prestige on every other prestige gain (1 per 2 park markers, friend included)."""
    return count(st, s, D.PARK) // D.PARK_MARKERS_PER_BONUS


def plague_value(st: NotreDameState) -> int:
    """Sum of the rat icons on the face-up persons."""
    return sum(_PERSONS[k].rats for k in st.persons)


def rat_after_plague(st: NotreDameState, s: int) -> tuple[int, bool]:
    """Where `s`'s rat would end this round's plague phase, and whether it overflows."""
    value = 0 if st.doctor[s] else plague_value(st)
    new = st.rat[s] + value - count(st, s, D.HOSPITAL)
    if new < 0:
        return 0, False
    if new > D.PLAGUE_MAX:
        return D.PLAGUE_MAX, True
    return new, False
