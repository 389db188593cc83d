"""`bench --quick` runs end to end and writes its table as JSON (no timing assertions)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from tui.cli import main


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
