"""`boardgames-tui config get|set|reset|list|path`: the settings file from the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardgames_tui.tui.settings import SETTINGS, Settings, SettingsError, config_path, load


def add_config_parser(sub: Any) -> None:
    """The `config` subcommand and its actions."""
    c = sub.add_parser(
        "config",
        help="show or change the settings (the settings screen's file)",
        description="Show or change the settings the app keeps (theme, bell, computer speed "
        "and thinking time, hand-over screens, names, keys). Keys by binding id: "
        "`config set keys.game.undo ctrl+z`; `config list --keys` lists the ids.",
    )
    acts = c.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    acts.add_parser("list", help="every setting and its value").add_argument(
        "--keys", action="store_true", help="and every key binding, by id"
    )
    acts.add_parser("get", help="one setting's value").add_argument("key")
    s = acts.add_parser("set", help="change one setting")
    s.add_argument("key")
    s.add_argument("value")
    acts.add_parser("reset", help="one setting back to its default").add_argument("key")
    acts.add_parser("path", help="where the settings file is")


def shown(value: Any) -> str:
    """A setting's value as `config` prints it (and `config set` takes it back)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def run_config(args: argparse.Namespace, saves: str | None, confine: bool) -> int:
    """Carry out `config …`: 0 done, 2 a bad key or value, 1 a settings file that cannot be
    used (named, with what is wrong; it is left as it is)."""
    from boardgames_tui.tui.screens.keys import binding_ids, check

    settings = load(config_path(saves, confine), check)
    act = args.config_command
    if act == "path":
        print(settings.path)
        return 0
    if settings.problem and act in ("set", "reset"):
        print(
            f"boardgames-tui: {settings.problem}: fix or remove the file first (nothing was "
            "changed)",
            file=sys.stderr,
        )
        return 1
    if settings.problem:
        print(f"boardgames-tui: {settings.problem}; showing the defaults", file=sys.stderr)
    try:
        if act == "list":
            _list(settings, args.keys)
        elif act == "get":
            value = settings.get(args.key)
            if value is None:  # a key binding not remapped: its default
                info = binding_ids().get(args.key[5:])
                if info is None:
                    raise SettingsError(f"no key binding {args.key[5:]!r}")
                value = info.keys
            print(shown(value))
        elif act == "set":
            print(f"{args.key} = {shown(settings.set(args.key, args.value))}")
            settings.save()
        elif act == "reset":
            settings.reset(args.key)
            settings.save()
            print(f"{args.key} = {shown(settings.get(args.key) or 'its default')}")
    except SettingsError as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"boardgames-tui: the settings cannot be written: {exc}", file=sys.stderr)
        return 1
    return 0


def _list(settings: Settings, keys: bool) -> None:
    print(f"# {settings.path}")
    for key, value, default in settings.items():
        note = f"  # {SETTINGS[key].help}" if key in SETTINGS else ""
        mark = " (default)" if default else ""
        print(f"{key} = {shown(value)}{mark}{note}")
    if keys:
        from boardgames_tui.tui.screens.keys import binding_ids

        for ident, info in binding_ids().items():
            now = settings.keys.get(ident)
            mark = "" if now else " (default)"
            print(f"keys.{ident} = {now or info.keys}{mark}  # {info.description}")
