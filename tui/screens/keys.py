"""Every key binding by its id: what it does, on which screens, and whether a new key clashes.

Each binding of the app has an id (`game.undo`, `help`, ...); the settings' `[keys]` table maps
ids to keys and Textual's keymap applies them. A key already taken on a screen where the
binding lives is refused in one line, never left for Textual to resolve silently.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

from textual.binding import Binding
from textual.dom import DOMNode

# the app's own keys, on every screen: Ctrl+C quits, Ctrl+P opens the commands
APP_BINDINGS = [
    Binding("ctrl+c", "quit", "Quit", show=False, priority=True, id="app.quit"),
    Binding("ctrl+p", "command_palette", "Commands", show=False, priority=True, id="app.commands"),
]
# what a screen is called in a refusal
SCREEN_NAMES = {
    "GameScreen": "game screen",
    "ReviewScreen": "review",
    "EndScreen": "end screen",
    "MenuScreen": "menu",
    "SetupScreen": "new game screen",
    "TablesScreen": "tables screen",
    "NewTableScreen": "new table screen",
}
# keys the game screen leaves to the move picker (its options' hotkeys start with these)
PICKER_KEYS = frozenset("0123456789")


@dataclass(frozen=True)
class KeyInfo:
    """One binding id: its default keys, what it does, and the screens it is on."""

    id: str
    keys: str
    description: str
    screens: tuple[str, ...]


def _modules() -> list[ModuleType]:
    """The modules whose screens have bindings (imported when first asked)."""
    from boardgames_tui.tui.screens import (
        crash,
        dialogs,
        end,
        game,
        load,
        log,
        menu,
        review,
        rules,
        setup,
        tables,
    )

    return [menu, setup, game, review, end, log, rules, load, tables, dialogs, crash]


def _screens() -> list[type[DOMNode]]:
    from textual.screen import Screen

    found: list[type[DOMNode]] = []
    for module in _modules():
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Screen)
                and value.__module__ == module.__name__
                and value not in found
            ):
                found.append(value)
    return found


def _bindings(cls: type[DOMNode]) -> list[Binding]:
    out: list[Binding] = []
    for base in reversed(cls.__mro__):
        for b in vars(base).get("BINDINGS", ()):
            if isinstance(b, Binding):
                out.append(b)
    return out


@functools.cache
def table() -> dict[str, list[tuple[str, list[Binding]]]]:
    """Binding id -> [(screen class name, that screen's bindings)] for each screen it is on;
    the app's bindings are part of every screen's."""
    out: dict[str, list[tuple[str, list[Binding]]]] = {
        b.id or "": [("app", APP_BINDINGS)] for b in APP_BINDINGS
    }
    for cls in _screens():
        own = [b for b in _bindings(cls) if b.id]
        scope = own + APP_BINDINGS
        for b in own:
            entries = out.setdefault(b.id or "", [])
            if all(name != cls.__name__ for name, _ in entries):
                entries.append((cls.__name__, scope))
    return out


def binding_ids() -> dict[str, KeyInfo]:
    """Every binding id, with its default keys and what it does."""
    out: dict[str, KeyInfo] = {}
    for ident, entries in table().items():
        b = next(b for b in entries[0][1] if b.id == ident)
        out[ident] = KeyInfo(
            ident, b.key, b.description or b.action, tuple(name for name, _ in entries)
        )
    return out


def _split(keys: str) -> set[str]:
    from textual.keys import _character_to_key

    return {
        _character_to_key(k) if len(k) == 1 else k for k in (x.strip() for x in keys.split(","))
    }


def clash(ident: str, keys: str, keymap: Mapping[str, str]) -> str | None:
    """Why `ident` may not have `keys` with the rest of `keymap` (None: it may)."""
    if ident == "app.commands" or ident == "app.quit":
        return f"{ident} keeps its key"
    wanted = _split(keys)
    for screen, scope in table().get(ident, []):
        where = SCREEN_NAMES.get(screen, "")
        where = f" on the {where}" if where else ""
        if screen == "GameScreen" and wanted & PICKER_KEYS:
            return f"{min(wanted & PICKER_KEYS)} is a move's key{where}"
        for b in scope:
            if b.id == ident:
                continue
            taken = _split(keymap.get(b.id or "", b.key)) & wanted
            if taken:
                what = b.description or b.action
                return f"{min(taken)} is already {what!r} ({b.id}){where}"
    return None


def keys_of(ident: str, keymap: Mapping[str, str]) -> set[str]:
    """The keys binding `ident` answers to now."""
    info = binding_ids().get(ident)
    return _split(keymap.get(ident, info.keys if info else ""))


def check(ident: str, keys: str, keymap: Mapping[str, str]) -> str | None:
    """Why binding `ident` may not answer to `keys` (None: it may): no such binding, or a
    clash with another key of a screen it is on."""
    if ident not in binding_ids():
        return f"no key binding {ident!r} (`boardgames-tui config list --keys` lists them)"
    return clash(ident, keys, keymap)
