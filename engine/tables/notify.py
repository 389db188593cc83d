"""Turn notifications through Apprise: checking a target's URL and sending what is owed.

There is no daemon. The store records each message owed in the transaction that made it a
person's turn; whichever process commits a move, or reads the tables, afterwards starts a
sender of its own (the UI's `boardgames_tui.session.sender`), which claims the due messages (one process each)
and sends them outside any transaction: a command a player waits on never waits for a
target. Each send has a hard deadline, however slowly its target answers.

Where one host sends for others (a room), the host chooses the schemes a target may use and
whether it may be on this machine or its private network (`Policy`): a player's target is
never a way to reach the host's own services.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import threading
import time
import urllib.parse
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .store import MAX_URL, Notice, StoreError, TableStore

SEND_TIMEOUT = 4.0  # seconds to connect, and to wait for an answer, per target
SEND_DEADLINE = 10.0  # seconds one whole send may take, however its target trickles
# the room's schemes by default: push services, mail, chat, and webhooks
ROOM_SCHEMES = (
    "ntfy", "ntfys", "mailto", "mailtos", "gotify", "gotifys", "pover", "discord", "slack",
    "tgram", "matrix", "matrixs", "json", "jsons", "form", "forms",
)  # fmt: skip
SCHEMES_ENV = "BOARDGAMES_NOTIFY_SCHEMES"  # set by a room for its sessions: the host's choice
PRIVATE_ENV = "BOARDGAMES_NOTIFY_PRIVATE"  # "1": targets on private addresses are allowed


@dataclass(frozen=True, slots=True)
class Policy:
    """What a host allows players' targets (None: anything, as a person sending to
    themselves): these schemes only, and private addresses or not."""

    schemes: tuple[str, ...] | None = None
    private: bool = True

    @classmethod
    def from_env(cls) -> Policy:
        """The room's policy, from the environment it gave its sessions (none outside one)."""
        given = os.environ.get(SCHEMES_ENV)
        if given is None:
            return cls()
        schemes = tuple(x.strip().lower() for x in given.split(",") if x.strip())
        return cls(schemes, os.environ.get(PRIVATE_ENV) == "1")

    def env(self) -> dict[str, str]:
        """The environment that gives a process this policy."""
        if self.schemes is None:
            return {}
        return {SCHEMES_ENV: ",".join(self.schemes), PRIVATE_ENV: "1" if self.private else "0"}

    def check_address(self, address: str) -> None:
        """StoreError when a target may not be reached at `address` (an IP address)."""
        if self.private:
            return
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if not ip.is_global or ip.is_multicast:
            raise StoreError(
                f"{ip} is on this machine or a private network: the host does not allow "
                "notification targets there"
            )

    def check_host(self, host: str | None) -> None:
        """StoreError when `host`, or an address it resolves to, may not be reached."""
        if self.private or not host:
            return
        try:
            infos = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
        except OSError:
            return  # not resolvable now: the send checks each address it connects to
        for info in infos:
            self.check_address(str(info[4][0]))


def _apprise() -> Any:
    with warnings.catch_warnings():  # one of its plugins imports a deprecated module
        warnings.simplefilter("ignore", DeprecationWarning)
        import apprise
    return apprise


def _instantiate(url: str) -> Any:
    return _apprise().Apprise.instantiate(url)


def check_target(url: str, policy: Policy | None = None) -> str:
    """The URL as given if Apprise can send to it and the host's `policy` (by default the
    environment's) allows it; StoreError (one line) if not."""
    url = url.strip()
    shown = url if len(url) <= 60 else url[:57] + "…"
    if len(url) > MAX_URL:
        raise StoreError(f"{shown!r} is {len(url)} characters long: at most {MAX_URL}")
    obj = None if not url or any(ch in url for ch in "\r\n") else _instantiate(url)
    if obj is None:
        raise StoreError(
            f"{shown!r} is not a notification URL Apprise can send to (e.g. "
            "ntfy://TOPIC, mailto://USER:PASS@HOST, json://HOST:PORT/PATH)"
        )
    policy = Policy.from_env() if policy is None else policy
    scheme = url.split("://", 1)[0].lower()
    if policy.schemes is not None and scheme not in policy.schemes:
        raise StoreError(
            f"{scheme}:// targets are not allowed here; the host allows "
            f"{', '.join(s + '://' for s in policy.schemes) or 'none'}"
        )
    policy.check_host(getattr(obj, "host", None) or urllib.parse.urlsplit(url).hostname)
    return url


def check_room_target(url: str) -> str:
    """A target a room's player may add (the host's process sends it): what the host's policy
    allows, or where the room gave none, its defaults (network services on public
    addresses); StoreError (one line) if not."""
    policy = Policy.from_env()
    if policy.schemes is None:
        policy = Policy(ROOM_SCHEMES, private=False)
    return check_target(url, policy)


def shown_url(url: str) -> str:
    """The URL with its secrets masked (as Apprise shows it), for listing."""
    obj = _instantiate(url)
    return str(obj.url(privacy=True)) if obj is not None else url


def send(
    url: str,
    title: str,
    body: str,
    timeout: float = SEND_TIMEOUT,
    deadline: float = SEND_DEADLINE,
) -> str | None:
    """Send one message; None when the target took it, else what went wrong (one line). It
    returns by `deadline` seconds whatever the target does (a send still under way then is
    left to its thread: the process's end stops it)."""
    result: list[str | None] = []
    worker = threading.Thread(
        target=lambda: result.append(_send(url, title, body, timeout)), daemon=True
    )
    worker.start()
    worker.join(deadline)
    if not result:
        return f"the target did not take the message within {deadline:g} s"
    return result[0]


def _send(url: str, title: str, body: str, timeout: float) -> str | None:
    apprise = _apprise()

    obj = _instantiate(url)
    if obj is None:
        return "the URL can no longer be read by Apprise"
    obj.socket_connect_timeout = min(float(obj.socket_connect_timeout or timeout), timeout)
    obj.socket_read_timeout = min(float(obj.socket_read_timeout or timeout), timeout)
    with apprise.LogCapture(level=logging.WARNING) as log:
        try:
            ok = obj.notify(title=title, body=body, body_format=apprise.NotifyFormat.TEXT)
        except Exception as exc:  # a plugin's own failure is a failed send, not a crash
            ok, why = False, f"{type(exc).__name__}: {exc}"
        else:
            why = ""
        text = log.getvalue() if hasattr(log, "getvalue") else ""
    if ok:
        return None
    lines = [ln.split(" - ", 2)[-1].strip() for ln in str(text).splitlines() if ln.strip()]
    return (why or (lines[-1] if lines else "the target did not take the message"))[:300]


def deliver(
    store: TableStore, now: float | None = None, deadline: float = SEND_DEADLINE
) -> list[tuple[Notice, str | None]]:
    """Send every message due now that no other process has claimed; each (notice, error).
    A target the environment's policy no longer allows (a room's) fails without a send."""
    now = time.time() if now is None else now
    policy = Policy.from_env()
    done = []
    for notice in store.claim_notices(now):
        try:
            check_target(notice.url, policy)
        except StoreError as exc:
            error: str | None = str(exc)
        else:
            error = send(notice.url, notice.title, notice.body, deadline=deadline)
        store.settle_notice(notice, error, now)
        done.append((notice, error))
    return done


def guard_connections(policy: Policy) -> None:
    """In a process that sends for others: every connection this process opens from now on
    is checked against `policy` at the address it really connects to (a name that resolved
    to a public address when the target was added may resolve to a private one now)."""
    if policy.private:
        return
    plain = socket.socket

    class Guarded(plain):  # type: ignore[misc,valid-type]
        def connect(self, address: Any) -> None:
            if self.family in (socket.AF_INET, socket.AF_INET6):
                try:
                    policy.check_address(str(address[0]))
                except StoreError as exc:
                    raise ConnectionRefusedError(str(exc)) from None
            elif self.family == getattr(socket, "AF_UNIX", None):
                raise ConnectionRefusedError("the host does not allow local sockets")
            super().connect(address)

    socket.socket = Guarded  # type: ignore[misc]


def allowed(schemes: Iterable[str]) -> tuple[str, ...]:
    """Schemes as a host gives them (`serve --notify-schemes`), checked: lower-case names."""
    out = tuple(dict.fromkeys(s.strip().lower().removesuffix("://") for s in schemes if s.strip()))
    bad = [s for s in out if not s.isalnum()]
    if bad:
        raise StoreError(f"--notify-schemes: {bad[0]!r} is not a scheme (e.g. ntfys,mailtos)")
    return out
