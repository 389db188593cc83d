"""Review: step through every move with the board as it was; continue from any move."""

from __future__ import annotations

import pickle
import weakref
from collections.abc import Mapping
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from boardgames_tui.engine.bots import analysis
from boardgames_tui.engine.bots.analysis import Rating
from boardgames_tui.engine.core import PUBLIC, Match
from boardgames_tui.session.scores import score_history
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.dialogs import ConfirmScreen, MessageScreen, ScreenHelp
from boardgames_tui.tui.screens.end import headline
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList
from boardgames_tui.tui.widgets.score_chart import score_chart

# analyses kept while their match lives, so reopening review shows them again:
# id(match) -> (the match, the move ids they were made for, ratings by move number)
_ANALYSES: dict[int, tuple[weakref.ref[Match], list[str], dict[int, Rating]]] = {}


def stored_analysis(match: Match) -> dict[int, Rating]:
    """The ratings made for `match` so far that still fit its history (a move changed after
    an undo makes the ratings from there on stale)."""
    ids = [st.move_id for st in match.steps]
    entry = _ANALYSES.get(id(match))
    if entry is None or entry[0]() is not match:
        ratings: dict[int, Rating] = {}
    else:
        old_ids, ratings = entry[1], entry[2]
        same = 0
        while same < min(len(ids), len(old_ids)) and ids[same] == old_ids[same]:
            same += 1
        ratings = {n: r for n, r in ratings.items() if n <= same}
    for key in [k for k, (ref, _, _) in _ANALYSES.items() if ref() is None]:
        del _ANALYSES[key]
    _ANALYSES[id(match)] = (weakref.ref(match), ids, ratings)
    return ratings


BESIDE_WIDTH = 170  # from this width the move list stands beside the board, else below it


def _numbered(n: int, line: str | Text) -> Table:
    """A move of the list: its number, and its text wrapped in a column of its own."""
    row = Table.grid(padding=(0, 1))
    row.add_column(justify="right", min_width=4, no_wrap=True)
    row.add_column(ratio=1)
    row.add_row(str(n), line)
    return row


class Rated(Message):
    """One more decision rated by the analysis (`done` of `total`)."""

    def __init__(self, worker: Worker[None], rating: Rating, done: int, total: int) -> None:
        super().__init__()
        self.worker, self.rating, self.done, self.total = worker, rating, done, total


class ReviewScreen(ScreenHelp, Screen[int | None]):
    HELP_TITLE = "Review"
    """Dismisses with the move index to continue from, or None to go back unchanged."""

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        # priority: the move list's own (hidden) left/right would hide them from the footer
        Binding("left", "step(-1)", "Prev", priority=True, id="review.step-back"),
        Binding("right", "step(1)", "Next", priority=True, id="review.step-forward"),
        Binding("m", "analyse", "Analyse", id="review.analyse"),
        Binding("n", "mistake(1)", "Mistake", id="review.mistake-forward"),
        Binding("p", "mistake(-1)", "Previous mistake", show=False, id="review.mistake-back"),
        # Home / End hidden from the footer (so that 80 columns hold the rest), as usual
        Binding("home,a", "jump(0)", "Start", priority=True, show=False, id="review.jump-first"),
        Binding("end,z", "jump(-1)", "End", priority=True, show=False, id="review.jump-end"),
        Binding("c", "continue_here", "Continue from here", id="review.continue-here"),
        Binding("o", "chart", "Score chart", show=False, id="review.chart"),
        Binding(
            "tab,right_square_bracket",
            "cycle(1)",
            "View",
            show=False,
            priority=True,
            id="review.cycle-forward",
        ),
        Binding("left_square_bracket", "cycle(-1)", show=False, id="review.cycle-back"),
        Binding("escape,q,v", "close", "Back", id="review.close"),
    ]

    def __init__(
        self,
        match: Match,
        viewer: int | None,
        allow_continue: bool = True,
        public: bool = False,
        analysis: bool = True,
    ) -> None:
        super().__init__()
        self.match = match
        self.analysis = analysis  # False: a rated table in play (no analysis until it ends)
        self.viewer = viewer
        # a table's spectator: the board shows only what every seat sees alike
        self.public = public
        self.index = match.cursor
        self.allow_continue = allow_continue
        self.compact = False
        self.ratings = stored_analysis(match)
        self._analysing: tuple[int, int] | None = None  # (done, total) while it runs

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield Static("", id="tabs")
        with Container(id="review-body"):
            yield BoardView(ui_for(self.match.game.id), id="board")
            yield OptionList(id="review-moves")
        yield Static("", id="lastlog")
        yield Footer(show_command_palette=False)

    def _apply_size(self) -> None:
        w, h = self.app.size
        self.compact = w < 110 or h < 34
        self.set_class(self.compact, "compact")
        self.set_class(w >= BESIDE_WIDTH, "beside")

    def on_mount(self) -> None:
        self._apply_size()
        moves = self.query_one("#review-moves", OptionList)
        opts = [Option(_numbered(0, "setup"), id="0")]
        for i in range(1, len(self.match.steps) + 1):
            opts.append(Option(self._move_line(i), id=str(i)))
        moves.add_options(opts)
        self.show_index(self.index)

    def _move_line(self, i: int) -> Table:
        """Move `i` in the list: number, marks (analysis, hint used), who and what."""
        step = self.match.steps[i - 1]
        who = self.match.seats[step.seat].name
        line = self.match.move_line(i, self.viewer)
        if not line.startswith(who):  # "Ann plays Park", not "Ann: Ann plays Park"
            line = f"{who}: {line}"
        t = Text()
        rating = self._rating(i)
        mark = analysis.MARKS[rating.tag] if rating is not None else ""
        if mark:
            t.append(mark, style=MARK_STYLE[rating.tag])  # type: ignore[union-attr]
            t.append(" ")
        if i in self.match.hints:
            t.append("hint", style="italic reverse")
            t.append(" ")
        t.append(line)
        if i in self.match.autopilot:
            t.append(" (autopilot)", style="italic")
        return _numbered(i, t)

    def on_resize(self) -> None:
        self._apply_size()
        # the index when the redraw runs: a key may have moved it since the resize
        self.call_after_refresh(lambda: self.show_index(self.index))

    def show_index(self, index: int) -> None:
        n = len(self.match.steps)
        self.index = max(0, min(n, index))
        state = self.match.state_at(self.index)
        game = self.match.game
        view: Mapping[str, Any]
        board = self.query_one(BoardView)
        board.room = board.size.height  # compact: the views that fit are shown together
        if self.public:
            from boardgames_tui.engine.tables import public_view

            view = public_view(self.match, state)
            self.query_one(BoardView).show(view, None, self.compact, highlight=False)
        else:
            view = game.view(state, self.viewer)
            self.query_one(BoardView).show(view, self.viewer, self.compact, highlight=False)
        ui = ui_for(game.id)
        status = Text(f" Review · {game.title} · move {self.index}/{n}", style="bold")
        if self.index == n and game.prompt(state) is None:  # who won, before the line runs out
            status.append(f" · {headline(self.match, game.result(state))}")
        verdict = self._verdict(self.index)
        if verdict:
            status.append(f" · {verdict}", style="")
        if self._analysing is not None:
            status.append(f" · analysing {self._analysing[0]}/{self._analysing[1]}", style="italic")
        st = ui.status(view)
        if st:
            status.append(f" · {st}", style="")
        self.query_one("#status", Static).update(status)
        self._render_tabs()
        lines = []
        if self.index > 0:
            step = self.match.steps[self.index - 1]
            lines = step.lines_for(self.viewer)
        text = " · ".join(lines) or ("setup" if self.index == 0 else "")
        self.query_one("#lastlog", Static).update(
            Text(f" ▸ {text}", overflow="ellipsis", no_wrap=True)
        )
        moves = self.query_one("#review-moves", OptionList)
        moves.highlighted = self.index

    def _verdict(self, i: int) -> str:
        """The analysis of move `i` and whether a hint was used, in words."""
        parts = []
        rating = self._rating(i)
        if rating is not None and rating.tag == "best":
            parts.append(f"best move ({rating.played_value:.0%})")
        elif rating is not None:
            private = self.viewer == PUBLIC and self.match.steps[i - 1].public is not None
            best = "a move only that player could see" if private else rating.best_label
            parts.append(
                f"{rating.tag}: played {rating.played_value:.0%}, "
                f"best {best} {rating.best_value:.0%}"
            )
        if i in self.match.hints:
            parts.append("hint used")
        if i in self.match.autopilot:
            parts.append("played by the computer for an absent player (autopilot)")
        return " · ".join(parts)

    # ---- analysis ----------------------------------------------------------------------
    @property
    def _own_only(self) -> bool:
        """During a game (a seat at the table reviews) only that seat's decisions are rated:
        the best move of another seat's decision may name its private cards. A save opened
        from outside the game (`review FILE`) rates everyone, as `analyse FILE` does, and hides
        the best move's name where the decision was private."""
        return self.viewer is not None and self.viewer != PUBLIC

    def _rating(self, i: int) -> Rating | None:
        """Move `i`'s rating if this viewer may see it."""
        rating = self.ratings.get(i)
        if rating is None or (self._own_only and rating.seat != self.viewer):
            return None
        return rating

    def action_chart(self) -> None:
        """Each seat's score over the game (a finished, competitive game's only)."""
        at, scores = score_history(self.match)
        if not at:
            self.notify("The score chart comes when a game (not a co-operative one) is over.")
            return
        names = [s.name for s in self.match.seats]
        self.app.push_screen(MessageScreen("Score over the game", score_chart(names, at, scores)))

    def action_analyse(self) -> None:
        """Rate the decisions in a background worker; marks appear as they come in."""
        if not self.analysis:
            self.notify("A rated table: no analysis until the game ends.")
            return
        if self._analysing is not None:
            self.notify("Already analysing: marks appear as each move is rated.")
            return
        match = self.match
        seats = analysis.rated_seats(match)
        why = ""
        if self._own_only:  # during a game: only your own decisions
            seats = [s for s in seats if s == self.viewer]
            why = (
                "During a game only your own decisions are rated: another player's best move "
                "could name their hidden cards. After the game, review rates everyone."
            )
        todo = [n for n in analysis.decisions(match, seats) if n not in self.ratings]
        if not todo:
            said = "Every decision is rated." if seats else "No decisions of yours to rate."
            self.notify(f"{said} {why}".strip(), timeout=8)
            return
        if why:
            self.notify(why, timeout=8)
        game = match.game
        think = getattr(self.app, "think", None)
        jobs = [
            (n, match.snaps[n - 1], match.steps[n - 1].move_id, analysis.decision_seed(match, n))
            for n in todo
        ]
        self._analysing = (0, len(jobs))
        self.show_index(self.index)

        self._analyse(game, jobs, think)

    @work(thread=True, exclusive=True, group="analysis")
    def _analyse(self, game: Any, jobs: list[tuple[int, bytes, str, int]], think: Any) -> None:
        worker = get_current_worker()
        for k, (n, blob, played, seed) in enumerate(jobs, start=1):
            if worker.is_cancelled:
                return
            state = pickle.loads(blob)  # its own copy: the screen reads the match meanwhile
            rating = analysis.rate_position(game, state, n, played, seed, think=think)
            self.post_message(Rated(worker, rating, k, len(jobs)))

    @on(Rated)
    def _rated(self, message: Rated) -> None:
        if message.worker.is_cancelled or not self.is_attached:
            return
        rating, done, total = message.rating, message.done, message.total
        self.ratings[rating.n] = rating
        self.query_one("#review-moves", OptionList).replace_option_prompt_at_index(
            rating.n, self._move_line(rating.n)
        )
        self._analysing = None if done >= total else (done, total)
        if self._analysing is None:
            flaws = sum(
                1 for n in self.ratings if (r := self._rating(n)) and r.tag in analysis.FLAWS
            )
            self.notify(f"Analysis done: {flaws} inaccuracies, mistakes or blunders (n / p).")
        self.show_index(self.index)

    def action_mistake(self, delta: int) -> None:
        """Jump to the next (or previous) move rated an inaccuracy, mistake or blunder."""
        flawed = sorted(
            n for n in self.ratings if (r := self._rating(n)) and r.tag in analysis.FLAWS
        )
        if not self.ratings:
            self.notify("No analysis yet: press m to rate the moves.")
            return
        after = [n for n in flawed if n > self.index] if delta > 0 else []
        before = [n for n in flawed if n < self.index] if delta < 0 else []
        target = after[0] if after else before[-1] if before else None
        if target is None:
            where = "after" if delta > 0 else "before"
            self.notify(f"No mistake {where} this move{' yet' if self._analysing else ''}.")
            return
        self.show_index(target)

    @on(OptionList.OptionHighlighted, "#review-moves")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # a highlight we set ourselves arrives later as a message: a stale one is ignored
        if event.option_index != event.option_list.highlighted:
            return
        if event.option.id is not None and int(event.option.id) != self.index:
            self.show_index(int(event.option.id))

    @on(OptionList.OptionSelected, "#review-moves")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.show_index(int(event.option.id))

    def action_step(self, delta: int) -> None:
        self.show_index(self.index + delta)

    def action_jump(self, where: int) -> None:
        self.show_index(len(self.match.steps) if where < 0 else where)

    def _render_tabs(self) -> None:
        """The board's views as tabs (compact layout), as on the game screen."""
        board = self.query_one(BoardView)
        titles = board.tab_titles()
        page = [i for i in board.page if i < len(titles)] or [board.tab]
        shown = f"{page[0] + 1}" if len(page) == 1 else f"{page[0] + 1}-{page[-1] + 1}"
        t = Text(f" Tab ▸ {shown}/{len(titles)} ", style="dim")
        for i, title in enumerate(titles):
            if i in page:
                t.append(f" {title if len(page) == 1 else title.split()[0]} ", style="reverse bold")
            else:
                t.append(f" {title.split()[0]} ")
        t.truncate(self.app.size.width, overflow="ellipsis")
        self.query_one("#tabs", Static).update(t if self.compact else "")

    def action_cycle(self, delta: int) -> None:
        if self.compact:
            self.query_one(BoardView).cycle(delta)
            self._render_tabs()

    def action_continue_here(self) -> None:
        if not self.allow_continue:
            return
        n = len(self.match.steps)
        if self.index == n:
            self.dismiss(self.index)
            return

        def do(ok: bool | None) -> None:
            if ok:
                self.dismiss(self.index)

        self.app.push_screen(
            ConfirmScreen(
                f"Continue from move {self.index}? The {n - self.index} later moves can still be "
                "redone until a different move is played."
            ),
            do,
        )

    def action_close(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "analysis")  # it stops after its current move


MARK_STYLE = {"inaccuracy": "bold yellow", "mistake": "bold dark_orange", "blunder": "bold red"}
