"""New game: title, seats (names, person or computer level), seed and the game's variants."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Select, Static, Switch

from boardgames_tui.engine.bots.search import DEFAULT_THINK, default_think
from boardgames_tui.engine.core import (
    BOT_LEVELS,
    HUMAN,
    Match,
    Seat,
    SetupError,
    UnknownGame,
    all_games,
    get_game,
    saves,
)
from boardgames_tui.engine.core.names import MAX_CELLS, BadName, check_name, valid_name
from boardgames_tui.engine.core.protocol import PICK_VALUE, Option
from boardgames_tui.tui.screens.base import BaseScreen, StartMatch
from boardgames_tui.tui.screens.dialogs import MessageScreen, ScreenHelp

DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"]
KINDS = [("Person", HUMAN)] + [(f"Computer: {lv}", lv) for lv in BOT_LEVELS]
THINK = [
    (f"strong: {DEFAULT_THINK:g} s a move", DEFAULT_THINK),
    ("strong: 2 s a move", 2.0),
    ("strong: 5 s a move", 5.0),
]
# how long a computer's turn stays in view before the next one (--bot-delay)
SPEEDS = [
    ("turns shown at once", 0.0),
    ("turns shown 0.3 s", 0.3),
    ("turns shown 0.6 s", 0.6),
    ("turns shown 1.5 s", 1.5),
]


def speed_choices(now: float) -> list[tuple[str, float]]:
    """The computer speeds to offer, with `now` (--bot-delay, or the last choice) among them."""
    choices = list(SPEEDS)
    if all(v != now for _, v in choices):
        choices.append((f"turns shown {now:g} s", now))
        choices.sort(key=lambda c: c[1])
    return choices


def think_choices(now: float | None = None) -> tuple[list[tuple[str, float]], float]:
    """The strong player's thinking times to offer, and the one selected at first: `now`
    (--think, or the last choice) or the default ($BOARDGAMES_THINK, else 0.6 s)."""
    now = default_think() if now is None else now
    choices = list(THINK)
    if all(v != now for _, v in choices):
        choices.append((f"strong: {now:g} s a move", now))
        choices.sort(key=lambda c: c[1])
    return choices, now


LAST_SETUP = ".last-setup.json"  # in the saves folder; not a .toml, so never listed as a save


def last_setup_path(folder: str | None) -> Path:
    return saves.saves_dir(folder) / LAST_SETUP


def read_last_setup(folder: str | None) -> dict[str, Any]:
    """The seats of the last game started from this screen ({} if none or unreadable)."""
    try:
        data = json.loads(last_setup_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class SetupScreen(ScreenHelp, BaseScreen[None]):
    HELP_TITLE = "New game"
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("escape", "close", "Back", id="setup.close"),
        Binding("ctrl+s,f2", "start", "Start", id="setup.start"),
        Binding("ctrl+o,f3", "versus_computers", "Me vs computers", id="setup.versus-computers"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        games = all_games()
        self.game = get_game(game_id) if game_id else games[0]
        self.count = min(max(self.game.min_players, 3), self.game.max_players)
        # the last game's seats, until this screen knows the app (on mount)
        self.remembered: list[tuple[str, str]] = []
        self.game_id = game_id
        self.building = True  # seat and option rows are being (re)built (tests wait for it)

    @property
    def names(self) -> list[str]:
        """The names offered (the settings' first, then the usual ones), one per seat."""
        mine = list(self.app.settings.get("names"))
        taken = {n.lower() for n in mine}
        return (
            mine
            + [n for n in DEFAULT_NAMES if n.lower() not in taken]
            + [f"Player {i + 1}" for i in range(len(mine), 8)]
        )

    def _remember(self) -> None:
        """Take the game, player count and seats of the last game started here."""
        last = read_last_setup(self.app.saves_dir)
        seats = last.get("seats")
        if isinstance(seats, list):
            self.remembered = [
                (str(x[0]), str(x[1]))
                for x in seats
                if isinstance(x, list)
                and len(x) == 2
                and (x[1] == HUMAN or x[1] in BOT_LEVELS)
                and valid_name(x[0])
            ]
        if self.game_id is None and isinstance(last.get("game"), str):
            with contextlib.suppress(UnknownGame):
                self.game = get_game(last["game"])
        n = last.get("count")
        if isinstance(n, int):
            self.count = min(max(self.game.min_players, n), self.game.max_players)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="setup"):
            yield Static(
                "[b]New game[/]   Tab / Shift+Tab move · Enter or Space changes · Ctrl+S starts · "
                "Ctrl+O: you against computers"
            )
            with Horizontal(classes="row"):
                yield Label("Game", classes="label")
                yield Select(
                    [(f"{g.title} ({g.min_players}-{g.max_players})", g.id) for g in all_games()],
                    value=self.game.id,
                    allow_blank=False,
                    id="game",
                )
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield Select(self._count_options(), value=self.count, allow_blank=False, id="count")
            yield Vertical(id="seats")
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(
                    "",
                    placeholder="random — or a number to replay a game",
                    id="seed",
                    type="integer",
                )
            yield Vertical(id="options")
            with Horizontal(classes="row"):
                yield Label("Hand-over screens", classes="label")
                handover = bool(self.app.settings.get("handover"))
                yield Switch(value=handover, id="handover")
                yield Static(" on " if handover else " off ", id="handover-state", classes="state")
                yield Static("between people sharing the screen (off: open play)", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Strict (no undo)", classes="label")
                yield Switch(value=False, id="strict")
                yield Static(" off ", id="strict-state", classes="state")
            # one row: the start button stays on a 40-row screen
            with Horizontal(classes="row"):
                yield Label("Computers", classes="label")
                choices, now = think_choices(self.app.think)
                yield Select(choices, value=now, allow_blank=False, id="think", classes="kind")
                delay = self.app.launch.bot_delay
                yield Select(
                    speed_choices(delay), value=delay, allow_blank=False, id="speed", classes="kind"
                )
            yield Button("Start the game", id="start", variant="primary")
        yield Footer(show_command_palette=False)

    def _count_options(self) -> list[tuple[str, int]]:
        g = self.game
        return [(str(n), n) for n in range(g.min_players, g.max_players + 1)]

    async def on_mount(self) -> None:
        game_id = self.game.id
        self._remember()
        if self.game.id != game_id:
            self.query_one("#game", Select).value = self.game.id
        count = self.query_one("#count", Select)
        count.set_options(self._count_options())
        count.value = self.count
        await self._rebuild()
        self.query_one("#game", Select).focus()

    async def _rebuild(self) -> None:
        self.building = True
        seats = self.query_one("#seats", Vertical)
        old = {}
        for i in range(6):
            try:
                old[i] = (
                    self.query_one(f"#name-{i}", Input).value,
                    self.query_one(f"#kind-{i}", Select).value,
                )
            except Exception:
                break
        await seats.remove_children()
        rows: list[Widget] = []
        for i in range(self.count):
            default = self.remembered[i] if i < len(self.remembered) else (self.names[i], HUMAN)
            name, kind = old.get(i, default)
            rows.append(
                Horizontal(
                    Label(f"Seat {i + 1}", classes="label"),
                    Input(name, id=f"name-{i}", max_length=MAX_CELLS, classes="name"),
                    Select(KINDS, value=kind, allow_blank=False, id=f"kind-{i}", classes="kind"),
                    classes="row",
                )
            )
        await seats.mount_all(rows)
        opts = self.query_one("#options", Vertical)
        await opts.remove_children()
        rows = []
        for o in self.game.options:
            rows.append(
                Horizontal(
                    Label(o.label, classes="label"),
                    Select(
                        [(lab, v) for v, lab in o.choices],
                        value=o.default,
                        allow_blank=False,
                        id=f"opt-{o.key}",
                    ),
                    classes="row",
                )
            )
            if o.picks:
                rows.append(self._picks(o))
        await opts.mount_all(rows)
        self.call_after_refresh(setattr, self, "building", False)

    @staticmethod
    def _picks(o: Option) -> Vertical:
        """One row per group of an option picked group by group (shown while it is chosen)."""
        box = Vertical(
            *(
                Horizontal(
                    Label(f"  {group}", classes="label"),
                    Select(
                        [(lab, v) for v, lab in choices],
                        value=default,
                        allow_blank=False,
                        id=f"pick-{o.key}-{i}",
                    ),
                    classes="row",
                )
                for i, (group, choices, default) in enumerate(o.picks)
            ),
            id=f"picks-{o.key}",
            classes="picks",
        )
        box.display = o.default == PICK_VALUE
        return box

    @on(Select.Changed, "#options Select")
    def _option_changed(self, event: Select.Changed) -> None:
        """Show an option's per-group picks while it is set to be picked."""
        sid = event.select.id or ""
        if sid.startswith("opt-"):
            for box in self.query(f"#picks-{sid.removeprefix('opt-')}"):
                box.display = event.value == PICK_VALUE

    def _option_value(self, o: Option) -> str:
        """The option as chosen; picked group by group, the picks joined by commas."""
        value = str(self.query_one(f"#opt-{o.key}", Select).value)
        if o.picks and value == PICK_VALUE:
            return ",".join(
                str(self.query_one(f"#pick-{o.key}-{i}", Select).value) for i in range(len(o.picks))
            )
        return value

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        if event.value == self.game.id or event.value is Select.BLANK:
            return
        self.game = get_game(str(event.value))
        self.count = min(max(self.game.min_players, self.count), self.game.max_players)
        count = self.query_one("#count", Select)
        count.set_options(self._count_options())
        count.value = self.count
        await self._rebuild()

    @on(Select.Changed, "#count")
    async def _count_changed(self, event: Select.Changed) -> None:
        if event.value is Select.BLANK or event.value == self.count:
            return
        self.count = int(str(event.value))
        await self._rebuild()

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        """A switch says on or off in words too (its colour alone is not enough)."""
        state = self.query_one(f"#{event.switch.id}-state", Static)
        state.update(" on " if event.value else " off ")

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        """Enter in a name or the seed moves on to the next field."""
        event.stop()
        self.focus_next()

    def action_versus_computers(self) -> None:
        """Seat 1 a person, every other seat a computer (at the level already chosen for a
        computer seat, else greedy); then the Start button has the focus."""
        kinds = [self.query_one(f"#kind-{i}", Select) for i in range(self.count)]
        level = next((str(k.value) for k in kinds if k.value in BOT_LEVELS), "greedy")
        for i, k in enumerate(kinds):
            k.value = HUMAN if i == 0 else level
        self.query_one("#start", Button).focus()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        seats = []
        for i in range(self.count):
            name = self.query_one(f"#name-{i}", Input).value.strip() or self.names[i]
            kind = str(self.query_one(f"#kind-{i}", Select).value)
            try:
                name = check_name(name)
            except BadName as exc:
                self.app.push_screen(MessageScreen(f"Bad name for seat {i + 1}", str(exc)))
                return
            seats.append(Seat(name, kind))
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else int.from_bytes(os.urandom(3), "big")
        except ValueError:
            self.app.push_screen(MessageScreen("Bad seed", f"{seed_text!r} is not a whole number."))
            return
        options = {o.key: self._option_value(o) for o in self.game.options}
        try:
            match = Match.new(self.game, seats, options, seed)
        except SetupError as exc:
            self.app.push_screen(MessageScreen("Cannot start", str(exc)))
            return
        handover = self.query_one("#handover", Switch).value
        strict = self.query_one("#strict", Switch).value
        think = float(self.query_one("#think", Select).value)  # type: ignore[arg-type]
        speed = float(self.query_one("#speed", Select).value)  # type: ignore[arg-type]
        self._save_last(seats)
        self.post_message(StartMatch(match, handover, strict, think, replace=self, bot_delay=speed))

    def _save_last(self, seats: list[Seat]) -> None:
        """Remember this game's seats for the next time (a failure only loses the memory)."""
        path = last_setup_path(self.app.saves_dir)
        data = {
            "game": self.game.id,
            "count": self.count,
            "seats": [[s.name, s.kind] for s in seats],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            saves.atomic_write(path, json.dumps(data))
        except OSError:
            pass

    def action_close(self) -> None:
        self.dismiss(None)
