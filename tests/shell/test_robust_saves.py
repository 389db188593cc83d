"""Save fuzzing and crash safety: every damaged save gets a clear message, nothing changes,
and a save being written when the process is killed is always a complete version."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
import tomli_w
from textual import events

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.engine.core.saves import SaveError
from tests.root import ROOT


def finished_save(tmp_path: Path, game_id: str = "notre-dame", seed: int = 4) -> Path:
    names = ["Ann", "Bob", "Cy"]
    m = Match.new(game_id, [Seat(n) for n in names], seed=seed)
    rng = random.Random(seed)
    while m.prompt is not None:
        m.play(rng.choice(m.prompt.moves).id)
    return saves.save(m, tmp_path / "good.toml")


def damaged_variants(good: Path, out: Path) -> list[Path]:
    """Damaged copies of a real save: every way a file can be broken that we can think of."""
    data = good.read_bytes()
    doc = tomllib.loads(data.decode())
    rng = random.Random(99)
    files: list[Path] = []

    def put(name: str, content: bytes | str) -> None:
        p = out / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        files.append(p)

    step = max(1, len(data) // 150)
    for cut in range(0, len(data) - 1, step):
        put(f"trunc-{cut}.toml", data[:cut])
    for i in range(120):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        put(f"flip-{i}.toml", bytes(b))
    put("latin1.toml", data.decode().replace("Ann", "Änn").encode("latin-1", "replace") + b"\xff")

    def variant(name: str, **changes: object) -> None:
        d = dict(doc)
        for k, v in changes.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        put(name, tomli_w.dumps(d))

    for key in ("format", "game", "seed", "seats", "moves"):
        variant(f"missing-{key}.toml", **{key: None})
    variant("extra-keys.toml", colour="mauve", cheat=True)
    variant("wrong-seed-type.toml", seed="seven")
    variant("wrong-moves-type.toml", moves="all of them")
    variant("wrong-moves-items.toml", moves=[1, 2, 3])
    variant("wrong-seats.toml", seats=["Ann", "Bob"])
    variant("wrong-options.toml", options={"rules": 3})
    variant("bad-option.toml", options={"rules": "moon"})
    variant("unknown-game.toml", game="chess")
    variant("future-format.toml", format=99)
    variant("zero-format.toml", format=0)
    variant("bad-cursor.toml", cursor=10**6)
    variant("digest.toml", digest="0" * 32)
    variant("one-seat.toml", seats=[{"name": "Ann", "kind": "human"}])
    moves = list(doc["moves"])
    variant("illegal-move.toml", moves=[*moves[:10], "play:nonsense", *moves[11:]])
    swapped = list(moves)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    variant("reordered.toml", moves=swapped)
    variant("truncated-moves.toml", moves=moves[: len(moves) // 2])  # digest no longer matches
    put("empty.toml", b"")
    put("binary.toml", bytes(range(256)) * 4)
    big = out / "huge.toml"
    with big.open("wb") as fh:
        fh.write(data)
        fh.write(b"#" * (20 * 1024 * 1024))
    files.append(big)
    d = out / "a-directory.toml"
    d.mkdir()
    files.append(d)
    fifo = out / "fifo.toml"
    os.mkfifo(fifo)
    files.append(fifo)
    files.append(out / "does-not-exist.toml")
    return files


def digest_tree(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_every_damaged_save_gets_a_clear_message(tmp_path: Path) -> None:
    good = finished_save(tmp_path)
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    files = damaged_variants(good, bad_dir)
    before = digest_tree(tmp_path)
    loaded_ok = 0
    for f in files:
        try:
            m = saves.load(f)
        except SaveError as exc:
            msg = str(exc)
            assert str(f) in msg and "\n" not in msg and "Traceback" not in msg
            assert len(msg) < 400
            continue
        # only harmless damage may load (a cut trailing newline, extra keys): then the
        # digest guarantees it is the real game
        loaded_ok += 1
        assert m.game.digest(m.state_at(m.length)) == tomllib.loads(good.read_text())["digest"]
    assert digest_tree(tmp_path) == before  # no file was changed by any load
    assert loaded_ok < len(files) // 4
    assert len(files) > 250


def test_check_command_on_damaged_saves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = finished_save(tmp_path)
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    files = [
        f for f in damaged_variants(good, bad_dir) if "trunc" not in f.name and "flip" not in f.name
    ]
    assert main(["check", str(good)]) == 0
    capsys.readouterr()
    assert main(["check", *map(str, files)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(files)
    assert all(line.startswith(("BAD", "ok ")) for line in out)


def test_load_command_exits_1_with_one_line(tmp_path: Path) -> None:
    good = finished_save(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_bytes(good.read_bytes()[:200])
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_tui", "load", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert out.stderr.count("\n") == 1 and str(bad) in out.stderr


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Let every widget handle what is queued (a screen pushed or popped): no wait for the app
    to idle after each of the 25 files (nothing here runs in a thread)."""
    for _ in range(3):
        await pilot.pause(0)


async def test_tui_load_dialog_for_damaged_saves(tmp_path: Path) -> None:
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.dialogs import MessageScreen
    from boardgames_tui.tui.screens.menu import MenuScreen

    good = finished_save(tmp_path)
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    files = [
        f for f in damaged_variants(good, bad_dir) if "trunc" not in f.name and "flip" not in f.name
    ]
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path / "saves")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for f in files[:25]:
            app.open_file(f, review=False)
            await settle(pilot)
            if isinstance(app.screen, MessageScreen):
                assert str(f) in app.screen.text
                app.post_message(events.Key("enter", "\r"))
            else:  # harmless damage (extra keys): it opened; go back
                app.post_message(events.Key("q", "q"))
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen)


WRITER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from boardgames_tui.engine.core.saves import atomic_write
target = sys.argv[2]
print("writing", flush=True)
i = 0
while True:
    i += 1
    body = f"version = {i}\n" + ("padding = '" + "x" * 200000 + "'\n") + f"end = {i}\n"
    atomic_write(target, body)
"""


def test_sigkill_while_writing_leaves_a_complete_save(tmp_path: Path) -> None:
    """Kill a process that writes saves non-stop at random moments: the file is always whole."""
    target = tmp_path / "save.toml"
    rng = random.Random(5)
    kills = 0
    for _ in range(16):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ROOT), str(target)], stdout=subprocess.PIPE
        )
        # a random moment once it writes (starting Python may take long on a loaded machine)
        assert proc.stdout is not None and proc.stdout.readline() == b"writing\n"
        time.sleep(0.02 + rng.random() * 0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        kills += 1
        if target.exists():
            doc = tomllib.loads(target.read_text())
            assert doc["version"] == doc["end"]  # a complete version, old or new
    assert kills == 16 and target.exists()


def test_sighup_keeps_the_latest_move(tmp_path: Path) -> None:
    """Closing the terminal (SIGHUP) loses nothing: `continue` finds the latest move."""
    from tests.shell.ptydriver import PtyApp, base_env

    args = ["--saves", str(tmp_path), "new", "notre-dame", "--players", "Ann,Bob,Cy"]
    app = PtyApp([*args, "--seed", "3", "--no-handover"], base_env(tmp_path))
    app.read_until("Notre Dame")
    app.send(b"1", quiet=0.3)  # the move is on the screen; its autosave may still be pending
    os.kill(app.pid, signal.SIGHUP)
    os.waitpid(app.pid, 0)
    os.close(app.fd)
    latest = saves.latest(tmp_path)
    assert latest is not None
    m = saves.load(latest)
    assert m.cursor == 1
    first = (
        Match.new("notre-dame", [Seat("Ann"), Seat("Bob"), Seat("Cy")], seed=3).prompt.moves[0].id
    )
    assert m.steps[0].move_id == first


def one_move_from_the_end(game_id: str, seed: int) -> Match:
    """A game whose first offered move ends it (a random game up to there), played open
    (no hand-over screens)."""
    m = Match.new(game_id, [Seat("Ann"), Seat("Bob")], seed=seed)
    m.settings["handover"] = False
    rng = random.Random(seed)
    while True:
        assert m.prompt is not None
        m.play(m.prompt.moves[0].id)
        over = m.over
        m.undo()
        if over:
            return m
        m.play(rng.choice(m.prompt.moves).id)


def killed_at(tmp_path: Path, save: Path, keys: bytes, shown: str) -> Match:
    """Load `save` in a terminal, type `keys`, SIGKILL the app once `shown` is on the screen
    (nothing to catch, nothing written after): the autosave as it was then."""
    from tests.shell.ptydriver import PtyApp, base_env

    app = PtyApp(["--saves", str(tmp_path), "load", str(save)], base_env(tmp_path), (120, 40))
    app.read_until("Undo")  # the game screen's footer
    os.write(app.fd, keys)  # typed ahead: the app takes them in order
    app.read_until(shown)
    os.kill(app.pid, signal.SIGKILL)
    os.waitpid(app.pid, 0)
    os.close(app.fd)
    latest = saves.latest(tmp_path)
    assert latest is not None and latest != save
    return saves.load(latest)


def test_sigkill_after_the_final_move_keeps_it(tmp_path: Path) -> None:
    """The final move is on disk before the end screen shows: a kill then loses nothing."""
    m = one_move_from_the_end("1347", 5)
    save = saves.save(m, tmp_path / "almost.toml")
    back = killed_at(tmp_path, save, b"1", "game over")
    assert back.over and back.cursor == m.cursor + 1


def test_sigkill_after_leaving_a_game_keeps_its_last_move(tmp_path: Path) -> None:
    """Back at the menu (q), the game's every move is on disk: `continue` will find it."""
    m = Match.new("1347", [Seat("Ann"), Seat("Bob")], seed=5)
    m.settings["handover"] = False
    save = saves.save(m, tmp_path / "start.toml")
    back = killed_at(tmp_path, save, b"1q", "Continue")
    assert back.cursor == 1 and not back.over


async def test_the_end_screen_waits_for_the_last_autosave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a slow disk too, the end screen comes only once the finished game is written."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.end import EndScreen

    written: list[str] = []
    atomic_write = saves.atomic_write

    def slow_disk(path: Path, text: str) -> None:
        time.sleep(0.2)  # the disk, not the test: every write takes this long
        atomic_write(path, text)
        written.append(text)

    monkeypatch.setattr(saves, "atomic_write", slow_disk)
    m = one_move_from_the_end("1347", 5)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0.0, handover=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.post_message(events.Key("1", "1"))
        for _ in range(100):
            await pilot.pause(0)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        assert written and saves.from_document(tomllib.loads(written[-1])).over
