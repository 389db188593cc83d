"""End of game: one score sheet (co-op: what was built and what was missing)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from boardgames_tui.engine.core import Match
from boardgames_tui.engine.core.protocol import Result, ScoreLine
from boardgames_tui.session.scores import score_history
from boardgames_tui.tui.screens.dialogs import ScreenHelp
from boardgames_tui.tui.text import seat_label
from boardgames_tui.tui.widgets.score_chart import score_chart

_DETAIL = re.compile(r"^(.*?)\s*\(([^()]*\d[^()]*)\)$")  # "coins (39 / 10)": a trailing count


def split_label(label: str) -> tuple[str, str]:
    """A breakdown label as (scoring category, this player's detail): the detail is a trailing
    parenthesis with a number in it ("Peasantry track (1st, tied)" → "Peasantry track",
    "1st, tied"), so that every player's line lands on the category's one row."""
    m = _DETAIL.match(label)
    return (m.group(1), m.group(2)) if m and m.group(1) else (label, "")


def merged_order(lists: list[list[str]]) -> list[str]:
    """One order of the categories that keeps each player's order (each lists its categories
    in the rulebook's order, leaving out those it scored nothing in). Where the players'
    lists leave two categories unordered, the one that stands earlier in them comes first."""
    after: dict[str, set[str]] = {}
    before_count: dict[str, int] = {}
    where: dict[str, list[float]] = {}
    for cats in lists:
        for i, c in enumerate(cats):
            after.setdefault(c, set())
            before_count.setdefault(c, 0)
            where.setdefault(c, []).append(i / max(1, len(cats)))
        for a, b in itertools.pairwise(cats):
            if b not in after[a]:
                after[a].add(b)
                before_count[b] += 1
    order: list[str] = []
    ready = [c for c, n in before_count.items() if n == 0]
    while ready:
        ready.sort(key=lambda c: sum(where[c]) / len(where[c]))
        c = ready.pop(0)
        order.append(c)
        for d in sorted(after[c]):
            before_count[d] -= 1
            if before_count[d] == 0:
                ready.append(d)
    # players that disagree (a cycle) cannot happen with one rulebook order; keep the rest
    return order + [c for c in before_count if c not in order]


def headline(match: Match, res: Result) -> str:
    """The result in a line: the winner, a shared win, nobody, or the team's fate (in words
    that fit any co-operative game: the game's own summary follows it)."""
    names = [s.name for s in match.seats]
    if res.cooperative or match.game.cooperative:
        return "The team wins!" if res.winners else "The team lost."
    if not res.winners:
        return "Nobody wins."
    label = "Winner: " if len(res.winners) == 1 else "Shared win: "
    return label + ", ".join(names[w] for w in res.winners)


def result_renderable(match: Match) -> Group:
    """The result as Rich renderables (also used by tests and screenshots): the headline, one
    score sheet (a column per player, a row per scoring category, the total, the places), and
    the tie-breaks and notes beneath it; co-op games: what was built, once."""
    game = match.game
    res = game.result(match.state)
    names = [s.name for s in match.seats]
    parts: list = []
    parts.append(Text(headline(match, res), style="bold"))
    parts.append(Text(res.summary))
    if res.cooperative or game.cooperative:
        parts.append(_team_sheet(res.lines, res.details))
        return Group(*parts)
    ordered = sorted(res.lines, key=lambda sl: sl.seat)
    cells: list[dict[str, tuple[object, str]]] = []
    tie_breaks: dict[str, list[str]] = {}
    for sl in ordered:
        row: dict[str, tuple[object, str]] = {}
        for label, v in sl.breakdown:
            if label.lower().startswith("tie-break"):
                tie_breaks.setdefault(label, []).append(f"{names[sl.seat]}: {_fmt(v)}")
                continue
            cat, detail = split_label(label)
            row[cat] = (v, detail)
        cells.append(row)
    cats = merged_order([list(r) for r in cells])
    if cats:
        parts.append(_ScoreSheet(names, ordered, cells, cats, res.winners))
    for label, values in tie_breaks.items():
        parts.append(Text(f"{label}: " + " · ".join(values), style="italic"))
    notes = [f"{names[sl.seat]} {sl.note}" for sl in ordered if sl.note]
    if notes:
        parts.append(Text(" · ".join(notes), style="italic"))
    for d in res.details:
        parts.append(Text(d))
    return Group(*parts)


class _ScoreSheet:
    """The score sheet, a column per player: each cell's detail ("1st, tied") beside its value
    where the screen is wide enough for every cell on one line, else in a line per category
    beneath (five players at 80 columns wrapped cells and cut "survives")."""

    def __init__(
        self,
        names: list[str],
        lines: list[ScoreLine],
        cells: list[dict[str, tuple[object, str]]],
        cats: list[str],
        winners: Sequence[int],
    ) -> None:
        self.names, self.lines, self.cells, self.cats = names, lines, cells, cats
        self.winners = winners

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        full = self._table(beside=True)
        unbounded = options.update_width(10_000)  # a measure is clamped to the width it gets
        if Measurement.get(console, unbounded, full).maximum <= options.max_width:
            yield full
            return
        yield self._table(beside=False)
        for cat in self.cats:
            said = [
                seat_label(sl.seat).append(f" {detail}")
                for sl, r in zip(self.lines, self.cells, strict=True)
                if (detail := self._split(r.get(cat))[1])
            ]
            if said:
                yield Text.assemble(f"{cat}: ", Text(" · ").join(said))

    @staticmethod
    def _split(cell: tuple[object, str] | None) -> tuple[str, str]:
        """A cell as (value, detail); a value in words ("4 <= 8 nuns: survives") keeps its
        first word in the cell and gives the rest to the detail."""
        value, detail = cell or ("", "")
        shown = _fmt(value) if value != "" else "–"
        if isinstance(value, str) and " " in value.strip():
            shown, _, rest = value.strip().partition(" ")
            detail = f"{rest} ({detail})" if detail else rest
        return shown, detail

    def _table(self, beside: bool) -> Table:
        t = Table(title="Score sheet", expand=False)
        t.add_column("", no_wrap=True)
        for sl in self.lines:
            mark = " ★" if sl.seat in self.winners else ""
            t.add_column(seat_label(sl.seat, self.names[sl.seat]).append(mark), justify="right")
        for cat in self.cats:
            row_cells: list[Text] = []
            for r in self.cells:
                if beside:
                    value, detail = r.get(cat, ("", ""))
                    cell = Text(_fmt(value) if value != "" else "–")
                else:
                    shown, detail = self._split(r.get(cat))
                    cell, detail = Text(shown), ""
                if detail:
                    cell.append(f" ({detail})", style="dim")
                row_cells.append(cell)
            t.add_row(cat, *row_cells)
        t.add_section()
        t.add_row(
            Text("Total", style="bold"),
            *[Text(_fmt(sl.score), style="bold") for sl in self.lines],
        )
        won = " ★ wins" if beside else " ★"
        t.add_row(
            "Place",
            *[
                Text(_ordinal(sl.rank) + (won if sl.seat in self.winners else ""))
                for sl in self.lines
            ],
        )
        return t


def _team_sheet(lines: list, details: list[str]) -> Table:
    """A co-op result: what the team built, each fact once."""
    t = Table(title="What the team built", expand=False, show_header=False)
    t.add_column(style="bold")
    t.add_column()
    if lines and lines[0].breakdown:  # the same for every seat: the team's
        t.add_row(
            "Sections by source",
            ", ".join(f"{label} {_fmt(v)}" for label, v in lines[0].breakdown),
        )
    for d in details:
        key, sep, value = d.partition(": ")
        t.add_row(key, value) if sep else t.add_row(d, "")
    return t


def _fmt(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class EndScreen(ScreenHelp, Screen[str | None]):
    HELP_TITLE = "End of the game"
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("v", "pick('review')", "Review the game", id="end.review"),
        Binding("enter,q,escape", "pick('menu')", "Menu", id="end.menu"),
        Binding("b", "pick(None)", "Back to board", id="end.board"),
        Binding("m", "pick('rematch')", "Rematch", id="end.rematch"),
    ]

    def __init__(self, match: Match, rematch: bool = False, note: str = "") -> None:
        super().__init__()
        self.match = match
        self.note = note  # a shared table: whether it counted for ratings, and why not
        self.rematch = rematch  # a finished shared table: m opens its rematch

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters == ("rematch",):
            return self.rematch
        return True

    def compose(self) -> ComposeResult:
        yield Static(f" {self.match.game.title} · game over", id="status")
        with VerticalScroll(id="end-body"):
            yield Static(result_renderable(self.match), id="end-result")
            if self.note:
                yield Static(Text(self.note, style="italic"), id="end-note")
            at, scores = score_history(self.match)
            if at:
                names = [s.name for s in self.match.seats]
                yield Static(score_chart(names, at, scores), id="end-chart")
        yield Footer(show_command_palette=False)

    def action_pick(self, what: str | None) -> None:
        self.dismiss(what)
