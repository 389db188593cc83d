"""The game room: `boardgames-tui serve`, an ssh server whose sessions are the app.

This package's `__init__` imports nothing: the app imports `tui.room.confine` and
`tui.room.place` without loading asyncssh.
"""
