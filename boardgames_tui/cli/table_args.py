"""The `table` subcommand's arguments, apart from its work (`table_cmd`), so that building
the command line does not load the tables' store."""

from __future__ import annotations

from typing import Any


def add_table_parser(sub: Any, options: Any) -> None:
    """The `table` subcommand and its actions (`options`: parses K=V lists)."""
    t = sub.add_parser("table", help="shared tables: one match, each player on their own terminal")
    ts = t.add_subparsers(dest="action", metavar="ACTION", parser_class=type(t))
    ts.required = True
    n = ts.add_parser("new", help="create a table; prints its id as the last line")
    n.add_argument("game")
    n.add_argument(
        "--seats",
        required=True,
        help="per seat: a user, me, open (first to join) or a level (random, greedy, strong)",
    )
    n.add_argument(
        "--seed",
        type=int,
        default=None,
        help="only at a table of you against computers (marked, never rated): elsewhere the "
        "store draws a secret one",
    )
    n.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    n.add_argument("--strict", action="store_true", help="no undo at this table")
    n.add_argument(
        "--unrated",
        action="store_true",
        help="the table does not count for ratings (a table with --seed never does)",
    )
    n.add_argument(
        "--turn-limit",
        metavar="DURATION",
        default=None,
        help="time per turn, e.g. 90s, 10m, 24h, 2d (default: no clock)",
    )
    n.add_argument(
        "--on-timeout",
        metavar="POLICY",
        default="computer",
        help="when a turn's time runs out: computer (plays that turn; the default) or wait",
    )
    n.add_argument(
        "--autopilot",
        metavar="LEVEL",
        default="greedy",
        help="the computer level that plays for someone absent or out of time (default greedy)",
    )
    n.add_argument(
        "--vacation",
        metavar="DAYS",
        default="14",
        help="days per seat the clock may pause while its owner is away (default 14; 0: none, "
        "the computer plays for them)",
    )
    n.add_argument(
        "--private",
        action="store_true",
        help="not listed among the open tables: others join with a code (`table invite`)",
    )
    n.add_argument(
        "--spectators",
        choices=("none", "players", "anyone"),
        default="anyone",
        help="who may watch: nobody, players (anyone with a seat at a table here), anyone",
    )
    _max_open(n)
    ls = ts.add_parser("list", help="your tables (your turn first), open tables, others")
    ls.add_argument("--json", action="store_true")
    sh = ts.add_parser("show", help="the table from your seat")
    sh.add_argument("id")
    sh.add_argument("--json", action="store_true")
    p = ts.add_parser("play", help="play a move (its id, as `show` lists them)")
    p.add_argument("id")
    p.add_argument("move")
    p.add_argument(
        "--expect", type=int, default=None, help="refuse unless exactly this many moves are played"
    )
    u = ts.add_parser("undo", help="take back your own last move (if nothing happened since)")
    u.add_argument("id")
    j = ts.add_parser(
        "join", help="sit down (an open seat, a rematch offered to you, or an invite code)"
    )
    j.add_argument("id", metavar="ID|CODE", help="a table id, or an invite code (abcd-efgh)")
    _max_open(j)
    inv = ts.add_parser("invite", help="a code that lets one person take an open seat (once)")
    inv.add_argument("id")
    r = ts.add_parser(
        "rematch",
        help="after a table ends: the same game and people, the next seat starting; prints its id",
    )
    r.add_argument("id")
    r.add_argument(
        "--seed", type=int, default=None, help="as `table new --seed`: only against computers"
    )
    _max_open(r)
    say = ts.add_parser("say", help="say something at the table (at most 200 characters)")
    say.add_argument("id")
    say.add_argument("text", nargs="+")
    e = ts.add_parser("export", help="write the table as a save file (review, check, load)")
    e.add_argument("id")
    e.add_argument("file")
    c = ts.add_parser(
        "copy-store",
        help="copy every table from one store to another (files, postgresql:// URLs), "
        "checking each replays to the same digest",
    )
    c.add_argument("source", help="a SQLite file or postgresql://USER@HOST/DB?schema=NAME")
    c.add_argument("target")
    no = ts.add_parser("notify", help="where your turn notifications go (Apprise URLs)")
    nos = no.add_subparsers(dest="notify_action", metavar="ACTION", parser_class=type(t))
    nos.required = True
    na = nos.add_parser("add", help="send your turn notifications to URL too")
    na.add_argument("url", help="an Apprise URL: ntfy://TOPIC, mailto://…, json://HOST:PORT/…")
    na.add_argument(
        "--remind",
        metavar="HOURS",
        default=None,
        help="one reminder after HOURS waiting on your turn (default 24; 0: none)",
    )
    na.add_argument("--talk", action="store_true", help="the talk at your tables goes to URL too")
    nt = nos.add_parser("talk", help="whether target N takes the talk at your tables too")
    nt.add_argument("n", type=int)
    nt.add_argument("state", choices=("on", "off"))
    nos.add_parser("list", help="your targets, numbered, secrets masked")
    nos.add_parser("test", help="send a test message to every target now")
    nr = nos.add_parser("remove", help="stop sending to target N (see list)")
    nr.add_argument("n", type=int)
    nrm = nos.add_parser(
        "remind", help="one reminder after HOURS waiting on your turn (default 24; 0: none)"
    )
    nrm.add_argument("hours", nargs="?", default=None, help="hours (omit to see the setting)")
    pr = ts.add_parser(
        "propose",
        help="propose a change the players agree to: limit DURATION|none, pause, resume, "
        "or seat N USER (a seat whose player left, to a new player)",
    )
    pr.add_argument("id")
    pr.add_argument("change", nargs="+")
    ag = ts.add_parser(
        "agree", help="agree to the change proposed at the table (--no: turn it down)"
    )
    ag.add_argument("id")
    ag.add_argument("--no", action="store_true")
    cx = ts.add_parser("cancel", help="take back a table you made, before its game begins")
    cx.add_argument("id")
    rc = ts.add_parser("reclaim", help="take back your seat the computer plays for you")
    rc.add_argument("id")
    lv = ts.add_parser("leave", help="give your seat to the computer for good; the game goes on")
    lv.add_argument("id")
    aw = ts.add_parser(
        "away",
        help="you are away: your clocks pause (vacation) or the computer plays for you",
    )
    awg = aw.add_mutually_exclusive_group()
    awg.add_argument(
        "--until",
        metavar="DATE",
        default=None,
        help="back at DATE (2026-12-24, '2026-12-24 18:00') or after a duration (3d, 12h)",
    )
    awg.add_argument("--off", action="store_true", help="you are back")
    w = ts.add_parser("wait", help="wait until it is your turn (at ID, or anywhere); prints the id")
    w.add_argument("id", nargs="?")
    w.add_argument("--timeout", type=float, default=None, help="give up after S seconds (exit 1)")
    ra = ts.add_parser("ratings", help="each game's ratings (rated tables between people)")
    ra.add_argument("game", nargs="?", default=None, help="one game's only")
    ra.add_argument("--json", action="store_true")
    st = ts.add_parser("stats", help="a player's statistics (yours by default)")
    st.add_argument("user_name", nargs="?", default=None, metavar="USER")
    st.add_argument("--json", action="store_true")
    t.set_defaults(parse_options=options)


def _max_open(p: Any) -> None:
    p.add_argument(
        "--max-open",
        type=int,
        default=None,
        metavar="N",
        help="refuse past N unfinished tables per user (default 30; 0: no limit)",
    )
