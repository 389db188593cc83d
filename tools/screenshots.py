"""`boardgames-tui screenshots [DIR]`: SVG screenshots of every screen, from fixed seeds."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from boardgames_tui.engine.bots import make_bot
from boardgames_tui.engine.core import Match, Seat, game_ids, get_game, get_title
from boardgames_tui.tui.app import BoardgamesApp, Launch

SIZE = (120, 40)
COMPACT = (80, 24)
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def sample_match(
    game_id: str,
    fraction: float = 0.45,
    seed: int = 7,
    finish: bool = False,
    players: str = "random",
) -> Match:
    """A match from a fixed seed, played to `fraction` of its length (or to the end).

    `players="greedy"` lets the one-ply computer player choose (livelier pictures);
    "random" picks seeded random moves (what the snapshot tests use: it never changes).
    """
    game = get_game(game_id)
    names = NAMES[: get_title(game_id).picture_table]
    probe = Match.new(game_id, [Seat(n) for n in names], seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("greedy", game, seed=seed + i) for i in range(len(names))]
    while probe.prompt is not None:
        p = probe.prompt
        if players == "greedy":
            probe.play(bots[p.seat].choose(game.clone(probe.state), p))
        else:
            probe.play(p.moves[rng.randrange(len(p.moves))].id)
    if finish:
        return probe
    target = int(probe.length * fraction)
    # stop at a decision of a seat's first step, so the picker shows a full choice
    while target < probe.length and probe.steps[target].seat == probe.steps[target - 1].seat:
        target += 1
    m = Match.new(game_id, [Seat(n) for n in names], seed=seed)
    for mid in probe.move_ids(target):
        m.play(mid)
    if players == "greedy":  # pictures: stop where the seat to move has a real choice
        while m.cursor < probe.length and m.prompt is not None and len(m.prompt.moves) < 3:
            m.play(probe.steps[m.cursor].move_id)
    return m


async def settle(pilot: Any) -> None:
    """Wait until the screen has built its rows (the setup screen mounts them after its
    first frame), then for one more refresh."""
    for _ in range(100):
        if not getattr(pilot.app.screen, "building", False):
            break
        await pilot.pause(0.02)
    await pilot.pause()


async def _shot(
    path: Path,
    size: tuple[int, int],
    saves_dir: str,
    match: Match | None = None,
    handover: bool = False,
    keys: tuple[str, ...] = (),
    before: Callable[[BoardgamesApp], Awaitable[None]] | None = None,
) -> Path:
    # the menu names the default folder, not this run's temporary one
    label = "~/.local/share/boardgames-tui/saves"
    launch = Launch(saves_dir=saves_dir, match=match, bot_delay=0.0, saves_label=label)
    app = BoardgamesApp(launch)
    if match is not None:
        match.settings["handover"] = handover
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if before:
            await before(app)
        for k in keys:
            await pilot.press(k)
            await pilot.pause()
        await settle(pilot)
        app.save_screenshot(filename=path.name, path=str(path.parent))
    return path


async def _all(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with TemporaryDirectory() as tmp:
        written.append(await _shot(out / "menu.svg", SIZE, tmp))
        written.append(await _shot(out / "setup.svg", SIZE, tmp, keys=("n",)))
        for gid in game_ids():
            if gid == "toy":
                continue
            written.append(
                await _shot(
                    out / f"{gid}.svg", SIZE, tmp, match=sample_match(gid, players="greedy")
                )
            )
            written.append(
                await _shot(
                    out / f"{gid}-80x24.svg",
                    COMPACT,
                    tmp,
                    match=sample_match(gid, players="greedy"),
                )
            )
        first = game_ids()[0]  # the first title (Notre Dame among the built-ins)
        written.append(
            await _shot(
                out / "handover.svg",
                SIZE,
                tmp,
                match=sample_match(first, players="greedy"),
                handover=True,
            )
        )
        written.append(
            await _shot(
                out / "review.svg",
                SIZE,
                tmp,
                match=sample_match(first, players="greedy"),
                keys=("v", "left"),
            )
        )
        written.append(
            await _shot(
                out / "end.svg", SIZE, tmp, match=sample_match(first, finish=True, players="greedy")
            )
        )
        written.append(
            await _shot(
                out / "rules.svg",
                SIZE,
                tmp,
                match=sample_match(first, players="greedy"),
                keys=("g",),
            )
        )
    return written


def write_screenshots(out: Path) -> list[Path]:
    """Write every screenshot into `out`; returns the paths."""
    return asyncio.run(_all(out))
