"""The app as `boardgames-tui web` starts it for one browser tab.

`python -m boardgames_tui.web.app [--saves DIR] [--think S] [--bot-delay S] [--user U] [--store P]`: the menu, with the options
the server was given. Textual talks to the browser through its web driver (set by the server
in the environment).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def command(
    saves: str | None = None,
    think: float | None = None,
    bot_delay: float | None = None,
    user: str | None = None,
    store: str | None = None,
) -> list[str]:
    """The command line that runs one tab's app with the server's options."""
    argv = [sys.executable, "-m", "boardgames_tui.web.app"]
    if user is not None:
        argv += ["--user", user]
    if store is not None:
        argv += ["--store", store]
    if saves is not None:
        argv += ["--saves", saves]
    if think is not None:
        argv += ["--think", repr(think)]
    if bot_delay is not None:
        argv += ["--bot-delay", repr(bot_delay)]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m boardgames_tui.web.app")
    p.add_argument("--saves", default=None)
    p.add_argument("--think", type=float, default=None)
    p.add_argument("--bot-delay", type=float, default=None)
    p.add_argument("--user", default=None)
    p.add_argument("--store", default=None)
    args = p.parse_args(argv)

    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.settings import given_settings

    launch = Launch(
        saves_dir=args.saves,
        user=args.user or "",
        store=args.store,
        use_settings=True,  # the host's settings (theme, keys...), as in its terminal
        given=given_settings(args),
    )
    if args.think is not None:
        launch.think = max(0.0, args.think)
    if args.bot_delay is not None:
        launch.bot_delay = max(0.0, args.bot_delay)
    app = BoardgamesApp(launch)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
