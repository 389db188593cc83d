"""`boardgames-tui table …`: shared tables from the command line (scriptable).

new, list, show, play, undo, join, invite, rematch, say, export, copy-store, notify, wait,
reclaim, leave, away. Every command first settles what is due by the store's clock (a turn the
computer plays for someone out of time or away, a reminder owed), then sends what notifications
are owed. Exit codes: 0 done; 1 refused (not your seat, not
your turn, an illegal move, the table is over, an unknown table) or a store that cannot be
used; 2 bad usage.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boardgames_tui.engine.core import PUBLIC, get_game
from boardgames_tui.engine.core import saves as saves_mod
from boardgames_tui.engine.tables import (
    ABANDONED,
    FINISHED,
    PLAYING,
    SEED_CHOSEN,
    SEED_REFUSAL,
    WAITING,
    NoStore,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    UnknownTable,
    copy_tables,
    is_server_url,
    listed,
    looks_like_code,
    offered_seats,
    open_store,
    results,
    solo,
    store_location,
    store_path,
    view_for,
)
from boardgames_tui.engine.tables.clock import (
    REASONS,
    ClockError,
    ClockRules,
    clock_paused,
    clock_text,
    deadline,
    limit_text,
    parse_duration,
    pilot_reason,
    seconds_left,
    shown_duration,
)
from boardgames_tui.engine.tables.clock import parse_until as clock_until
from boardgames_tui.engine.tables.computer import (
    computer_to_move,
    lease_owner,
    play_computers,
    settle,
)
from boardgames_tui.session.standings import stats_text, title

EXIT_REFUSED = 1
EXIT_USAGE = 2


class TableUsage(Exception):
    """A table command line that cannot be carried out as written (exit 2)."""


def run_table(args: argparse.Namespace, user: str) -> int:
    """Carry out `table ACTION`; StoreError becomes one line and exit 1."""
    try:
        return _run(args, user)
    except StoreError as exc:
        print(f"boardgames-tui: {_for_room(str(exc), args)}", file=sys.stderr)
        return EXIT_REFUSED
    except TableUsage as exc:
        print(f"boardgames-tui: {_for_room(str(exc), args)}", file=sys.stderr)
        return EXIT_USAGE


def _for_room(text: str, args: argparse.Namespace) -> str:
    """A message as a room's player reads it: the host's paths (the store, the saves
    folder) named, never shown."""
    if not getattr(args, "confine", False):
        return text
    for path, name in (
        (store_location(args.store), "the room's table store"),
        (str(getattr(args, "saves", "") or ""), "your saves folder"),
    ):
        if path:
            text = text.replace(path, name)
    return text


def _run(args: argparse.Namespace, user: str) -> int:
    action = args.action
    if action == "new":
        return _new(args, user)
    if action == "notify":
        with _closing(open_store(args.store, shared_cache=True)) as store:
            code = _notify(store, args, user)
            _after(store, user)
            return code
    if action == "copy-store":
        return _copy_store(args.source, args.target)
    if action == "away":
        with _closing(open_store(args.store, shared_cache=True)) as store:
            code = _away(store, args, user)
            _after(store, user)
            return code
    if action in ("ratings", "stats"):
        if getattr(args, "game", None) is not None:
            try:
                args.game = get_game(args.game).id
            except KeyError as exc:
                raise TableUsage(str(exc)) from None
        found: list[results.TableResult] = []
        try:
            store = open_store(args.store, create_file=False, shared_cache=True)
        except NoStore:  # no table yet: no result either
            pass
        else:
            with _closing(store):
                found = store.results(getattr(args, "game", None))
        if action == "ratings":
            return _ratings(found, args.game, args.json, user)
        return _stats(found, args.user_name or user, args.json)
    if action == "list":
        try:
            store = open_store(args.store, create_file=False, shared_cache=True)
        except StoreUnavailable as exc:
            if not isinstance(exc, NoStore) and (
                is_server_url(store_location(args.store)) or _there(store_path(args.store))
            ):
                raise
            if args.json:
                print("[]")
            else:
                print("No tables yet: create one with `boardgames-tui table new GAME --seats …`.")
            return 0
        with _closing(store):
            settle(store)
            code = _list(store, user, args.json)
            _after(store, user)
            return code
    store = open_store(args.store, create_file=False, shared_cache=True)
    with _closing(store):
        if action not in ("wait", "reclaim"):  # `wait` settles as it waits; a person
            settle(store)  # taking their seat back has their turn, not the computer
        code = _act(store, args, user)
        if action != "wait":  # `wait` has sent what was owed while waiting: it returns at once
            _after(store, user)
        return code


def _act(store: TableStore, args: argparse.Namespace, user: str) -> int:
    action = args.action
    if action == "show":
        return _show(store, args.id, user, args.json)
    if action == "play":
        return _play(store, args.id, user, args.move, args.expect)
    if action == "undo":
        info, _ = store.load(args.id)
        info = store.undo(args.id, user, info.moves)
        print(f"took back move {info.moves + 1} at table {info.id}")
        return 0
    if action == "export":
        return _export(store, args.id, user, args.file)
    if action == "join":
        return _join(store, args, user)
    if action == "wait":
        return _wait(store, user, args.id, args.timeout)
    if action == "propose":
        made, done = store.propose(args.id, user, list(args.change))
        tid = store.info(args.id).id
        if done:
            print(f"done at table {tid}: {made.text}")
        else:
            print(
                f"proposed at table {tid}: {made.text}; waiting for {', '.join(made.waiting_for)}"
            )
        return 0
    if action == "agree":
        made, done = store.agree(args.id, user, not args.no)
        tid = store.info(args.id).id
        if args.no:
            print(f"turned down at table {tid}: {made.text}")
        elif done:
            print(f"agreed and done at table {tid}: {made.text}")
        else:
            print(f"agreed at table {tid}: {made.text}; waiting for {', '.join(made.waiting_for)}")
        return 0
    if action == "cancel":
        info = store.cancel(args.id, user)
        print(f"table {info.id} is cancelled: it is gone, and its players are told")
        return 0
    if action == "reclaim":
        info = store.reclaim(args.id, user)
        seat = info.seat_of(user)
        print(f"you ({user}) play seat {(seat or 0) + 1} at table {info.id} again")
        return 0
    if action == "leave":
        info = store.leave(args.id, user)
        print(
            f"you left table {info.id}: the computer ({info.rules.autopilot}) plays your seat "
            f"from now on (`table reclaim {info.id}` to come back)"
        )
        return 0
    if action == "invite":
        code = store.invite(args.id, user)
        tid = store.info(args.id).id
        print(f"invite code for table {tid} (one seat, once): boardgames-tui table join {code}")
        print(code)
        return 0
    if action == "rematch":
        return _rematch(store, args, user)
    if action == "say":
        talk = store.say(args.id, user, " ".join(args.text))
        print(f"said at table {store.info(args.id).id}: {talk.text}")
        return 0
    raise TableUsage(f"unknown table action {action!r}")


def _after(store: TableStore, user: str, sweep: bool = True) -> None:
    """After the command's own work is committed: settle what is due, end the tables
    abandoned (`sweep`), start a sender for the turn notifications due (this process's or
    anyone's), and tell `user` once about a target of theirs that fails."""
    from boardgames_tui.session.sender import start_sender

    try:
        settle(store)
        if sweep:
            store.end_abandoned()
        start_sender(store)  # in a process of its own: this command does not wait for it
        failing = store.take_failures(user)
    except StoreError:  # the command itself is done; the next reader sends what is owed
        return
    for n, error in failing:
        print(
            f"boardgames-tui: notification target {n} failed ({error}); it is tried again "
            "later (see `table notify list`)",
            file=sys.stderr,
        )


def _remind_hours(text: str) -> float:
    """`--remind HOURS` / `notify remind HOURS`, checked (TableUsage: one line)."""
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 <= hours <= 24 * 365 or hours != hours:
        raise TableUsage(f"remind {text!r}: give hours, 0 (never) or more")
    return hours


def _set_remind(store: TableStore, user: str, text: str) -> None:
    hours = _remind_hours(text)
    store.set_remind(user, hours)
    said = "never" if hours == 0 else f"once after {hours:g} hours waiting on one turn"
    print(f"{user} is reminded {said}")


def _notify(store: TableStore, args: argparse.Namespace, user: str) -> int:
    from boardgames_tui.engine.tables.notify import check_room_target, check_target, send, shown_url

    what = args.notify_action
    if what == "remind":
        if args.hours is None:
            hours = store.remind_hours(user)
            said = "never" if hours == 0 else f"after {hours:g} hours on one turn"
            print(f"{user} is reminded {said} (`table notify remind HOURS`; 0: never)")
            return 0
        _set_remind(store, user, args.hours)
        return 0
    if what == "add":
        try:
            confined = getattr(args, "confine", False)  # the room's host sends it
            url = check_room_target(args.url) if confined else check_target(args.url)
        except StoreError as exc:
            raise TableUsage(str(exc)) from None
        if args.remind is not None:  # checked before anything is stored
            _remind_hours(args.remind)
        n = store.add_target(user, url)
        print(f"target {n} for {user}: {shown_url(url)}")
        if getattr(args, "talk", False):
            store.set_target_talk(user, n, True)
            print(f"target {n} takes the talk at your tables too")
        if args.remind is not None:
            _set_remind(store, user, args.remind)
        return 0
    targets = store.targets(user)
    if what == "talk":
        if not store.set_target_talk(user, args.n, args.state == "on"):
            raise StoreError(
                f"{user} has no notification target {args.n} (see `table notify list`)"
            )
        said = "takes" if args.state == "on" else "no longer takes"
        print(f"target {args.n} {said} the talk at your tables")
        return 0
    if what == "remove":
        if not store.remove_target(user, args.n):
            raise StoreError(
                f"{user} has no notification target {args.n} (see `table notify list`)"
            )
        print(f"removed target {args.n}")
        return 0
    if not targets:
        print(
            f"No notification targets for {user}: add one with `boardgames-tui table notify add URL`."
        )
        return 0 if what == "list" else EXIT_REFUSED
    if what == "list":
        for t in targets:
            state = f"  (failing: {t.error})" if t.error else ""
            talk = "  (and talk)" if t.talk else ""
            print(f"  {t.n}  {shown_url(t.url)}{talk}{state}")
        return 0
    bad = 0
    for t in targets:
        error = send(t.url, "boardgames-tui: a test", f"A test notification for {user}.")
        print(f"  {t.n}  {'sent' if error is None else f'FAILED: {error}'}")
        bad += error is not None
    return EXIT_REFUSED if bad else 0


WAIT_POLL = 0.1
WAIT_RESEND = 5.0  # while waiting, messages due later (retries) are sent this often
WAIT_SETTLE = 1.0  # and turns whose time ran out are settled this often


def _wait(store: TableStore, user: str, table_id: str | None, timeout: float | None) -> int:
    """Until it is `user`'s turn at `table_id` (or at any table): print that table's id."""
    if timeout is not None and timeout < 0:
        raise TableUsage(f"--timeout {timeout:g}: give seconds, 0 or more")
    if table_id is not None:
        table_id = store.info(table_id).id
    start = time.monotonic()
    seen: int | None = None
    resend = start + WAIT_RESEND
    settle_at = start
    while True:
        now = time.monotonic()
        if now >= settle_at:  # a turn may run out with nothing else changing
            settle_at = now + WAIT_SETTLE
            if settle(store):  # moves this process played: its own store's version
                seen = None  # may not show them (SQLite's data_version counts the others')
        version = store.version()
        if version != seen:
            seen = version
            infos = [store.info(table_id)] if table_id else store.tables()
            mine = sorted((i for i in infos if i.your_turn(user)), key=lambda i: i.updated)
            if mine:
                print(mine[0].id, flush=True)  # the one waiting longest
                return 0
            _after(store, user, sweep=False)  # a reader sends what the change owes
            resend = now + WAIT_RESEND
        elif now >= resend:
            resend = now + WAIT_RESEND
            _after(store, user, sweep=False)
        if timeout is not None and now - start >= timeout:
            where = f"at table {table_id}" if table_id else "at any table"
            print(
                f"boardgames-tui: not {user}'s turn {where} within {timeout:g} s",
                file=sys.stderr,
            )
            return EXIT_REFUSED
        time.sleep(WAIT_POLL)


def _there(path: Path) -> bool:
    """The file exists, or cannot be looked for (a folder on its way may not be searched):
    either way, not a store that is simply not made yet."""
    try:
        return path.exists()
    except OSError:
        return True


class _closing:
    def __init__(self, store: TableStore) -> None:
        self.store = store

    def __enter__(self) -> TableStore:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()


def _new(args: argparse.Namespace, user: str) -> int:
    try:
        game = get_game(args.game)
    except KeyError as exc:
        raise TableUsage(str(exc)) from None
    try:
        seats = offered_seats(args.seats, user)
        options = game.check_options(args.parse_options(args.option))
        game.check_players(len(seats))
    except (StoreError, ValueError) as exc:
        raise TableUsage(str(exc)) from None
    rules = _rules(args)
    if args.seed is not None and not solo(seats):
        raise TableUsage(f"--seed: {SEED_REFUSAL}")
    settings = {
        "strict": args.strict,
        "private": args.private,
        "spectators": args.spectators,
        results.UNRATED: args.unrated,
    }
    with _closing(open_store(args.store, shared_cache=True)) as store:
        info = store.create(
            game.id,
            seats,
            options,
            args.seed,  # None: the store draws a secret one
            user,
            settings,
            rules=rules,
            max_open=args.max_open,
            chosen=args.seed is not None,
        )
        if info.status != WAITING:
            play_computers(store, info.id, lease_owner(), None)
        seats_text = ", ".join(s.label for s in info.seats)
        notes = []  # the seed only where it was chosen: a drawn one is nobody's before the end
        if info.seed_kind == SEED_CHOSEN:
            notes.append(f"{info.seed_note}: {info.seed}")
        if rules.turn_limit is not None:
            notes.append(f"{limit_text(rules.turn_limit)} a turn")
        print(f"{game.title} for {seats_text}" + (f" ({', '.join(notes)})" if notes else ""))
        invited = [s.offered for s in info.seats if s.offered]
        if invited:
            print(
                f"seats offered to {', '.join(w for w in invited if w)}: the table starts when "
                f"they accept (`table join {info.id}`)"
            )
        if info.private and info.first_open() is not None:
            print(f"a private table: give the others a code from `table invite {info.id}`")
        print(info.id)
        _after(store, user)
    return 0


def _rules(args: argparse.Namespace) -> ClockRules:
    """`table new`'s clock options, checked (TableUsage: one line)."""
    try:
        limit = None if args.turn_limit is None else parse_duration(args.turn_limit)
        try:
            vacation = float(args.vacation)
        except ValueError:
            raise ClockError(f"--vacation {args.vacation!r}: give days, 0 or more") from None
        if vacation != vacation:  # NaN
            raise ClockError(f"--vacation {args.vacation!r}: give days, 0 or more")
        return ClockRules(limit, args.on_timeout, args.autopilot.lower(), vacation).check()
    except ClockError as exc:
        raise TableUsage(str(exc)) from None


def parse_until(text: str, now: float) -> float:
    """`--until` (see `clock.parse_until`); TableUsage, one line, for anything else."""
    try:
        return clock_until(text, now)
    except ClockError as exc:
        raise TableUsage(str(exc)) from None


def _away(store: TableStore, args: argparse.Namespace, user: str) -> int:
    from boardgames_tui.engine.tables.sqlstore import away_effect, shown_time

    if args.off:
        infos = store.end_away(user)
        if not infos and store.away(user) is None:
            print(f"{user} is back (was not away)")
            return 0
        print(f"{user} is back: your clocks run again and you play your seats yourself")
        return 0
    until = None if args.until is None else parse_until(args.until, store.clock_now())
    infos = store.set_away(user, until)
    when = "until `table away --off`" if until is None else f"until {shown_time(until)}"
    print(f"{user} is away {when}")
    for info in infos:
        seat = info.seats[info.seat_of(user) or 0]
        effect = away_effect(info).replace("them", "you").replace("their", "your")
        if info.rules.vacation > 0 and info.rules.turn_limit is not None:
            left = max(0.0, info.rules.vacation * 86400 - seat.vacation_used)
            effect += f", {shown_duration(left)} of vacation left"
        print(f"  {info.id}  {get_game(info.game).title}: {effect}")
    return 0


def clock_fields(info: TableInfo) -> dict[str, Any]:
    """The clock of the seat to move, for `show --json` and `list --json`."""
    from datetime import UTC, datetime

    due = deadline(info)
    left = seconds_left(info)
    return {
        "turn_limit": info.rules.turn_limit,
        "on_timeout": info.rules.on_timeout,
        "autopilot": info.rules.autopilot,
        "vacation_days": info.rules.vacation,
        "deadline": None
        if due is None
        else datetime.fromtimestamp(due, UTC).isoformat(timespec="seconds"),
        "seconds_left": None if left is None else round(max(0.0, left), 1),
        "clock_paused": clock_paused(info),
        "computer_plays": pilot_reason(info),
    }


def seed_fields(info: TableInfo) -> dict[str, Any]:
    """The seed where it may be shown (after the end, or chosen against computers), else
    None, and where it came from (`secret`, `chosen`, `shown` before store format 6)."""
    return {"seed": info.shown_seed, "seed_kind": info.seed_kind, "rated": not info.seed_chosen}


def _list(store: TableStore, user: str, as_json: bool) -> int:
    groups = listed(store.tables(), user)
    infos = [i for _, i in groups]
    rows: list[dict[str, Any]] = [
        {
            "id": i.id,
            "game": i.game,
            "group": group,
            "status": i.status,
            "moves": i.moves,
            "to_move": i.to_move,
            "your_turn": i.your_turn(user),
            "seats": [s.label for s in i.seats],
            "updated": i.updated,
            "private": i.private,
            "spectators": i.spectators,
            **seed_fields(i),
            "damage": i.damage,
            **clock_fields(i),
        }
        for group, i in groups
    ]
    if as_json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print("No tables yet: create one with `boardgames-tui table new GAME --seats …`.")
        return 0
    heads = {
        "yours": "Your tables",
        "offered": "Seats offered to you (table join ID accepts)",
        "open": "Open tables (join)",
        "others": "Other tables",
        "damaged": "Damaged tables (the others are not affected)",
    }
    last = ""
    for r in rows:
        if r["group"] != last:
            print(f"{heads[r['group']]}:")
            last = r["group"]
        if r["damage"] is not None:
            print(f"  {r['id']}  damaged: {r['damage']}")
            continue
        if r["your_turn"]:
            state = "YOUR TURN"
        elif r["status"] == ABANDONED:
            state = "abandoned"
        elif r["status"] == FINISHED:
            state = "finished"
        elif r["status"] == WAITING:
            state = "waiting for players"
        else:
            state = f"{r['to_move']} to move"
        info = next(i for i in infos if i.id == r["id"])
        if r["status"] != FINISHED and clock_text(info):
            state += f" · {clock_text(info)}"
        elif r["status"] == WAITING and info.rules.turn_limit is not None:
            state += f" · {limit_text(info.rules.turn_limit)} a turn"  # before anyone joins
        title = get_game(r["game"]).title
        if r["private"]:
            state += " (private)"
        if info.seed_note:
            state += f" · {info.seed_note}"
        print(f"  {r['id']}  {title:<28} {', '.join(r['seats']):<32} move {r['moves']:<4} {state}")
    return 0


def table_document(store: TableStore, table_id: str, user: str) -> dict[str, Any]:
    """What `table show --json` prints: the table from `user`'s seat."""
    store.check_watch(table_id, user)
    info, match = store.load(table_id)
    if computer_to_move(info, match):
        try:
            played = play_computers(store, table_id, lease_owner(), None)
        except StoreUnavailable:  # it cannot be changed now (a full disk): shown as it is
            played = 0
        if played:
            info, match = store.load(table_id)
    seat = info.seat_of(user)
    prompt = match.prompt
    mine = prompt is not None and seat == prompt.seat and info.status == PLAYING
    doc: dict[str, Any] = {
        "id": info.id,
        "game": info.game,
        "title": match.game.title,
        "status": info.status,
        "moves": info.moves,
        "to_move": info.to_move,
        "your_seat": seat,
        "seats": [s.label for s in info.seats],
        "strict": info.strict,
        "finished": info.finished,
        **clock_fields(info),
        "seat_clocks": [
            {
                "seat": s.seat,
                "user": s.user,
                "computer_plays": s.pilot,
                "timeouts_in_a_row": s.strikes,
                "vacation_used_days": round(s.vacation_used / 86400, 3),
            }
            for s in info.seats
            if not s.is_bot
        ],
        "legal": [m.id for m in prompt.moves] if mine and prompt else [],
        "prompt": prompt.text if mine and prompt else None,
        "moves_offered": [
            {"id": m.id, "label": m.label, "preview": m.preview} for m in prompt.moves
        ]
        if mine and prompt
        else [],
        "view": view_for(info, match, user),
        # a spectator reads the log as the public does (None would be everything)
        "log": table_log(store, info, match, PUBLIC if seat is None else seat)[-12:],
        "talk": [
            {"user": t.user, "spectator": t.spectator, "at": t.at, "text": t.text}
            for t in store.talk(info.id, user)
        ][-20:],
        "private": info.private,
        "spectators": info.spectators,
        **seed_fields(info),
        "rematch": store.rematch_of(info.id) if info.finished else None,
        **counts_fields(info, match),
        "proposal": _proposal_doc(store, info.id),
    }
    if info.abandoned:
        doc["result"] = {"summary": "abandoned: no move for 30 days", "winners": []}
    elif info.finished:
        res = match.game.result(match.state)
        doc["result"] = {
            "summary": res.summary,
            "winners": [info.seats[w].label for w in res.winners],
        }
    return doc


def _ratings(found: list[results.TableResult], game: str | None, as_json: bool, me: str) -> int:
    """`table ratings [GAME]`: each game's leaderboard (rated tables only)."""
    games = [game] if game else sorted({r.game for r in found})
    doc: list[dict[str, Any]] = []
    for g in games:
        board = results.leaderboard(r for r in found if r.game == g)
        doc.append(
            {
                "game": g,
                "players": [
                    {
                        "player": p.player,
                        "rating": p.shown,
                        "mu": round(p.mu, 3),
                        "sigma": round(p.sigma, 3),
                        "games": p.games,
                        "provisional": p.provisional,
                        "standing": results.standing(p.player, board)
                        if not p.player.startswith(results.COMPUTER)
                        else "",
                    }
                    for p in board
                ],
            }
        )
    if as_json:
        print(json.dumps(doc, indent=1))
        return 0
    if not any(d["players"] for d in doc):
        print("No rated table has finished yet.")
        return 0
    for d in doc:
        if not d["players"]:
            continue
        print(f"{title(d['game'])}")
        print(f"  {'#':>3}  {'player':<24} {'rating':>6}  {'games':>5}")
        for i, p in enumerate(d["players"], 1):
            label = results.player_label(p["player"])
            mark = "?" if p["provisional"] else " "
            you = "  ← you" if p["player"] == me else ""
            where = f"  ({p['standing']})" if p["standing"] else ""
            print(f"  {i:>3}  {label[:24]:<24} {p['rating']:>5}{mark}  {p['games']:>5}{where}{you}")
    print(f"(? provisional: fewer than {results.PROVISIONAL_GAMES} rated games)")
    return 0


def _stats(found: list[results.TableResult], who: str, as_json: bool) -> int:
    """`table stats [USER]`: played, won, win rate, average score and rank, by game and
    player count, the best game, and the co-operative team record."""
    doc = results.stats(who, found)
    if as_json:
        print(json.dumps(doc, indent=1))
        return 0
    if not doc["played"] and not doc["team"]:
        print(f"{who} has no finished table yet.")
        return 0
    print(stats_text(doc))
    return 0


def counts_fields(info: TableInfo, match: Any) -> dict[str, Any]:
    """Whether the table counts for ratings, and why not (`rated`, `unrated_because`)."""
    why = results.counts(info, match)
    return {"rated": not why, "unrated_because": why or None}


def counts_line(doc: Mapping[str, Any]) -> str:
    """One line saying whether the table counts for ratings, and why not."""
    if doc["rated"]:
        return "Rated: this table counts for ratings" + (
            "" if doc["finished"] else " (no hints until it ends)"
        )
    return f"Not rated: {doc['unrated_because']}"


def _proposal_doc(store: TableStore, table_id: str) -> dict[str, Any] | None:
    """The change proposed at the table and who it waits for, or None."""
    made = store.proposal(table_id)
    if made is None:
        return None
    return {
        "kind": made.kind,
        "text": made.text,
        "by": made.made_by,
        "agreed": list(made.agreed),
        "waiting_for": list(made.waiting_for),
    }


def table_log(store: TableStore, info: TableInfo, match: Any, seat: int | None) -> list[str]:
    """The table's log as `seat` reads it (PUBLIC: a spectator; None: everything, for a
    test's record): the moves' lines, "(autopilot)" after a move the
    computer played for a person, and the table's own lines (away, leaving) in their place."""
    lines: list[tuple[int, int, str]] = []
    last = 0
    setup = len(getattr(match.state_at(0), "opening", ()))
    for n, line in match.events(seat):
        if n == 1 and setup:  # the first move's log begins with the setup's lines
            setup -= 1
        elif n in match.autopilot and n != last:
            line = f"{line} (autopilot)"
            last = n
        lines.append((n, 0, line))
    for ev in store.events(info.id):
        lines.append((ev.n, 1, f"· {ev.text}"))
    return [text for _, _, text in sorted(lines, key=lambda x: (x[0], x[1]))]


def _show(store: TableStore, table_id: str, user: str, as_json: bool) -> int:
    doc = table_document(store, table_id, user)
    if as_json:
        print(json.dumps(doc, indent=1, default=str))
        return 0
    from rich.console import Console

    from boardgames_tui.tui.games import ui_for

    console = Console(file=io.StringIO(), width=120, color_system=None)
    ui = ui_for(doc["game"])
    with console.capture() as cap:
        for panel in ui.panels(doc["view"], doc["your_seat"], False):
            console.rule(panel.title)
            console.print(panel.body)
    who = "a spectator" if doc["your_seat"] is None else f"seat {doc['your_seat'] + 1}"
    info = store.info(table_id)
    print(cap.get().rstrip())
    print(f"\nTable {doc['id']} · {doc['title']} · you ({user}) are {who}")
    print(f"Seats: {', '.join(doc['seats'])} · {doc['moves']} moves played")
    if info.seed_note or doc["seed"] is not None:
        said = [info.seed_note or "", "" if doc["seed"] is None else str(doc["seed"])]
        print(f"Seed: {': '.join(x for x in said if x)}")
    for line in doc["log"][-5:]:
        print(f"  ▸ {line}")
    for t in doc["talk"][-5:]:  # talk is marked apart from the moves, and printed as data
        who = f"{t['user']} (watching)" if t["spectator"] else t["user"]
        print(f"  💬 {who}: {t['text']}")
    print(counts_line(doc))
    if doc["rematch"]:
        print(f"Rematch: table {doc['rematch']} (boardgames-tui table join {doc['rematch']})")
    if doc["proposal"]:
        p = doc["proposal"]
        print(
            f"Proposed by {p['by']}: {p['text']}; waiting for {', '.join(p['waiting_for'])} "
            f"(table agree {doc['id']}, or --no)"
        )
    if doc["finished"]:
        print(f"Game over: {doc['result']['summary']}")
    elif doc["status"] == WAITING:
        print("Waiting for players to join the open seats.")
    elif doc["computer_plays"] and doc["your_seat"] == info.to_move_seat:
        print(f"The computer plays your seat: you {REASONS[doc['computer_plays']]}")
        print(f"Take it back with: boardgames-tui table reclaim {doc['id']}")
    elif doc["legal"]:
        if clock_text(info):
            print(f"Clock: {clock_text(info)}")
        print(f"YOUR TURN: {doc['prompt']}")
        for m in doc["moves_offered"]:
            print(f"  {m['id']:<24} {m['label']}")
        print(f"Play one with: boardgames-tui table play {doc['id']} MOVE_ID")
    else:
        clock = f" · {clock_text(info)}" if clock_text(info) else ""
        print(f"{doc['to_move']} to move{clock}")
    return 0


def _play(store: TableStore, table_id: str, user: str, move: str, expect: int | None) -> int:
    """One move by a script, through the same `Session` as every front end; then the
    computers' moves it owes, played here."""
    from boardgames_tui.session.play import Session
    from boardgames_tui.session.source import Refused
    from boardgames_tui.session.table_source import TableSource

    table = TableSource(store, table_id, user, script=True)
    session = Session(table)
    try:
        prompt = session.position.prompt
        label = next((m.label for m in prompt.moves if m.id == move), move) if prompt else move
        session.play(move, expect)
        print(f"played {label} (move {table.info.moves}) at table {table.info.id}")
        for _ in range(10_000):  # a computer's move the store refuses ends it (as elsewhere)
            turn = session.computer()
            if turn is None:
                break
            move_id, _error = session.think(turn)
            session.computer_done(turn, move_id)
    except Refused as exc:
        raise exc.error if isinstance(exc.error, StoreError) else StoreError(str(exc)) from None
    finally:
        session.close()
    info = table.info
    if info.finished:
        print("the game is over")
    elif info.your_turn(user):
        print("your turn again")
    else:
        print(f"{info.to_move} to move")
    return 0


def _export(store: TableStore, table_id: str, user: str, path: str) -> int:
    info, match = store.check_watch(table_id, user), store.load(table_id)[1]
    if info.shown_seed is None:
        raise StoreError(
            f"table {info.id} is still being played: a save carries the seed, which gives "
            "every hand and every draw to come (export it when the game is over)"
        )
    try:
        target = saves_mod.save(match, path)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(target)
    return 0


def _copy_store(source: str, target: str) -> int:
    """Every table of SOURCE into TARGET (a file or a postgresql:// URL), each checked to
    replay to the same digest there."""
    with (
        _closing(open_store(source, create_file=False)) as src,
        _closing(open_store(target)) as dst,
    ):
        done = copy_tables(src, dst)
        print(
            f"copied {len(done)} table(s) from {src.path} to {dst.path}; each replays to "
            "the same digest"
        )
    return 0


def _rematch(store: TableStore, args: argparse.Namespace, user: str) -> int:
    info, made = store.rematch(args.id, user, args.seed, args.max_open, args.seed is not None)
    if not made:
        print(f"table {args.id} has a rematch already: table {info.id}")
        print(info.id)
        return 0
    if info.status != WAITING:
        play_computers(store, info.id, lease_owner(), None)
    who = [s.offered for s in info.seats if s.offered]
    offered = (
        f"; offered to {', '.join(w for w in who if w)} (they accept with `table join {info.id}`)"
    )
    title = get_game(info.game).title
    seed = f" ({info.seed_note}: {info.seed})" if info.seed_kind == SEED_CHOSEN else ""
    print(f"rematch of table {normalize(args.id)}: {title}{seed}{offered if who else ''}")
    print(info.id)
    return 0


def normalize(table_id: str) -> str:
    return table_id.strip().lower()


def _join(store: TableStore, args: argparse.Namespace, user: str) -> int:
    from boardgames_tui.plain import join_table, wanted
    from boardgames_tui.session.terminal import NO_TERMINAL, has_terminal

    plain = wanted(bool(getattr(args, "plain", False)))  # plain lines need no terminal
    if looks_like_code(args.id):  # an invite code: the seat is taken even without a terminal
        tid, seat_n = store.join_code(args.id, user, args.max_open)
        print(f"{user} sits at seat {seat_n + 1} of table {tid}")
        if not plain and not has_terminal():
            print(f"play it with `boardgames-tui table show {tid}` and `table play`")
            return 0
        info = store.info(tid)
    else:
        info = store.info(args.id)
        if info.offered_to(user) is not None and not plain and not has_terminal():
            taken = store.join(info.id, user, args.max_open)  # accepted: by a script too
            print(f"{user} sits at seat {(taken or 0) + 1} of table {info.id}")
            print(f"play it with `boardgames-tui table show {info.id}` and `table play`")
            return 0
    if not plain and not has_terminal():  # before the seat is taken: scripts use `table play`
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    seat = store.join(info.id, user, args.max_open)
    if seat is None:
        store.check_watch(info.id, user)
    if seat is None:
        print(f"no open seat at table {info.id}: watching as a spectator", file=sys.stderr)
    if plain:
        return join_table(store, info.id, user)
    from boardgames_tui.tui.app import BoardgamesApp, Launch

    launch = Launch(saves_dir=args.saves, user=user, store=args.store, table=info.id)
    app = BoardgamesApp(launch)
    app.run()
    return app.return_code or 0


__all__ = ["UnknownTable", "run_table", "table_document"]
