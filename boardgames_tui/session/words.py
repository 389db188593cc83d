"""Counting and listing in words, for the line mode's sentences and the screens' notes."""

from __future__ import annotations


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
