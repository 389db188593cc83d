"""The command line: usage errors exit 2 with one line, bad files exit 1, check and simulate."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from boardgames_tui.cli.main import UsageError, main, parse_bots, parse_players
from boardgames_tui.engine.core import Match, saves
from tests.root import ROOT

if TYPE_CHECKING:
    import boardgames_tui.tui.app


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames_tui", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_version_and_help() -> None:
    out = run("--version")
    assert out.returncode == 0 and "boardgames-tui" in out.stdout
    out = run("--help")
    assert out.returncode == 0 and "simulate" in out.stdout and "check" in out.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["new", "chess", "--players", "A,B"], "unknown game"),
        (["new", "notre-dame", "--players", "A"], "players"),
        (["new", "notre-dame", "--players", "A,,B"], "names separated by commas"),
        (["new", "notre-dame", "--players", "A,a"], "different"),
        (["new", "notre-dame", "--players", "A,B", "--bots", "5=strong"], "seats are numbered"),
        (["new", "notre-dame", "--players", "A,B", "--bots", "1=genius"], "not one of"),
        (["new", "notre-dame", "--players", "A,B", "--option", "rules=moon"], "must be one of"),
        (["simulate", "chess", "--players", "2"], "unknown game"),
        (["frobnicate"], "invalid choice"),
        (["new", "1347", "--players", "9"], "between 2 and 6 players"),
        (
            ["new", "notre-dame", "--players", "2", "--option", "foo=bar"],
            "rules=standard|published",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_clear_line(args: list[str], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    assert words in out.stderr
    assert "Traceback" not in out.stderr


def test_parsers() -> None:
    assert parse_players("Ann, Bob") == ["Ann", "Bob"]
    assert parse_players("3") == ["Player 1", "Player 2", "Player 3"]
    assert parse_bots("2=strong,3", 3) == {1: "strong", 2: "greedy"}
    with pytest.raises(UsageError):
        parse_players("")


def test_check_good_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = Match.new("toy", ["Ann", "Bob"], seed=4)
    rng = random.Random(1)
    while m.prompt:
        m.play(rng.choice(m.prompt.moves).id)
    good = saves.save(m, tmp_path / "good.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('"take"', '"bogus"', 1))
    assert main(["check", str(good)]) == 0
    assert main(["check", str(good), str(bad), str(tmp_path / "missing.toml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("BAD") for line in out) == 2
    assert any("bogus" in line for line in out)


def test_load_missing_file_exits_1() -> None:
    out = run("load", "/nonexistent/save.toml")
    assert out.returncode == 1 and "no such file" in out.stderr


def test_simulate_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "toy", "--players", "3", "--games", "4", "--save-dir", str(tmp_path)])
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] == 4 and summary["games"] == 4
    assert len(summary["winners"]) == 4 and summary["moves_per_second"] > 0
    files = sorted(tmp_path.glob("*.toml"))
    assert len(files) == 4
    assert main(["check", *map(str, files)]) == 0


def test_simulate_seat_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "toy", "--players", "2", "--games", "4", "--seats", "greedy,random"]) == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert set(summary["levels"]) == {"greedy", "random"}
    lo, hi = summary["levels"]["greedy"]["ci95_per_seat"]
    assert 0 <= lo <= hi <= 1


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[boardgames_tui.tui.app.Launch]:
    """What `main` launches, recorded by a stand-in for the app that does not run."""
    import boardgames_tui.session.terminal
    import boardgames_tui.tui.app

    launched: list[boardgames_tui.tui.app.Launch] = []
    monkeypatch.setattr(
        boardgames_tui.session.terminal, "has_terminal", lambda: True
    )  # as if in a terminal

    class FakeApp:
        return_code = 0
        crashed = False

        def __init__(self, launch: boardgames_tui.tui.app.Launch) -> None:
            launched.append(launch)

        def run(self) -> None:
            pass

    monkeypatch.setattr(boardgames_tui.tui.app, "BoardgamesApp", FakeApp)
    return launched


def test_computer_flags_on_load_and_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launched: list[boardgames_tui.tui.app.Launch]
) -> None:
    """`--think` and `--bot-delay` apply to a loaded or continued game as to a new one."""
    from boardgames_tui.engine.bots.search import DEFAULT_THINK, THINK_ENV, default_think

    m = Match.new("toy", ["Ann", "Bob"], seed=4)
    path = saves.save(m, tmp_path / "g.toml")
    monkeypatch.delenv(THINK_ENV, raising=False)
    assert main(["load", str(path), "--think", "2.5", "--bot-delay", "0.25"]) == 0
    assert launched[-1].match is not None and launched[-1].bot_delay == 0.25
    assert launched[-1].think == 2.5
    assert main(["--saves", str(tmp_path), "continue", "--think", "1.5"]) == 0
    assert launched[-1].match is not None and launched[-1].think == 1.5
    assert default_think() == DEFAULT_THINK  # the flag leaves the environment alone


def test_global_options_after_the_command_and_continue_skips_finished(
    tmp_path: Path, launched: list[boardgames_tui.tui.app.Launch]
) -> None:
    """`--saves` works after the command too; `continue` opens the latest unfinished game."""
    import os

    open_game = Match.new("toy", ["Ann", "Bob"], seed=4)
    saves.save(open_game, tmp_path / "open.toml")
    done = Match.new("toy", ["Ann", "Bob"], seed=5)
    rng = random.Random(1)
    while done.prompt:
        done.play(rng.choice(done.prompt.moves).id)
    later = saves.save(done, tmp_path / "done.toml")
    os.utime(later, (os.path.getmtime(later) + 60,) * 2)  # the finished one is the newest
    assert main(["continue", "--saves", str(tmp_path)]) == 0
    assert launched[-1].saves_dir == str(tmp_path)
    assert launched[-1].match is not None and launched[-1].match.seed == 4
    assert saves.latest(tmp_path) == later and saves.latest(tmp_path, unfinished=True) != later


def test_a_toml_file_that_is_not_a_save(tmp_path: Path) -> None:
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "x"\n')
    out = run("load", str(other))
    assert out.returncode == 1 and "not a saved game" in out.stderr


def test_without_a_terminal_the_app_says_so_and_ends(tmp_path: Path) -> None:
    """`ssh boardgames@host id` (no -t) gave the app pipes: it kept running after the client
    left (issue 34). Now one line and exit 2, at once."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardgames_tui",
            "--saves",
            str(tmp_path),
            "new",
            "notre-dame",
            "--players",
            "Ann,Bob",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"},
    )
    assert out.returncode == 2, out
    assert "needs a terminal" in out.stderr and "ssh -t" in out.stderr
    assert not list(tmp_path.rglob("*.toml"))  # no game was started


@pytest.mark.parametrize(
    "args, words",
    [
        (["--bots", "1=greedy,1=strong"], "seat 1 is named twice"),
        (["--think", "-1"], "--think must be more than 0"),
        (["--bot-delay", "-1"], "--bot-delay must be 0 seconds or more"),
    ],
)
def test_contradictory_or_negative_computer_flags_are_refused(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "notre-dame", "--players", "Ann,Bob", *args]) == 2
    assert words in capsys.readouterr().err


def test_new_help_lists_the_games_options_and_the_bot_delay_default() -> None:
    out = run("new", "--help").stdout
    assert "rules=standard|published" in out and "buildings=recommended|" in out
    assert "1347: apothecary=next-round|same-upkeep" in out
    assert "visible (0.6" in " ".join(out.split())


def test_rules_prints_the_reference_of_a_chosen_rule_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`rules` takes `--option` as `new` does: Notre Dame's published rules, a building set
    the players chose; a bad option is one clear line."""
    assert main(["rules", "notre-dame"]) == 0
    assert "Rules in force: the standard rules of this edition" in capsys.readouterr().out
    assert main(["rules", "notre-dame", "--option", "rules=published"]) == 0
    assert "Rules in force: the published 2007 rulebook" in capsys.readouterr().out
    chosen = "farm,office,hospital,guard-tower,treasury,pipers-lodge"
    assert main(["rules", "rattus-cartus", "--option", f"buildings={chosen}"]) == 0
    out = capsys.readouterr().out
    assert "chosen by the players: Farm, Office, Hospital, Guard Tower, Treasury" in out
    assert main(["rules", "notre-dame", "--option", "rules=moon"]) == 2
    assert "must be one of standard, published" in capsys.readouterr().err
