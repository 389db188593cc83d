"""Read-only queries on a Notre Dame state that the rules, the decisions, the view and the
evaluation share (module functions: they are on the hot path)."""

from __future__ import annotations

from . import data
from .state import NotreDameState

_PERSONS = data.PERSON_BY_KEY
SECTOR_RANGE = range(len(data.SECTORS))  # the 7 borough sectors as locations


def count(s: NotreDameState, seat: int, loc: int) -> int:
    """`seat`'s markers at `loc` (a sector or Notre Dame), the trusted friend included."""
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
    """Where `seat`'s rat would end this round's plague phase, and whether it overflows."""
    value = 0 if s.doctor[seat] else plague_value(s)
    new = s.rat[seat] + value - count(s, seat, data.HOSPITAL)
    if new < 0:
        return 0, False
    if new > data.PLAGUE_MAX:
        return data.PLAGUE_MAX, True
    return new, False


def sector_counts(s: NotreDameState, seat: int) -> list[int]:
    """Pieces in each of the 7 borough sectors, the friend included."""
    out = list(s.sectors[seat])
    f = s.friend[seat]
    if 0 <= f < data.NOTRE_DAME:
        out[f] += 1
    return out


def colours_on_board(s: NotreDameState) -> set[int]:
    """The colours of the messages still on the board."""
    return {m // 4 for m in s.board_msg if m >= 0}


def may_take_message(s: NotreDameState, seat: int, colour: int) -> bool:
    """The set rule: no second message of a colour before one of every colour in play, etc.

    A colour with no message left on the board no longer counts.
    """
    held = s.msgs[seat]
    mine = held[colour]
    return all(held[c] >= mine for c in colours_on_board(s))


def borough_name(s: NotreDameState, b: int) -> str:
    """Borough `b` as the log names it: its owner's, or an empty one by colour."""
    seat = s.boroughs[b]
    if seat >= 0:
        return f"{s.names[seat]}'s borough"
    return f"the empty {data.COLOURS[s.borough_colour[b]]} borough"


def node_label(s: NotreDameState, node: int) -> str:
    """A market place as the log names it: by the number the board gives it (C, 1-4)."""
    b, k = divmod(node, data.NODES_PER_BOROUGH)
    return f"place {data.NODE_LABELS[k].removeprefix('O')} of {borough_name(s, b)}"


def message_label(s: NotreDameState, code: int) -> str:
    """A message as the prompts name it (with its reward under the published rules)."""
    colour = data.COLOURS[code // 4]
    if s.published:
        return f"{colour} message ({data.REWARDS[code % 4].text})"
    return f"{colour} message"
