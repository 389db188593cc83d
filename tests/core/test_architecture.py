"""docs/architecture.md's new front end: the example runs a whole game through `Session`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "session_front_end.py"


def test_the_doc_shows_the_example_as_it_is() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    shown = re.search(r"```python\n(.*?)```", doc, re.S)
    assert shown is not None
    assert shown.group(1) in EXAMPLE.read_text(encoding="utf-8")


def test_the_example_front_end_plays_a_whole_game_to_its_scores() -> None:
    """The example, run as a program: the first option at every decision of the person."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "notre-dame", "3"],
        input="1\n" * 5000,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    end = lines.index(next(x for x in lines if x.startswith("Game over. ")))
    scores = lines[end + 1 :]
    assert [x.split(":")[0] for x in scores] == ["you", "bot"]
    assert all(re.fullmatch(r"\w+: \d+(\.\d+)?", x) for x in scores)
