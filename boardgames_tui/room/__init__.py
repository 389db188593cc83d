"""The game room: `boardgames-tui serve`, an ssh server whose sessions are the app.

This package's `__init__` imports nothing heavy: the app imports `boardgames_tui.session.confine` and
`boardgames_tui.session.place` without loading asyncssh.
"""

import warnings

# asyncssh names DSA types at import, and cryptography ≥ 47 warns about that on stderr: the host
# would read a deprecation notice of a key type the room never offers, every time it starts
warnings.filterwarnings("ignore", message="DSA is deprecated", module="asyncssh")
