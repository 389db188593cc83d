"""Textual's Linux driver with an input thread that sleeps until there is input.

Textual's own input thread wakes ten times a second, to see whether it should stop and
whether a lone Escape has waited long enough: an idle app cost a few CPU ticks every 20 s
for nothing, and a room of 200 idle sessions a quarter of a core. This one blocks on the
terminal and on a pipe that stopping writes to, and sets a timeout only while the parser
waits for the rest of a key (textual is pinned: `XTermParser._timeout_time` is its own).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import threading
from typing import Any

from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver


class _WakingEvent(threading.Event):
    """An event that also makes a pipe readable while it is set (a selector can wait on it)."""

    def __init__(self) -> None:
        super().__init__()
        self.read_fd, self._write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(self._write_fd, False)

    def set(self) -> None:
        super().set()
        with contextlib.suppress(OSError):  # full (already readable) or closed
            os.write(self._write_fd, b"\0")

    def clear(self) -> None:
        super().clear()
        with contextlib.suppress(OSError):
            while os.read(self.read_fd, 512):
                pass

    def close(self) -> None:
        for fd in (self.read_fd, self._write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.read_fd = self._write_fd = -1  # never a number reused by another file


class QuietDriver(LinuxDriver):
    """`LinuxDriver` whose input thread has no timer of its own (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.exit_event = self._waking = _WakingEvent()

    def run_input_thread(self) -> None:
        """Wait for input (or the stop) and dispatch events: Textual's loop without its
        0.1 s timeout."""
        selector = selectors.DefaultSelector()
        fileno, stop = self.fileno, self._waking.read_fd
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(stop, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        # the module's own name: `tolerate_bad_input` makes it decode bad bytes leniently
        lenient = getattr(linux_driver, "getincrementaldecoder")  # noqa: B009 (patched)
        decode = lenient("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for key, mask in ready:
                if key.fd == fileno and mask & selectors.EVENT_READ:
                    data = decode(os.read(fileno, 1024 * 4), final=final)
                    if not data:  # stdin piped and ended
                        break
                    for event in parser.feed(data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        def timeout() -> float | None:
            due: float | None = parser._timeout_time  # the rest of a key awaited till then
            return None if due is None else max(0.0, due - get_time())

        try:
            while not self.exit_event.is_set():
                process(selector.select(timeout()))
            selector.unregister(fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            with contextlib.suppress(EOFError, ParseError):
                for _event in parser.feed(""):
                    pass

    def close(self) -> None:
        super().close()
        self._waking.close()
