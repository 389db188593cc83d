"""The hint panel beside the move picker: the strong player's top options for the seat to move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from boardgames_tui.tui.widgets.picker import HOTKEYS

if TYPE_CHECKING:
    from boardgames_tui.engine.bots.coach import OptionValue

SHOWN = 3  # options listed


class HintPanel(Static):
    """Hidden until asked for; then the best options so far with their winning chances."""

    DEFAULT_CSS = """
    HintPanel {
        display: none;
        width: 36;
        height: 100%;
        border: round $success;
        border-title-color: $success;
        border-subtitle-color: $text-muted;
        padding: 0 1;
    }
    HintPanel.shown { display: block; }
    """

    def show_thinking(self, seat_name: str) -> None:
        self.border_title = f"Hint for {seat_name}"
        self.border_subtitle = "thinking…"
        self.add_class("shown")
        self.update(Text("thinking…", style="italic"))

    def show_values(
        self,
        values: Sequence[OptionValue],
        move_ids: Sequence[str],
        cooperative: bool,
        samples: int,
        final: bool,
        keys: Mapping[str, str] | None = None,
    ) -> None:
        """The top options (with the hotkey that plays each) and how sure the estimate is."""
        t = Text(no_wrap=True, overflow="ellipsis")
        room = max(8, (self.content_size.width or 32) - 7)  # for the label: key, space, " 99%"
        for k, v in enumerate(values[:SHOWN]):
            if k:
                t.append("\n")
            i = move_ids.index(v.move_id) if v.move_id in move_ids else len(HOTKEYS)
            key = HOTKEYS[i] if i < len(HOTKEYS) else " "
            if keys:  # the keys the move picker shows
                key = keys.get(v.move_id, " ")
            t.append(f"{key}", style="bold reverse")
            label = v.label if len(v.label) <= room else v.label[: room - 1] + "…"
            t.append(f" {label:<{room}}", style="bold" if k == 0 else "")
            t.append(f"{v.value:>5.0%}", style="bold" if k == 0 else "")
        t.append(
            "\n" + ("chance the team wins" if cooperative else "chance of winning"), style="dim"
        )
        self.border_subtitle = f"{samples} simulations" if final else "thinking…"
        self.update(t)

    def hide(self) -> None:
        self.remove_class("shown")

    @property
    def shown(self) -> bool:
        return self.has_class("shown")
