"""The screens need a terminal: without one (ssh -T, a script, stdin from /dev/null) the app
would wait on input that never comes. One line and exit 2 instead."""

from __future__ import annotations

import sys
from typing import TextIO

NO_TERMINAL = "boardgames-tui needs a terminal; over ssh use ssh -t"


def has_terminal(stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """Whether both stdin and stdout are a terminal."""
    for stream in (stdin or sys.stdin, stdout or sys.stdout):
        try:
            if stream is None or not stream.isatty():
                return False
        except (ValueError, OSError):  # closed
            return False
    return True
