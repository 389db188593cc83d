"""A chart of each seat's score over the game, drawn in terminal cells (Rich Text)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from boardgames_tui.tui.text import plain

SEAT_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green", "bold red", "bold blue")


def score_chart(
    names: Sequence[str], at: Sequence[int], scores: Sequence[Sequence[float]], height: int = 8
) -> Text:
    """Each seat's score (a column per sample) marked with its seat number: readable in 16
    colours and without colour; the numbers themselves are in the line mode."""
    out = Text()
    if not at:
        return out
    values = [v for row in scores for v in row]
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    cells = [[" "] * len(at) for _ in range(height)]
    styles: list[list[str]] = [[""] * len(at) for _ in range(height)]
    for seat, row in enumerate(scores):
        for x, v in enumerate(row):
            y = height - 1 - round((v - lo) / span * (height - 1))
            cells[y][x] = str(seat + 1) if cells[y][x] == " " else "*"
            styles[y][x] = SEAT_STYLES[seat % len(SEAT_STYLES)] if cells[y][x] != "*" else "bold"
    label = max(len(f"{hi:g}"), len(f"{lo:g}"))
    out.append("Score over the game\n", style="bold")
    for y in range(height):
        mark = f"{hi:g}" if y == 0 else f"{lo:g}" if y == height - 1 else ""
        out.append(f"{mark:>{label}} ┤" if mark else f"{'':>{label}} │")
        for x in range(len(at)):
            out.append(cells[y][x], style=styles[y][x] or None)
        out.append("\n")
    out.append(f"{'':>{label}} └{'─' * len(at)} move {at[-1]}\n")
    for seat, name in enumerate(names):
        out.append(f"  {seat + 1} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])
        out.append(plain(name))
        out.append(f" {scores[seat][-1]:g}")
    out.append("  (* several at once)")
    return out
