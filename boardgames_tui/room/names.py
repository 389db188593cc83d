"""A player's name as the room accepts it (the ssh user name): a valid name
(`boardgames_tui.engine.core.names`: printable, at most 24 cells, no control or format characters) that is
also a valid table user (letters, digits, `.`, `_`, `-`)."""

from __future__ import annotations

from boardgames_tui.engine.core.names import BadName, check_name
from boardgames_tui.engine.tables import StoreError, check_user


def name_problem(name: str) -> str | None:
    """None if `name` may be a player's name, else one line saying the rule it breaks."""
    if not name:
        return "give your name as the ssh user name: ssh -p PORT NAME@HOST"
    try:
        if check_name(name) != name:
            return f"the name {name!a} has spaces at an end"
        check_user(name)
    except BadName as exc:
        return str(exc)
    except StoreError as exc:
        return str(exc).replace("user name", "the name", 1)
    return None
