"""The checks of the founders' rules that tools make: style (ruff), types (mypy, strict but for bare generics, on engine/, tui/ and the example plug-in)
and layering (import-linter contracts in pyproject.toml). They run with the test command so
that CI runs them; the versions are pinned in the `test` extra."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.root import ROOT

LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"

CHECKS = {
    "ruff": [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
    "ruff-format": [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
    "mypy": [sys.executable, "-m", "mypy", "--cache-dir", os.devnull],
    "lint-imports": [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo"],
}


@pytest.mark.parametrize("check", list(CHECKS))
def test_tool_passes(check: str) -> None:
    argv = CHECKS[check]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(ROOT)  # the checkout's packages, as the contracts describe them
    out = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{check} failed:\n{out.stdout[-4000:]}\n{out.stderr[-2000:]}"
