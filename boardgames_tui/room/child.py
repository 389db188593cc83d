"""The start of one room session's process: take its pseudo-terminal as the controlling
terminal (so the window size and a hang-up reach it), then run the app.

`python -m boardgames_tui.room.child ARGS…` runs `boardgames-tui ARGS…`; the server starts it as the
leader of a new session with the terminal on stdin, stdout and stderr.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    # a session leader without a terminal acquires the first one it opens
    os.close(os.open(os.ttyname(0), os.O_RDWR))
    # the app itself, in this same process (the terminal stays the controlling one)
    os.execv(sys.executable, [sys.executable, "-m", "boardgames_tui", *sys.argv[1:]])
    return 127


if __name__ == "__main__":
    sys.exit(main())
