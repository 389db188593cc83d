"""The tests' throwaway PostgreSQL server ends with the process that made it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_throwaway_cluster_stops_when_its_owner_is_killed() -> None:
    """A test process killed before its teardown leaves no PostgreSQL server running."""
    owner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from tools.throwaway_pg import Cluster; c = Cluster(); "
            "print(c.pid(), c.dir, flush=True); sys.stdin.read()",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert owner.stdout is not None
    line = owner.stdout.readline().split()
    if not line or line[0] == "None":
        owner.kill()
        owner.communicate()
        pytest.skip("no throwaway PostgreSQL server could be started here")
    pid, folder = int(line[0]), Path(line[1])
    owner.kill()  # SIGKILL: no teardown runs
    owner.communicate()
    from tools.throwaway_pg import alive

    give_up = time.monotonic() + 120  # a failure bound only
    while alive(pid) or folder.exists():
        assert time.monotonic() < give_up, f"postgres {pid} still running, or {folder} left"
        time.sleep(0.1)
