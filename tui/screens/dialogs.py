"""Small modal screens: confirm, message, save-as, hand-over, help."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Static

from boardgames_tui.tui.screens.base import key_to_top
from boardgames_tui.tui.text import one_line, plain, seat_label


class DismissOnce:
    """Mixin: a screen answers once. Keys already queued behind the first answer (Enter then
    Esc typed fast) would otherwise dismiss it again: a second result for the same waiter and
    a second pop that takes the screen underneath with it."""

    _dismissed = False

    def on_key(self, event: events.Key) -> None:
        """A key typed just after the answer goes to the screen it uncovers (key_to_top)."""
        key_to_top(self, event)  # type: ignore[arg-type]

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismissed:
            return AwaitComplete(_nothing())
        self._dismissed = True
        done: AwaitComplete = super().dismiss(result)  # type: ignore[misc]
        return done


async def _nothing() -> None:
    return None


class ConfirmScreen(DismissOnce, ModalScreen[bool]):
    """Yes / no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-text")
            yield Static("[b]y[/] / Enter: yes    [b]n[/] / Esc: no", classes="dialog-keys")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class MessageScreen(DismissOnce, ModalScreen[None]):
    """A message that stays until a key is pressed (errors: a broken save, a bad option)."""

    BINDINGS = [Binding("enter,escape,space,q", "close", "Close", id="message.close")]

    def __init__(self, title: str, text: str | Text) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"[b]{self.title_text}[/]", classes="dialog-title")
            text = self.text
            yield Static(text if isinstance(text, Text) else Text(text), classes="dialog-text")
            yield Static("Enter / Esc: close", classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)


class SaveAsScreen(DismissOnce, ModalScreen[str | None]):
    """Ask where to save."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="save-as.cancel")]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("[b]Save game as[/]", classes="dialog-title")
            yield Input(value=self.default, id="save-path")
            yield Static("Enter: save    Esc: cancel", classes="dialog-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TalkScreen(DismissOnce, ModalScreen[str | None]):
    """The message line of a shared table: one line, at most TALK_MAX characters."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="talk.cancel")]

    def compose(self) -> ComposeResult:
        from boardgames_tui.engine.tables.social import TALK_MAX

        with Vertical(classes="dialog"):
            yield Static("[b]Say at the table[/]", classes="dialog-title")
            yield Input(
                placeholder=f"a message for the table (at most {TALK_MAX} characters)",
                max_length=TALK_MAX,
                id="talk-text",
            )
            yield Static(
                "Enter: say it    Esc: cancel    (kept with the table, never in a save)",
                classes="dialog-keys",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HandoverScreen(DismissOnce, Screen[bool]):
    """Covers the whole screen until the named player takes the keyboard; renders no secrets."""

    BINDINGS = [
        Binding("enter,space", "ready", "Show my turn", id="handover.ready"),
        Binding("q", "leave", "Menu", id="handover.leave"),
    ]

    def __init__(self, seat: int, name: str, what: str) -> None:
        super().__init__()
        self.seat = seat
        self.player = name
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="handover"):
            yield Static(
                Text("Pass the keyboard to ").append_text(seat_label(self.seat, self.player)),
                id="handover-title",
            )
            who = one_line(self.player)
            yield Static(
                plain(f"{who}: {self.what}.\nOnly {who} should look at the screen now.\n\n")
                .append("Press ")
                .append("Enter", style="bold")
                .append(" when you are ready."),
                id="handover-text",
            )
        yield Footer(show_command_palette=False)

    def action_ready(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)


class SeenScreen(HandoverScreen):
    """Before a hand-over: what the seat giving up the keyboard learned on its own (a look at
    hidden cards, a draw), shown to it alone until it presses a key."""

    BINDINGS = [
        Binding("enter,space", "ready", "Pass the keyboard on", id="seen.ready"),
        Binding("q", "leave", "Menu", id="seen.leave"),
    ]

    def __init__(self, seat: int, name: str, lines: list[str], next_name: str) -> None:
        super().__init__(seat, name, "")
        self.lines = lines
        self.next_name = next_name

    def compose(self) -> ComposeResult:
        with Vertical(id="handover"):
            title = seat_label(self.seat, self.player)  # the letter in the seat's colour
            title.append(", before you pass the keyboard on")
            yield Static(title, id="handover-title")
            body = Text("You saw (only you):\n")
            for line in self.lines:
                body.append(f"  {one_line(line)}\n", style="bold")
            body.append(f"\nPress Enter, then pass the keyboard to {one_line(self.next_name)}.")
            yield Static(body, id="handover-text")
        yield Footer(show_command_palette=False)


KEY_ROWS = [
    ("1-9, letters", "pick a move by its hotkey"),
    ("0", "the option that ends or declines the choice (Done, Pass, End the turn)"),
    ("↑ ↓ Enter", "highlight and pick a move"),
    ("/", "filter the moves by typing"),
    ("Esc", "clear the filter, or step back out of a multi-part move"),
    ("u", "undo (back over computer moves to your last decision)"),
    ("r", "redo"),
    ("s", "save as…  (every move is autosaved anyway)"),
    ("v", "review every move of the game"),
    ("l", "the whole log on the full screen (▸ marks the computers' moves since your turn)"),
    ("PgUp / PgDn", "scroll the log panel (where it is shown; else they page the moves)"),
    ("g", "rules reference of this game"),
    ("h", "hint: the computer's three best moves for you (not in strict games)"),
    (
        "Tab / ] / [",
        "next / previous board view when the board is shown as tabs (small "
        "terminals); the move list keeps the keys",
    ),
    ("?", "this help"),
    ("q", "back to the menu (the game stays autosaved)"),
]


def keys_table(rows: list[tuple[str, str]] = KEY_ROWS) -> Table:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    for k, what in rows:
        t.add_row(k, what)
    return t


def binding_rows(
    bindings: list[Any], keymap: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """(keys, what) rows from a screen's BINDINGS, for its help; `keymap`: the keys the
    settings gave some of them instead (by binding id)."""
    names = {"question_mark": "?", "escape": "Esc", "enter": "Enter", "space": "Space",
             "left_square_bracket": "[", "right_square_bracket": "]", "slash": "/",
             "pageup": "PgUp", "pagedown": "PgDn", "home": "Home", "end": "End",
             "left": "←", "right": "→", "up": "↑", "down": "↓", "tab": "Tab",
             "shift+tab": "Shift+Tab", "ctrl+s": "Ctrl+S", "f2": "F2"}  # fmt: skip
    rows = []
    for b in bindings:
        if isinstance(b, Binding):
            keys, desc = (keymap or {}).get(b.id or "", b.key), b.description
        else:
            keys, desc = b[0], b[2] if len(b) > 2 else b[1]
        if not desc:
            continue
        rows.append((" / ".join(names.get(k.strip(), k.strip()) for k in keys.split(",")), desc))
    return rows


class ScreenHelp(DismissOnce):
    """Mixin: `?` shows the keys of this screen (from its bindings); the screen answers once."""

    HELP_TITLE = "Keys"

    def action_help(self) -> None:
        keymap = self.app.settings.keys  # type: ignore[attr-defined]
        rows = binding_rows(type(self).BINDINGS, keymap)  # type: ignore[attr-defined]
        self.app.push_screen(HelpScreen(self.HELP_TITLE, "", rows=rows))  # type: ignore[attr-defined]


class HelpScreen(DismissOnce, ModalScreen[str | None]):
    """The keys of the game screen and the phase being played, with a link to the rules."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close", id="help-screen.close"),
        Binding("g,enter", "rules", "Rules reference", id="help-screen.rules"),
        Binding("up,k", "scroll(-1)", show=False, id="help-screen.scroll-back"),
        Binding("down,j", "scroll(1)", show=False, id="help-screen.scroll-forward"),
        Binding("pageup,b", "scroll(-8)", show=False, id="help-screen.page-back"),
        Binding("pagedown,space", "scroll(8)", show=False, id="help-screen.page-forward"),
    ]

    def __init__(
        self,
        title: str,
        phase_text: str,
        rows: list[tuple[str, str]] | None = None,
        explanation: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.phase_text = phase_text
        self.rows = rows
        self.explanation = explanation  # Markdown from the rules reference

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="help-body"):
            if self.phase_text:
                yield Static(Text(self.phase_text, style="bold"), classes="dialog-title")
            if self.explanation:
                from textual.widgets import Markdown  # loads a parser: only when shown

                yield Markdown(self.explanation, id="help-phase")
            yield Static(f"[b]{self.title_text} — keys[/]", classes="dialog-title")
            yield Static(keys_table(self.rows or KEY_ROWS))
            yield Static(
                "g / Enter: open the rules reference    ↑ ↓: scroll    Esc: close",
                classes="dialog-keys",
            )

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rules(self) -> None:
        self.dismiss("rules")
