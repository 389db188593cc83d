"""The registry of titles: every game is found through the entry point group
`boardgames_tui.games`, built-in titles and plug-ins alike.

An entry point is `game-id = "package.module:ATTR"`, ATTR naming the `Game` instance. What the
app needs to know about a title before it plays one (its name, player counts, aliases, the UI
module) is a `Title`: the entry point's module may define it as `TITLE` without importing its
rules (the menu then starts without loading any game); otherwise the Game is loaded and its
`meta` (or its id, title and player counts) is read.

Entry points are read with `importlib.metadata`. The built-in titles are listed in this
project's `pyproject.toml`; an editable install made before they were listed does not carry
them in its metadata, so a source checkout also reads them from that file (its entries first);
installed entry points of other distributions are merged in. The TUI finds each title's board
the same way, in its own group (`boardgames_tui.tui.games.BOARDS`).
"""

from __future__ import annotations

import importlib
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
    "entry_points",
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
# entry points added at run time (`register`), group -> name -> target, kept across rescans
_extra: dict[str, dict[str, str]] = {}


def checkout_entry_points(group: str = GROUP) -> dict[str, str]:
    """The entry points of `group` this project's own `pyproject.toml` declares, when the
    engine runs from a source checkout (an editable install whose metadata predates them, a
    test run in a worktree)."""
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
    found = project.get("entry-points", {}).get(group, {})
    return {str(k): str(v) for k, v in found.items()}


def installed_entry_points(group: str = GROUP) -> dict[str, str]:
    """The entry points of `group` in the distributions installed on `sys.path` (the first
    distribution of a name, and the first entry of a name, wins)."""
    import importlib.metadata  # ~13 ms of start-up, paid once: read only when discovering

    found: dict[str, str] = {}
    for ep in importlib.metadata.entry_points(group=group):
        found.setdefault(ep.name, ep.value)
    return found


def entry_points(group: str = GROUP) -> dict[str, str]:
    """Name -> "module:ATTR" of `group`: the checkout's own first, then installed ones."""
    found = checkout_entry_points(group)
    for name, target in installed_entry_points(group).items():
        found.setdefault(name, target)
    return found


def _discover() -> dict[str, _Entry]:
    global _entries
    if _entries is None:
        _entries = {gid: _Entry(target) for gid, target in targets(GROUP).items()}
    return _entries


_targets: dict[str, dict[str, str]] = {}  # group -> name -> "module:ATTR", once read


def targets(group: str) -> dict[str, str]:
    """The entry points of `group` (`entry_points`) and those added by `register`, read once
    per group (until `rescan`)."""
    found = _targets.get(group)
    if found is None:
        found = _targets[group] = entry_points(group) | _extra.get(group, {})
    return found


def register(game_id: str, target: str, group: str = GROUP) -> None:
    """Add a title (or, with another `group`, a title's board) at run time: `module:ATTR`, or
    a module that defines `GAME`; for tests and for trying a game before it is packaged."""
    if ":" not in target and group == GROUP:
        target += ":GAME"
    _extra.setdefault(group, {})[game_id] = target
    targets(group)[game_id] = target
    if group == GROUP:
        _discover()[game_id] = _Entry(target)


def unregister(game_id: str, group: str = GROUP) -> None:
    """Undo `register` (and forget what was discovered)."""
    _extra.get(group, {}).pop(game_id, None)
    rescan()


def rescan() -> None:
    """Forget what was discovered (after installing a plug-in into a running interpreter)."""
    global _entries
    _entries = None
    _targets.clear()


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
