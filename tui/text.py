"""The one way text a person or a file supplies (names, file names, messages) is rendered:
as plain data, never markup, with no control character left to reach a terminal."""

from __future__ import annotations

import re
import unicodedata

from rich.text import Text

# each seat's letter and colour, on every surface (colour is never the only carrier)
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
SEAT_LETTERS = ("A", "B", "C", "D", "E", "F")


# C0 and C1 controls, DEL, and the format characters that reorder or hide text (bidi
# overrides and isolates, zero-width characters), line and paragraph separators
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)


def clean(value: object) -> str:
    """`value` as a string without control or format characters (tabs and newlines stay)."""
    text = str(value)
    if not _UNSAFE.search(text) and text.isprintable():
        return text
    text = _UNSAFE.sub("", text)
    return "".join(
        ch for ch in text if ch in "\t\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs")
    )


def one_line(value: object) -> str:
    """`value` cleaned, on one line (newlines and tabs become spaces)."""
    return " ".join(clean(value).replace("\t", " ").splitlines())


def plain(value: object, style: str = "", **kwargs: object) -> Text:
    """A rich `Text` holding `value` as data: no markup is parsed, controls are gone."""
    return Text(clean(value), style=style, **kwargs)  # type: ignore[arg-type]


def seat_label(seat: int, name: str | None = None) -> Text:
    """A seat's letter in its colour, then its name as plain text."""
    t = Text()
    t.append(SEAT_LETTERS[seat % len(SEAT_LETTERS)], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    if name:
        t.append(" " + one_line(name))
    return t
