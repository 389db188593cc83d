"""A player's name as the room accepts it (the ssh user name).

A local check until the shared one (engine/core/names.py) lands: printable, at most 24 cells,
no control or format characters (bidi overrides), and a valid table user.
"""

from __future__ import annotations

import unicodedata

from engine.tables import StoreError, check_user

MAX_CELLS = 24


def _cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def name_problem(name: str) -> str | None:
    """None if `name` may be a player's name, else one line saying the rule it breaks."""
    shown = ascii(name)
    if not name:
        return "give your name as the ssh user name: ssh -p PORT NAME@HOST"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in name):
        return f"the name {shown} has control or invisible characters"
    if _cells(name) > MAX_CELLS:
        return f"the name {shown} is longer than {MAX_CELLS} characters"
    try:
        check_user(name)
    except StoreError as exc:
        return str(exc).replace("user name", "the name", 1)
    return None
