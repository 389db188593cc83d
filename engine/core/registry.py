"""The registry of titles: every game is found through the entry point group
`boardgames_tui.games`, built-in titles and plug-ins alike.

An entry point is `game-id = "package.module:ATTR"`, ATTR naming the `Game` instance. What the
app needs to know about a title before it plays one (its name, player counts, aliases, the UI
module) is a `Title`: the entry point's module may define it as `TITLE` without importing its
rules (the menu then starts without loading any game); otherwise the Game is loaded and its
`meta` (or its id, title and player counts) is read.

The built-in titles are listed as entry points in this project's `pyproject.toml`. An editable
install made before they were listed does not carry them in its metadata, so a source checkout
also reads them from that file; installed entry points of other distributions are merged in.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .protocol import Game
from .titles import AIHints, Title

GROUP = "boardgames_tui.games"
PROJECT = "boardgames-tui"

__all__ = [
    "GROUP",
    "Title",
    "UnknownGame",
    "ai_hints",
    "all_games",
    "catalog",
    "game_ids",
    "get_game",
    "get_title",
    "register",
]


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(game_ids())})"


@dataclass
class _Entry:
    """One discovered title: where its Game lives and, once read, its Title."""

    target: str  # "module:ATTR"
    title: Title | None = None
    game: Game | None = None
    broken: bool = False  # its module is missing or does not define a Game
    problem: str = ""  # why a broken entry is left out, for `problems()`


_entries: dict[str, _Entry] | None = None
_extra: dict[str, str] = {}  # titles added at run time (`register`), kept across rescans


def _checkout_entry_points() -> dict[str, str]:
    """The entry points this project's own `pyproject.toml` declares, when the engine runs
    from a source checkout (an editable install whose metadata predates them, a test run)."""
    path = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if not path.is_file():
        return {}
    import tomllib

    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    project = doc.get("project", {})
    if project.get("name") != PROJECT:
        return {}
    found = project.get("entry-points", {}).get(GROUP, {})
    return {str(k): str(v) for k, v in found.items()}


def _installed_entry_points() -> dict[str, str]:
    """The group's entry points of the distributions installed on `sys.path`.

    What `importlib.metadata.entry_points(group=GROUP)` returns for ordinary installs (one
    `*.dist-info` or `*.egg-info` folder per distribution, the first on the path wins), read
    directly: importing importlib.metadata costs a tenth of a second of start-up.
    """
    found: dict[str, str] = {}
    seen: set[str] = set()
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            dist = stem.split("-")[0].lower().replace("_", "-").replace(".", "-")
            if dist in seen:
                continue
            seen.add(dist)
            path = os.path.join(folder or ".", name, "entry_points.txt")
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            for gid, target in _group_entries(text):
                found.setdefault(gid, target)
    return found


def _group_entries(text: str) -> list[tuple[str, str]]:
    """(name, value) pairs of GROUP in an `entry_points.txt` (an INI file)."""
    out = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == GROUP
        elif inside and "=" in line:
            name, _, value = line.partition("=")
            out.append((name.strip(), value.strip()))
    return out


def _discover() -> dict[str, _Entry]:
    global _entries
    if _entries is None:
        found = dict(_checkout_entry_points())
        for gid, target in _installed_entry_points().items():
            found.setdefault(gid, target)
        found.update(_extra)
        _entries = {gid: _Entry(target) for gid, target in found.items()}
    return _entries


def register(game_id: str, target: str) -> None:
    """Add a title at run time (`module:ATTR`, or a module that defines `GAME`); for tests and
    for trying a game before it is packaged."""
    if ":" not in target:
        target += ":GAME"
    _extra[game_id] = target
    _discover()[game_id] = _Entry(target)


def rescan() -> None:
    """Forget what was discovered (after installing a plug-in into a running interpreter)."""
    global _entries
    _entries = None


def _module(entry: _Entry) -> ModuleType | None:
    """The entry's module (None, and the entry marked broken, when it is not installed)."""
    module_name = entry.target.partition(":")[0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            _leave_out(entry, f"its module {module_name} is not installed")
            return None
        raise


def _leave_out(entry: _Entry, why: str) -> None:
    entry.broken = True
    entry.problem = why


def _load(gid: str, entry: _Entry) -> Game | None:
    """The entry's Game, imported on first use (None when it is not installed or broken)."""
    if entry.game is not None or entry.broken:
        return entry.game
    module = _module(entry)
    if module is None:
        return None
    attr = entry.target.partition(":")[2] or "GAME"
    game = getattr(module, attr, None)
    if not isinstance(game, Game):
        _leave_out(entry, f"{entry.target} is not a Game")
        return None
    if game.id != gid:  # saves name the game by its id: it must be the entry point's name
        _leave_out(entry, f"its Game's id is {game.id!r}, not the entry point's name {gid!r}")
        return None
    entry.game = game
    return game


def _title(gid: str, entry: _Entry) -> Title | None:
    """The entry's Title, read without importing the rules when its module defines TITLE."""
    if entry.title is not None or entry.broken:
        return entry.title
    module = _module(entry)
    if module is None:
        return None
    meta = module.__dict__.get("TITLE")
    if not isinstance(meta, Title):
        game = _load(gid, entry)
        if game is None:
            return None
        meta = game.meta or Title(game.id, game.title, game.min_players, game.max_players)
    if meta.id != gid:  # the entry point's name is the id the app and saves use
        _leave_out(entry, f"its Title's id is {meta.id!r}, not the entry point's name {gid!r}")
        return None
    entry.title = meta
    return meta


def catalog() -> list[Title]:
    """Every installed title, by `Title.order`, then in discovery order."""
    out = []
    for gid, entry in list(_discover().items()):
        meta = _title(gid, entry)
        if meta is not None:
            out.append(meta)
    return sorted(out, key=lambda t: t.order)


def problems() -> dict[str, str]:
    """Installed entries left out of the catalog, each with the reason (for `--help`)."""
    catalog()
    return {gid: e.problem for gid, e in _discover().items() if e.broken and e.problem}


def game_ids() -> list[str]:
    """Ids of the titles that are installed."""
    return [t.id for t in catalog()]


def _resolve(game_id: str) -> str:
    key = game_id.lower()
    entries = _discover()
    if key in entries:
        return key
    for t in catalog():
        if key in t.aliases:
            return t.id
    raise UnknownGame(game_id)


def get_title(game_id: str) -> Title:
    """The Title of an id or alias (UnknownGame if no installed title has it)."""
    gid = _resolve(game_id)
    meta = _title(gid, _discover()[gid])
    if meta is None:
        raise UnknownGame(game_id)
    return meta


def get_game(game_id: str) -> Game:
    """The Game of an id or alias, its rules imported on first use."""
    gid = _resolve(game_id)
    game = _load(gid, _discover()[gid])
    if game is None:
        raise UnknownGame(game_id)
    return game


_hints: dict[str, AIHints] = {}


def ai_hints(game: Game) -> AIHints:
    """What the computer players know of `game`: the AIHints its Title names (loaded on first
    use), else the defaults (the game's own `evaluate`, default search settings)."""
    hints = _hints.get(game.id)
    if hints is None:
        meta = game.meta
        if meta is None:
            try:
                meta = get_title(game.id)
            except UnknownGame:
                meta = None
        hints = AIHints()
        if meta is not None and meta.ai:
            module_name, _, attr = meta.ai.partition(":")
            found = getattr(importlib.import_module(module_name), attr or "AI")
            if not isinstance(found, AIHints):
                raise TypeError(f"{meta.ai} is not an AIHints")
            hints = found
        _hints[game.id] = hints
    return hints


def all_games() -> list[Game]:
    return [get_game(g) for g in game_ids()]
