"""The registry of titles: adding a game needs no change to the core or the TUI shell."""

from __future__ import annotations

import importlib

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


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(game_ids())})"


def register(game_id: str, module: str) -> None:
    """Add a title (a module that defines GAME); used by plug-in games and tests."""
    _MODULES[game_id] = module
    _cache.pop(game_id, None)


def game_ids() -> list[str]:
    """Ids of the titles that are installed (their module imports)."""
    out = []
    for gid in _MODULES:
        try:
            get_game(gid)
        except Exception:  # a title that is missing or broken is left out of the list
            continue
        out.append(gid)
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
