"""boardgames-tui: four tabletop games in the terminal, alone, around one keyboard, at a
shared table, over ssh or in a browser.

The one import package. Its wings, each a folder: `engine` (the rules, the computer players,
the table store), `session` (what every front end shares), and the front ends `tui` (the
Textual app), `plain` (the line mode), `room` (the ssh room), `web` (the browser) and `cli`
(the command line, which starts them). docs/architecture.md maps them.
"""

from __future__ import annotations

__version__ = "0.2.0"
