"""Turn notifications through Apprise: checking a target's URL and sending what is owed.

There is no daemon. The store records each message owed in the transaction that made it a
person's turn; whichever process commits a move, or reads the tables, afterwards calls
`deliver`, which claims the due messages (one process each) and sends them outside any
transaction, with a short timeout, so a target that is down never holds up a move.
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any

from .store import Notice, StoreError, TableStore

SEND_TIMEOUT = 4.0  # seconds to connect, and to wait for an answer, per target


def _apprise() -> Any:
    with warnings.catch_warnings():  # one of its plugins imports a deprecated module
        warnings.simplefilter("ignore", DeprecationWarning)
        import apprise
    return apprise


def _instantiate(url: str) -> Any:
    return _apprise().Apprise.instantiate(url)


def check_target(url: str) -> str:
    """The URL as given if Apprise can send to it; StoreError (one line) if not."""
    url = url.strip()
    if not url or any(ch in url for ch in "\r\n") or _instantiate(url) is None:
        shown = url if len(url) <= 60 else url[:57] + "…"
        raise StoreError(
            f"{shown!r} is not a notification URL Apprise can send to (e.g. "
            "ntfy://TOPIC, mailto://USER:PASS@HOST, json://HOST:PORT/PATH)"
        )
    return url


# what a room's player may have the host send to: services reached over the network (not
# the host's own desktop, log, devices or files: dbus://, syslog://, a key file's path, …)
ROOM_SCHEMES = frozenset(
    {
        *("json", "jsons", "xml", "xmls", "form", "forms", "ntfy", "ntfys", "mailto", "mailtos"),
        *("gotify", "gotifys", "matrix", "matrixs", "discord", "slack", "tgram", "signal"),
        *("signals", "mmost", "mmosts", "rocket", "rockets", "pover", "pbul", "zulip"),
        *("msteams", "apprise", "apprises"),
    }
)


def check_room_target(url: str) -> str:
    """A target a room's player may add (the host's process sends it); StoreError if not.
    (A URL without a scheme is left to `check_target` to refuse.)"""
    if "://" in url and url.split("://", 1)[0].lower() not in ROOM_SCHEMES:
        raise StoreError(
            f"{url.split('://', 1)[0][:20]!r}: in a room, notifications go to a service on the "
            "network (json://, ntfy://, mailto://, discord://, …), not to the room's own machine"
        )
    return url


def shown_url(url: str) -> str:
    """The URL with its secrets masked (as Apprise shows it), for listing."""
    obj = _instantiate(url)
    return str(obj.url(privacy=True)) if obj is not None else url


def send(url: str, title: str, body: str, timeout: float = SEND_TIMEOUT) -> str | None:
    """Send one message; None when the target took it, else what went wrong (one line)."""
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


def deliver(store: TableStore, now: float | None = None) -> list[tuple[Notice, str | None]]:
    """Send every message due now that no other process has claimed; each (notice, error)."""
    now = time.time() if now is None else now
    done = []
    for notice in store.claim_notices(now):
        error = send(notice.url, notice.title, notice.body)
        store.settle_notice(notice, error, now)
        done.append((notice, error))
    return done
