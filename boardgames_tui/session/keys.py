"""The options' keys every front end shares: the option that ends or declines a decision
("Done", "Pass", "End the turn", "Decline the action") is `0` on the screen's picker and in the
line mode alike; the line mode numbers the others 1, 2, … in their order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from boardgames_tui.engine.core.protocol import Move

DONE_KEY = "0"
DONE_IDS = ("done", "pass", "end", "decline")


def done_id(ids: Iterable[str]) -> str | None:
    """The one done-like move among `ids`, or None (none, or more than one: no fixed key)."""
    done = [i for i in ids if i in DONE_IDS]
    return done[0] if len(done) == 1 else None


def option_numbers(moves: Sequence[Move]) -> list[str]:
    """Each move's number in the line mode, in the moves' order: the done-like one `0`."""
    done = done_id(m.id for m in moves)
    out, n = [], 0
    for move in moves:
        if move.id == done:
            out.append(DONE_KEY)
        else:
            n += 1
            out.append(str(n))
    return out


def by_number(moves: Sequence[Move], text: str) -> Move | None:
    """The move `text` (a number as `option_numbers` gives it) stands for, if any."""
    key = text.strip()
    if key.isdigit():
        key = key.lstrip("0") or DONE_KEY  # "00" is 0, "01" is 1
    numbers = option_numbers(moves)
    return next((m for m, n in zip(moves, numbers, strict=True) if n == key), None)


def number_range(moves: Sequence[Move]) -> str:
    """The numbers to choose from, in words: "1 to 4 or 0", "1 to 3", "0"."""
    numbers = option_numbers(moves)
    counted = sum(1 for n in numbers if n != DONE_KEY)
    many = {0: "", 1: "1"}.get(counted, f"1 to {counted}")
    if DONE_KEY not in numbers:
        return many
    return f"{many} or {DONE_KEY}" if many else DONE_KEY


def numbered(moves: Sequence[Move]) -> list[str]:
    """The options as the line mode lists them: "N label: what it does", in order."""
    out = []
    for n, move in zip(option_numbers(moves), moves, strict=True):
        preview = move.preview.removeprefix("→").lstrip()  # the colon says what follows
        out.append(f"{n} {move.label}: {preview}" if preview else f"{n} {move.label}")
    return out
