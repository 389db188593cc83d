"""The in-app rules reference of a game, including its table rules of this edition."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rich.console import Console
from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from boardgames_tui.engine.core.protocol import Game
from boardgames_tui.tui.screens.dialogs import ScreenHelp
from boardgames_tui.tui.widgets.board import Prerendered


class RulesScreen(ScreenHelp, Screen[None]):
    HELP_TITLE = "Rules reference"
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("escape,q,g", "close", "Back", id="rules.close"),
        Binding("j,down", "scroll(1)", "Down", show=False, id="rules.scroll-forward"),
        Binding("k,up", "scroll(-1)", "Up", show=False, id="rules.scroll-back"),
        Binding("space,pagedown", "page(1)", "Page down", id="rules.page-forward"),
        Binding("b,pageup", "page(-1)", "Page up", id="rules.page-back"),
        Binding("home", "top", "Top", show=False, id="rules.top"),
    ]

    def __init__(
        self,
        game: Game,
        options: Mapping[str, str] | None = None,
        text: Prepared | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.options = options
        self.text = text  # prepared beforehand (`prepare`), or made here
        self._width = 0

    def compose(self) -> ComposeResult:
        yield Static(f" Rules reference · {self.game.title}", id="status")
        with VerticalScroll(id="rules-scroll"):
            # one widget drawing Rich's Markdown, laid out once per width: Textual's Markdown
            # widget mounts a widget per block and took seconds to open a long reference
            yield Static(id="rules-text")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._draw()
        self.query_one("#rules-scroll").focus()

    def on_resize(self) -> None:
        self._draw()

    def on_screen_resume(self) -> None:
        self._dismissed = False  # the same screen opens again (the game screen keeps it)

    def _draw(self) -> None:
        width = text_width(self.app.size.width)
        if width == self._width:
            return
        self._width = width
        text = self.text
        if text is None or text.markdown is None:
            text = prepare(self.game, self.options, width, self.app.console)
        self.text = text.at(width, self.app.console)
        self.query_one("#rules-text", Static).update(self.text.lines[width])

    def action_scroll(self, delta: int) -> None:
        s = self.query_one("#rules-scroll", VerticalScroll)
        s.scroll_relative(y=delta * 2, animate=False)

    def action_page(self, delta: int) -> None:
        s = self.query_one("#rules-scroll", VerticalScroll)
        s.scroll_relative(y=delta * max(1, s.size.height - 2), animate=False)

    def action_top(self) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def text_width(screen_width: int) -> int:
    """The reference's width on a screen this wide: its padding and scrollbar off."""
    return max(20, screen_width - 4 - 2)


class Prepared:
    """A rules reference parsed, and laid out at the widths it was shown at."""

    def __init__(self, markdown: Markdown) -> None:
        self.markdown = markdown
        self.lines: dict[int, Prerendered] = {}

    def at(self, width: int, console: Console) -> Prepared:
        if width not in self.lines:
            self.lines = {width: Prerendered(console, self.markdown, width)}
        return self


def prepare(
    game: Game, options: Mapping[str, str] | None, width: int, console: Console
) -> Prepared:
    """A game's rules reference, parsed and laid out at `width` (a thread may do it)."""
    return Prepared(Markdown(game.rules_reference(options))).at(width, console)


# ---- the current phase, explained from the rules reference (the game screen's `?`) -------
_STOP = {"a", "an", "the", "of", "and", "or", "to", "in", "on", "your", "you", "b", "c", "d", "e"}
_LEAD_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITEM = re.compile(r"^(\s*)(?:[-*] |\d+\. )")
HELP_LINES = 24  # the explanation is a reminder, the rules screen has the rest


def _words(text: str) -> set[str]:
    """Lower-case words, plurals folded ("Rewards" finds "Reward"), small words dropped."""
    out = set()
    for w in re.findall(r"[^\W\d_]+", text.lower()):
        if w in _STOP:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return out


def _blocks(reference: str) -> list[tuple[str, list[str]]]:
    """The reference as (heading, lines) blocks: one per list item (with its continuation
    lines and sub-items) or paragraph; a heading is a block of its own whole section."""
    lines = reference.splitlines()
    blocks: list[tuple[str, list[str]]] = []
    heading = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("#"):
                j += 1
            blocks.append((heading, ["#" + line.lstrip("#").rstrip(), *lines[i + 1 : j]]))
            i += 1
            continue
        if not line.strip():
            i += 1
            continue
        m = _ITEM.match(line)
        indent = len(m.group(1)) if m else -1
        j = i + 1
        while j < len(lines):
            nxt = lines[j]
            if nxt.startswith("#"):
                break
            if not nxt.strip():
                if (
                    m
                    and j + 1 < len(lines)
                    and len(lines[j + 1]) - len(lines[j + 1].lstrip()) > indent
                ):
                    j += 1
                    continue
                break
            n = _ITEM.match(nxt)
            if m and n and len(n.group(1)) <= indent:
                break
            if not m and n:
                break
            j += 1
        blocks.append((heading, lines[i:j]))
        i = i + 1 if m and indent >= 0 else j  # sub-items are blocks of their own too
    return blocks


def _leads(first: str) -> list[str]:
    """What a block is about: its bold words, else the words before a colon or dash."""
    text = _ITEM.sub("", first).strip()
    if text.startswith("|"):
        return []  # a table row
    bold = _LEAD_BOLD.findall(text)
    if bold:
        return bold
    head = re.split(r"[:—]", text, maxsplit=1)[0]
    return [head] if len(head) <= 40 else []


def phase_help(reference: str, terms: list[str]) -> str:
    """The part of a rules reference (Markdown) that explains a phase named by `terms` (the
    prompt's phase first, then what the status line says): the round step of that name and
    the section of that name; else the first paragraph that mentions it. "" if none does."""
    blocks = _blocks(reference)
    for term in terms:
        want = _words(term)
        if not want:
            continue
        best: tuple[float, int] = (0.0, -1)
        section = -1
        for k, (_heading, body) in enumerate(blocks):
            first = body[0]
            if first.startswith("#"):
                got = _words(first)
                if got and got <= want | {"round", "turn"} and want & got and section < 0:
                    section = k
                continue
            for lead in _leads(first):
                got = _words(lead)
                score = len(want & got) / len(want | got) if got else 0.0
                if score > best[0]:
                    best = (score, k)
        chosen = [k for k in (best[1], section) if k >= 0]
        if not chosen:  # a paragraph that names it, those about a turn or round first
            named = [
                k
                for k, (_h, body) in enumerate(blocks)
                if not body[0].startswith("#") and want <= _words(" ".join(body))
            ]
            named.sort(key=lambda k: not _words(blocks[k][0]) & {"turn", "round"})
            chosen = named[:1]
        if chosen:
            parts = []
            for k in dict.fromkeys(chosen):
                heading, body = blocks[k]
                text = [ln[_indent(body) :] if not ln.startswith("#") else "##" + ln for ln in body]
                if not body[0].startswith("#") and heading:
                    text = [f"### {heading}", *text]
                parts.append("\n".join(text[:HELP_LINES]).strip())
            return "\n\n".join(parts)
    return ""


def _indent(body: list[str]) -> int:
    """The indentation of a block's first line (a sub-item is shown from its own column)."""
    return len(body[0]) - len(body[0].lstrip())
