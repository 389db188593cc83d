"""The menu in lines: new game, continue, load, rules, quit."""

from __future__ import annotations

import os
from typing import Any

from engine.core import BOT_LEVELS, HUMAN, Match, Seat, SetupError, all_games, saves

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
            play_match(
                match,
                read=read,
                say=say,
                saves_dir=args.saves,
                think=args_think(args),
                confine=bool(getattr(args, "confine", False)),
            )
            say("Back at the menu.")


def args_think(args: Any) -> float | None:
    return getattr(args, "think", None)


def new_game(read: Reader, say: Any) -> Match | None:
    """Title, players and computer seats, asked one by one."""
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
            names = parse_names(answer)
            game.check_players(len(names))
        except (ValueError, SetupError) as exc:
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
            bots = parse_levels(answer, len(names))
        except ValueError as exc:
            say(str(exc))
            continue
        break
    seats = [Seat(n, bots.get(i, HUMAN)) for i, n in enumerate(names)]
    seed = int.from_bytes(os.urandom(3), "big")
    say(f"A new game of {game.title}, seed {seed}.")
    return Match.new(game.id, seats, {}, seed)


def parse_names(text: str) -> list[str]:
    """`Ann,Bob` or a number of players (the command line's `--players`, as one answer)."""
    text = text.strip()
    if text.isdigit():
        return [f"Player {i + 1}" for i in range(int(text))]
    names = [n.strip() for n in text.split(",")]
    if not text or any(not n for n in names):
        raise ValueError("Give names separated by commas, e.g. Ann,Bob,Cy.")
    if len({n.lower() for n in names}) != len(names):
        raise ValueError("The names must be different.")
    if any(len(n) > 16 or not n.isprintable() for n in names):
        raise ValueError("A name has at most 16 characters, all printable.")
    return names


def parse_levels(text: str, n: int) -> dict[int, str]:
    """`2=greedy,3=strong` (seats counted from 1) -> {1: "greedy", 2: "strong"}."""
    out: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, _, level = part.partition("=")
        level = level.strip() or "greedy"
        if not seat.strip().isdigit() or not 1 <= int(seat) <= n:
            raise ValueError(f"Seats are numbered 1 to {n} (not {seat.strip()!r}).")
        if level not in BOT_LEVELS:
            raise ValueError(f"A computer is {listed(list(BOT_LEVELS), '')}, not {level!r}.")
        out[int(seat) - 1] = level
    return out
