"""The checks of the founders' rules that tools make: style (ruff), types (mypy, strict but for
bare generics, on the package, tools/, the example plug-in and the tests) and layering
(import-linter contracts in pyproject.toml). They run with the test command so that CI runs
them; the versions are pinned in the `test` extra. `.pre-commit-config.yaml` runs the same
commands before a commit (checked below)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest
import yaml

from tests.root import ROOT

LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"

CHECKS = {
    "ruff": [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
    "ruff-format": [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
    # mypy's incremental cache (.mypy_cache, as the pre-commit hook keeps it): 1 s against 28 s
    # of a cold run over the whole tree; mypy rechecks whatever changed since
    "mypy": [sys.executable, "-m", "mypy"],
    "lint-imports": [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo"],
}


@pytest.mark.parametrize("check", list(CHECKS))
def test_tool_passes(check: str) -> None:
    argv = CHECKS[check]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(ROOT)  # the checkout's packages, as the contracts describe them
    out = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{check} failed:\n{out.stdout[-4000:]}\n{out.stderr[-2000:]}"


def _without_cache(argv: list[str]) -> list[str]:
    """A check's command but for where its tool keeps a cache (the hooks keep theirs)."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--cache-dir":
            out.pop()
        elif arg != "--no-cache":
            out.append(arg)
    return out


def test_pre_commit_runs_the_same_checks() -> None:
    """Each hook of .pre-commit-config.yaml is a check above, with the same command run by the
    checkout's venv over the whole tree; no check is missing and no hook is extra."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    (repo,) = config["repos"]
    assert repo["repo"] == "local"  # the pinned tools of the venv, nothing downloaded
    hooks = {hook["id"]: hook for hook in repo["hooks"]}
    assert list(hooks) == list(CHECKS)
    for name, hook in hooks.items():
        assert hook["language"] == "system" and hook["pass_filenames"] is False, name
        python, *args = shlex.split(hook["entry"])
        assert python == ".venv/bin/python", name
        assert _without_cache([sys.executable, *args]) == _without_cache(CHECKS[name]), name
