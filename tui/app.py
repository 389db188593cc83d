"""The Textual application: menu, setup, game, review, rules and end screens."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.session.autosave import Autosaver
from boardgames_tui.session.terminal import tolerate_bad_input, wait_for_hang_up
from boardgames_tui.tui.screens.base import OpenFile, StartMatch
from boardgames_tui.tui.screens.dialogs import MessageScreen
from boardgames_tui.tui.screens.keys import APP_BINDINGS
from boardgames_tui.tui.screens.menu import MenuScreen

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.driver import Driver

    from boardgames_tui.tui.screens.game import GameScreen
    from boardgames_tui.tui.settings import Settings
    from boardgames_tui.tui.turns import TurnWatch, YourTurns

MIN_WIDTH, MIN_HEIGHT = 80, 24


def _login_name() -> str:
    """The login name as a table user; the tables' store loads only when it is needed."""
    from boardgames_tui.engine.tables.store import default_user

    return default_user()


@dataclass
class Launch:
    """What the command line asked for."""

    saves_dir: str | None = None
    # how the menu names the saves folder (the screenshots show the default, not their own)
    saves_label: str | None = None
    new: dict[str, Any] | None = None
    match: Match | None = None
    review: bool = False
    handover: bool = True
    strict: bool = False
    bot_delay: float = field(
        default_factory=lambda: float(os.environ.get("BOARDGAMES_BOT_DELAY", "0.6"))
    )
    think: float | None = None  # strong players' seconds per decision (None: the default)
    # who sits at shared tables (--user); "": the login name, looked up when first needed
    user: str = ""
    store: str | None = None  # the shared tables' store (--store; None: the default)
    table: str | None = None  # open this shared table at start (`table join`)
    bell: bool = True  # ring when it becomes your turn at a shared table
    # --confine (a room's session): saves by name inside the saves folder only; the menu
    # greets the player and puts their shared tables first
    confine: bool = False
    # an unexpected error: Textual's traceback (--debug), or the crash screen and a report;
    # None: the crash screen unless headless (a test then sees the exception itself)
    debug: bool = False
    crash_screen: bool | None = None
    # read the settings file (the command line's app; tests and screenshots keep the defaults)
    # and what the command line or the environment gave, which the file does not change
    use_settings: bool = False
    given: frozenset[str] = frozenset()

    def table_user(self) -> str:
        """Who sits at shared tables: --user, else the login name."""
        if not self.user:
            self.user = _login_name()
        return self.user


class TooSmallScreen(Screen[None]):
    """Shown while the terminal is below 80x24; goes away by itself on resize; q quits."""

    BINDINGS = [Binding("q", "app.quit", "Quit", id="too-small.quit")]

    def __init__(self, w: int, h: int) -> None:
        super().__init__()
        self.w, self.h = w, h

    def compose(self) -> ComposeResult:
        with Vertical(id="too-small"):
            yield Static(self._text(), id="too-small-text")

    def _text(self) -> str:
        # in a browser (`boardgames-tui web`) the window, or a smaller zoom, gives more room
        where = "browser window larger (or zoom out)" if self.app.is_web else "terminal larger"
        return (
            f"Make the {where}\n(now {self.w}×{self.h}, need {MIN_WIDTH}×{MIN_HEIGHT})\n\n"
            "q: quit (every game is autosaved)"
        )

    def on_screen_resume(self) -> None:
        # screens pushed over this one while the window was small (a hand-over) are gone:
        # if the window has grown meanwhile, this one goes too
        w, h = self.app.size
        if w >= MIN_WIDTH and h >= MIN_HEIGHT:
            self.dismiss()

    def show_size(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        if self.is_mounted:
            self.query_one("#too-small-text", Static).update(self._text())


class BoardgamesApp(App[int]):
    """Play Notre Dame, Rattus Cartus, The Cathedral of Orléans and 1347 hotseat."""

    TITLE = "boardgames-tui"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [*APP_BINDINGS]  # Ctrl+C quits, Ctrl+P: commands

    def __init__(self, launch: Launch | None = None) -> None:
        super().__init__()
        tolerate_bad_input()
        self.launch = launch or Launch()
        self.saves_dir = self.launch.saves_dir
        # strong players' seconds per decision: --think, then the last setup screen's choice
        self.think = self.launch.think
        self.last_autosave: str | None = None
        self.autosaver = Autosaver(on_error=self._autosave_failed)
        self._too_small: TooSmallScreen | None = None
        # the shared tables where it is this user's turn (None: not known yet)
        self.your_turns: tuple[str, ...] | None = None
        self._turn_watch: TurnWatch | None = None
        self.crash_report: Path | None = None  # written when the app failed unexpectedly
        self.crash_shown = False  # the crash screen came up (else the command prints it)
        self.crashed = False
        self.settings = self._read_settings()

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but on Linux and macOS one whose input thread sleeps while no
        key comes (tui/driver.py)."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver and not os.environ.get("TEXTUAL_DRIVER"):  # not one asked for
            from boardgames_tui.tui.driver import QuietDriver

            return QuietDriver
        return driver

    # ---- settings that last ----------------------------------------------------------------
    def _read_settings(self) -> Settings:
        """The settings file (with --confine, the player's own), applied where neither the
        command line nor the environment said otherwise."""
        from boardgames_tui.tui import settings
        from boardgames_tui.tui.screens.keys import check

        launch = self.launch
        path = settings.config_path(self.saves_dir, launch.confine)
        if not launch.use_settings:
            return settings.Settings(path, key_check=check)
        found = settings.load(path, check)
        launch.bell = found.get("bell")
        if "bot_delay" not in launch.given:
            launch.bot_delay = found.get("computer_speed")
        if "think" not in launch.given and "think" in found.values:
            self.think = found.get("think")
        return found

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Ctrl+P's commands: the app's own (tui/commands.py), never Textual's (its
        screenshot command writes files)."""
        from boardgames_tui.tui.commands import commands

        return commands(self, screen)

    def apply_settings(self) -> None:
        """Put the settings in force now: theme, keys, bell (after a change too)."""
        settings = self.settings
        self.theme = settings.get("theme")
        self.set_keymap(settings.keys)
        self.launch.bell = settings.get("bell")

    def _autosave_failed(self, message: str) -> None:
        self.call_from_thread(self.notify, message, severity="error", timeout=6)

    def _crash_screen(self) -> bool:
        """Whether an unexpected error shows the crash screen (else Textual's traceback)."""
        launch = self.launch
        screen = not self.is_headless if launch.crash_screen is None else launch.crash_screen
        return screen and not launch.debug

    async def _dispatch_action(self, namespace: DOMNode, action_name: str, params: Any) -> bool:
        # a key's action runs in the app's own message loop, which stops at an error that
        # reaches it: caught here, the loop lives on to draw the crash screen
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except Exception as error:
            if not self._crash_screen():
                raise
            self._handle_exception(error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        """An error nothing expected: save every game, write a report, and show the crash
        screen in place of the one that failed (a room's player never sees a traceback)."""
        launch = self.launch
        if not self._crash_screen():
            super()._handle_exception(error)
            return
        self._return_code = 1
        if self.crashed:  # failing again (the crash screen itself?): just stop, quietly
            self._close_messages_no_wait()
            return
        self.crashed = True
        with contextlib.suppress(Exception):  # the report still matters: saving may be
            self.save_all(3.0)  # what failed
        from boardgames_tui.session.crash import write_report
        from boardgames_tui.tui.screens.crash import CrashScreen

        context = {"screen": type(self.screen).__name__}
        game = getattr(self.screen, "match", None)
        if game is not None:
            context["game"] = f"{game.game.id}, move {game.cursor} of {game.length}"
        if self.last_autosave:
            context["autosave"] = Path(self.last_autosave).name
        self.crash_report = write_report(error, context)
        saved = Path(self.last_autosave).name if self.last_autosave else None
        try:
            self.push_screen(
                CrashScreen(self.crash_report, saved, launch.confine, self._crash_was_shown)
            )
        except Exception:
            self._close_messages_no_wait()

    def _crash_was_shown(self) -> None:
        self.crash_shown = True

    def _hang_up(self, signum: int, frame: object) -> None:
        """The terminal went away (ssh dropped, window closed, the room closing): finish
        writing every game, then go."""
        self.save_all(3.0)
        os._exit(128 + signum)

    def _watch_terminal(self, fd: int) -> None:
        """(A thread's.) Block until the terminal hangs up, then go as on SIGHUP: no wake-up
        while it is there (a timer asking twice a second cost every idle session)."""
        wait_for_hang_up(fd)
        with contextlib.suppress(RuntimeError):  # the app ended meanwhile
            self.call_from_thread(self._hang_up, getattr(signal, "SIGHUP", 1), None)

    def on_mount(self) -> None:
        # SIGHUP is POSIX-only (Windows has none): without it the app just cannot catch a
        # closed terminal, and the autosave after every move still holds the game
        hang_up = getattr(signal, "SIGHUP", None)
        if hang_up is not None and threading.current_thread() is threading.main_thread():
            signal.signal(hang_up, self._hang_up)
        if not self.is_headless and sys.__stdin__ is not None and sys.__stdin__.isatty():
            fd = sys.__stdin__.fileno()
            threading.Thread(
                target=self._watch_terminal, args=(fd,), name="hang-up", daemon=True
            ).start()
        saves.clean_temporary(self.saves_dir)  # left by a write that was killed
        self.apply_settings()
        if self.settings.problem:
            # the file's own text may be in the problem: plain text, never markup
            said = f"{self.settings.problem}; using the defaults"
            self.notify(said, severity="error", timeout=10, markup=False)
        self.push_screen(MenuScreen())
        launch = self.launch
        if launch.new:
            spec = launch.new
            match = Match.new(spec["game"], spec["seats"], spec["options"], spec["seed"])
            self.start_match(match, handover=launch.handover, strict=launch.strict)
        elif launch.table is not None:
            from boardgames_tui.tui.screens.tables import TablesScreen, open_table

            self.push_screen(TablesScreen())
            open_table(self, launch.table, join=False)
        elif launch.match is not None:
            if launch.review:
                self.review_match(launch.match)
            else:
                self.start_match(launch.match)
        elif launch.confine:
            self._resume()
        self.call_after_refresh(self._check_size)
        self.call_after_refresh(self._watch_turns)

    def _resume(self) -> None:
        """A room's player reconnecting: back to the table or game they were at."""
        from boardgames_tui.session import place
        from boardgames_tui.session.confine import ConfineError, confined_path

        where = place.read(self.saves_dir)
        if where is None:
            return
        if "table" in where:
            from boardgames_tui.tui.screens.tables import TablesScreen, open_table

            self.push_screen(TablesScreen())
            open_table(self, where["table"], join=False)
            return
        try:
            path = confined_path(where["save"], self.saves_dir)
        except ConfineError:
            return
        if path.exists():
            self.open_file(path, review=False)

    # ---- navigation --------------------------------------------------------------------
    def start_match(
        self,
        match: Match,
        handover: bool | None = None,
        strict: bool | None = None,
        replace: Screen | None = None,
        think: float | None = None,
        bot_delay: float | None = None,
    ) -> GameScreen:
        if replace is not None and replace in self.screen_stack:
            while self.screen is not replace:
                self.pop_screen()
            self.pop_screen()
        if think is not None:
            self.think = think
        if bot_delay is not None:  # the setup screen's computer speed, kept for the next game
            self.launch.bot_delay = bot_delay
        from boardgames_tui.tui.screens.game import (
            GameScreen,  # the menu comes first: its import waits till here
        )

        screen = GameScreen(
            match,
            handover=handover,
            strict=strict,
            bot_delay=self.launch.bot_delay,
            think=self.think,
        )
        self.push_screen(screen)
        self._say_repairs(match)
        return screen

    def _say_repairs(self, match: Match) -> None:
        """What loading the save mended, said once (the next autosave writes the mended file)."""
        for note in match.repairs:
            self.notify(f"This save was mended: {note}.", timeout=8)
        match.repairs.clear()

    def review_match(self, match: Match) -> None:
        from boardgames_tui.tui.screens.review import ReviewScreen

        # nobody at the table opened it: an unfinished game shows what every seat may see
        viewer = None if match.over else PUBLIC

        def after(index: int | None) -> None:
            if index is not None:
                match.goto(index)
                self.start_match(match)

        self.push_screen(ReviewScreen(match, viewer), after)
        self._say_repairs(match)

    def open_file(self, path: Path, review: bool, replace: Screen | None = None) -> None:
        """Load a save; a bad file gets a dialog naming the file and the problem."""
        if self.launch.confine:
            from boardgames_tui.session.confine import RULE, inside

            if not inside(path, self.saves_dir):
                self.push_screen(MessageScreen("Cannot open this save", RULE))
                return
        try:
            match = saves.load(path)
        except saves.SaveError as exc:
            self.push_screen(MessageScreen("Cannot open this save", str(exc)))
            return
        if replace is not None and replace in self.screen_stack:
            while self.screen is not replace:
                self.pop_screen()
            self.pop_screen()
        if review:
            self.review_match(match)
        else:
            self.start_match(match)

    def on_start_match(self, message: StartMatch) -> None:
        m = message
        self.start_match(
            m.match, m.handover, m.strict, replace=m.replace, think=m.think, bot_delay=m.bot_delay
        )

    def on_open_file(self, message: OpenFile) -> None:
        self.open_file(message.path, message.review, replace=message.replace)

    # ---- no action from text ------------------------------------------------------------
    async def _broker_event(
        self, event_name: str, event: events.Event, default_namespace: Any
    ) -> bool:
        """No markup action link (`[@click=...]`) in any rendered text reaches the app: the
        app's own keys and buttons are bound in code, never through text."""
        return False

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Textual's screenshot action (writes a file of any name into any folder) is off;
        `boardgames-tui screenshots DIR` writes the screenshots."""

    # ---- terminal size -----------------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            # the screen the key is sent to: if another is on top by the time the key comes
            # back up unused, it is sent again to that one (`_on_key`)
            event._sent_to = self.screen  # type: ignore[attr-defined]
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        """(Textual's own `_on_key` runs after this one unless the default is prevented.)"""
        sent_to = getattr(event, "_sent_to", None)
        if sent_to is not None and sent_to is not self.screen and self.is_running:
            # typed as a screen closed or opened (Enter at a hand-over, then the move's
            # hotkey): the key was the old screen's, unused; the screen on top now gets it
            event.prevent_default()
            if not await self._check_bindings(event.key):
                self.post_message(events.Key(event.key, event.character))

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        w, h = self.size
        small = w < MIN_WIDTH or h < MIN_HEIGHT
        if small:
            if self._too_small is None:
                self._too_small = TooSmallScreen(w, h)
                self.push_screen(self._too_small)
            else:
                self._too_small.show_size(w, h)
        elif self._too_small is not None:
            if self.screen is self._too_small:
                self.pop_screen()
            self._too_small = None  # one under another screen goes when it is uncovered

    @property
    def too_small(self) -> bool:
        """Whether the window is below the minimum size (the screens wait for it)."""
        w, h = self.size
        return w < MIN_WIDTH or h < MIN_HEIGHT

    def save_all(self, timeout: float = 5.0) -> None:
        """Queue every open game's autosave and wait until all of it is on disk."""
        game = sys.modules.get(f"{__package__}.screens.game")  # none before its module loads
        for screen in self.screen_stack:
            if game is not None and isinstance(screen, game.GameScreen):
                screen.autosave()
        self.autosaver.flush(timeout)

    async def action_quit(self) -> None:
        self.save_all()
        self.exit(0)

    def open_shared_table(self, table_id: str, join: bool = False) -> None:
        """Sit down at (or watch) a shared table, on its game screen."""
        from boardgames_tui.tui.screens.tables import open_table

        open_table(self, table_id, join=join)

    # ---- your turn, wherever you are -----------------------------------------------------
    def _watch_turns(self) -> None:
        """The thread that tells the app where it is the user's turn (one, for the app's
        life: it waits on the store, never on a timer of the app's)."""
        from boardgames_tui.tui.turns import TurnWatch, YourTurns

        if self._turn_watch is None and self.is_running:
            watch = self._turn_watch = TurnWatch(self.launch.store, self.launch.table_user)
            watch.start(lambda ids: self.post_message(YourTurns(ids)))

    def send_notices(self) -> None:
        """After a move made here: the turn notices it owes are sent now (by the thread)."""
        if self._turn_watch is not None:
            self._turn_watch.nudge(send=True)

    def on_your_turns(self, message: YourTurns) -> None:
        """Say "your turn at N tables" when the number changes (with a bell when it grows,
        unless the table screen in front rang it already), and tell the screens."""
        from boardgames_tui.tui.turns import turn_text

        old, self.your_turns = self.your_turns, message.ids
        if not self.screen_stack:  # the check came back as the app ended: nothing to tell
            return
        for screen in self.screen_stack:
            show = getattr(screen, "show_turns", None)
            if show is not None:
                show(message.ids)
        # the table in front says its own turns: the toast is about the other tables only
        here = getattr(getattr(self.screen, "source", None), "info", None)
        here_id = getattr(here, "id", None)
        others = [i for i in message.ids if i != here_id]
        before = None if old is None else [i for i in old if i != here_id]
        if len(others) == len(before or ()) and (before is not None or not others):
            return
        if here_id is None or others:
            self.notify(turn_text(len(others)), title="Shared tables", timeout=6)
        arrived = set(message.ids) - set(old or ())
        arrived.discard(here_id)  # the table screen rings for its own
        if old is not None and arrived and self.launch.bell:
            self.bell()

    def on_unmount(self) -> None:
        if self._turn_watch is not None:
            self._turn_watch.close()
        self.autosaver.close()  # written, and its thread ended: nothing holds the app
        store = getattr(self, "_table_store", None)
        if store is not None:
            store.close()
