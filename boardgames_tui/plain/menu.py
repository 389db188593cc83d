"""The menu in lines: new game, continue, load, shared tables, away and notifications, rules,
quit."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from boardgames_tui.engine.core import BOT_LEVELS, HUMAN, Match, Seat, SetupError, all_games, saves
from boardgames_tui.plain.boards import listed
from boardgames_tui.plain.lines import TIMEOUT, Input, Reader
from boardgames_tui.session.words import waiting_for

if TYPE_CHECKING:
    from boardgames_tui.engine.tables import TableStore


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
    from boardgames_tui.plain import play_match

    read = Input.of(read)  # one end of the input for the menu and every game it opens
    say("boardgames-tui, plain mode. The menu:")
    while True:
        latest = saves.latest(args.saves, unfinished=True)
        items = [
            "New game",
            "Continue the latest game",
            "Load a save",
            "Shared tables (each player on their own terminal)",
            "Away and notifications (shared tables)",
            "Rules",
            "Quit",
        ]
        if latest is None:
            items[1] = "Continue the latest game (there is none)"
        pick = choose(read, say, "What next?", items)
        if pick is None or pick == 6:
            read.tell(say)
            return 0
        if pick in (3, 4):
            (shared_tables if pick == 3 else away_and_notices)(args, read, say)
            if read.ended:
                read.tell(say)
                return 0
            say("Back at the menu.")
            continue
        if pick == 5:
            pick = 3  # the rules, below
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
            if read.ended:  # the game said so
                return 0
            say("Back at the menu.")


def user_store(args: Any, say: Any) -> tuple[TableStore, str] | None:
    """The table store and the user the command line names; None once said why not."""
    from boardgames_tui.engine.tables import StoreError, default_user, open_store

    user = getattr(args, "user", None) or default_user()
    try:
        return open_store(getattr(args, "store", None)), user
    except StoreError as exc:
        say(f"No shared tables: {exc}")
        return None


def shared_tables(args: Any, read: Input, say: Any) -> None:
    """The shared tables in lines: yours (your turn first), rematches offered, open ones,
    the others to watch, and a new table; the one picked is played here."""
    from boardgames_tui.engine.tables import StoreError
    from boardgames_tui.plain import join_table

    opened = user_store(args, say)
    if opened is None:
        return
    store, user = opened
    try:
        while True:
            rows = table_rows(store, user)
            items = ["New shared table", *(text for _, text in rows), "Back to the menu"]
            k = choose(read, say, f"Shared tables ({user}):", items)
            if k is None or k == len(items) - 1:
                return
            tid = new_table(store, user, read, say) if k == 0 else rows[k - 1][0]
            if read.ended:
                return
            if tid is None:
                continue
            try:
                store.join(tid, user, None)
            except StoreError as exc:
                say(f"Not seated: {exc}")
            try:
                join_table(store, tid, user, read=read, say=say, think=args_think(args))
            except StoreError as exc:
                say(str(exc))
            if read.ended:
                return
    finally:
        store.close()


def away_and_notices(args: Any, read: Input, say: Any) -> None:
    """Playing over days in lines, as the app's "Away and notifications" screen: where your
    turn messages go (add, remove, talk too, a test), the reminder, away and back; the same
    store calls as `table notify` and `table away`, for this user only."""
    from boardgames_tui.engine.tables import StoreError

    opened = user_store(args, say)
    if opened is None:
        return
    store, user = opened
    try:
        while True:
            try:
                away = store.away(user)
                for line in _days_lines(store, user, away):
                    say(line)
            except StoreError as exc:
                say(str(exc))
                return
            items = [
                "Add a notification target",
                "Remove a target",
                "A target takes the talk at your tables too (or no longer)",
                "Send a test to every target",
                "Remind me after some hours of one turn",
                "I am back"
                if away is not None
                else "Away (until a date, for a while, or until back)",
                "Back to the menu",
            ]
            k = choose(read, say, f"Away and notifications ({user}):", items)
            if k is None or k == len(items) - 1:
                return
            try:
                said = _days_change(store, user, k, away is not None, args, read, say)
            except StoreError as exc:
                said = str(exc)
            if read.ended:
                return
            if said:
                say(said)
    finally:
        store.close()


def _days_lines(store: Any, user: str, away: Any) -> list[str]:
    """Where the messages go, the reminder and whether `user` is away, in lines."""
    from boardgames_tui.engine.tables.notify import shown_url
    from boardgames_tui.engine.tables.sqlstore import shown_time

    lines = []
    for t in store.targets(user):
        talk = ", talk too" if t.talk else ""
        failing = f" (failing: {t.error})" if t.error else ""
        lines.append(f"Target {t.n}: {shown_url(t.url)}{talk}{failing}")
    if not lines:
        lines.append("No notification targets yet: your turns reach you nowhere else.")
    hours = store.remind_hours(user)
    lines.append("Never reminded." if hours == 0 else f"Reminded after {hours:g} h on one turn.")
    if away is None:
        lines.append("You are here.")
    else:
        lines.append(
            "You are away" + ("." if away[1] is None else f" until {shown_time(away[1])}.")
        )
    return lines


def _days_change(
    store: Any, user: str, k: int, away: bool, args: Any, read: Reader, say: Any
) -> str | None:
    """Item `k` of the away and notifications menu, asked and done: what to say after."""
    from boardgames_tui.engine.tables.clock import ClockError, parse_until
    from boardgames_tui.engine.tables.notify import check_room_target, check_target, send

    if k == 0:
        url = ask(read, say, "The target's address: ntfy://TOPIC, json://HOST:PORT/PATH, …")
        if not url:
            return None
        # in a room the host's process sends it: the host's policy
        url = check_room_target(url) if getattr(args, "confine", False) else check_target(url)
        return f"Target {store.add_target(user, url)} added: your turn messages go there too."
    if k in (1, 2):
        answer = ask(read, say, "Which target? Its number.")
        if not answer:
            return None
        if not answer.isdigit():
            return f"{answer!r}: give a target's number."
        n = int(answer)
        talk = {t.n: t.talk for t in store.targets(user)}
        if n not in talk:
            return f"No target {n}: " + (
                f"yours are {listed([str(t) for t in talk], '')}." if talk else "you have none."
            )
        if k == 1:
            store.remove_target(user, n)
            return f"Target {n} removed."
        now = not talk[n]
        store.set_target_talk(user, n, now)
        return f"Target {n} {'takes' if now else 'no longer takes'} the talk at your tables."
    if k == 3:
        said = []
        for t in store.targets(user):
            error = send(t.url, "boardgames-tui: a test", f"A test notification for {user}.")
            said.append(f"{t.n}: {'sent' if error is None else f'FAILED: {error}'}")
        return " · ".join(said) or "No targets to test."
    if k == 4:
        answer = ask(read, say, "Remind after how many hours of one turn? 0: never.")
        if answer is None:
            return None
        try:
            hours = float(answer)
        except ValueError:
            hours = -1.0
        if not 0 <= hours <= 24 * 365:
            return f"{answer!r}: give hours, 0 (never) or more."
        store.set_remind(user, hours)
        return "Never reminded." if hours == 0 else f"Reminded once after {hours:g} h."
    if away:
        store.end_away(user)
        return "You are back: your clocks run and you play your seats."
    answer = ask(read, say, "Away until? 3d, 12h or 2026-12-24; Enter alone: until you are back.")
    if answer is None:
        return None
    try:
        until = parse_until(answer, store.clock_now()) if answer else None
    except ClockError as exc:
        return str(exc)
    infos = store.set_away(user, until)
    return f'You are away: {len(infos)} table(s) told; "I am back" here ends it.'


def table_rows(store: Any, user: str) -> list[tuple[str, str]]:
    """(id, a line) per table `user` may see, grouped as the Tables screen groups them."""
    from boardgames_tui.engine.core import get_game
    from boardgames_tui.engine.tables import listed as grouped
    from boardgames_tui.engine.tables.clock import clock_text, limit_text
    from boardgames_tui.engine.tables.computer import settle

    settle(store)  # a turn whose time ran out is the computer's before it is listed
    heads = {
        "yours": "yours",
        "offered": "a seat offered to you: pick it to sit down",
        "open": "open: take a seat",
        "others": "watch",
    }
    out = []
    for group, i in grouped(store.tables(), user):
        if group not in heads:
            continue
        if i.your_turn(user):
            state = "YOUR TURN"
        elif i.finished:
            state = "finished"
        elif i.status == "waiting":
            state = waiting_for(i.seats)
        else:
            state = f"{i.to_move} to move"
        clock = "" if i.finished else clock_text(i)
        if not clock and i.status == "waiting" and i.rules.turn_limit is not None:
            clock = f"{limit_text(i.rules.turn_limit)} a turn"
        seats = ", ".join(s.label for s in i.seats)
        text = f"{i.id}, {get_game(i.game).title}, {seats}: {state}"
        out.append((i.id, f"{text}{f', {clock}' if clock else ''} ({heads[group]})"))
    return out


def new_table(store: Any, user: str, read: Reader, say: Any) -> str | None:
    """A new shared table asked step by step: game, seats, turn limit; its id."""
    from boardgames_tui.engine.tables import StoreError, offered_seats
    from boardgames_tui.engine.tables.clock import ClockError, ClockRules, parse_duration

    games = all_games()
    k = choose(read, say, "Which game?", [g.title for g in games])
    if k is None:
        return None
    game = games[k]
    while True:
        answer = ask(
            read,
            say,
            f"Seats, separated by commas: names of users, me (you), open (the first to join) "
            f"or a computer level (random, greedy, strong); {game.min_players} to "
            f"{game.max_players} seats. Enter alone: me,open.",
        )
        if answer is None:
            return None
        try:
            # another person's seat is offered to them, as the app and `table new` do:
            # nobody is seated (and given turns) without saying yes
            seats = offered_seats(answer or "me,open", user)
            game.check_players(len(seats))
        except (StoreError, SetupError) as exc:
            say(str(exc))
            continue
        break
    while True:
        answer = ask(read, say, "Time per turn, e.g. 90s, 10m, 24h; Enter alone: no clock.")
        if answer is None:
            return None
        try:
            rules = ClockRules(parse_duration(answer, "turn limit") if answer else None)
        except ClockError as exc:
            say(str(exc))
            continue
        break
    seed = int.from_bytes(os.urandom(3), "big")
    try:
        info = store.create(game.id, seats, {}, seed, user, rules=rules)
    except StoreError as exc:
        say(f"Not created: {exc}")
        return None
    say(f"Table {info.id} is set: the others find it under Shared tables.")
    return str(info.id)


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
