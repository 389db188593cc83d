"""The room folder: host key, players (name → keys), the table store, saves, the log.

Everything is owned by the user who runs `serve`. `players.json` is changed under an
exclusive lock (`room add` may run while the server does) and written atomically.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boardgames_tui.engine.core import saves
from boardgames_tui.engine.tables.store import lookalike
from boardgames_tui.session.place import CODE_FILE, write_code

CODE_TRIES = 5  # wrong codes one connection may type (others' wrong codes do not count)
WRONG_CODE = "that is not the code"


class RoomError(Exception):
    """The room folder cannot be used (one line for the host)."""


def now_text() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def default_room_dir() -> Path:
    """`room` in the app's data folder (beside the saves folder)."""
    return saves.saves_dir(None).parent / "room"


def key_text(key: Any) -> str:
    """A public key as `ssh-ed25519 AAAA…` (no comment): how players.json stores it."""
    data = key.export_public_key("openssh").decode("ascii").split()
    return f"{data[0]} {data[1]}"


def fingerprint(key_line: str) -> str:
    import asyncssh

    return str(asyncssh.import_public_key(key_line).get_fingerprint())


class Room:
    """Paths and the players' registry of one room folder."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path).expanduser() if path else default_room_dir()

    # ---- paths -----------------------------------------------------------------------------
    @property
    def host_key_path(self) -> Path:
        return self.path / "host_key"

    @property
    def players_path(self) -> Path:
        return self.path / "players.json"

    @property
    def store_path(self) -> Path:
        return self.path / "tables.sqlite"

    @property
    def log_path(self) -> Path:
        return self.path / "room.log"

    def saves_of(self, name: str) -> Path:
        return self.path / "saves" / name

    def prepare(self) -> None:
        """Create the folder (0700) and its parts; RoomError if it cannot be written."""
        try:
            self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
            (self.path / "saves").mkdir(exist_ok=True, mode=0o700)
            probe = self.path / ".probe"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise RoomError(
                f"the room folder {self.path} cannot be written: {exc.strerror}"
            ) from None

    def host_key(self) -> Any:
        """The room's ed25519 host key, made (0600) on first start."""
        import asyncssh

        path = self.host_key_path
        if path.exists():
            try:
                return asyncssh.read_private_key(str(path))
            except (OSError, ValueError, asyncssh.KeyImportError) as exc:
                raise RoomError(f"the host key {path} cannot be read: {exc}") from None
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        return key

    # ---- the log ---------------------------------------------------------------------------
    def log(self, line: str) -> None:
        """One line in room.log (a name or a message in it is written as an escaped string)."""
        with contextlib.suppress(OSError), open(self.log_path, "a", encoding="utf-8") as f:
            f.write(f"{now_text()} {line}\n")

    # ---- players ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, Any]]:
        """The players, read under an exclusive lock; written back when the block ends."""
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(self.path / ".players.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            players = self.players()
            before = json.dumps(players, sort_keys=True)
            yield players
            if json.dumps(players, sort_keys=True) != before:
                saves.atomic_write(self.players_path, json.dumps(players, indent=1) + "\n")

    def players(self) -> dict[str, Any]:
        try:
            data = json.loads(self.players_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise RoomError(f"{self.players_path} cannot be read: {exc}") from None
        return data if isinstance(data, dict) else {}

    def owner_of(self, key_line: str) -> str | None:
        """The name this key belongs to, if any."""
        for name, p in self.players().items():
            if any(k.get("key") == key_line for k in p.get("keys", [])):
                return name
        return None

    def keys_of(self, name: str) -> list[str]:
        p = self.players().get(name)
        return [k["key"] for k in p.get("keys", [])] if p else []

    def claim(self, name: str, key_line: str, register: bool) -> str | None:
        """Let `key_line` in as `name`: None if it may (registering a free name when
        `register`), else the line that refuses it."""
        with self._locked() as players:
            p = players.get(name)
            if p is None:
                if not register:
                    return "this room is invite-only and does not know your key (ask the host to add it)"
                other = lookalike(name, players)
                if other is not None:
                    return taken_like(name, other)
                owner = next(
                    (n for n, q in players.items() if any(k["key"] == key_line for k in q["keys"])),
                    None,
                )
                if owner is not None:
                    return f"this key belongs to {owner}: connect as {owner}@…"
                players[name] = {
                    "keys": [{"key": key_line, "added": now_text()}],
                    "first_seen": now_text(),
                    "last_seen": now_text(),
                }
                return None
            if not any(k["key"] == key_line for k in p["keys"]):
                return f"the name {name} belongs to another key"
            p["last_seen"] = now_text()
            return None

    def add(self, name: str, key_line: str) -> bool:
        """Add a key to `name` (registering it): False if the key was there already."""
        with self._locked() as players:
            for other, q in players.items():
                if other != name and any(k["key"] == key_line for k in q["keys"]):
                    raise RoomError(f"this key belongs to {other} already")
            like = lookalike(name, players)
            if like is not None:
                raise RoomError(taken_like(name, like))
            p = players.setdefault(name, {"keys": [], "first_seen": None, "last_seen": None})
            if any(k["key"] == key_line for k in p["keys"]):
                return False
            p["keys"].append({"key": key_line, "added": now_text()})
            return True

    def remove(self, name: str) -> bool:
        with self._locked() as players:
            return players.pop(name, None) is not None

    # ---- one-time codes for another key ----------------------------------------------------
    def new_code(self, name: str) -> str:
        """A code `name` types in a session of their new key (written to their saves)."""
        return write_code(self.saves_of(name))

    def use_code(self, name: str, code: str, key_line: str) -> str | None:
        """None if `code` is the player's pending code (the key is added), else why not."""
        path = self.saves_of(name) / CODE_FILE
        with self._locked():
            try:
                pending = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return "no code is waiting: show one in your other session first (k in the menu)"
            if time.time() > float(pending.get("until", 0)):
                path.unlink(missing_ok=True)
                return "the code has expired: show a new one in your other session"
            # a wrong code spends only the tries of the connection that typed it: a
            # stranger connecting as this player cannot throw the player's code away
            if not secrets.compare_digest(
                str(pending.get("code", "")), code.strip().replace("-", "")
            ):
                return WRONG_CODE
            path.unlink(missing_ok=True)
        self.add(name, key_line)
        return None

    def code_pending(self, name: str) -> bool:
        try:
            pending = json.loads((self.saves_of(name) / CODE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return time.time() <= float(pending.get("until", 0))


def taken_like(name: str, other: str) -> str:
    """Why `name` may not be registered: `other`, in the room already, looks the same."""
    return f"the name {name} looks like {other}, who is in this room already: choose another"
