"""The `boardgames-tui` command: the app, and subcommands for scripts.

Exit codes: 0 success, 1 a bad file (save that does not load or check), 2 bad usage.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from boardgames_tui import __version__
from boardgames_tui.engine.core import (
    BOT_LEVELS,
    HUMAN,
    Seat,
    SetupError,
    UnknownGame,
    game_ids,
    get_game,
    registry,
)
from boardgames_tui.engine.core import saves as saves_mod
from boardgames_tui.engine.core.names import BadName, check_name
from boardgames_tui.engine.core.protocol import Game

EXIT_BAD_FILE = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A command line that cannot be carried out as written."""


class _Parser(argparse.ArgumentParser):
    # an epilog worked out only when the help is shown (the games' options: imports them all)
    epilog_fn: Any = None

    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n(see {self.prog} --help)\n")

    def format_help(self) -> str:
        if self.epilog_fn is not None and self.epilog is None:
            self.epilog = self.epilog_fn()
        return super().format_help()


def options_help() -> str:
    """Every game's `--option` keys and values, for `new --help`."""
    lines = ["game options (--option KEY=VALUE, repeatable):"]
    for gid in game_ids():
        game = get_game(gid)
        if not game.options:
            lines.append(f"  {gid}: none")
        for o in game.options:
            values = "|".join(v for v, _ in o.choices)
            lines.append(f"  {gid}: {o.key}={values}  (default {o.default})")
    return "\n".join(lines) + "\n"


def parse_players(text: str, low: int = 1, high: int = 8) -> list[str]:
    """`Ann,Bob,Cy` -> names; a number N (from `low` to `high`: the game's range) ->
    Player 1..N."""
    text = text.strip()
    if text.isdigit():
        n = int(text)
        if not low <= n <= high:
            raise UsageError(f"--players {n}: give between {low} and {high} players")
        return [f"Player {i + 1}" for i in range(n)]
    names = [n.strip() for n in text.split(",")]
    if not text or any(not n for n in names):
        raise UsageError(f"--players {text!r}: give names separated by commas, e.g. Ann,Bob,Cy")
    try:
        names = [check_name(n) for n in names]
    except BadName as exc:
        raise UsageError(f"--players: {exc}") from None
    if len(set(n.lower() for n in names)) != len(names):
        raise UsageError(f"--players {text!r}: names must be different")
    return names


def parse_bots(text: str | None, n: int) -> dict[int, str]:
    """`1=strong,3=greedy` (seats counted from 1) -> {0: "strong", 2: "greedy"}."""
    out: dict[int, str] = {}
    if not text:
        return out
    for part in text.split(","):
        seat, _, level = part.partition("=")
        level = level.strip() or "greedy"
        if not seat.strip().isdigit() or not 1 <= int(seat) <= n:
            raise UsageError(f"--bots {text!r}: seats are numbered 1 to {n}")
        if level not in BOT_LEVELS:
            raise UsageError(f"--bots: level {level!r} is not one of {', '.join(BOT_LEVELS)}")
        if int(seat) - 1 in out:
            raise UsageError(f"--bots {text!r}: seat {int(seat)} is named twice")
        out[int(seat) - 1] = level
    return out


def parse_options(items: Sequence[str] | None) -> dict[str, str]:
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--option {item!r}: write KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _computer_flags(p: argparse.ArgumentParser) -> None:
    """How the computer seats of a game being played behave (new, load, continue)."""
    p.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help="seconds a computer's move stays visible (0.6; BOARDGAMES_BOT_DELAY sets the default)",
    )
    p.add_argument(
        "--think", type=float, default=None, help="seconds per decision for strong bots (0.6)"
    )


def build_parser() -> argparse.ArgumentParser:
    games = ", ".join(game_ids())
    left_out = "".join(f" Left out: {gid} ({why})." for gid, why in registry.problems().items())
    p = _Parser(
        prog="boardgames-tui",
        description=f"Play board games hotseat in the terminal. Games: {games}.{left_out}",
    )
    p.add_argument("--version", action="version", version=f"boardgames-tui {__version__}")
    p.add_argument("--saves", metavar="DIR", help="folder for saves and autosaves")
    p.add_argument(
        "--user", metavar="NAME", help="who you are at shared tables (default: login name)"
    )
    p.add_argument(
        "--store",
        metavar="PATH|URL",
        help="the shared tables' store: a SQLite file (default: tables.sqlite in the data "
        "folder) or postgresql://USER@HOST/DB?schema=NAME; $BOARDGAMES_STORE",
    )
    p.add_argument(
        "--share-group",
        metavar="GROUP",
        help="make the SQLite store group-shared (file 0660, folder 2770, group GROUP); "
        "by default it is its owner's only",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="play by lines (screen readers, braille, pipes): no full-screen drawing; "
        "also $BOARDGAMES_PLAIN=1",
    )
    p.add_argument(
        "--confine",
        action="store_true",
        help="save and load only by name inside the saves folder (a room's sessions)",
    )
    p.add_argument(
        "--debug",
        action="store_true",
        help="on an unexpected error, show Textual's full traceback instead of the crash "
        "screen (the report is written either way)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    n = sub.add_parser(
        "new", help="start a new game", formatter_class=argparse.RawDescriptionHelpFormatter
    )
    n.epilog_fn = options_help
    n.add_argument("game", help=f"one of: {games}")
    n.add_argument("--players", required=True, help="names (Ann,Bob,Cy) or a number")
    n.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    n.add_argument(
        "--bots", help="computer seats, e.g. 2=greedy,3=strong (levels: random, greedy, strong)"
    )
    n.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    n.add_argument("--no-handover", action="store_true", help="no pass-the-keyboard screens")
    n.add_argument("--strict", action="store_true", help="forbid undo (competitive play)")
    _computer_flags(n)

    lp = sub.add_parser("load", help="continue a saved game")
    lp.add_argument("file")
    _computer_flags(lp)
    sub.add_parser("review", help="step through a saved game").add_argument("file")
    _computer_flags(sub.add_parser("continue", help="continue the latest unfinished game"))

    c = sub.add_parser("check", help="validate save files without the UI")
    c.add_argument("files", nargs="+")

    s = sub.add_parser("simulate", help="play games with computer players, print a JSON summary")
    s.add_argument("game")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--seats", help="levels per seat, e.g. strong,greedy,random (default random)")
    s.add_argument("--policy", default=None, help="a game's rule-following player (e.g. rules)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE")
    s.add_argument("--save-dir", help="keep every finished game as a save file here")
    s.add_argument("--think", type=float, default=None, help="seconds per decision for strong")

    a = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="rate every decision of a saved game's people with the strong player",
    )
    a.add_argument("file")
    a.add_argument("--json", action="store_true", help="print the ratings as JSON")
    a.add_argument("--think", type=float, default=None, help="seconds of search per decision (0.6)")
    a.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="a fixed search budget per decision instead (reproducible ratings)",
    )

    b = sub.add_parser("bench", help="measure start-up, move latency, throughput, saves, memory")
    b.add_argument("--quick", action="store_true")
    b.add_argument("--json", metavar="FILE")

    co = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or tcsh)",
        description="Print a completion script for your shell, e.g. for bash: "
        "boardgames-tui completion bash > ~/.local/share/bash-completion/completions/"
        "boardgames-tui",
    )
    co.add_argument("shell", choices=["bash", "zsh", "tcsh"])

    sc = sub.add_parser("screenshots", help="write SVG screenshots of every screen")
    sc.add_argument("dir", nargs="?", default="screenshots")

    r = sub.add_parser(
        "rules",
        help="print a game's rules reference",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.epilog_fn = options_help
    r.add_argument("game", help=f"one of: {games}")
    r.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, as `new` takes it: the reference for that rule set",
    )

    w = sub.add_parser(
        "web",
        help="serve the app to web browsers, a game per tab",
        description="Serve the app to web browsers: each tab plays its own game. Only this "
        "machine can connect unless --host names another address (there is no login).",
    )
    w.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (127.0.0.1: this machine only)"
    )
    w.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free one)")
    w.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name browsers may use for this server (repeatable); any other name "
        "is refused (DNS rebinding)",
    )
    w.add_argument(
        "--max-tabs", type=int, default=16, metavar="N", help="tabs open at once, in all (16)"
    )
    w.add_argument(
        "--max-tabs-per-address",
        type=int,
        default=4,
        metavar="N",
        help="tabs open at once from one address (4)",
    )
    _computer_flags(w)
    from boardgames_tui.cli.table_args import add_table_parser

    add_table_parser(sub, parse_options)
    from boardgames_tui.room.commands import add_room_parsers

    add_room_parsers(sub)
    from boardgames_tui.cli.config_cmd import add_config_parser

    add_config_parser(sub)
    return p


def cmd_check(files: Sequence[str]) -> int:
    bad = 0
    for f in files:
        try:
            m = saves_mod.load(f)
        except saves_mod.SaveError as exc:
            print(f"BAD {exc}")
            bad += 1
            continue
        status = "finished" if m.over else f"move {m.cursor} of {m.length}"
        print(f"ok  {f}: {m.game.title}, {len(m.seats)} players, {status}")
        for note in m.repairs:
            print(f"    mended on load: {note} (the file is left as it is)")
    return EXIT_BAD_FILE if bad else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from boardgames_tui.engine.bots.simulate import simulate

    game = get_game(args.game)
    game.check_players(args.players)
    seats = None
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
        for lv in seats:
            if lv not in BOT_LEVELS and lv != "policy":
                raise UsageError(f"--seats: {lv!r} is not one of {', '.join(BOT_LEVELS)}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    summary = simulate(
        game,
        players=args.players,
        games=args.games,
        seed=args.seed,
        seats=seats,
        policy=args.policy,
        options=check_options(game, args.option),
        save_dir=args.save_dir,
        think=args.think,
    )
    print(json.dumps(summary, indent=2))
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    try:
        from boardgames_tui.web.server import WebError, serve
    except ImportError as exc:  # an install from before the web server was a dependency
        raise UsageError(f"the web server needs textual-serve ({exc}): reinstall the app") from None
    try:
        return serve(
            args.host,
            args.port,
            saves=args.saves,
            think=args.think,
            bot_delay=args.bot_delay,
            user=user_of(args),
            store=args.store,
            allow_hosts=args.allow_host,
            max_tabs=args.max_tabs,
            max_tabs_per_address=args.max_tabs_per_address,
        )
    except WebError as exc:
        raise UsageError(str(exc)) from None


def cmd_analyse(args: argparse.Namespace) -> int:
    from boardgames_tui.engine.bots import analysis

    if args.think is not None and args.think <= 0:
        raise UsageError("--think must be more than 0 seconds")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    match = saves_mod.load(args.file)  # a bad file: one clear line, exit 1
    bar = _ProgressBar(sys.stderr)
    ratings = analysis.analyse(
        match, think=args.think, iterations=args.iterations, progress=bar.update
    )
    bar.close()
    if args.json:
        print(json.dumps(analysis.to_json(match, ratings), indent=2))
    else:
        print(analysis_report(match, ratings))
    return 0


class _ProgressBar:
    """`analysing ▕████░░░░▏ 12/40 decisions` on a terminal, rewritten in place."""

    WIDTH = 30

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.shown = stream.isatty()

    def update(self, done: int, total: int) -> None:
        if not self.shown:
            return
        filled = self.WIDTH * done // max(1, total)
        bar = "█" * filled + "░" * (self.WIDTH - filled)
        self.stream.write(f"\ranalysing ▕{bar}▏ {done}/{total} decisions")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def analysis_report(match: Any, ratings: list[Any]) -> str:
    """The analysis as text: one line per rated decision, then a summary per player."""
    from boardgames_tui.engine.bots import analysis

    game = match.game
    scale = "chance the team wins" if game.cooperative else "estimated winning chance"
    lines = [
        f"{game.title} · {len(match.seats)} players · {len(match.steps)} moves · values: {scale}",
        "",
    ]
    if not any(not s.is_bot for s in match.seats):
        lines[1:1] = ["(no person at this table: every seat is rated)"]
    width = max((len(r.played_label) for r in ratings), default=10)
    width = min(max(width, 10), 38)
    lines.append(f"{'move':>5}  {'player':<12} {'played':<{width}}  value  best")
    for r in ratings:
        name = match.seats[r.seat].name[:12]
        played = _cut(r.played_label, width)
        line = f"{r.n:>5}  {name:<12} {played:<{width}}  {r.played_value:>4.0%}  "
        if r.best != r.played:
            line += f"{_cut(r.best_label, width)} {r.best_value:.0%}"
        else:
            line += "(this)"
        if r.tag != "best":
            line += f"  {r.tag}"
        lines.append(line)
    lines += ["", "player        decisions  accuracy  inaccuracies  mistakes  blunders"]
    for p in analysis.summary(match, ratings):
        acc = "-" if p["accuracy"] is None else f"{p['accuracy']:.0f}%"
        lines.append(
            f"{p['name'][:12]:<12}  {p['decisions']:>9}  {acc:>8}  {p['inaccuracies']:>12}"
            f"  {p['mistakes']:>8}  {p['blunders']:>8}"
        )
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def check_options(game: Game, items: Sequence[str] | None) -> dict[str, str]:
    """The game's options from `--option KEY=VALUE`; a bad one lists the valid ones."""
    try:
        return game.check_options(parse_options(items))
    except SetupError as exc:
        valid = "; ".join(
            f"{o.key}={'|'.join(v for v, _ in o.choices)} ({o.label.lower()}, default {o.default})"
            for o in game.options
        )
        raise UsageError(
            f"--option: {exc}. "
            + (f"Options of {game.title}: {valid}" if valid else f"{game.title} has no options")
        ) from None


def make_new_spec(args: argparse.Namespace) -> dict[str, Any]:
    game = get_game(args.game)
    names = parse_players(args.players, game.min_players, game.max_players)
    try:
        game.check_players(len(names))
    except SetupError as exc:
        raise UsageError(f"--players: {exc}") from None
    bots = parse_bots(args.bots, len(names))
    options = check_options(game, args.option)
    seats = [Seat(nm, bots.get(i, HUMAN)) for i, nm in enumerate(names)]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
    return {"game": game.id, "seats": seats, "options": options, "seed": seed}


def tune_for_remote(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Over ssh (SSH_CONNECTION set): a 256-colour palette, fewer frames, no animations.

    Must run before Textual is imported: it reads these settings once, at import.
    """
    if not env.get("SSH_CONNECTION"):
        return False
    env.setdefault("TEXTUAL_COLOR_SYSTEM", "256")
    env.setdefault("TEXTUAL_FPS", "20")
    env.setdefault("TEXTUAL_ANIMATIONS", "none")
    env.setdefault("ESCDELAY", "50")
    return True


def global_options_first(argv: Sequence[str]) -> list[str]:
    """`boardgames-tui new … --saves DIR` works as `boardgames-tui --saves DIR new …`: the
    global options may stand anywhere (up to a `--`)."""
    args = list(argv)
    front: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        if a == "--saves" and i + 1 < len(args):
            front += args[i : i + 2]
            del args[i : i + 2]
            continue
        if a.startswith("--saves=") or a in ("--plain", "--debug"):
            front.append(args.pop(i))
            continue
        if a in SIGNED_VALUES and i + 1 < len(args) and args[i + 1].startswith("-"):
            # `--turn-limit -5m`: the value, refused in one line (not a missing argument)
            args[i : i + 2] = [f"{a}={args[i + 1]}"]
        i += 1
    return front + args


# options whose value a person may give negative by mistake
SIGNED_VALUES = ("--turn-limit", "--vacation", "--until")


def plain_launch() -> argparse.Namespace:
    """What `build_parser().parse_args([])` gives (tests/shell/test_tui_games.py checks it)."""
    return argparse.Namespace(
        saves=None,
        user=None,
        store=None,
        share_group=None,
        plain=False,
        confine=False,
        debug=False,
        command=None,
    )


def developer_tool(name: str) -> ModuleType:
    """A developer tool (`bench`, `screenshots`): in the checkout's `tools/`, which the wheel
    leaves out. From an editable install the checkout is found beside the package."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "tools" / f"{name}.py").is_file() or not (root / "pyproject.toml").is_file():
        raise UsageError(
            f"`{name}` is a developer tool: run it from a source checkout (pip install -e .)"
        )
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"tools.{name}")


def main(argv: Sequence[str] | None = None) -> int:
    tune_for_remote()
    argv = sys.argv[1:] if argv is None else argv
    # the plain launch (the menu) skips building the parser: start-up time
    args = build_parser().parse_args(global_options_first(argv)) if argv else plain_launch()
    try:
        return _run(args)
    except UsageError as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (UnknownGame, SetupError) as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except saves_mod.SaveError as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return EXIT_BAD_FILE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `boardgames-tui rules x | head`: the reader left, that is fine
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def user_of(args: argparse.Namespace) -> str:
    """--user, else the login name; a bad name, or a name that is not yours at a store that
    is not yours either, is a usage error."""
    from boardgames_tui.engine.tables import (
        StoreError,
        check_claim,
        check_user,
        default_user,
        store_location,
    )

    if args.user is None:
        return default_user()
    try:
        name = check_user(args.user)
    except StoreError as exc:
        raise UsageError(f"--user: {exc}") from None
    try:
        check_claim(store_location(args.store), name)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    return name


def share_store(args: argparse.Namespace) -> None:
    """--share-group: the store made (or made over) group-shared before anything else."""
    from boardgames_tui.engine.tables import StoreError, open_store

    try:
        open_store(args.store, share_group=args.share_group).close()
    except StoreError as exc:
        raise UsageError(str(exc)) from None


def _plain(args: argparse.Namespace) -> bool:
    """--plain or $BOARDGAMES_PLAIN: the game in lines (boardgames_tui/plain), never Textual."""
    return bool(getattr(args, "plain", False)) or os.environ.get(
        "BOARDGAMES_PLAIN", ""
    ).strip() not in ("", "0")


def _run(args: argparse.Namespace) -> int:
    cmd = args.command
    if getattr(args, "share_group", None) is not None:
        share_store(args)
    if cmd == "table":
        from boardgames_tui.cli.table_cmd import run_table

        return run_table(args, user_of(args))
    if cmd == "config":
        from boardgames_tui.cli.config_cmd import run_config

        return run_config(args, args.saves, args.confine)
    if cmd == "check":
        return cmd_check(args.files)
    if cmd == "simulate":
        return cmd_simulate(args)
    if cmd in ("analyse", "analyze"):
        return cmd_analyse(args)
    if cmd == "rules":
        game = get_game(args.game)
        # without --option, the reference for every set-up (the options' defaults named)
        options = check_options(game, args.option) if args.option else None
        print(game.rules_reference(options))
        return 0
    if cmd == "bench":
        run_bench = developer_tool("bench").run_bench
        return int(run_bench(quick=args.quick, json_path=args.json))
    if cmd == "web":
        return cmd_web(args)
    if cmd == "completion":
        import shtab

        print(shtab.complete(build_parser(), shell=args.shell), end="")
        return 0
    if cmd in ("serve", "room"):
        from boardgames_tui.room.commands import run_room

        return run_room(args)
    if cmd == "screenshots":
        for path in developer_tool("screenshots").write_screenshots(Path(args.dir)):
            print(path)
        return 0

    spec = make_new_spec(args) if cmd == "new" else None
    if cmd in ("load", "review") and args.confine:  # a name inside the saves folder, never a path
        from boardgames_tui.session.confine import ConfineError, confined_path

        try:
            args.file = str(confined_path(args.file, args.saves))
        except ConfineError as exc:
            raise UsageError(str(exc)) from None
    if _plain(args):
        from boardgames_tui.plain import run as run_plain

        return run_plain(args, spec)
    user = user_of(args) if args.user is not None else ""  # "": looked up when needed
    match = None
    if cmd in ("load", "review"):
        match = saves_mod.load(args.file)  # a bad file: one clear line, exit 1
    elif cmd == "continue":
        newest = saves_mod.latest(args.saves, unfinished=True)
        if newest is None:
            print(
                "boardgames-tui: no unfinished game to continue (load or review a finished one)",
                file=sys.stderr,
            )
            return EXIT_BAD_FILE
        match = saves_mod.load(newest)
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.settings import given_settings

    launch = Launch(
        saves_dir=args.saves,
        user=user,
        store=args.store,
        confine=args.confine,
        debug=args.debug,
        use_settings=True,
        given=given_settings(args),
    )
    if spec is not None:
        launch.new = spec
        launch.handover = not args.no_handover
        launch.strict = args.strict
    if getattr(args, "bot_delay", None) is not None:
        if not args.bot_delay >= 0:
            raise UsageError("--bot-delay must be 0 seconds or more")
        launch.bot_delay = args.bot_delay
    if getattr(args, "think", None) is not None:
        if not args.think > 0:
            raise UsageError("--think must be more than 0 seconds")
        launch.think = args.think
    launch.match = match
    launch.review = cmd == "review"
    from boardgames_tui.session import terminal

    if not terminal.has_terminal():  # what was wrong with the command line or file comes first
        return no_terminal()
    app = BoardgamesApp(launch)
    app.run()
    if app.crashed:  # what the crash screen said (or would have), where the terminal keeps it
        from boardgames_tui.tui.screens.crash import crash_text

        text = crash_text(app.crash_report, None, launch.confine)
        print(text.splitlines()[-1] if app.crash_shown else text, file=sys.stderr)
    return app.return_code or 0


def no_terminal() -> int:
    """The screens cannot run: say so in one line (exit 2)."""
    from boardgames_tui.session.terminal import NO_TERMINAL

    print(NO_TERMINAL, file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
