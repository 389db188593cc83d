"""Real terminals: 16 colours (TERM=linux), 256 colours, and a session started the way sshd
starts one (no COLORTERM, TERM=xterm-256color, SSH_CONNECTION set, 80x24)."""

from __future__ import annotations

from pathlib import Path

from tests.shell.ptydriver import PtyApp, base_env, plain

TRUECOLOR = b"38;2;"
COLOR256 = b"38;5;"


def test_linux_console_uses_16_colours(tmp_path: Path) -> None:
    app = PtyApp(
        ["new", "notre-dame", "--players", "Ann,Bob", "--seed", "2", "--no-handover"],
        base_env(tmp_path, TERM="linux"),
    )
    out = app.read_until("Notre Dame")
    out += app.send(b"1")
    assert app.close() == 0
    assert TRUECOLOR not in out and COLOR256 not in out
    text = plain(out)
    assert "Notre Dame" in text


def test_ssh_session_at_80x24(tmp_path: Path) -> None:
    env = base_env(
        tmp_path,
        TERM="xterm-256color",
        SSH_CONNECTION="203.0.113.5 50000 198.51.100.7 22",
        ESCDELAY="25",
    )
    app = PtyApp(
        ["new", "rattus-cartus", "--players", "Ann,Bob,Cy", "--seed", "4", "--no-handover"],
        env,
        size=(80, 24),
    )
    out = app.read_until("Rattus Cartus")
    for key in (b"1", b"1", b"\t", b"1"):
        out += app.send(key)
    assert app.close() == 0
    assert TRUECOLOR not in out  # the remote palette is 256 colours
    text = plain(out)
    assert "Rattus Cartus" in text and "Ann" in text
    assert "Make the terminal larger" not in text
    saves = list((tmp_path / "boardgames-tui" / "saves").glob("*.toml"))
    assert saves, "the moves were autosaved"


def test_too_small_terminal_says_so(tmp_path: Path) -> None:
    app = PtyApp([], base_env(tmp_path, TERM="xterm-256color"), size=(60, 18))
    out = app.read_until("need 80×24")
    assert app.close() == 0
    assert "Make the terminal larger" in plain(out) and "need 80×24" in plain(out)
