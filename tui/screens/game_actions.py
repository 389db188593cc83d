"""The game screen's keys and what they do: undo, redo, save, review, rules, help, hints,
and at a shared table the bell, talk, taking a seat back and the rematch. Each goes through
the screen's `Session`; `GameScreen` (`game.py`) draws what follows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.binding import Binding
from textual.message import Message
from textual.worker import Worker, get_current_worker

from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.session.errors import hint_error_message, write_error
from boardgames_tui.session.play import Session
from boardgames_tui.session.source import Refused
from boardgames_tui.tui.screens.base import BaseScreen
from boardgames_tui.tui.screens.dialogs import (
    KEY_ROWS,
    ConfirmScreen,
    HelpScreen,
    MessageScreen,
    SaveAsScreen,
)
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.hint import HintPanel
from boardgames_tui.tui.widgets.log import GameLog
from boardgames_tui.tui.widgets.picker import MovePicker

if TYPE_CHECKING:
    from boardgames_tui.engine.bots.coach import Coach, OptionValue
    from boardgames_tui.tui.games.base import GameUI
    from boardgames_tui.tui.screens.rules import Prepared

ACTION_KEYS = {"undo": "u", "redo": "r", "hint": "h"}  # the help's key rows by action
# the help's key rows by binding id: a key remapped in the settings is shown instead
ROW_IDS = {
    "u": "game.undo",
    "r": "game.redo",
    "s": "game.save",
    "v": "game.review",
    "l": "game.log",
    "g": "game.rules",
    "h": "game.hint",
    "b": "game.bell",
    "c": "game.say",
    "?": "help",
    "q": "game.leave",
}
HINT_THINK = 3.0  # the hint searches this many times a strong player's thinking time


class HintValues(Message):
    """The hint's values so far (`final`: the search is done), or its error (`problem`)."""

    def __init__(
        self,
        worker: Worker[None],
        values: list[OptionValue],
        done: int,
        final: bool,
        problem: str | None = None,
    ) -> None:
        super().__init__()
        self.worker, self.values, self.done, self.final = worker, values, done, final
        self.problem = problem


class GameActions(BaseScreen[None]):
    """The game screen's key bindings and actions (the screen itself is `GameScreen`)."""

    BINDINGS = [
        Binding("escape", "back", "Step back", show=False, id="game.back"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("r", "redo", "Redo", id="game.redo"),
        Binding("s", "save", "Save", id="game.save"),
        Binding("v", "review", "Review", id="game.review"),
        Binding("l", "log", "Log", id="game.log"),
        Binding("g", "rules", "Rules", id="game.rules"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "leave", "Menu", id="game.leave"),
        Binding(
            "pageup",
            "log_page(-1)",
            "Scroll log",
            key_display="PgUp/PgDn",
            priority=True,
            id="game.log-page-back",
        ),
        Binding(
            "pagedown",
            "log_page(1)",
            "Scroll log",
            show=False,
            priority=True,
            id="game.log-page-forward",
        ),
        Binding("slash", "filter", "Filter", show=False, id="game.filter"),
        Binding(
            "tab,right_square_bracket",
            "cycle(1)",
            "Next view",
            show=False,
            priority=True,
            id="game.cycle-forward",
        ),
        Binding(
            "shift+tab,left_square_bracket",
            "cycle(-1)",
            "Prev view",
            show=False,
            priority=True,
            id="game.cycle-back",
        ),
        Binding("e", "results", "Results", show=False, id="game.results"),
        Binding(
            "b", "bell", "Bell", id="game.bell"
        ),  # a shared table's (the source turns keys off)
        Binding(
            "t", "reclaim", "Take seat back", id="game.reclaim"
        ),  # when the computer plays your seat
        # a shared table's: a message to the others; named in the footer where there is room
        # (at 80 columns the footer is full: the table screen's help names it there)
        Binding("c", "say_footer", "Say", id="game.say-footer"),
        Binding("c", "say", "Say", show=False, id="game.say"),
    ]

    # what the screen (`GameScreen`) provides
    session: Session
    ui: GameUI[Any]
    think: float | None
    compact: bool
    _hint_at: tuple[int, tuple[str, ...]] | None
    _end_shown: bool
    _waiting_handover: bool
    _rules_text: Prepared | None

    if TYPE_CHECKING:

        @property
        def match(self) -> Match: ...
        @property
        def viewer(self) -> int | None: ...
        def refresh_game(self, highlight: bool = True) -> None: ...
        def current_view(self) -> Mapping[str, Any]: ...
        def _change(self, step: Callable[[], object], highlight: bool = False) -> None: ...
        def _refused(self, exc: Refused, highlight: bool = True) -> None: ...
        def _stop_computer(self) -> None: ...
        def _position(self) -> tuple[int, tuple[str, ...]]: ...
        def autosave(self) -> None: ...
        def _size_board(self, board: BoardView) -> None: ...
        def _render_recent(self) -> None: ...
        def _render_log(self) -> None: ...

    # ---- hints -------------------------------------------------------------------------
    def _hide_hint(self) -> None:
        self.workers.cancel_group(self, "hint")  # a search still running stops at its next report
        self._hint_at = None
        self.query_one(HintPanel).hide()

    def action_hint(self) -> None:
        """Show (or hide) the strong player's suggestion for the seat to move."""
        m = self.match
        prompt = m.prompt
        if self._hint_at is not None:
            self._hide_hint()
            return
        if self.session.facts.strict:
            self.notify("Hints are off in this game (strict rules).", severity="warning")
            return
        if prompt is None:
            self.notify("The game is over: no decision to hint at.")
            return
        if m.seats[prompt.seat].is_bot or self._waiting_handover or prompt.seat != self.viewer:
            self.notify("A hint is for your own decision: wait for your turn.")
            return
        self._hint_at = self._position()
        self.query_one(HintPanel).show_thinking(m.seats[prompt.seat].name)
        from boardgames_tui.engine.bots.analysis import decision_seed
        from boardgames_tui.engine.bots.coach import Coach
        from boardgames_tui.engine.bots.search import default_think

        game = m.game
        number = m.cursor + 1
        coach = Coach(
            game,
            seed=decision_seed(m, number),
            think=HINT_THINK * (default_think() if self.think is None else self.think),
        )
        state = game.clone(m.state)  # the live state moves on with the next move

        self._search_hint(coach, state, prompt)

    @work(thread=True, exclusive=True, group="hint")
    def _search_hint(self, coach: Coach, state: Any, prompt: Prompt) -> None:
        worker = get_current_worker()

        def progress(values: list[OptionValue], done: int) -> bool:
            if worker.is_cancelled:
                return False
            self.post_message(HintValues(worker, values, done, False))
            return True

        try:
            values = coach.values(state, prompt, progress=progress)
        except Exception as exc:  # a search bug must not end the game
            problem = hint_error_message(write_error("hint", exc))
            self.post_message(HintValues(worker, [], 0, True, problem))
            return
        self.post_message(HintValues(worker, values, coach.last_iterations, True))

    @on(HintValues)
    def _hint_values(self, message: HintValues) -> None:
        if message.problem:
            self.notify(message.problem, severity="warning", timeout=10)
        if message.worker.is_cancelled or not self.is_attached or not message.values:
            return
        prompt = self.match.prompt
        if prompt is None:
            return
        self.match.hints.add(self.match.cursor + 1)  # this decision was taken with help
        self.query_one(HintPanel).show_values(
            message.values,
            prompt.ids(),
            self.match.game.cooperative,
            message.done,
            message.final,
            keys=self.query_one(MovePicker).keys,  # the picker's (a table keeps c for talk)
        )

    # ---- actions -----------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.session.facts.strict:
            self.notify("Undo is off in this game (strict rules).", severity="warning")
            return
        reasons = self.session.undo_reasons()
        if reasons is None:
            self.notify("Nothing to undo.")
            return

        def do(ok: bool | None = True) -> None:
            if ok:
                self._change(self.session.undo)

        if reasons:
            why = "; ".join(reasons)
            # only the first letter up: "It takes back Ann's move", never "ann's"
            self.app.push_screen(ConfirmScreen(f"Undo? {why[0].upper()}{why[1:]}."), do)
        else:
            do()

    def action_redo(self) -> None:
        if not self.session.can_redo():
            self.notify("Nothing to redo.")
            return
        self._change(self.session.redo, highlight=True)

    def action_save(self) -> None:
        refusal = self.session.facts.save_refusal
        if refusal:
            self.notify(refusal, severity="warning")
            return
        m = self.match
        default = m.save_path or str(
            saves.saves_dir(self.app.saves_dir) / f"{m.game.id}-{m.seed}.toml"
        )
        confine = self.app.launch.confine
        if confine:  # a name in the player's own folder, never a path
            default = f"{m.game.id}-{m.seed}"

        def do(path: str | None) -> None:
            if not path:
                return
            if confine:
                from boardgames_tui.session.confine import ConfineError, confined_path

                try:
                    path = str(confined_path(path, self.app.saves_dir))
                except ConfineError as exc:
                    self.app.push_screen(MessageScreen("Could not save", str(exc)))
                    return
            # a bare name goes into the saves folder, not wherever the app was started
            target = Path(path).expanduser()
            if not target.is_absolute():
                target = saves.saves_dir(self.app.saves_dir) / target
            if target.suffix != ".toml":
                target = target.with_name(target.name + ".toml")
            path = str(target)
            try:
                saves.save(m, path)
            except (OSError, ValueError) as exc:
                self.app.push_screen(MessageScreen("Could not save", f"{path}: {exc}"))
                return
            self.notify(f"Saved to {path}")

        self.app.push_screen(SaveAsScreen(default), do)

    def action_review(self) -> None:
        from boardgames_tui.tui.screens.review import ReviewScreen

        session = self.session
        table = session.table

        def back(result: int | None) -> None:
            try:
                if result is not None:
                    session.goto(result)
                    self._end_shown = False
                session.poll()  # a table: what the others played meanwhile
            except Refused as exc:
                self._refused(exc, highlight=False)
            session.refresh()
            self.refresh_game(highlight=False)

        self._stop_computer()
        viewer = None if self.match.over else self.viewer
        # at a table no continuing from an earlier move; a spectator sees the public view
        review = ReviewScreen(
            self.match,
            viewer,
            allow_continue=table is None,
            public=table is not None and viewer == PUBLIC,
            analysis=table is None or not table.rated_in_play(),
        )
        self.app.push_screen(review, back)

    def action_rules(self) -> None:
        """The rules reference: made once per game screen, then shown again as it was (the
        place read in it kept); the text is prepared in a thread soon after the screen opens."""
        from boardgames_tui.tui.screens.rules import RulesScreen

        name = f"rules-{id(self)}"
        if not self.app.is_screen_installed(name):
            game, options = self.match.game, self.match.options
            self.app.install_screen(RulesScreen(game, options, self._rules_text), name)
        self.app.push_screen(name)

    @work(thread=True, exclusive=True, group="rules", exit_on_error=False)
    def _prepare_rules(self) -> None:
        from boardgames_tui.tui.screens.rules import prepare, text_width

        width = text_width(self.app.size.width)
        text = prepare(self.match.game, self.match.options, width, self.app.console)
        self._rules_text = self._rules_text or text

    def action_help(self) -> None:
        from boardgames_tui.tui.screens.rules import phase_help

        prompt = self.match.prompt
        phase = explanation = ""
        if prompt is not None:
            name = self.match.seats[prompt.seat].name
            asked = prompt.text_for(self.viewer)
            text = asked if asked.startswith(name) else f"{name}: {asked}"
            phase = f"Now: {prompt.phase or 'play'} — {text}"
            status = self.ui.status(self.current_view()) or ""
            terms = [prompt.phase, *status.split(" · ")]
            explanation = phase_help(
                self.match.game.rules_reference(self.match.options), [t for t in terms if t]
            )

        def after(result: str | None) -> None:
            if result == "rules":
                self.action_rules()

        # the keys this screen offers: a table has no redo, a spectator no undo or hint
        keys_off = self.session.facts.keys_off
        off = {ACTION_KEYS[a] for a in keys_off if a in ACTION_KEYS}
        rows = [row for row in KEY_ROWS if row[0] not in off]
        if "bell" not in keys_off:
            rows.insert(-2, ("b", "bell on or off when it becomes your turn"))
        if "say" not in keys_off:
            rows.insert(-2, ("c", "say something at the table (shown in the log, marked »)"))
        keymap = self.app.settings.keys
        rows = [
            (keymap[ROW_IDS[k]].replace(",", " / ") if ROW_IDS.get(k) in keymap else k, what)
            for k, what in rows
        ]
        self.app.push_screen(
            HelpScreen(self.match.game.title, phase, rows=rows, explanation=explanation), after
        )

    def action_leave(self) -> None:
        self._stop_computer()
        self.workers.cancel_group(self, "hint")
        self.autosave()
        self.app.autosaver.flush()  # the menu's "continue" must find this game
        self.app.pop_screen()

    def action_log(self) -> None:
        from boardgames_tui.tui.screens.log import LogScreen

        self.app.push_screen(LogScreen(self.match, self.viewer))

    def action_reclaim(self) -> None:
        """Take back the seat the computer plays for you (a shared table)."""
        self._stop_computer()
        try:
            if self.session.table is None:
                raise Refused("Nobody plays for you here.")
            said = self.session.table.reclaim()
        except Refused as exc:
            self._refused(exc)
            return
        self.session.refresh()
        self.notify(said)
        self.refresh_bindings()
        self.refresh_game(highlight=False)

    def action_bell(self) -> None:
        launch = self.app.launch
        launch.bell = not launch.bell
        self.notify(f"Bell {'on' if launch.bell else 'off'} when it becomes your turn.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys that do nothing with this source (a table: redo; a spectator: undo, bell)
        keys_off = self.session.position.facts.keys_off
        if action in keys_off:
            return False
        if action == "say_footer":  # the same key as "say", shown only where it fits
            return "say" not in keys_off and not self.compact
        # the compact layout has no log panel: PgUp/PgDn page the move list there
        if action == "log_page":
            return not self.compact
        if action == "back":  # Esc steps back out of a multi-part move, or clears a filter
            picker = self.query_one(MovePicker)
            return self.session.can_step_back() or picker.has_class("filtering")
        return True

    def action_log_page(self, delta: int) -> None:
        self.query_one(GameLog).page(delta)

    def action_filter(self) -> None:
        self.query_one(MovePicker).start_filter()
        self.refresh_bindings()

    def action_back(self) -> None:
        picker = self.query_one(MovePicker)
        if picker.clear_filter():
            return
        if self.session.can_step_back():
            self._change(self.session.step_back)

    def action_cycle(self, delta: int) -> None:
        from boardgames_tui.tui.widgets.areas import TabLine

        board = self.query_one(BoardView)
        if not self.compact:
            # every panel is on screen: nothing to switch, and the move picker keeps the focus
            self.query_one(MovePicker).options.focus()
            return
        board.cycle(delta)
        self._size_board(board)
        self.query_one(TabLine).show(board, self.compact, self.app.size.width)
        self._render_recent()

    def action_results(self) -> None:
        if not self.match.over:
            return
        from boardgames_tui.tui.screens.end import EndScreen

        def after(choice: str | None) -> None:
            if choice == "review":
                self.action_review()
            elif choice == "menu":
                self.app.pop_screen()
            elif choice == "rematch":
                self.action_rematch()

        table = self.session.table
        rematch = table is not None and table.can_rematch()
        note = table.counts_note() if table is not None else ""  # rated or why not
        self.app.push_screen(EndScreen(self.match, rematch=rematch, note=note), after)

    def action_rematch(self) -> None:
        """A finished table: open its rematch (the same people, the next seat starting)."""
        table = self.session.table
        if table is None or not table.can_rematch():
            return
        try:
            table_id = table.rematch()
        except Refused as exc:
            self._refused(exc)
            return
        self.app.pop_screen()
        self.app.open_shared_table(table_id, join=True)
        self.app.notify(
            f"Rematch: table {table_id}. The others find it offered under Shared tables."
        )

    def action_say_footer(self) -> None:
        self.action_say()

    def action_say(self) -> None:
        """The message line: say something at the table (kept apart from the moves)."""
        from boardgames_tui.tui.screens.dialogs import TalkScreen

        def said(text: str | None) -> None:
            table = self.session.table
            if not text or table is None:
                return
            try:
                table.say(text)
            except Refused as exc:
                self._refused(exc)
                return
            self.session.refresh()
            self._render_log()

        self.app.push_screen(TalkScreen(), said)
