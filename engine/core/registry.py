"""The registry of titles: adding a game needs no change to the core or the TUI shell."""

from __future__ import annotations

import importlib
import importlib.util
from typing import NamedTuple

from .protocol import Game

# game id -> module that defines GAME (a Game instance)
_MODULES: dict[str, str] = {
    "notre-dame": "engine.notre_dame",
    "rattus-cartus": "engine.rattus_cartus",
    "cathedral-of-orleans": "engine.cathedral",
    "1347": "engine.pestis",
}
_ALIASES = {
    "notredame": "notre-dame",
    "nd": "notre-dame",
    "rattus": "rattus-cartus",
    "cathedral": "cathedral-of-orleans",
    "orleans": "cathedral-of-orleans",
    "pestis": "1347",
}
_cache: dict[str, Game] = {}


class Title(NamedTuple):
    """What the menu shows of a title without importing its rules (start-up stays quick)."""

    id: str
    title: str
    min_players: int
    max_players: int


# Checked against each Game's own attributes by a test.
_CATALOG: dict[str, Title] = {
    "notre-dame": Title("notre-dame", "Notre Dame", 2, 5),
    "rattus-cartus": Title("rattus-cartus", "Rattus Cartus", 2, 5),
    "cathedral-of-orleans": Title("cathedral-of-orleans", "The Cathedral of Orléans", 1, 4),
    "1347": Title("1347", "1347: De Nigrae Pestis Ludo", 2, 6),
}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(game_ids())})"


def register(game_id: str, module: str) -> None:
    """Add a title (a module that defines GAME); used by plug-in games and tests."""
    _MODULES[game_id] = module
    _cache.pop(game_id, None)
    _CATALOG.pop(game_id, None)


def game_ids() -> list[str]:
    """Ids of the titles that are installed (found without importing them)."""
    out = []
    for gid, module in _MODULES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:
            found = False
        if found:
            out.append(gid)
    return out


def catalog() -> list[Title]:
    """Id, title and player counts of every installed title."""
    out = []
    for gid in game_ids():
        if gid in _CATALOG:
            out.append(_CATALOG[gid])
        else:  # a plug-in title: import it to learn its name
            g = get_game(gid)
            out.append(Title(g.id, g.title, g.min_players, g.max_players))
    return out


def get_game(game_id: str) -> Game:
    gid = _ALIASES.get(game_id.lower(), game_id.lower())
    if gid in _cache:
        return _cache[gid]
    if gid not in _MODULES:
        raise UnknownGame(game_id)
    try:
        module = importlib.import_module(_MODULES[gid])
    except ModuleNotFoundError as exc:
        if exc.name and _MODULES[gid].startswith(exc.name):
            raise UnknownGame(game_id) from None
        raise
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGame(game_id)
    _cache[gid] = game
    return game


def all_games() -> list[Game]:
    return [get_game(g) for g in game_ids()]
