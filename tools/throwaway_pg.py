"""A throwaway PostgreSQL cluster for the tests and the bench: Debian's `postgresql` binaries,
`initdb` in a temporary folder (as an unprivileged user when run as root), a random port on
127.0.0.1 and the socket in that folder; `close()` stops it and removes the folder.

A guard process stops it too when the process that made it dies without `close()` (a test
worker killed, a bench interrupted): nothing is left running after its client goes."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


class ClusterUnavailable(Exception):
    """No PostgreSQL binaries, or the cluster would not start (the reason as one line)."""


def bindir() -> Path:
    """Where initdb and pg_ctl are: `pg_config --bindir`, else /usr/lib/postgresql/*/bin."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10)
        d = Path(out.stdout.strip())
        if out.returncode == 0 and (d / "initdb").exists():
            return d
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if not found:
        raise ClusterUnavailable("no PostgreSQL server binaries (apt-get install postgresql)")
    return Path(found[0]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# waits for its stdin to close (the owner ended, however it ended), then stops the cluster
# at once and removes its folder: argv is the folder, then the stop command
_GUARD = (
    "import shutil, subprocess, sys\n"
    "sys.stdin.buffer.read()\n"
    "subprocess.run(sys.argv[2:], capture_output=True, timeout=120)\n"
    "shutil.rmtree(sys.argv[1], ignore_errors=True)\n"
)


class Cluster:
    """One postmaster of our own; `url()` addresses it as its superuser over TCP."""

    SUPERUSER = "postgres"

    def __init__(self) -> None:
        self.bin = bindir()
        self.dir = Path(tempfile.mkdtemp(prefix="bg-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.run_as: list[str] = []
        self._guard: subprocess.Popen[bytes] | None = None
        if os.geteuid() == 0:  # initdb refuses to run as root
            user = next((u for u in ("postgres", "nobody") if _uid(u) is not None), None)
            if user is None:
                raise ClusterUnavailable("running as root and no unprivileged user to run as")
            uid = _uid(user)
            assert uid is not None
            os.chown(self.dir, uid, -1)
            self.run_as = ["runuser", "-u", user, "--"]
        try:
            self._run(
                "initdb", "-D", str(self.data), "-A", "trust", "-U", self.SUPERUSER,
                "--no-sync", "-E", "UTF8", "--no-instructions",
            )  # fmt: skip
            self.start()
            stop = [*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate"]
            self._guard = subprocess.Popen(
                [sys.executable, "-c", _GUARD, str(self.dir), *stop, "-w", "stop"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl+C to the owner's group is the owner's to handle
            )
        except BaseException:
            self.close()
            raise

    def _run(self, tool: str, *args: str) -> None:
        try:
            out = subprocess.run(
                [*self.run_as, str(self.bin / tool), *args],
                capture_output=True,
                text=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise ClusterUnavailable(f"{tool}: {exc}") from None
        if out.returncode != 0:
            last = (out.stderr.strip() or out.stdout.strip()).splitlines()[-1:] or ["failed"]
            raise ClusterUnavailable(f"{tool}: {last[0]}")

    def start(self) -> None:
        opts = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=16MB "
            "-c max_connections=120"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        pid = self.pid()
        if pid is None:
            return
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")
        self._wait_gone(pid)

    def restart(self) -> None:
        """A fast stop and start on the same port (sessions are cut, the data stays)."""
        self.stop("fast")
        self.start()

    def pid(self) -> int | None:
        """The postmaster's pid while it runs."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if alive(pid) else None

    def url(self, user: str = SUPERUSER, db: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{db}"

    def close(self) -> None:
        """Stop the postmaster (killed if it will not stop) and remove the folder."""
        if self._guard is not None:  # the stop is done here, not by the guard
            self._guard.kill()
            self._guard.wait()
            assert self._guard.stdin is not None
            self._guard.stdin.close()
            self._guard = None
        pid = self.pid()
        if pid is not None:
            with contextlib.suppress(ClusterUnavailable):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self._wait_gone(pid)
        shutil.rmtree(self.dir, ignore_errors=True)

    @staticmethod
    def _wait_gone(pid: int, limit: float = 10.0) -> None:
        end = time.monotonic() + limit
        while alive(pid) and time.monotonic() < end:
            time.sleep(0.02)


def _uid(user: str) -> int | None:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie is not running
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    return True
