"""No leaks: what is drawn for a seat never depends on what that seat may not see.

For many random positions of every game with private information, the state is resampled
with `determinize` (hidden parts redrawn from what the seat knows). The view and the rendered
board for that seat, and for the public, must be identical for both states: if anything hidden
were drawn, the two renderings would differ. The log events and the hand-over screen are
checked too, and then every surface of the app (see below).
"""

from __future__ import annotations

import asyncio
import difflib
import functools
import io
import pickle
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from boardgames_tui.engine.core import HUMAN, PUBLIC, IllegalMove, Match, Seat, all_games, get_game
from boardgames_tui.engine.core.protocol import may_read
from boardgames_tui.plain.lines import Output
from boardgames_tui.plain.session import PlainSession
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.widgets.board import BoardView
from tests.conformance.twins import differs, sampled_view_differs

# every installed title where a seat sees something the others may not
GAMES = [g.id for g in all_games() if g.has_private_info]


def render(game_id: str, view: Mapping[str, Any], viewer: int, compact: bool) -> str:
    console = Console(width=120, file=io.StringIO(), color_system=None)
    ui = ui_for(game_id)
    with console.capture() as cap:
        console.print(ui.status(view))
        for panel in ui.panels(view, viewer, compact):
            console.print(panel.title)
            console.print(panel.body)
    return cap.get()


PLAIN = (dict, list, tuple, str, int, float, bool, type(None))


def plain_data(v: object) -> bool:
    """Whether `v` is made of plain values only (its `repr` then says all of it)."""
    if isinstance(v, dict):
        return all(plain_data(k) and plain_data(x) for k, x in v.items())
    if isinstance(v, list | tuple):
        return all(map(plain_data, v))
    return isinstance(v, PLAIN)


def drawn_alike(
    game_id: str, a: Mapping[str, Any], b: Mapping[str, Any], viewer: int, compact: bool
) -> bool:
    """Whether the views `a` and `b` draw the same board for `viewer`. `a` is drawn, and `b`
    too unless both are plain data with the same `repr` (the same values of the same types
    in the same order, which draw the same text): what equal views may still differ in (`1`
    for `True`, another order of keys, an object of the game's) is drawn and compared."""
    text = render(game_id, a, viewer, compact)
    if plain_data(a) and plain_data(b) and repr(a) == repr(b):
        return True
    return text == render(game_id, b, viewer, compact)


def positions(game_id: str, players: int, seed: int, every: int):  # type: ignore[no-untyped-def]
    game = get_game(game_id)
    state = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), seed)
    rng = random.Random(seed)
    n = 0
    while (p := game.prompt(state)) is not None:
        if n % every == 0:
            yield state, p
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        n += 1


@pytest.mark.parametrize("game_id", GAMES)
def test_rendered_board_ignores_hidden_information(game_id: str) -> None:
    game = get_game(game_id)
    checked = 0
    # about 8 positions of a game (a long one sampled thinly), a short game (under 60 moves,
    # the example plug-in) at every decision, and one of a dozen moves over more games
    length = len(list(positions(game_id, game.min_players, 0, every=1)))
    every = 1 if length < 60 else length // 8
    games = 2 if length >= 20 else 6
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(games):
            for state, prompt in positions(game_id, players, seed, every=every):
                seat = prompt.seat
                other = game.determinize(state, seat, random.Random(seed * 1000 + checked))
                v1, v2 = game.view(state, seat), game.view(other, seat)
                assert v1 == v2, sampled_view_differs(game_id, seat, v1, v2)
                compact = checked % 2 == 0
                assert drawn_alike(game_id, v1, v2, seat, compact)
                # what every seat may see is part of what this seat sees
                p1, p2 = game.view(state, PUBLIC), game.view(other, PUBLIC)
                assert p1 == p2, f"{game_id}: the public view shows something hidden"
                if checked % 5 == 0:
                    assert drawn_alike(game_id, p1, p2, PUBLIC, compact)
                # the decision offered must not depend on hidden parts either
                assert [m.id for m in prompt.moves] == [m.id for m in game.prompt(other).moves]
                checked += 1
    assert checked > 60


@pytest.mark.parametrize("game_id", GAMES)
def test_log_lines_for_a_seat_ignore_hidden_information(game_id: str) -> None:
    """Private events read by another seat are the public version, never the private text."""
    game = get_game(game_id)
    n = game.min_players + 1
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(n)], seed=5)
    rng = random.Random(5)
    private = 0
    while m.prompt is not None:
        step = m.play(rng.choice(m.prompt.moves).id)
        for ev in step.events:
            if ev.readers is None:
                continue
            private += 1
            for viewer in [*range(n), PUBLIC]:
                line = ev.for_seat(viewer)
                if viewer not in ev.readers:
                    assert line == ev.public
                    assert line != ev.text or ev.public == ev.text
    assert private > 0


@pytest.mark.parametrize("game_id", GAMES)
async def test_handover_screen_draws_nothing_private(game_id: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.dialogs import HandoverScreen

    game = get_game(game_id)
    n = max(3, game.min_players)
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(n)], seed=2)
    rng = random.Random(2)
    while m.prompt is not None and m.cursor < 25:
        m.play(rng.choice(m.prompt.moves).id)
    while m.prompt is None or not m.prompt.private:  # a short game: its last private decision
        m.undo()
    m.truncate()
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        text = app.export_screenshot()
        seat = m.prompt.seat
        # nothing of the board is drawn: no panel title, no move label, no log line
        board = render(game_id, game.view(m.state, seat), seat, False)
        for line in board.splitlines():
            line = line.strip()
            if len(line) > 12:
                assert line not in text
        for move in m.prompt.moves:
            if len(move.label) > 6:
                assert move.label not in text


# ---- every surface of the app --------------------------------------------------------------
# At a sampled point of a seeded game for every game and player count, every screen is drawn
# as the seat that may look, for the real match and for a twin that this seat cannot tell
# apart from it: another seat's private move of the recent past chosen differently (the
# seat's view is the same after every move), and the positions shown resampled by
# `determinize`. The plain text on the terminal, and the whole review list and log (not only
# their visible part), must be identical.

SURFACE_GAMES = [*GAMES, *(g.id for g in all_games() if g.id not in GAMES)]
WIDE, COMPACT = (120, 40), (80, 24)
FROZEN = 10**6  # seconds a computer waits before playing: no move happens while we look
# the three ways a screen is read; the player counts of a game take them in turn
SETTINGS = ("hotseat", "computers", "public")
# where a game is sampled, as a share of its length: early at an even player count, later at
# an odd one; and how many decisions on from there are tried for one with a twin of its past
EARLY, LATE = 0.2, 0.4
TRIES = 40
RECENT = 59  # how far back another seat's private move is looked for


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    """The terminal as plain text (what `export_screenshot` draws, without the SVG), but for
    the footer of keys, which Textual may draw a frame later."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True)
    with console.capture() as cap:
        console.print(
            app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
        )
    return "\n".join(Text.from_ansi(cap.get()).plain.splitlines()[:-1])


def copy_match(m: Match, upto: int | None = None) -> Match:
    """A copy of `m` (of its first `upto` moves), to change without touching `m`."""
    n = m.cursor if upto is None else upto
    t = Match(m.game, list(m.seats), dict(m.options), m.seed, list(m.snaps[: n + 1]))
    t.steps, t.cursor, t.settings = list(m.steps[:n]), n, dict(m.settings)
    return t


def history_twin(m: Match, viewer: int) -> Match:
    """`m` with one recent private move of another seat chosen differently, such that
    `viewer`'s view is the same after every move; `m` itself when no recent move allows it."""
    game, ids = m.game, m.move_ids()
    back = max(0, m.cursor - RECENT)  # the views of the moves a twin may differ after
    seen = {k: game.view(m.state_at(k), viewer) for k in range(back, m.cursor + 1)}
    tried = 0
    for j in range(m.cursor - 1, back - 1, -1):
        step = m.steps[j]
        if step.public is None or may_read(viewer, step.seat):
            continue
        tried += 1
        for alt in game.prompt(m.state_at(j)).moves:
            if alt.id == step.move_id:
                continue
            t = copy_match(m, j)
            try:
                for move_id in [alt.id, *ids[j + 1 :]]:
                    t.play(move_id)
            except IllegalMove:
                continue
            if all(game.view(t.state_at(k), viewer) == seen[k] for k in range(j + 1, t.cursor + 1)):
                return t
        if tried == 12:
            break
    return m


def twin_of(m: Match, viewer: int, indexes: list[int]) -> tuple[Match, str]:
    """A match `viewer` cannot tell from `m`, and how it differs."""
    t = history_twin(m, viewer)
    how = "another private move" if t is not m else ""
    t = copy_match(t)
    # the public view is part of every seat's: resample for the seat to move
    seat = m.prompt.seat if viewer == PUBLIC else viewer
    rng = random.Random(m.cursor)
    for i in indexes:
        t.snaps[i] = pickle.dumps(m.game.determinize(t.state_at(i), seat, rng))
    t._recent.clear()
    t._live = None
    assert [t.game.digest(t.state_at(i)) for i in indexes] != [
        m.game.digest(m.state_at(i)) for i in indexes
    ], "the twin is no different"
    return t, " and ".join(x for x in (how, "determinized") if x)


def seated(m: Match, setting: str) -> tuple[Match, int]:
    """`m` with the seats of `setting`, and who reads the screen then."""
    t = copy_match(m)
    seat, n = m.prompt.seat, len(m.seats)
    people = {"hotseat": set(range(n)), "computers": {(seat + 1) % n}}.get(setting, set())
    t.seats = [Seat(s.name, HUMAN if i in people else "random") for i, s in enumerate(m.seats)]
    viewer = {"hotseat": seat, "computers": (seat + 1) % n}.get(setting, PUBLIC)
    return t, viewer


def _length(game_id: str, players: int) -> int:
    """The number of moves of the seeded random game `sample_point` samples."""
    game = get_game(game_id)
    state = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), players)
    rng, n = random.Random(players), 0
    while (p := game.prompt(state)) is not None:
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        n += 1
    return n


@functools.cache
def sample_point(game_id: str, players: int) -> Match:
    """A point of a seeded random game, chosen alike for every title (no game named): from
    `EARLY` (even player count) or `LATE` (odd) of the game's length on, the first decision
    where another seat's recent private move has a twin (`history_twin`), a private decision
    but for a spectator's reading; else the first private decision tried, else the point
    the share names (a title without private information). Do not change the match returned
    (it is cached): `seated` and `copy_match` make the copies the tests change."""
    setting = SETTINGS[players % 3]
    length = _length(game_id, players)
    stop = int(length * (EARLY if players % 2 == 0 else LATE))
    rng = random.Random(players)
    m = Match.new(game_id, [Seat(f"P{i}") for i in range(players)], seed=players)
    tried, first = 0, None
    while m.prompt is not None and tried < TRIES:
        if m.cursor >= stop and (m.prompt.private or setting == "public"):
            first = m.cursor if first is None else first
            probe, viewer = seated(m, setting)
            if history_twin(probe, viewer) is not probe:
                break
            tried += 1
        m.play(rng.choice(m.prompt.moves).id)
    back_to = stop if first is None else first if m.prompt is None or tried == TRIES else m.cursor
    while m.cursor > back_to or m.prompt is None:
        m.undo()
    m.truncate()
    return m


def _plain(renderable: object) -> str:
    """A renderable (a move list's row) as one line of plain text, spaces folded."""
    console = Console(width=400, color_system=None, file=io.StringIO())
    with console.capture() as cap:
        console.print(renderable)
    return " ".join(cap.get().split())


def lines(widget) -> list[str]:  # type: ignore[no-untyped-def]
    """Every line of a RichLog or an OptionList, scrolled out of sight or not."""
    if hasattr(widget, "option_count"):
        return [_plain(widget.get_option_at_index(i).prompt) for i in range(widget.option_count)]
    return [strip.text for strip in widget.lines]


async def review_surfaces(app, pilot, out: dict[str, str], indexes: list[int]) -> None:  # type: ignore[no-untyped-def]
    """The review screen on top: its whole move list, and the screen at each of `indexes`."""
    from boardgames_tui.tui.screens.review import ReviewScreen

    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    out["review list"] = "\n".join(lines(screen.query_one("#review-moves")))
    for i in indexes:
        screen.show_index(i)
        await pilot.pause()
        out[f"review screen at move {i}"] = screen_text(app)


async def surfaces(
    matches: list[Match], setting: str, indexes: list[int], tmp: str
) -> list[dict[str, str]]:
    """Every surface of each match as `setting` shows it: 'hotseat' (people only, hand-over
    screens: the seat to move reads), 'computers' (one person against computers, and not to
    move: that person reads while a computer thinks) or 'public' (a game of computers only, and
    its review from the menu or the command line: a spectator reads). Each match in an app of
    its own, the apps side by side in one event loop, step for step: the waits for an app to
    settle (until the whole process is idle) are waited once for both."""
    return list(
        await asyncio.gather(
            *(one_match(m, setting, indexes, f"{tmp}/{k}") for k, m in enumerate(matches))
        )
    )


async def one_match(m: Match, setting: str, indexes: list[int], tmp: str) -> dict[str, str]:
    """Every surface of `m` as `setting` shows it, in an app of its own (see `surfaces`)."""
    from textual.widgets import RichLog

    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.dialogs import HandoverScreen
    from boardgames_tui.tui.screens.game import GameScreen

    out: dict[str, str] = {}
    app = BoardgamesApp(Launch(saves_dir=tmp, bot_delay=FROZEN))
    async with app.run_test(size=WIDE) as pilot:
        app.start_match(m, handover=True)
        await pilot.pause()
        if isinstance(app.screen, HandoverScreen):
            out["hand-over"] = screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        # the game screen: status line, board, the decision or the thinking line, log
        await pilot.pause()  # the log scrolls to its end after it is laid out
        out["game screen"] = screen_text(app)
        out["log"] = "\n".join(lines(game.query_one(RichLog)))
        await pilot.press("e")  # the results: no end screen before the end
        assert app.screen is game
        if setting == "computers":
            await pilot.press("question_mark")
            out["help"] = screen_text(app)
            await pilot.press("escape")
        if setting == "public":  # the review of an unfinished game from the menu
            app.review_match(m)
        else:
            await pilot.press("v")
        await pilot.pause()
        await review_surfaces(app, pilot, out, indexes)
        await pilot.press("escape")
        await pilot.resize_terminal(*COMPACT)
        await pilot.pause()
        await pilot.pause()
        out["compact game screen"] = screen_text(app)
        out["compact panels"] = game.query_one("#board", BoardView).all_text()  # every tab
    return out


# every player count of the games where seats hide things from each other; the co-op game,
# whose face-down stacks nobody sees, at its largest table
CASES = [(g, n) for g in GAMES for n in range(get_game(g).min_players, get_game(g).max_players + 1)]
CASES += [(g, get_game(g).max_players) for g in SURFACE_GAMES[len(GAMES) :]]


@pytest.mark.parametrize("game_id, players", CASES)
async def test_every_surface_ignores_hidden_information(
    game_id: str, players: int, tmp_path: Path
) -> None:
    setting = SETTINGS[players % 3]
    m, viewer = seated(sample_point(game_id, players), setting)
    c = m.cursor
    indexes = sorted({c, c - 1, c // 2})
    twin, how = twin_of(m, viewer, indexes)
    real, seen = await surfaces([m, twin], setting, indexes, str(tmp_path))
    assert seen.keys() == real.keys()
    for surface, text in real.items():
        assert seen[surface] == text, (
            differs(
                f"{game_id} {players}p {setting}, move {c} ({how})", surface, text, seen[surface]
            )
            + "\n"
            + diff(text, seen[surface])
        )


def diff(a: str, b: str) -> str:
    """The first lines where two renderings differ."""
    return "\n".join(
        difflib.unified_diff(a.splitlines(), b.splitlines(), "real", "twin", n=0, lineterm="")
    )[:1500]


# ---- the plain mode (issue 35): every line it says, per seat ---------------------------------
def plain_surfaces(m: Match, viewer: int | None, hotseat: bool, tmp: str) -> dict[str, str]:
    """What the plain mode says for `viewer` at this point (used by the leak test)."""
    out = Output()
    feed = iter(["", "", ""])
    m.settings["handover"] = hotseat
    session = PlainSession(m, lambda t: next(feed, None), out, tmp)
    found: dict[str, str] = {}

    def take(name: str, act: Callable[[], object]) -> None:
        start = len(out.lines)
        act()
        found[name] = "\n".join(out.lines[start:])

    take("intro", session.intro)
    if hotseat:
        take("hand-over", session.step)  # "Pass to …", Enter, the recap
        take("decision", session.step)
    else:
        session.viewer = viewer
    for command in ("board", "hand", "scores", "status", "log 100000", "review"):
        take(command, lambda c=command: session.command(c))  # type: ignore[misc]
    take("review, the move before", lambda: session.review_command("prev"))
    take("review, its board", lambda: session.review_command("board"))
    session.review_command("done")
    found["review list"] = "\n".join(session.review_lines())
    assert viewer == PUBLIC or session.viewer == viewer
    return found


@pytest.mark.parametrize("game_id, players", CASES)
def test_the_plain_mode_ignores_hidden_information(game_id: str, players: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same twins as above, read through the plain mode: the hand-over and the recap
    after it, the question, the board, the hand, the scores, the whole log and review."""
    setting = SETTINGS[players % 3]
    m, viewer = seated(sample_point(game_id, players), setting)
    c = m.cursor
    twin, how = twin_of(m, viewer, sorted({c, c - 1, c // 2}))
    hotseat = setting == "hotseat"
    real = plain_surfaces(m, viewer, hotseat, str(tmp_path))
    seen = plain_surfaces(twin, viewer, hotseat, str(tmp_path))
    assert seen.keys() == real.keys()
    for surface, text in real.items():
        assert seen[surface] == text, (
            differs(
                f"{game_id} {players}p {setting}, move {c} ({how})",
                f"plain {surface}",
                text,
                seen[surface],
            )
            + "\n"
            + diff(text, seen[surface])
        )


# ---- the reproductions of issue 13 ---------------------------------------------------------


async def test_review_shows_another_seats_face_down_investment_publicly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """1347 hotseat: Ann puts her 4-point token in Burgus; Bob's review names no value."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.review import ReviewScreen

    m = Match.new("1347", [Seat("Ann"), Seat("Bob")], seed=3)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        # Ann takes the keyboard, invests her 4-point token in Burgus unreinforced, hands over
        await pilot.press("enter", "1", "2", "1", "enter", "v")
        await pilot.pause()
        assert [s.move_id for s in m.steps] == ["token:4", "area:burgus", "reinf:0"]
        assert isinstance(app.screen, ReviewScreen)
        listed = lines(app.screen.query_one("#review-moves"))
        assert listed[1:] == [
            "1 Ann: a hidden choice (Investments)",
            "2 Ann: a hidden choice (Investments)",
            "3 Ann invests a token in Burgus.",
        ]
        assert "4-point" not in screen_text(app)


async def test_review_shows_another_seats_face_down_cards_publicly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rattus Cartus hotseat: Ann commits a Chivalry card; Bob's review and log say only
    that she placed a card face down."""
    from textual.widgets import RichLog

    from boardgames_tui.tui.app import BoardgamesApp, Launch

    m = Match.new("rattus-cartus", [Seat("Ann"), Seat("Bob")], seed=3)
    for move_id in ("supply:1", "look:1", "supply:1", "look:1", "enter:1", "commit:chivalry"):
        m.play(move_id)
    m.play("done")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")  # Bob takes the keyboard
        await pilot.pause()
        log = " ".join(" ".join(lines(app.screen.query_one(RichLog))).split())
        assert "Ann places 1 card face down in Palace" in log
        await pilot.press("v")
        await pilot.pause()
        listed = "\n".join(lines(app.screen.query_one("#review-moves")))
        assert "6 Ann: a hidden choice (Enter buildings)" in listed
        assert "7 Ann places 1 card face down in Palace [1]" in listed
        for text in (log, listed, screen_text(app)):  # (Bob holds Chivalry cards himself)
            assert "Commit" not in text and "Ann: Chivalry" not in text


async def test_thinking_line_names_only_the_computer_and_the_phase(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """1347 against a computer: while Ann (computer) places her 3-point token, Bob reads who
    thinks and the phase, not her question; nor does the help screen show it."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.widgets.picker import MovePicker

    m = Match.new("1347", [Seat("Ann", "random"), Seat("Bob")], seed=3)
    m.play("token:3")
    assert "3-point" in m.prompt.text
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=FROZEN))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        title = app.screen.query_one(MovePicker).query_one("#picker-title").render()
        assert str(title) == "Ann (computer) is thinking · Investments"
        assert "3-point" not in screen_text(app)
        await pilot.press("question_mark")
        assert "Now: Investments — Ann: a hidden choice (Investments)" in screen_text(app)
        assert "3-point" not in screen_text(app)


async def test_review_of_an_unfinished_game_from_the_menu_is_public(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Nobody at the table opened it: no seat's hand, no seat's private moves."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.review import ReviewScreen

    m = Match.new("1347", [Seat("Ann"), Seat("Bob")], seed=3)
    for move_id in ("token:4", "area:burgus", "reinf:0", "token:2"):
        m.play(move_id)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, review=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and app.screen.viewer == PUBLIC
        text = screen_text(app) + "\n".join(lines(app.screen.query_one("#review-moves")))
        assert "Your reserve" not in text and "point token" not in text
        assert "Ann invests a token in Burgus." in text
