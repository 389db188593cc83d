"""`bench --quick` runs end to end and writes its table as JSON (no timing assertions)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from boardgames_tui.cli.main import main


def test_bench_quick_smoke(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("BENCH_SMOKE", "1")  # one launch per row: the figures are not judged
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    sections = {row["section"] for row in data["rows"]}
    assert {
        "engine",
        "history and saves",
        "move latency",
        "start-up",
        "computer players",
    } <= sections
    for row in data["rows"]:
        assert row["unit"] and isinstance(row["value"], float | int)
        assert not math.isnan(row["reference"])
    judged = [row for row in data["rows"] if "spread" in row]
    assert judged and all(row["noisy"] for row in judged)  # one repeat cannot be judged
    printed = capsys.readouterr().out
    assert "ratio" in printed and "start-up" in printed and "TOO NOISY TO JUDGE" in printed


# the app started on a game, a shared-tables list and the menu, as `main` starts it
_START_APP = """
import asyncio, sys
from boardgames_tui.cli.main import main  # noqa: F401  (what `boardgames-tui` imports first)
from boardgames_tui.engine.core import Seat
from boardgames_tui.tui.app import BoardgamesApp, Launch

async def run() -> None:
    new = {"game": "notre-dame", "seats": [Seat("Ann"), Seat("Bob")], "options": {}, "seed": 1}
    app = BoardgamesApp(Launch(saves_dir=sys.argv[1], new=new, handover=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen", app.screen

asyncio.run(run())
print(sorted(m for m in sys.modules if m == "boardgames_tui.tui.tools" or m.startswith("tools.")))
"""


def test_the_app_does_not_import_the_tools(tmp_path: Path) -> None:
    """Bench and screenshots (boardgames_tui.tui.tools) load only with their own commands."""
    import subprocess
    import sys

    from tests.root import ROOT

    out = subprocess.run(
        [sys.executable, "-c", _START_APP, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
