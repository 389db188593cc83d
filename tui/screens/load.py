"""Pick a save file (from the saves folder, the examples, or a typed path); pick a game's rules."""

from __future__ import annotations

import re
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static
from textual.widgets.option_list import Option

from boardgames_tui.engine.core import HUMAN, all_games, saves
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.base import BaseScreen, OpenFile
from boardgames_tui.tui.screens.dialogs import ScreenHelp
from boardgames_tui.tui.screens.when import short_date
from boardgames_tui.tui.text import one_line
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList

EXAMPLES = Path(__file__).resolve().parents[2] / "saves"


def players_text(seats: list[tuple[str, str]]) -> str:
    """`5 players: Ann + 4 computers (greedy)`; people by name, computers counted."""
    people = [one_line(name) for name, kind in seats if kind == HUMAN]
    levels = sorted({kind for _, kind in seats if kind != HUMAN})
    bots = len(seats) - len(people)
    who = ", ".join(people)
    if bots:
        computers = f"{bots} computer{'s' if bots > 1 else ''} ({', '.join(levels)})"
        who = f"{who} + {computers}" if who else computers
    return f"{len(seats)} players: {who}"


class LoadScreen(ScreenHelp, BaseScreen[None]):
    HELP_TITLE = "Saved games"
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("escape", "close", "Back", id="load.close"),
        Binding("slash", "path", "Type a path", id="load.path"),
    ]

    def __init__(self, review: bool = False) -> None:
        super().__init__()
        self.review = review
        self.files: list[Path] = []
        self.infos: list[saves.SaveInfo | None] = []

    def compose(self) -> ComposeResult:
        verb = "Review" if self.review else "Load"
        with Vertical(id="load"):
            yield Static(f"[b]{verb} a saved game[/]  (Enter opens, / types a path, Esc goes back)")
            yield OptionList(id="load-files")
            yield Input(placeholder="path to a .toml save file, then Enter", id="load-path")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        own = saves.list_saves(self.app.saves_dir)
        examples = sorted(EXAMPLES.glob("*.toml")) if EXAMPLES.is_dir() else []
        if self.app.launch.confine:  # only the player's own folder
            examples = []
            self.query_one(Input).placeholder = "a save's name in your folder, then Enter"
        self.files = own + [e for e in examples if e not in own]
        self.infos = [saves.info(f) for f in self.files]
        ol = self.query_one(OptionList)
        for i in range(len(self.files)):
            ol.add_option(Option(self._row(i), id=str(i)))
        if not self.files:
            ol.add_option(
                Option(Text("no saves yet — type a path with /"), id="none", disabled=True)
            )
        ol.focus()
        if self.files:  # where each unfinished game stands needs a replay: in the background
            self.run_worker(self._find_positions, thread=True, group="positions")

    def _row(self, i: int, where: str = "") -> Text:
        """One save in two lines: game, where it stands, date; then who plays and the file
        (a named save and its game's autosave look alike otherwise)."""
        f, meta = self.files[i], self.infos[i]
        origin = "  (example)" if f.parent == EXAMPLES else ""
        t = Text()
        if meta is None:
            t.append(one_line(f.name), style="bold")
            t.append("  not a readable save", style="italic")
            return t
        t.append(meta.game, style="bold")
        t.append(" · ")
        t.append("finished" if meta.finished else f"unfinished, {where or f'move {meta.moves}'}")
        t.append(f" · {short_date(meta.updated)}{origin}")
        t.append(f"\n    {players_text(meta.seats)}", style="dim")
        t.append(f" · {f.name}", style="dim italic")
        return t

    def _find_positions(self) -> None:
        """Replay each unfinished save to say its round (runs in a worker thread)."""
        for i, meta in enumerate(self.infos):
            if meta is None or meta.finished:
                continue
            try:
                match = saves.load(self.files[i])
                view = match.game.view(match.state, None)
                parts = ui_for(match.game.id).status(view).split(" · ")
            except Exception:  # the row keeps its move number; opening it shows the problem
                continue
            where = " · ".join(p for p in parts if re.search(r"round|period", p, re.I))
            if where and self.is_attached:
                self.app.call_from_thread(self._show_position, i, where)

    def _show_position(self, i: int, where: str) -> None:
        if self.is_attached:
            self.query_one(OptionList).replace_option_prompt_at_index(i, self._row(i, where))

    @on(OptionList.OptionSelected, "#load-files")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.isdigit():
            self.post_message(OpenFile(self.files[int(event.option.id)], self.review, replace=self))

    @on(Input.Submitted, "#load-path")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        if self.app.launch.confine:
            from boardgames_tui.session.confine import ConfineError, confined_path

            try:
                path = confined_path(text, self.app.saves_dir)
            except ConfineError as exc:
                self.notify(str(exc), severity="error")
                return
        else:
            path = Path(text).expanduser()
        self.post_message(OpenFile(path, self.review, replace=self))

    def action_path(self) -> None:
        self.query_one(Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class RulesPickScreen(ScreenHelp, BaseScreen[None]):
    HELP_TITLE = "Saved games"
    BINDINGS = [
        Binding("escape,q", "close", "Back", id="rules-pick.close"),
        Binding("question_mark", "help", "Help", id="help"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="load"):
            yield Static("[b]Rules references[/]  (Enter opens, Esc goes back)")
            yield OptionList(
                *[
                    Option(f"{g.title}  ({g.min_players}-{g.max_players} players)", id=g.id)
                    for g in all_games()
                ],
                id="rules-games",
            )
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        from boardgames_tui.engine.core import get_game
        from boardgames_tui.tui.screens.rules import RulesScreen

        if event.option.id:
            self.app.push_screen(RulesScreen(get_game(event.option.id)))

    def action_close(self) -> None:
        self.dismiss(None)
