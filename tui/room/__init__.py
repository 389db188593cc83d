"""The game room: `boardgames-tui serve`, an ssh server whose sessions are the app.

This package's `__init__` imports nothing heavy: the app imports `tui.room.confine` and
`tui.room.place` without loading asyncssh.
"""

import warnings

# cryptography 45 and later warn on stderr, each time asyncssh loads, that DSA is deprecated:
# the room never uses DSA keys, and neither the host's terminal nor a player's should show it
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
