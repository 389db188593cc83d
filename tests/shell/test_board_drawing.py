"""How boards are drawn, checked on every game's boards.

A `Fit` tells whether a form fits by measuring it when its kind makes that certain: the
measured verdict must be the one drawing the form gives. The console that keeps the lines
of cell texts must draw exactly what Rich draws, the first time and from what it kept.

Every form of every `Fit` in the panels of seeded random games (each title, its fewest and
most players, early and late, wide and compact), at widths from narrow to wide, is judged both ways.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.games.elements import Fit, _measured_fit
from boardgames_tui.tui.kept import KeptConsole, natural_widths

GAMES = [
    g for g in ("notre-dame", "rattus-cartus", "cathedral-of-orleans", "1347") if g in game_ids()
]
WIDTHS = (24, 40, 56, 72)


def parts_of(body: object) -> Iterator[object]:
    """A panel's body and every renderable within it: a group's parts, a table's cells, a
    padding's content, each form of a `Fit`."""
    yield body
    inner: list[object] = []
    if isinstance(body, Fit):
        inner = list(body.forms)
    elif isinstance(body, Group):
        inner = list(body.renderables)
    elif isinstance(body, Table):
        inner = [cell for column in body.columns for cell in [column.header, *column.cells]]
    elif isinstance(body, Padding):
        inner = [body.renderable]
    for part in inner:
        yield from parts_of(part)


def fits_in(body: object) -> Iterator[Fit]:
    """Every `Fit` in a panel's body, nested ones too."""
    return (part for part in parts_of(body) if isinstance(part, Fit))


def positions(game_id: str, players: int) -> Iterator[Match]:
    """A seeded random game of `players`, stopped early and at its end."""
    match = Match.new(game_id, [Seat(f"P{i + 1}") for i in range(players)], seed=players + 3)
    rng = random.Random(players)
    while match.prompt is not None:
        moves = match.prompt.moves
        match.play(moves[rng.randrange(len(moves))].id)
    end = match.length
    for point in (0.3, 1.0):
        match.goto(int(end * point))
        yield match


def leaves(form: object) -> Iterator[object]:
    """The parts of a form that a `Fit` measures one by one (a group's parts)."""
    if isinstance(form, Group):
        for part in form.renderables:
            yield from leaves(part)
    else:
        yield form


def drawn_whole(console: Console, form: object, width: int, endless: list[str]) -> bool:
    """Whether `form` drawn at `width` shows all it shows on an `endless` line: the same
    lines for a table (a squeezed table cuts cells with `…`, or drops a narrow column
    without one), no `…` of its own for text that wraps."""
    lines = plain(console, form, width)
    if isinstance(form, Table):
        return lines == endless
    return "".join(lines).count("…") <= "".join(endless).count("…")


def plain(console: Console, form: object, width: int) -> list[str]:
    options = console.options.update(width=width, min_width=1, max_width=width, markup=False)
    lines = console.render_lines(form, options, pad=False)  # type: ignore[arg-type]
    return ["".join(segment.text for segment in line).rstrip() for line in lines]


@pytest.mark.parametrize("game_id", GAMES)
def test_measured_fit_is_the_drawn_fit(game_id: str) -> None:
    console = Console(width=120, color_system=None, file=io.StringIO(), markup=False)
    ui = ui_for(game_id)
    game = get_game(game_id)
    verdicts: dict[tuple[bool, bool], int] = {}  # (a table, its verdict): how many
    for players in sorted({game.min_players, game.max_players}):
        for match in positions(game_id, players):
            for compact in (False, True):
                for panel in ui.panels(match.view(0), 0, compact):
                    for fit in fits_in(panel.body):
                        for part in (leaf for form in fit.forms for leaf in leaves(form)):
                            endless = plain(console, part, 10_000)
                            for width in WIDTHS:
                                options = console.options.update(
                                    width=width, min_width=1, max_width=width, markup=False
                                )
                                measured = _measured_fit(console, options, part)
                                if measured is None:
                                    continue
                                whole = drawn_whole(console, part, width, endless)
                                assert measured == whole, (game_id, players, panel.key, width)
                                at = (isinstance(part, Table), measured)
                                verdicts[at] = verdicts.get(at, 0) + 1
    # where the measure decides tables, it finds ones that fit and ones that do not
    assert verdicts, "no part of this game's boards was measured"
    if any(table for table, _ in verdicts):
        assert verdicts.get((True, True)) and verdicts.get((True, False)), verdicts


@pytest.mark.parametrize("game_id", GAMES)
def test_kept_lines_are_the_lines_rich_draws(game_id: str) -> None:
    rich = Console(width=120, file=io.StringIO(), force_terminal=True, safe_box=False)
    kept = KeptConsole()
    ui = ui_for(game_id)
    game = get_game(game_id)
    hits = 0
    for players in sorted({game.min_players, game.max_players}):
        for match in positions(game_id, players):
            for compact in (False, True):
                for panel in ui.panels(match.view(0), 0, compact):
                    for width in (40, 72):
                        options = rich.options.update(
                            width=width, min_width=1, max_width=width, markup=False
                        )
                        drawn = rich.render_lines(panel.body, options, pad=False)
                        before = len(kept._kept)
                        assert kept.render_lines(panel.body, options, pad=False) == drawn
                        assert kept.render_lines(panel.body, options, pad=False) == drawn
                        hits += len(kept._kept) == before
    assert hits, "no panel was drawn from kept lines alone"


def test_kept_lines_tell_apart_texts_that_read_the_same() -> None:
    """Cells of the same words in other colours, spans, alignment or padding."""
    rich = Console(width=40, file=io.StringIO(), force_terminal=True, safe_box=False)
    kept = KeptConsole()
    cells: list[object] = [
        Text("Ann 3"),
        Text("Ann 3", style="red"),
        Text("Ann 3", style="blue"),
        Text.assemble(("Ann", "bold"), " 3"),
        Text.assemble("Ann ", ("3", "italic")),
        Text("Ann 3", justify="right"),
        "Ann 3",
        Padding(Text("Ann 3"), (0, 2)),
    ]
    for width in (12, 3):
        options = rich.options.update(width=width, min_width=1, max_width=width)
        for cell in cells + cells:  # the second round is drawn from what was kept
            table = Table.grid()
            table.add_column(justify="center")
            table.add_row(cell)  # type: ignore[arg-type]
            assert kept.render_lines(table, options) == rich.render_lines(table, options)


def tables_in(body: object) -> Iterator[Table]:
    """Every table in a panel's body, nested ones and every form of a `Fit` too."""
    return (part for part in parts_of(body) if isinstance(part, Table))


@pytest.mark.parametrize("game_id", GAMES)
def test_natural_widths_are_the_widths_rich_gives(game_id: str) -> None:
    """Where the kept console lays a table out itself, it gives the columns Rich's widths."""
    console = Console(width=120, file=io.StringIO(), force_terminal=True, safe_box=False)
    ui = ui_for(game_id)
    game = get_game(game_id)
    laid_out = refused = 0
    for players in sorted({game.min_players, game.max_players}):
        for match in positions(game_id, players):
            for compact in (False, True):
                for panel in ui.panels(match.view(0), 0, compact):
                    for table in tables_in(panel.body):
                        for width in (24, 40, 72):
                            options = console.options.update(
                                width=width, min_width=1, max_width=width, markup=False
                            )
                            widths = natural_widths(table, options)
                            if widths is None:
                                refused += 1
                                continue
                            room = options.update_width(width - table._extra_width)
                            assert widths == table._calculate_column_widths(console, room)
                            laid_out += 1
    assert laid_out, "no table of this game's boards was laid out from its texts"
    assert refused, "every table was laid out from its texts, even those too wide"


def test_natural_widths_of_empty_and_fixed_columns() -> None:
    """An empty column is one cell wide (as Rich has it); a fixed one keeps its width."""
    console = Console(width=60, file=io.StringIO(), force_terminal=True, safe_box=False)
    options = console.options.update(width=60, min_width=1, max_width=60, markup=False)
    grid = Table.grid()
    grid.add_column()
    grid.add_column(width=5)
    grid.add_column(justify="right")
    grid.add_row("", Text("ab"), Text("xyz"))
    table = Table(box=None, padding=(0, 2), collapse_padding=True, pad_edge=False)
    table.add_column("")
    table.add_column("long header")
    table.add_row(Text(""), Text("7"))
    for t in (grid, table):
        widths = natural_widths(t, options)
        assert widths == t._calculate_column_widths(console, options), t
        rich = Console(width=60, file=io.StringIO(), force_terminal=True, safe_box=False)
        assert KeptConsole().render_lines(t, options) == rich.render_lines(t, options)
