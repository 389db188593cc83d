"""Player names are data a person or a file supplies: checked where they enter.

A name is trimmed, at most `MAX_CELLS` terminal cells wide, and holds printable characters
only: no C0/C1 control characters (a terminal would obey them), no bidi overrides or other
format characters (they reorder or hide what is drawn), no line or paragraph separators.
"""

from __future__ import annotations

import unicodedata

MAX_CELLS = 24
RULE = (
    f"a name is at most {MAX_CELLS} characters wide and printable "
    "(no control, format or bidi characters)"
)
# categories a terminal must never receive from a name: controls, format (bidi, zero
# width), surrogates, private use, unassigned, line and paragraph separators
_BAD = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class BadName(ValueError):
    """A name that breaks the rule; the message names the rule."""


def cells(text: str) -> int:
    """How many terminal cells `text` takes (wide East Asian characters take two)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def bad_character(text: str) -> str | None:
    """The first character of `text` a name may not hold, or None."""
    for ch in text:
        if unicodedata.category(ch) in _BAD:
            return ch
    return None


def check_name(name: object) -> str:
    """`name` trimmed, or BadName saying what a name may be."""
    if not isinstance(name, str):
        raise BadName(f"{RULE}; got {type(name).__name__}")
    bad = bad_character(name)
    if bad is not None:
        raise BadName(f"{RULE}; {_show(name)} holds U+{ord(bad):04X}")
    name = name.strip()
    if not name:
        raise BadName(f"{RULE}; got an empty name")
    if cells(name) > MAX_CELLS:
        raise BadName(f"{RULE}; {_show(name)} is {cells(name)} wide")
    return name


def _show(name: str) -> str:
    """The name quoted for a message, with anything unprintable escaped."""
    return ascii(name[:40]) if bad_character(name) else repr(name[:40])


def valid_name(name: object) -> bool:
    """Whether `name` is a name as it stands (trimmed already)."""
    try:
        return check_name(name) == name
    except BadName:
        return False
