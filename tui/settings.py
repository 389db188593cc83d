"""Settings that last: one TOML file, written by the settings screen and `config set`.

The file lives in the platform's config folder (platformdirs: `$XDG_CONFIG_HOME/boardgames-tui`
on Linux); a room's session (--confine) keeps its player's own file in their folder, never the
host's. A bad file is said once, in one line; the app then runs on the defaults and the file is
never overwritten without saying so (the settings screen keeps the bad one beside it first).
Textual is not imported here: `boardgames-tui config` runs without it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from boardgames_tui.engine.core.names import BadName, check_name

APP_DIR = "boardgames-tui"
FILE = "settings.toml"
# a room player's file, in their folder: a subfolder, so it is never listed as a save
ROOM_FILE = Path(".settings") / FILE
# the names the setup screen offers when it remembers none
DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn")
MAX_NAMES = 8
# the app's own keys, never given to another action (Ctrl+C quits, Ctrl+P opens the commands)
APP_KEYS = ("ctrl+c", "ctrl+p")


# why a binding id may not answer to some keys, given the other remapped ones (None: it may)
KeyCheck = Callable[[str, str, Mapping[str, str]], str | None]


class SettingsError(Exception):
    """A setting or a settings file that cannot be used, in one line."""


def _theme_names() -> list[str]:
    from textual.theme import BUILTIN_THEMES  # only to check a theme's name

    return list(BUILTIN_THEMES)


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("on", "yes", "true", "1"):
        return True
    if isinstance(value, str) and value.lower() in ("off", "no", "false", "0"):
        return False
    raise SettingsError("give on or off")


def _seconds(low: float, high: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, str):
            try:
                value = float(value.strip().removesuffix("s").strip())
            except ValueError:
                raise SettingsError("give a number of seconds") from None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError("give a number of seconds")
        if not low <= value <= high:
            raise SettingsError(f"give between {low:g} and {high:g} seconds")
        return float(value)

    return check


def _theme(value: Any) -> str:
    names = _theme_names()
    if not isinstance(value, str) or value not in names:
        raise SettingsError(f"give one of {', '.join(names)}")
    return value


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [n.strip() for n in value.split(",")]
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise SettingsError("give names separated by commas, e.g. Ann,Bob,Cy")
    if not 1 <= len(value) <= MAX_NAMES:
        raise SettingsError(f"give 1 to {MAX_NAMES} names")
    try:
        names = [check_name(n) for n in value]
    except BadName as exc:
        raise SettingsError(str(exc)) from None
    if len({n.lower() for n in names}) != len(names):
        raise SettingsError("names must be different")
    return names


def _language(value: Any) -> str:
    # a place kept for it: the app has one language so far
    if value not in ("", "en"):
        raise SettingsError("the app speaks English only so far (en)")
    return str(value)


@dataclass(frozen=True)
class Setting:
    """One setting: its key in the file, what it is for, its default and its check."""

    key: str
    help: str
    default: Any
    check: Callable[[Any], Any]


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("theme", "colours (Textual's built-in themes)", "textual-dark", _theme),
        Setting("bell", "ring when it becomes your turn at a shared table", True, _bool),
        Setting(
            "computer_speed",
            "seconds a computer's move stays in view",
            0.6,
            _seconds(0, 10),
        ),
        Setting(
            "think", "seconds the strong computer thinks per decision", 0.6, _seconds(0.05, 60)
        ),
        Setting("handover", "pass-the-keyboard screens between people", True, _bool),
        Setting("names", "the names a new game offers", list(DEFAULT_NAMES), _names),
        Setting("language", "the app's language (only en so far)", "", _language),
    )
}


def check_key(keys: str) -> str:
    """A key (or several, comma separated) as Textual names it: `u`, `ctrl+z`, `f5`."""
    from textual.keys import Keys, _character_to_key  # only to check a key's name

    named = {k.value for k in Keys} | {"space", "enter", "tab", "escape", "backspace"}
    bad = "{!r} is not a key (e.g. u, ctrl+z, f5)"
    out = []
    for raw in keys.split(","):
        key = raw.strip()
        if not key:
            raise SettingsError(f"{keys!r}: no key")
        *mods, base = key.split("+") if len(key) > 1 else [key]
        if any(m not in ("ctrl", "shift", "alt") for m in mods) or not base:
            raise SettingsError(bad.format(key))
        if len(base) == 1:
            if not base.isprintable() or base.isspace():
                raise SettingsError(bad.format(key))
            base = _character_to_key(base)
        elif base not in named and (base.lower() != base or not _unicode_key(base)):
            raise SettingsError(bad.format(key))
        out.append("+".join([*mods, base]))
    for k in out:
        if k in APP_KEYS:
            raise SettingsError(
                f"{k} is the app's own key ({'quit' if k == 'ctrl+c' else 'the commands'})"
            )
    return ",".join(out)


def _unicode_key(name: str) -> bool:
    import unicodedata

    try:
        unicodedata.lookup(name.replace("_", " ").upper())
    except KeyError:
        return False
    return True


def given_settings(args: Any) -> frozenset[str]:
    """What the command line or the environment set, which the settings file does not change."""
    from boardgames_tui.engine.bots.search import THINK_ENV

    given = set()
    if getattr(args, "bot_delay", None) is not None or "BOARDGAMES_BOT_DELAY" in os.environ:
        given.add("bot_delay")
    if getattr(args, "think", None) is not None or THINK_ENV in os.environ:
        given.add("think")
    return frozenset(given)


def config_path(saves: str | None = None, confine: bool = False) -> Path:
    """The settings file: a room player's own (in their saves folder), else the platform's
    config folder ($XDG_CONFIG_HOME/boardgames-tui on Linux)."""
    if confine:
        from boardgames_tui.engine.core import saves as saves_mod

        return saves_mod.saves_dir(saves) / ROOM_FILE
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg) / APP_DIR / FILE
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_DIR, appauthor=False)) / FILE


@dataclass
class Settings:
    """The settings in force, and what the file holds (kept as it is on a rewrite)."""

    path: Path
    values: dict[str, Any] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)  # binding id -> keys
    problem: str | None = None  # why the file could not be used (None: it could, or none)
    raw: dict[str, Any] = field(default_factory=dict)
    key_check: KeyCheck | None = None

    def get(self, key: str) -> Any:
        if key.startswith("keys."):
            return self.keys.get(key[5:])
        if key not in SETTINGS:
            raise SettingsError(unknown(key))
        return self.values.get(key, SETTINGS[key].default)

    def set(self, key: str, value: Any) -> Any:
        """Change one setting (checked); the value as it is kept."""
        if key.startswith("keys."):
            ident = key[5:]
            keys = check_key(str(value))
            why = self.key_check(ident, keys, self.keys) if self.key_check else None
            if why:
                raise SettingsError(why)
            self.keys[ident] = keys
            return keys
        if key not in SETTINGS:
            raise SettingsError(unknown(key))
        try:
            kept = SETTINGS[key].check(value)
        except SettingsError as exc:
            raise SettingsError(f"{key}: {exc}") from None
        self.values[key] = kept
        return kept

    def reset(self, key: str) -> None:
        if key.startswith("keys."):
            self.keys.pop(key[5:], None)
        elif key in SETTINGS:
            self.values.pop(key, None)
        else:
            raise SettingsError(unknown(key))

    def items(self) -> list[tuple[str, Any, bool]]:
        """(key, value, whether it is the default) for every setting, then each remapped key."""
        out = [(k, self.get(k), k not in self.values) for k in SETTINGS]
        out += [(f"keys.{i}", v, False) for i, v in sorted(self.keys.items())]
        return out

    def save(self, keep_bad: bool = False) -> Path | None:
        """Write the file atomically. A file that could not be read is kept beside it first
        (`keep_bad`; the path it was kept as), else refused: never overwritten unsaid."""
        kept = None
        if self.problem is not None:
            if not keep_bad:
                raise SettingsError(
                    f"{self.problem}: fix or remove the file first (nothing was changed)"
                )
            kept = self.path.with_name(self.path.name + ".bad")
            self.path.replace(kept)
            self.problem = None
            self.raw = {}
        data = {k: v for k, v in self.raw.items() if k not in SETTINGS and k != "keys"}
        data.update(self.values)
        if self.keys:
            data["keys"] = dict(sorted(self.keys.items()))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.tmp")
        with open(temp, "wb") as f:
            tomli_w.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        temp.replace(self.path)
        return kept


def unknown(key: str) -> str:
    return f"no setting {key!r}: the settings are {', '.join(SETTINGS)} and keys.ID"


def load(path: Path, key_check: KeyCheck | None = None) -> Settings:
    """The settings in `path`; a missing file is the defaults, a bad one the defaults with
    `problem` saying, in one line, what is wrong and where. `key_check`: refuses a key that
    no binding has or that clashes (boardgames_tui.tui.screens.keys.check)."""
    out = Settings(path, key_check=key_check)
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return out
    except OSError as exc:
        out.problem = f"the settings file {path} cannot be read ({exc.strerror})"
        return out
    try:
        raw = tomllib.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        out.problem = f"the settings file {path} is not valid TOML ({exc})"
        return out
    out.raw = raw
    values: dict[str, Any] = {}
    keys: dict[str, str] = {}
    try:
        for key, setting in SETTINGS.items():
            if key in raw:
                try:
                    values[key] = setting.check(raw[key])
                except SettingsError as exc:
                    raise SettingsError(f"{key}: {exc}") from None
        table = raw.get("keys", {})
        if not isinstance(table, Mapping):
            raise SettingsError("keys: a table of binding ids and keys")
        for ident, value in table.items():
            if not isinstance(value, str):
                raise SettingsError(f'keys.{ident}: give a key, e.g. "ctrl+z"')
            keys[ident] = check_key(value)
        for ident, value in keys.items():  # each against all the others, as remapped
            why = key_check(ident, value, keys) if key_check else None
            if why:
                raise SettingsError(f"keys.{ident}: {why}")
    except SettingsError as exc:
        out.problem = f"the settings file {path}: {exc}"
        return out
    out.values, out.keys = values, keys
    return out
