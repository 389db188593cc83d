"""Start a Textual app as its command does, and exit once its first frame is drawn: the
start-up benchmark's launcher (`python -m tools.bench_start -m MODULE | SCRIPT [ARGS…]`).

The app itself knows nothing of the benchmark: the launcher hands every `App.run` an
auto-pilot that exits as soon as the app is ready, then runs the module or script."""

from __future__ import annotations

import runpy
import sys
from typing import Any

from textual.app import App
from textual.pilot import Pilot


async def _exit_when_ready(pilot: Pilot[Any]) -> None:
    await pilot.pause()  # the first frame is out
    pilot.app.exit()


_run = App.run


def _run_then_exit(self: App[Any], *args: Any, **kwargs: Any) -> Any:
    kwargs["auto_pilot"] = _exit_when_ready
    return _run(self, *args, **kwargs)


def main(argv: list[str]) -> None:
    App.run = _run_then_exit  # type: ignore[method-assign]
    if argv[:1] == ["-m"]:
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
