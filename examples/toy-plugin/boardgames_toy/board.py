"""Toy's board in the terminal: drawn from the typed view alone (`GameUI[ToyView]`), so it
cannot show what the viewer may not see."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from boardgames_tui.tui.games.base import GameUI, Panel, seat_tag

from .game import ToyView


class ToyUI:
    """The pile, every seat's stones and card counts, the viewer's own hand."""

    game_id = "toy"

    def status(self, view: ToyView) -> str:
        return f"Pile {view['pile']} · deck {view['deck']}"

    def panels(self, view: ToyView, viewer: int | None, compact: bool) -> list[Panel]:
        table = Table(box=None)
        for column in ("Player", "Stones", "Hand", "Face down"):
            table.add_column(column)
        for i, name in enumerate(view["names"]):
            who = Text.from_markup(seat_tag(i)).append(f" {name}")  # a name is data
            if i == view["to_move"]:
                who.append(" ◀", style="bold")
            row = (str(view["scores"][i]), str(view["hand_sizes"][i]), str(view["discards"][i]))
            table.add_row(who, *row)
        played = " ".join(map(str, view["played"])) or "none"
        panels = [Panel("table", "Table", table), Panel("played", "Played", Text(played))]
        if view["hand"] is not None:
            mine = Text(" ".join(f"[{c}]" for c in view["hand"]))
            if view["chosen"] is not None:
                mine.append(f"  chosen: {view['chosen']}", style="bold")
            if view["shown"]:  # what the previous seat discarded and showed this one alone
                mine.append("\nshown to you: " + " ".join(map(str, view["shown"])))
            panels.append(Panel("hand", "Your hand", mine, area="side"))
        return panels


UI: GameUI[ToyView] = ToyUI()
