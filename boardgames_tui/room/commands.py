"""`boardgames-tui serve` and `boardgames-tui room add|list|remove`: their arguments and work.

Building the arguments imports nothing heavy (asyncssh loads only when a command runs).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

EXIT_USAGE = 2
# the room's limits (`serve` options), as a room of friends has them and a public room
# (`serve --public`): Settings field: (friends, public)
LIMITS: dict[str, tuple[float, float]] = {
    "per_key": (3, 2),
    "channels": (4, 2),
    "exec_seconds": (30, 15),
    "pending": (32, 8),
    "registrations": (30, 5),
}
# their options: flag, Settings field, metavar, type, what it limits
LIMIT_OPTIONS: tuple[tuple[str, str, str, type, str], ...] = (
    ("--per-key", "per_key", "N", int, "sessions and commands at once with one key"),
    ("--channels", "channels", "N", int, "channels at once on one ssh connection"),
    ("--exec-timeout", "exec_seconds", "SECONDS", float, "seconds a command run by ssh may take"),
    ("--max-pending", "pending", "N", int, "connections not logged in yet per address"),
    ("--registrations", "registrations", "N", int, "new names per address and hour"),
)


def add_room_parsers(sub: Any) -> None:
    s = sub.add_parser(
        "serve",
        help="open a game room: friends join with ssh -p 2222 NAME@HOST",
        description="An ssh server whose sessions are the app: each player's key keeps their "
        "name, their own saves and their seats at shared tables. No root needed.",
    )
    s.add_argument("--host", default="127.0.0.1", help="address (127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=2222, help="port (0: any free one)")
    _room_dir(s)
    s.add_argument(
        "--invite-only", action="store_true", help="only keys added with `room add` get in"
    )
    s.add_argument("--max-sessions", type=int, default=64, help="sessions at once (64)")
    s.add_argument(
        "--max-open",
        type=int,
        default=None,
        metavar="N",
        help="unfinished shared tables a player may sit at (30; 0: no limit)",
    )
    s.add_argument(
        "--idle-close",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="close a session after this long without a key, saved first (3600)",
    )
    s.add_argument(
        "--login-grace",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="close a connection that has not logged in after this long (30)",
    )
    s.add_argument(
        "--no-fork-server",
        action="store_true",
        help="start each session as a new Python process (slower, more memory) instead of "
        "forking it from one that has imported the app",
    )
    s.add_argument(
        "--public",
        action="store_true",
        help="the tighter limits of a room open to strangers (each can still be set below)",
    )
    s.add_argument(
        "--notify-schemes",
        metavar="LIST",
        help="the schemes players' notification targets may use, comma-separated "
        "(default: ntfy(s), mailto(s), gotify(s), pover, discord, slack, tgram, matrix(s), "
        "json(s), form(s))",
    )
    s.add_argument(
        "--notify-private",
        action="store_true",
        help="let players' notification targets be on this machine or a private network "
        "(refused by default: the room would send from inside it)",
    )
    for flag, name, metavar, kind, what in LIMIT_OPTIONS:
        friends, public = LIMITS[name]
        s.add_argument(
            flag,
            type=kind,
            default=None,
            metavar=metavar,
            help=f"{what} ({friends:g}; public {public:g})",
        )
    r = sub.add_parser("room", help="the players of a room: add (invite), list, remove")
    rs = r.add_subparsers(dest="room_action", metavar="ACTION", parser_class=type(r))
    rs.required = True
    a = rs.add_parser("add", help="let a key in as NAME (invite-only rooms need this)")
    a.add_argument("name")
    a.add_argument("keyfile", help="the player's public key file (e.g. alice.pub)")
    _room_dir(a)
    _room_dir(rs.add_parser("list", help="the players, their keys, first and last seen"))
    rm = rs.add_parser("remove", help="forget a player and their keys (not their saves)")
    rm.add_argument("name")
    _room_dir(rm)


def _room_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--room", metavar="DIR", help="the room folder (default: room in the data folder)"
    )


def run_room(args: argparse.Namespace) -> int:
    from boardgames_tui.room.folder import Room, RoomError

    room = Room(args.room)
    try:
        if args.command == "serve":
            return _serve(args, room)
        return _manage(args, room)
    except RoomError as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return 1


def _serve(args: argparse.Namespace, room: Any) -> int:
    try:
        from boardgames_tui.room.server import Settings, serve
    except ImportError as exc:  # an install from before the room was a dependency
        print(
            f"boardgames-tui: the room needs asyncssh ({exc}): reinstall the app", file=sys.stderr
        )
        return EXIT_USAGE
    if args.max_sessions < 1:
        print("boardgames-tui: --max-sessions must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    if args.max_open is not None and args.max_open < 0:
        print("boardgames-tui: --max-open must be 0 (no limit) or more", file=sys.stderr)
        return EXIT_USAGE
    if not 0 <= args.port <= 65535:
        print("boardgames-tui: --port must be from 0 to 65535", file=sys.stderr)
        return EXIT_USAGE
    limits = {name: pair[1 if args.public else 0] for name, pair in LIMITS.items()}
    for flag, name, *_ in LIMIT_OPTIONS:
        value = getattr(args, flag[2:].replace("-", "_"))
        if value is not None:
            least = 0 if name == "registrations" else 1
            if value < least:
                print(f"boardgames-tui: {flag} must be at least {least}", file=sys.stderr)
                return EXIT_USAGE
            limits[name] = value
    schemes = None
    if args.notify_schemes is not None:
        from boardgames_tui.engine.tables import StoreError
        from boardgames_tui.engine.tables.notify import allowed

        try:
            schemes = allowed(args.notify_schemes.split(","))
        except StoreError as exc:
            print(f"boardgames-tui: {exc}", file=sys.stderr)
            return EXIT_USAGE
    store = args.store or os.environ.get("BOARDGAMES_STORE") or None
    settings = Settings(
        store=store,
        host=args.host,
        port=args.port,
        invite_only=args.invite_only,
        max_sessions=args.max_sessions,
        idle=max(1.0, args.idle_close),
        login_grace=max(1.0, args.login_grace),
        max_open=args.max_open,
        per_key=int(limits["per_key"]),
        channels=int(limits["channels"]),
        exec_seconds=float(limits["exec_seconds"]),
        pending=int(limits["pending"]),
        registrations=int(limits["registrations"]),
        notify_schemes=schemes,
        notify_private=args.notify_private,
        fork_server=not args.no_fork_server,
    )
    return serve(settings, room)


def _manage(args: argparse.Namespace, room: Any) -> int:
    from boardgames_tui.room.folder import fingerprint
    from boardgames_tui.room.names import name_problem

    action = args.room_action
    if action == "list":
        players = room.players()
        if not players:
            print(f"No players yet in {room.path}.")
            return 0
        for name, p in sorted(players.items()):
            print(
                f"{name}  first seen {p.get('first_seen') or '-'}  last seen {p.get('last_seen') or '-'}"
            )
            for k in p.get("keys", []):
                print(f"    {fingerprint(k['key'])}  added {k.get('added', '-')}")
        return 0
    problem = name_problem(args.name)
    if problem:
        print(f"boardgames-tui: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if action == "remove":
        if not room.remove(args.name):
            print(f"boardgames-tui: no player {args.name} in {room.path}", file=sys.stderr)
            return 1
        room.log(f"remove {args.name!r} (by the host)")
        print(f"removed {args.name}")
        return 0
    line = _read_key(args.keyfile)
    room.prepare()
    added = room.add(args.name, line)
    room.log(f"add {args.name!r} {fingerprint(line)} (by the host)")
    print(f"{'added' if added else 'already there:'} {args.name} {fingerprint(line)}")
    return 0


def _read_key(path: str) -> str:
    import asyncssh

    from boardgames_tui.room.folder import RoomError, key_text

    try:
        return key_text(asyncssh.read_public_key(path))
    except OSError as exc:
        raise RoomError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, asyncssh.KeyImportError):
        raise RoomError(f"{path} is not a public key (give the .pub file)") from None
