"""Names a person or a file supplies are data on every surface (issue 29).

Each name below would be read as Rich/Textual markup (a style, a closing tag that crashes the
parser, an action link that runs an app action on click) if any surface parsed it. The match is
drawn on every surface of the every-surface leak walk, plus the end screen, the dialogs, the
load list and the command line; each surface must show the names as typed (the word inside a
tag is always preceded by its literal tag) and nothing may crash. The web page, through a real
browser: tests/shell/test_web.py::test_hostile_names_are_data_on_the_web_page.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from engine.core import Match, Seat, saves
from tests.conformance.test_robust_leaks import lines, screen_text, surfaces
from tests.root import ROOT

# (name, the word a markup parser would show alone, what must stand right before it)
HOSTILE = [
    ("[i]Zed[/i]", "Zed", "[i]"),
    ("[@click=app.bell]Cal[/]", "Cal", "]"),
    ("[/]Xan", "Xan", "[/]"),
    ("a[@click=x(]Bo", "Bo", "x(]"),
    ("[/bold]Quy", "Quy", "[/bold]"),
    ("[red on x]Wu", "Wu", "x]"),
]


def hostile_seats(n: int) -> list[Seat]:
    return [Seat(HOSTILE[i][0]) for i in range(n)]


def assert_literal(surface: str, text: str, names: int) -> int:
    """Every shown word of a hostile name stands after its literal tag; how many showed."""
    shown = 0
    for name, word, before in HOSTILE[:names]:
        for m in re.finditer(rf"(?<![A-Za-z]){re.escape(word)}(?![a-z])", text):
            shown += 1
            start = m.start()
            assert text[max(0, start - len(before)) : start] == before, (
                f"{surface}: {name!r} was read as markup:\n{text[:3000]}"
            )
        assert "\x1b" not in text and "\x07" not in text
    return shown


def played(game_id: str, n: int, moves: int) -> Match:
    m = Match.new(game_id, hostile_seats(n), seed=n)
    rng = random.Random(n)
    while m.prompt is not None and m.cursor < moves:
        m.play(rng.choice(m.prompt.moves).id)
    return m


CASES = [("notre-dame", 5), ("rattus-cartus", 4), ("cathedral-of-orleans", 4), ("1347", 6)]


@pytest.mark.parametrize("game_id, players", CASES)
async def test_hostile_names_on_every_surface(game_id: str, players: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = played(game_id, players, 30)
    [found] = await surfaces([m], "hotseat", [m.cursor, m.cursor // 2], str(tmp_path))
    shown = sum(assert_literal(s, t, players) for s, t in found.items())
    assert shown > 10 and len(found) >= 7


def finished(players: int = 4) -> Match:
    """A game of Rattus Cartus played to its end with hostile names."""
    m = Match.new("rattus-cartus", hostile_seats(players), seed=4)
    rng = random.Random(4)
    while m.prompt is not None:
        m.play(rng.choice(m.prompt.moves).id)
    return m


async def test_hostile_names_on_the_end_log_save_and_load_screens(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The end screen, the log screen, the save dialog, the load list and the menu."""
    from tui.app import BoardgamesApp, Launch
    from tui.screens.game import GameScreen

    m = finished()
    saves.save(m, tmp_path / "hostile.toml")
    (tmp_path / "title\x1b]0;pwned\x07[b].toml").write_text("not a save")
    found: dict[str, str] = {}
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        found["end screen"] = screen_text(app)  # a finished game opens on its results
        [game] = [s for s in app.screen_stack if isinstance(s, GameScreen)]
        for key, surface in (("l", "log screen"), ("s", "save dialog")):
            while app.screen is not game:
                app.pop_screen()
                await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not game, surface
            found[surface] = screen_text(app)
        while app.screen is not game:
            app.pop_screen()
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        found["menu"] = screen_text(app)
        await pilot.press("l")  # Load
        await pilot.pause()
        found["load list"] = "\n".join(lines(app.screen.query_one("#load-files")))
    for surface, text in found.items():
        assert_literal(surface, text, 4)
    assert "[@click=app.bell]Cal[/]" in found["end screen"]
    assert "title]0;pwned[b].toml" in found["load list"]
    assert "[/]Xan" in found["load list"] and "[i]Zed[/i]" in found["log screen"]


def test_hostile_names_in_command_line_output(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`check` and `analyse` print names as they are, and nothing else."""
    m = finished()
    path = saves.save(m, tmp_path / "hostile.toml")
    out = subprocess.run(
        [sys.executable, "-m", "tui.cli", "analyse", str(path), "--iterations", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert_literal("analyse", out.stdout, 4)
    assert "[i]Zed[/i]" in out.stdout and "\x1b" not in out.stdout
