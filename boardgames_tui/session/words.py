"""Counting and listing in words, for the line mode's sentences and the screens' notes."""

from __future__ import annotations

from collections.abc import Sequence

from boardgames_tui.engine.tables.store import SeatInfo, printable


def counted(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def tally(names: list[str], space: str = " ") -> str:
    """Names in the order first seen, a repeated one once with its count ("Merchant ×3";
    `space` before the count: none keeps it on the name's line on a screen)."""
    counts = {n: names.count(n) for n in names}
    return ", ".join(n if k == 1 else f"{n}{space}×{k}" for n, k in counts.items())


def listed(items: list[str], empty: str = "none") -> str:
    """`a, b and c`."""
    items = [x for x in items if x]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def waiting_for(seats: Sequence[SeatInfo]) -> str:
    """The seats a table not begun waits for, in words: "1 open seat(s)" (anyone may take
    them), "seat 2 held for bob" (offered to bob, his to take)."""
    held = [
        f"seat {s.seat + 1} held for {printable(s.offered, 40)}"
        for s in seats
        if s.is_open and s.offered
    ]
    n = sum(1 for s in seats if s.is_open and not s.offered)
    return ", ".join(([f"{n} open seat(s)"] if n else []) + held)
