"""End of game: each player's score breakdown (co-op: what was built and what was missing)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.core import Match

from ..games.base import seat_tag
from .dialogs import ScreenHelp


def result_renderable(match: Match) -> Group:
    """The result as Rich renderables (also used by tests and screenshots)."""
    game = match.game
    res = game.result(match.state)
    names = [s.name for s in match.seats]
    parts: list = []
    if res.cooperative or game.cooperative:
        headline = "You built the cathedral together!" if res.winners else "The team lost."
    elif not res.winners:
        headline = "Nobody wins."
    else:
        headline = (
            "Winner: " + ", ".join(names[w] for w in res.winners)
            if len(res.winners) == 1
            else "Shared win: " + ", ".join(names[w] for w in res.winners)
        )
    parts.append(Text(headline, style="bold"))
    parts.append(Text(res.summary))
    labels: list[str] = []
    for line in res.lines:
        for label, _ in line.breakdown:
            if label not in labels:
                labels.append(label)
    if res.lines and labels and not game.cooperative:
        t = Table(title="Score breakdown", expand=False)
        t.add_column("")
        ordered = sorted(res.lines, key=lambda sl: sl.seat)
        for sl in ordered:
            mark = " ★" if sl.seat in res.winners else ""
            t.add_column(
                Text.from_markup(seat_tag(sl.seat, names[sl.seat]) + mark), justify="right"
            )
        for label in labels:
            row = [label]
            for sl in ordered:
                d = dict(sl.breakdown)
                v = d.get(label, "")
                row.append(_fmt(v))
            t.add_row(*row)
        t.add_row(
            Text("Total", style="bold"), *[Text(_fmt(sl.score), style="bold") for sl in ordered]
        )
        notes = [f"{names[sl.seat]}: {sl.note}" for sl in ordered if sl.note]
        parts.append(t)
        for n in notes:
            parts.append(Text(n, style="italic"))
    elif res.lines:
        for sl in res.lines:
            for label, v in sl.breakdown:
                parts.append(Text(f"{label}: {_fmt(v)}"))
    for d in res.details:
        parts.append(Text(d))
    return Group(*parts)


def _fmt(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


class EndScreen(ScreenHelp, Screen[str | None]):
    HELP_TITLE = "End of the game"
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("v", "pick('review')", "Review the game"),
        Binding("enter,q,escape", "pick('menu')", "Menu"),
        Binding("b", "pick(None)", "Back to board"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        yield Static(f" {self.match.game.title} · game over", id="status")
        with VerticalScroll(id="end-body"):
            yield Static(result_renderable(self.match), id="end-result")
        yield Footer()

    def action_pick(self, what: str | None) -> None:
        self.dismiss(what)
