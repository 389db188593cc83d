"""The menu in lines: new game, continue, load, rules, quit."""

from __future__ import annotations

import os
from typing import Any

from engine.core import HUMAN, Match, Seat, SetupError, all_games, saves

from .boards import listed
from .lines import TIMEOUT, Reader


def ask(read: Reader, say: Any, question: str) -> str | None:
    """One answer (None: the input ended or the person typed quit)."""
    say(question)
    line = read(None)
    while line == TIMEOUT:
        line = read(None)
    if line is None or line.strip().lower() in ("quit", "exit", "q"):
        return None
    return line.strip()


def choose(read: Reader, say: Any, question: str, options: list[str]) -> int | None:
    """A numbered choice: its index, None to leave."""
    while True:
        say(question)
        for i, text in enumerate(options, start=1):
            say(f"{i} {text}")
        answer = ask(read, say, "Type a number (quit leaves).")
        if answer is None:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        low = answer.lower()
        named = [i for i, text in enumerate(options) if text.lower().startswith(low)]
        if low and len(named) == 1:
            return named[0]
        say(f"No choice {answer!r}: type a number from 1 to {len(options)}.")


def menu(args: Any, read: Reader, say: Any) -> int:
    """The menu until quit; every game it opens is played in lines."""
    from . import play_match

    say("boardgames-tui, plain mode. The menu:")
    while True:
        latest = saves.latest(args.saves, unfinished=True)
        items = ["New game", "Continue the latest game", "Load a save", "Rules", "Quit"]
        if latest is None:
            items[1] = "Continue the latest game (there is none)"
        pick = choose(read, say, "What next?", items)
        if pick is None or pick == 4:
            return 0
        match: Match | None = None
        if pick == 0:
            match = new_game(read, say)
        elif pick == 1:
            if latest is None:
                say("No unfinished game to continue.")
                continue
            match = saves.load(latest)
        elif pick == 2:
            files = saves.list_saves(args.saves)[:20]
            if not files:
                say("No saves yet.")
                continue
            k = choose(read, say, "Which save?", [f.name for f in files])
            if k is None:
                continue
            try:
                match = saves.load(files[k])
            except saves.SaveError as exc:
                say(str(exc))
                continue
        elif pick == 3:
            games = all_games()
            k = choose(read, say, "Which game's rules?", [g.title for g in games])
            if k is not None:
                for line in games[k].rules_reference().splitlines():
                    if line.strip():
                        say(line.lstrip("#").strip().replace("**", ""))
            continue
        if match is not None:
            play_match(match, read=read, say=say, saves_dir=args.saves, think=args_think(args))
            say("Back at the menu.")


def args_think(args: Any) -> float | None:
    return getattr(args, "think", None)


def new_game(read: Reader, say: Any) -> Match | None:
    """Title, players and computer seats, asked one by one."""
    from ..cli import UsageError, parse_bots, parse_players

    games = all_games()
    k = choose(
        read,
        say,
        "Which game?",
        [f"{g.title} ({g.min_players} to {g.max_players} players)" for g in games],
    )
    if k is None:
        return None
    game = games[k]
    while True:
        answer = ask(
            read,
            say,
            f"Players: names separated by commas (e.g. Ann,Bob), or a number from "
            f"{game.min_players} to {game.max_players}.",
        )
        if answer is None:
            return None
        try:
            names = parse_players(answer, game.min_players, game.max_players)
            game.check_players(len(names))
        except (UsageError, SetupError) as exc:
            say(str(exc))
            continue
        break
    while True:
        answer = ask(
            read,
            say,
            f"Computer seats of {listed(names)}, e.g. 2=greedy,3=strong "
            "(levels random, greedy, strong); Enter for none.",
        )
        if answer is None:
            return None
        try:
            bots = parse_bots(answer, len(names))
        except UsageError as exc:
            say(str(exc))
            continue
        break
    seats = [Seat(n, bots.get(i, HUMAN)) for i, n in enumerate(names)]
    seed = int.from_bytes(os.urandom(3), "big")
    say(f"A new game of {game.title}, seed {seed}.")
    return Match.new(game.id, seats, {}, seed)
