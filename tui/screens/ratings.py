"""Ratings and statistics: each game's leaderboard, and the card of the player highlighted
(yours first), read from the shared tables' results."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, OptionList, Select, Static
from textual.widgets.option_list import Option

from boardgames_tui.engine.tables import NoStore, StoreError, open_store
from boardgames_tui.engine.tables import results as res
from boardgames_tui.session.standings import stats_text, title
from boardgames_tui.tui.screens.base import BaseScreen
from boardgames_tui.tui.screens.dialogs import ScreenHelp


class RatingsScreen(ScreenHelp, BaseScreen[None]):
    """The leaderboard of one game (rated tables only) beside a player's card."""

    HELP_TITLE = "Ratings and statistics"
    BINDINGS = [
        Binding("escape,q", "close", "Back", id="ratings.close"),
        Binding("question_mark", "help", "Help", id="help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.found: list[res.TableResult] = []
        self.problem = ""
        self.game = ""
        self.board: list[res.Rating] = []

    def _read(self) -> None:
        try:
            store = open_store(self.app.launch.store, create_file=False)
        except NoStore:  # no table yet: no result either
            return
        except StoreError as exc:
            self.problem = str(exc)
            return
        try:
            self.found = store.results()
        except StoreError as exc:
            self.problem = str(exc)
        finally:
            store.close()

    def compose(self) -> ComposeResult:
        self._read()
        games = sorted({r.game for r in self.found})
        yield Static(Text("Ratings and statistics", style="bold"), id="status")
        with Horizontal(classes="row"):
            if games:
                yield Select(
                    [(title(g), g) for g in games], value=games[0], allow_blank=False, id="game"
                )
        with Horizontal(id="ratings-body"):
            yield OptionList(id="board")
            with VerticalScroll(id="card-scroll"):
                yield Static("", id="card")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        if not self.found:
            why = self.problem or "No shared table has finished yet: play one (t in the menu)."
            self.query_one("#card", Static).update(Text(why))
            return
        self._show(str(self.query_one("#game", Select).value))
        self.query_one("#board", OptionList).focus()

    @on(Select.Changed, "#game")
    def _game(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL:
            self._show(str(event.value))

    def _show(self, game: str) -> None:
        self.game = game
        self.board = res.leaderboard(r for r in self.found if r.game == game)
        rows = self.query_one("#board", OptionList)
        rows.clear_options()
        me = self.app.launch.table_user()
        for i, p in enumerate(self.board, 1):
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(f"{i:>3}  ")
            line.append(f"{p.label[:22]:<22} ", style="bold" if p.player == me else "")
            line.append(f"{p.shown:>5}{'?' if p.provisional else ' '} {p.games:>4} games")
            rows.add_option(Option(line, id=p.player))
        if not self.board:
            self.query_one("#card", Static).update(Text("No rated table of this game yet."))
            return
        mine = next((i for i, p in enumerate(self.board) if p.player == me), 0)
        rows.highlighted = mine
        self._card(self.board[mine].player)

    @on(OptionList.OptionHighlighted, "#board")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self._card(event.option.id)

    def _card(self, player: str) -> None:
        """The player's card: their rating at this game, where they stand, their statistics."""
        p = next((x for x in self.board if x.player == player), None)
        card = Text()
        card.append(res.player_label(player) + "\n", style="bold")
        if p is not None:
            where = res.standing(player, self.board) if not player.startswith(res.COMPUTER) else ""
            card.append(f"{title(self.game)}: rating {p.shown}")
            card.append(" (provisional)" if p.provisional else "")
            card.append(f", {p.games} rated games")
            card.append(f", {where}\n" if where else "\n")
            if len(p.history) > 1:
                card.append("Rating after each game: " + ", ".join(f"{v:g}" for v in p.history))
                card.append("\n")
        card.append("\n")
        doc = res.stats(player, self.found)
        card.append(stats_text(doc) if doc["played"] or doc["team"] else "No finished table.")
        self.query_one("#card", Static).update(card)

    def action_close(self) -> None:
        self.dismiss(None)
