"""Settings: theme, bell, computers, hand-over, names and keys, kept in the settings file.

Every change is written at once (`boardgames-tui config` reads the same file). A file that
could not be read is kept beside the new one (`.bad`), and the screen says so.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, OptionList, Select, Static, Switch
from textual.widgets.option_list import Option

from boardgames_tui.tui.screens.base import BaseScreen
from boardgames_tui.tui.screens.dialogs import DismissOnce, ScreenHelp
from boardgames_tui.tui.screens.keys import binding_ids
from boardgames_tui.tui.screens.setup import SPEEDS, THINK
from boardgames_tui.tui.settings import SettingsError


def _choices(pairs: list[tuple[str, float]], now: float) -> list[tuple[str, float]]:
    out = list(pairs)
    if all(v != now for _, v in out):
        out.append((f"{now:g} s", now))
        out.sort(key=lambda c: c[1])
    return out


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _on_off(value: Any) -> str:
    return " on " if value else " off "


class KeyScreen(DismissOnce, ModalScreen[str | None]):
    """Press the new key for one binding: the key pressed (Esc: none; Backspace: the
    default, as "")."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="key.cancel")]

    def __init__(self, what: str, now: str) -> None:
        super().__init__()
        self.what, self.now = what, now

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Text(f"Press the new key for: {self.what}\n(now: {self.now})"),
                classes="dialog-text",
            )
            yield Static("Esc: cancel · Backspace: back to the default", classes="dialog-keys")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "escape":
            self.dismiss(None)
        elif event.key == "backspace":
            self.dismiss("")
        else:
            self.dismiss(event.key)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SettingsScreen(ScreenHelp, BaseScreen[None]):
    """The settings, changed in place and written at once."""

    HELP_TITLE = "Settings"
    BINDINGS = [
        Binding("escape", "close", "Back", id="settings.close"),
        Binding("question_mark", "help", "Help", id="help"),
    ]

    def compose(self) -> ComposeResult:
        s = self.app.settings
        with VerticalScroll(id="setup"):
            yield Static(Text.assemble(("Settings", "bold"), f"   kept in {s.path}"), id="where")
            with Horizontal(classes="row"):
                yield Label("Theme", classes="label")
                themes = [(name, name) for name in self.app.available_themes]
                yield Select(themes, value=s.get("theme"), allow_blank=False, id="theme")
            with Horizontal(classes="row"):
                yield Label("Bell", classes="label")
                yield Switch(value=bool(s.get("bell")), id="bell")
                yield Static(_on_off(s.get("bell")), id="bell-state", classes="state")
                yield Static("when it becomes your turn at a shared table", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Hand-over screens", classes="label")
                yield Switch(value=bool(s.get("handover")), id="handover")
                yield Static(_on_off(s.get("handover")), id="handover-state", classes="state")
                yield Static("new games start with them on", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Computers", classes="label")
                think = float(s.get("think"))
                yield Select(
                    _choices(THINK, think),
                    value=think,
                    allow_blank=False,
                    id="think",
                    classes="kind",
                )
                speed = float(s.get("computer_speed"))
                yield Select(
                    _choices(SPEEDS, speed),
                    value=speed,
                    allow_blank=False,
                    id="computer_speed",
                    classes="kind",
                )
            with Horizontal(classes="row"):
                yield Label("Names", classes="label")
                yield Input(", ".join(s.get("names")), id="names")
                yield Static("Enter keeps them", classes="hint")
            yield Static(
                Text("Keys: Enter on one to press its new key", style="bold"), id="keys-title"
            )
            yield OptionList(*self._key_rows(), id="keys")
        yield Footer(show_command_palette=False)

    def _key_rows(self) -> list[Option]:
        keymap = self.app.settings.keys
        rows = []
        for ident, info in binding_ids().items():
            keys = keymap.get(ident, info.keys)
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(f"{keys:<18} ", style="bold" if ident in keymap else "")
            line.append(f"{_cut(info.description, 26):<26} ")
            line.append(ident, style="dim")
            rows.append(Option(line, id=ident))
        return rows

    def _change(self, key: str, value: Any) -> bool:
        """Set and write one setting; a refusal is one line, and nothing changes."""
        s = self.app.settings
        try:
            if value == "" and key.startswith("keys."):
                s.reset(key)
            else:
                s.set(key, value)
            kept = s.save(keep_bad=True)
        except SettingsError as exc:
            self.notify(str(exc), severity="error", timeout=6, markup=False)  # names typed
            return False
        except OSError as exc:
            said = f"the settings cannot be written: {exc}"
            self.notify(said, severity="error", timeout=8, markup=False)
            return False
        if kept is not None:
            self.notify(
                f"The unreadable settings file was kept as {kept}", timeout=10, markup=False
            )
        self.app.apply_settings()
        return True

    @on(Select.Changed)
    def _selected(self, event: Select.Changed) -> None:
        ident, value = event.select.id, event.value
        if ident and value is not Select.NULL and self.app.settings.get(ident) != value:
            self._change(ident, value)

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        """A switch says on or off in words too (its colour alone is not enough)."""
        self.query_one(f"#{event.switch.id}-state", Static).update(_on_off(event.value))
        if event.switch.id and self.app.settings.get(event.switch.id) != event.value:
            self._change(event.switch.id, event.value)

    @on(Input.Submitted, "#names")
    def _named(self, event: Input.Submitted) -> None:
        event.stop()
        if self._change("names", event.value):
            self.notify("Names kept", timeout=3)

    @on(OptionList.OptionSelected, "#keys")
    def _pick_key(self, event: OptionList.OptionSelected) -> None:
        ident = event.option.id or ""
        info = binding_ids()[ident]
        now = self.app.settings.keys.get(ident, info.keys)

        def done(key: str | None) -> None:
            if key is None:
                return
            if self._change(f"keys.{ident}", key):
                keys = self.query_one("#keys", OptionList)
                at = keys.highlighted
                keys.set_options(self._key_rows())
                keys.highlighted = at

        self.app.push_screen(KeyScreen(info.description, now), done)

    def action_close(self) -> None:
        self.dismiss(None)
