"""The screens need a terminal: without one (ssh -T, a script, stdin from /dev/null) the app
would wait on input that never comes. One line and exit 2 instead."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO


def no_terminal_line(environ: Mapping[str, str] = os.environ) -> str:
    """Why the screens cannot start, with what helps where the command was run: over ssh
    (sshd names the connection) ssh -t; on this machine a terminal, or the line mode."""
    if environ.get("SSH_CONNECTION") or environ.get("SSH_CLIENT"):
        return "boardgames-tui needs a terminal; over ssh use ssh -t"
    return "boardgames-tui needs a terminal; start it in one, or play by lines with --plain"


NO_TERMINAL = no_terminal_line()  # this process's: sshd sets its variables before we start


def has_terminal(stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """Whether both stdin and stdout are a terminal (or textual-serve's browser driver)."""
    if os.environ.get("TEXTUAL_DRIVER"):  # a browser tab: textual-serve names its driver
        return True
    for stream in (stdin or sys.stdin, stdout or sys.stdout):
        try:
            if stream is None or not stream.isatty():
                return False
        except (ValueError, OSError):  # closed
            return False
    return True


def wait_for_hang_up(fd: int) -> None:
    """Return once the terminal on `fd` has hung up (its other end closed). A process that
    does not own the terminal gets no SIGHUP when that happens, only end-of-input, on which
    the input thread would spin: the app waits for this in a thread. Nothing is asked for but
    the hang-up itself (an empty event mask), so waiting costs nothing while input comes."""
    import select

    poller = select.poll()
    poller.register(fd, 0)
    gone = select.POLLHUP | select.POLLERR | select.POLLNVAL
    while True:
        try:
            events = poller.poll()
        except OSError:
            return
        if any(mask & gone for _, mask in events):
            return


def tolerate_bad_input() -> None:
    """Bytes that are not UTF-8 (a paste in another encoding, line noise, a hostile client in a
    room) become U+FFFD instead of ending the app: Textual's drivers decode input strictly,
    and one stray byte raised UnicodeDecodeError in the input thread, which quit the app."""
    import codecs
    import functools
    import importlib

    def lenient(encoding: str) -> type[codecs.IncrementalDecoder]:
        return functools.partial(  # type: ignore[return-value]
            codecs.getincrementaldecoder(encoding), errors="replace"
        )

    # the driver this process will run: the browser's (textual-serve names it) or the terminal's
    name = "web_driver" if os.environ.get("TEXTUAL_DRIVER") else "linux_driver"
    try:
        module = importlib.import_module(f"textual.drivers.{name}")
    except ImportError:  # Windows: its driver reads keys as text already
        return
    setattr(module, "getincrementaldecoder", lenient)  # noqa: B010 (a module's global)
