"""What a release carries: the licence and metadata in the installed distribution, bounded
dependencies where the code copies their internals, and shell completion from the parsers."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import distribution

import pytest

from tests.root import ROOT


def test_the_distribution_carries_licence_and_metadata() -> None:
    meta = distribution("boardgames-tui").metadata
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert meta["Author"] and meta["Keywords"]
    classifiers = meta.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # superseded by SPDX
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_rich_is_bounded_below_its_next_major() -> None:
    """tui/kept.py copies Rich's table widths: a new major may change them."""
    requires = distribution("boardgames-tui").requires or []
    rich = next(r for r in requires if r.startswith("rich"))
    assert "<" in rich, rich


def completion(shell: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "completion", shell],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bash_completes_commands_and_their_choices() -> None:
    script = completion("bash")

    def complete(line: str) -> list[str]:
        words = line.split(" ")
        probe = (
            f"{script}\nCOMP_WORDS=({line})\nCOMP_CWORD={len(words) - 1}\n"
            f'COMP_LINE="{line}"\nCOMP_POINT=${{#COMP_LINE}}\n'
            '_shtab_boardgames_tui boardgames-tui\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
        )
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert "new" in complete("boardgames-tui ne") and "table" in complete("boardgames-tui t")
    assert complete("boardgames-tui completion z") == ["zsh"]


@pytest.mark.parametrize("shell", ["zsh", "tcsh"])
def test_other_shells_get_a_script_naming_every_command(shell: str) -> None:
    script = completion(shell)
    for command in ("new", "load", "table", "serve", "completion"):
        assert command in script


def test_an_unknown_shell_is_one_clear_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "completion", "fish"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and "invalid choice: 'fish'" in done.stderr
