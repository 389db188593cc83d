"""`python -m boardgames_tui`: the same as the `boardgames-tui` command."""

from __future__ import annotations

from boardgames_tui.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
