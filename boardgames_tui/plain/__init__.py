"""Play by lines: the games for screen readers, braille displays and the plainest connections.

`boardgames-tui --plain …` (or BOARDGAMES_PLAIN=1): no full-screen drawing, no colours, no
cursor movement; plain lines on stdout, one command a line on stdin. Nothing here imports
Textual or Rich: the mode starts fast and runs where no terminal is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import IO, Any

from boardgames_tui.engine.core import Match, saves
from boardgames_tui.plain.lines import Output, Reader, TerminalReader, clean
from boardgames_tui.plain.session import PlainSession

ENV = "BOARDGAMES_PLAIN"


def wanted(flag: bool, env: Mapping[str, str] = os.environ) -> bool:
    """--plain, or BOARDGAMES_PLAIN set to anything but empty or 0."""
    return flag or env.get(ENV, "").strip() not in ("", "0")


def play_match(
    match: Match,
    read: Reader | None = None,
    say: Any = None,
    saves_dir: str | None = None,
    think: float | None = None,
    handover: bool | None = None,
    strict: bool | None = None,
    review: bool = False,
    hint_think: float | None = None,
    confine: bool = False,
) -> int:
    """Play (or, with `review`, step through) `match` in lines; autosaved like the screen."""
    if handover is not None:
        match.settings["handover"] = handover
    if strict is not None:
        match.settings["strict"] = strict
    read, say = terminal(read, say)
    session = PlainSession(match, read, say, saves_dir, hint_think, think)
    session.confine = confine  # in a room: save by a name inside the player's folder only
    if review:
        if match.over:
            session.viewer = None
        else:  # a review from the command line: nobody at the table opened it
            from boardgames_tui.engine.core import PUBLIC

            session.viewer = session.unlocked = PUBLIC
        session.review_at = 0
        session.ended = match.over  # said by the review's end, not again after it
    return session.run()


def join_table(
    store: Any,
    table_id: str,
    user: str,
    read: Reader | None = None,
    say: Any = None,
    think: float | None = None,
) -> int:
    """Sit at (or watch) a shared table in lines: the others' moves arrive as they are made."""
    from boardgames_tui.session.table_source import TableSource

    source = TableSource(store, table_id, user, think, presence=True)
    session = PlainSession(source, *terminal(read, say))
    return session.run()


def terminal(read: Reader | None, say: Any) -> tuple[Reader, Any]:
    """The reader and the writer: stdin and stdout unless given; a line written while the
    terminal's prompt waits goes above it."""
    reader = read or TerminalReader()
    if say is None:
        say = Output(sys.stdout, reader if isinstance(reader, TerminalReader) else None)
    return reader, say


def run(args: Any, spec: dict[str, Any] | None, stdout: IO[str] | None = None) -> int:
    """The plain mode of `new`, `load`, `review`, `continue` and of the menu (no command)."""
    cmd = args.command
    think = getattr(args, "think", None)
    confine = bool(getattr(args, "confine", False))
    if spec is not None:
        match = Match.new(spec["game"], spec["seats"], spec["options"], spec["seed"])
        return play_match(
            match,
            saves_dir=args.saves,
            think=think,
            handover=not args.no_handover,
            strict=args.strict,
            confine=confine,
        )
    if cmd in ("load", "review"):
        match = saves.load(args.file)
        return play_match(
            match, saves_dir=args.saves, think=think, review=cmd == "review", confine=confine
        )
    if cmd == "continue":
        path = saves.latest(args.saves, unfinished=True)
        if path is None:
            print(
                "boardgames-tui: no unfinished game to continue (load or review a finished one)",
                file=sys.stderr,
            )
            return 1
        return play_match(saves.load(path), saves_dir=args.saves, think=think, confine=confine)
    from boardgames_tui.plain.menu import menu

    reader = TerminalReader()
    return menu(args, reader, Output(stdout or sys.stdout, reader))


__all__ = ["ENV", "Output", "PlainSession", "clean", "join_table", "play_match", "run", "wanted"]
