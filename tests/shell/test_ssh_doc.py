"""docs/ssh.md, sections 1-4, followed as written (issue 34): every ``sh`` block runs, as root,
on a throwaway account, with an sshd of its own on a loopback port; then real ssh clients
connect with the players' keys.

What differs from a real host, and only that: the account is named `bgt…` (not `boardgames`),
`/etc/ssh/` is a folder of the test's, `sudo ` is dropped where root runs a command itself
(`sudo -u` stays: it is how the account runs things), `sshd -t` checks the test's sshd config
and the reload is a fresh start of that sshd; pip reads the wheels from a local folder (no
download at test time). Needs root, sshd, sudo, the README's `.venv` and
BOARDGAMES_WHEELHOUSE (a folder of the app's dependency wheels); `.ci/run` provides them.
"""

from __future__ import annotations

import os
import pty
import re
import secrets
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.root import ROOT

DOC = ROOT / "docs" / "ssh.md"
WHEELS = os.environ.get("BOARDGAMES_WHEELHOUSE", "")
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0
    or not Path(SSHD).exists()
    or not shutil.which("sudo")
    or not (ROOT / ".venv" / "bin" / "python").exists()
    or not WHEELS,
    reason="needs root, sshd, sudo, the README's .venv and BOARDGAMES_WHEELHOUSE (.ci/run)",
)


def recipe_blocks() -> list[tuple[str, str]]:
    """(section title, sh block) of sections 1-4, in order."""
    text = DOC.read_text()
    start, end = text.index("## 1. "), text.index("## 5. ")
    out = []
    section = ""
    for part in re.split(r"(^## [^\n]*$|^```sh\n.*?^```$)", text[start:end], flags=re.M | re.S):
        if part.startswith("## "):
            section = part[3:]
        elif part.startswith("```sh"):
            out.append((section, part[len("```sh\n") : -3]))
    return out


def as_here(block: str, account: str, etc: Path, sshd_config: Path) -> str:
    block = re.sub(r"\bboardgames(?![-_])", account, block)
    block = block.replace("/etc/ssh/", f"{etc}/")
    block = re.sub(r"\bsudo (?!-u)", "", block)  # root runs it itself
    block = block.replace("sshd -t", f"{SSHD} -t -f {sshd_config}")
    return block.replace("systemctl reload ssh", "true  # the test starts its sshd next")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def account() -> Iterator[str]:
    name = "bgt" + secrets.token_hex(3)
    yield name
    subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True, check=False)
    subprocess.run(["userdel", "-r", name], capture_output=True, check=False)
    assert subprocess.run(["id", name], capture_output=True).returncode != 0


def in_pty(argv: list[str], until: str, keys: bytes, limit: float = 60.0) -> tuple[str, int]:
    """Run `argv` in a pseudo-terminal until its output shows `until`, type `keys`, and wait
    for it to end; (the output, the exit code)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    out = b""
    sent = False
    end = time.time() + limit
    status = None
    try:
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                out += chunk
            if not sent and until.encode() in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out):
                os.write(fd, keys)
                sent = True
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(st)
                break
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    return out.decode("utf-8", "replace"), -9 if status is None else status


def test_the_ssh_recipe_as_written(account: str, tmp_path: Path) -> None:
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation folder
    # the keys file's folders must be root's, written by nobody else (not under /tmp), and
    # readable by the account (sshd reads the keys as the account)
    etc = Path(tempfile.mkdtemp(prefix="bgt-etc-", dir="/run"))
    os.chmod(etc, 0o755)
    (etc / "sshd_config.d").mkdir()
    port = free_port()
    hostkey = tmp_path / "hostkey"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostkey], check=True)
    for who in ("alice", "bob"):
        key = tmp_path / who  # and who.pub beside it, as the doc's lines read it
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    config = tmp_path / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {hostkey}\nPidFile {tmp_path}/sshd.pid\n"
        f"UsePAM no\nAuthorizedKeysFile none\nPasswordAuthentication no\n"
        f"Include {etc}/sshd_config.d/*.conf\n"
    )
    blocks = recipe_blocks()
    assert len(blocks) >= 5, blocks
    # the account must find the wheels without a download: its own pip settings say where
    pip_conf = f"[global]\nno-index = true\nfind-links = {WHEELS}\n"
    sshd = None
    try:
        for section, block in blocks:
            script = as_here(block, account, etc, config)
            if section.startswith("3."):  # the drop-in's text comes first (a plain block)
                drop_in = re.search(
                    r"^```\n(Match User boardgames\n.*?)^```$", DOC.read_text(), re.M | re.S
                )
                assert drop_in is not None
                text = as_here(drop_in.group(1), account, etc, config)
                (etc / "sshd_config.d" / "boardgames-tui.conf").write_text(text)
            if section.startswith("4."):  # before the tables: the sshd and the ssh clients
                sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", config], stderr=subprocess.PIPE)
                check_ssh_sessions(account, port, tmp_path)
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", script],
                cwd=ROOT if "checkout" in block else tmp_path,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, (section, script, done.stdout, done.stderr)
            if section.startswith("1.") and "useradd" in block:
                conf = Path(f"/home/{account}/.config/pip")
                conf.mkdir(parents=True)
                (conf / "pip.conf").write_text(pip_conf)
                subprocess.run(
                    ["chown", "-R", f"{account}:", f"/home/{account}/.config"], check=True
                )
    finally:
        if sshd is not None:
            sshd.terminate()
            sshd.wait(10)
        shutil.rmtree(etc)
    # a session's app ends within 2 s of its client (it saves first): allow it that, and more
    for _ in range(50):
        left = subprocess.run(
            ["ps", "-o", "pid=,args=", "-u", account], capture_output=True, text=True
        ).stdout
        if not left.strip():
            break
        time.sleep(0.1)
    assert not left.strip(), f"processes of the account left running: {left}"


def check_ssh_sessions(account: str, port: int, tmp_path: Path) -> None:
    """Each key gets the app (as its --user), never a shell; without a terminal one line."""
    ssh = [
        "ssh",
        "-p",
        str(port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "BatchMode=yes",
        "-o",
        f"UserKnownHostsFile={tmp_path}/known_hosts",
        "-o",
        "LogLevel=ERROR",
    ]
    for _ in range(50):  # sshd listening
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    plain = subprocess.run(
        [*ssh, "-i", str(tmp_path / "alice"), f"{account}@127.0.0.1", "id"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert plain.returncode == 2 and "needs a terminal" in plain.stderr, plain
    assert "uid=" not in plain.stdout  # the app, not a shell
    for who in ("alice", "bob"):
        out, code = in_pty(
            [*ssh, "-tt", "-i", str(tmp_path / who), f"{account}@127.0.0.1", "bash"],
            until="Shared tables",
            keys=b"q",
        )
        assert "Shared tables" in out and code == 0, (who, out[-2000:], code)
