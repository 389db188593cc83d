"""Notre Dame board: persons, the boroughs' sectors and Notre Dame, market places, players.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from boardgames_tui.engine.notre_dame.data import CARD_NAMES
from boardgames_tui.tui.games.base import SEAT_LETTERS, SEAT_STYLES, GameUI, Panel
from boardgames_tui.tui.games.elements import (
    Column,
    Fit,
    counted,
    first,
    player_table,
    track,
    track_header,
)

if TYPE_CHECKING:
    from boardgames_tui.engine.notre_dame.view import (
        CardsView,
        MarketPlaceView,
        NotreDameView,
        PlayerView,
    )


PHASE_TITLES = {
    "draft": "2 Draft",
    "actions": "3 Actions",
    "hire": "4 Hire",
    "plague": "5 Plague",
    "over": "Game over",
}
SECTOR_ROWS = (
    ("cloister", "Cloister"),
    ("bank", "Bank"),
    ("residence", "Residence"),
    ("carriage", "Carriage house"),
    ("hotel", "Hotel"),
    ("park", "Park"),
    ("hospital", "Hospital"),
)
CARD_LABELS = CARD_NAMES  # the engine's names for cards and sectors
# Message colours as Rich styles (a letter goes with each: colour is never the only carrier).
MESSAGE_STYLES = {
    "red": "red",
    "blue": "blue",
    "green": "green",
    "yellow": "yellow",
    "magenta": "magenta",
}
MESSAGE_LETTERS = {"red": "r", "blue": "b", "green": "g", "yellow": "y", "magenta": "m"}
PLACES = ("C", "O1", "O2", "O3", "O4")


def tag(seat: int, name: str | None = None) -> Text:
    """A seat's letter in its colour (and its name)."""
    t = Text(SEAT_LETTERS[seat % len(SEAT_LETTERS)], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    if name:
        t.append(f" {name}")
    return t


def markers(count: int, friend: bool, seat: int) -> Text:
    """Markers as dots (a number beyond 5) and F for the trusted friend."""
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    if count == 0 and not friend:
        return Text("·", style="dim")
    t = Text()
    if count:
        t.append("●" * count if count <= 5 else f"●×{count}", style=style)
    if friend:
        t.append("F", style=f"{style} reverse")
    return t


def message_tag(colour: str, reward: str | None = None) -> Text:
    t = Text("◆" + MESSAGE_LETTERS.get(colour, "?"), style=MESSAGE_STYLES.get(colour, ""))
    if reward:
        t.append(f"({reward})", style="dim")
    return t


class NotreDameUI:
    """The GameUI of Notre Dame."""

    game_id = "notre-dame"

    def status(self, view: NotreDameView) -> str:
        phase = PHASE_TITLES.get(view["phase"], view["phase"])
        bell = view["names"][view["bell_ringer"]]
        head = f"Period {view['period']} · Round {view['round']}/{view['rounds']}"
        if view["over"]:
            return f"{head} · Game over"
        extra = ""
        if view["phase"] == "actions":
            extra = f" ({'1st' if view['lap'] == 0 else '2nd'} card)"
        elif view["phase"] == "draft":
            extra = f" ({'keep 1 of 3' if view['draft_step'] == 0 else 'keep 1 of 2'})"
        return f"{head} · {phase}{extra} · bell-ringer {bell}"

    def panels(self, view: NotreDameView, viewer: int | None, compact: bool) -> list[Panel]:
        nd = view["notre_dame"]
        total = nd["total"]
        share = nd["pool"] // total if total else nd["pool"]
        decks = f"brown deck {view['brown_left']}, gray {view['gray_left']}"
        if view["gray_next"]:
            decks += f" (next {view['gray_next']})"
        out = [
            Panel(
                "persons",
                f"Persons · plague value {view['plague_value']} · {decks}",
                self._persons(view, compact),
            ),
            Panel(
                "boroughs",
                f"Boroughs · Notre Dame pool {nd['pool']}: {share}★ per marker at period end",
                self._boroughs(view, compact),
            ),
            Panel(
                "market",
                "Market places · ◆r red message · [A] carriage of player A · ─ road",
                self._market(view, compact),
            ),
        ]
        you = view.get("you")
        if you is not None:
            name = view["names"][you["seat"]]
            body = self._hand(view, you)
            out.append(Panel("hand", f"Your cards ({name})", body, area="side"))
        elif view.get("hands"):
            body = self._all_hands(view)
            out.append(Panel("hand", "Cards (all players)", body, area="side"))
        out.append(
            Panel("players", f"Players · ★ prestige · bank {view['bank']} gold",
                  self._players(view, compact),
                  area="side")
        )  # fmt: skip
        out.append(
            Panel("plague", "Rat track · ! overflow −2★ −1 marker", self._plague(view), area="side")
        )
        if compact and view["over"]:
            return first(out, "players")
        return out

    # ---- board ----
    def _persons(self, view: NotreDameView, compact: bool) -> RenderableType:
        if not view["persons"]:
            return Text("No persons face up (the game is over).", style="dim")
        hired: dict[str, list[int]] = {}
        for pl in view["players"]:
            if pl["hired"]:
                hired.setdefault(pl["hired"], []).append(pl["seat"])
        lines: list[RenderableType] = []
        for i, p in enumerate(view["persons"], start=1):
            t = Text(f"{i} {p['name']}", style="bold")
            t.append(f" ({counted(p['rats'], 'rat') if p['rats'] else 'no rat'})", style="dim")
            t.append(f": {p['text']}")
            lines.append(t)
        return Group(*lines)

    def _boroughs(self, view: NotreDameView, compact: bool) -> RenderableType:
        players = view["players"]

        def build(names: bool) -> Table:
            table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
            table.add_column("", no_wrap=True, style="bold")
            for pl in players:
                table.add_column(tag(pl["seat"], pl["name"] if names else None), no_wrap=True)
            for key, label in SECTOR_ROWS:
                row: list[RenderableType] = [label]
                for pl in players:
                    row.append(markers(pl["sectors"][key], pl["friend"] == key, pl["seat"]))
                table.add_row(*row)
            row = [Text("Notre Dame", style="bold magenta")]
            for pl in players:
                row.append(markers(pl["notre_dame"], pl["friend"] == "notredame", pl["seat"]))
            table.add_row(*row)
            return table

        return Fit(build(True), build(False))

    def _market(self, view: NotreDameView, compact: bool) -> RenderableType:
        by_borough: dict[int, list[MarketPlaceView]] = {}
        for node in view["market"]:
            by_borough.setdefault(node["borough"], []).append(node)
        boroughs = view["boroughs"]

        def build(names: bool) -> Table:
            table = Table.grid(padding=(0, 1))
            table.add_column(no_wrap=True)
            table.add_column(no_wrap=True)
            for i, b in enumerate(boroughs):
                seat = b["seat"]
                if seat is None:
                    owner = Text(f"– ({b['colour']})", style="dim")
                else:
                    owner = tag(seat, view["names"][seat] if names else None)
                ring = Text()
                for node in by_borough[b["index"]]:
                    if node["place"] != "C":
                        ring.append(" ─ ", style="dim")
                    ring.append(node["place"].replace("O", ""), style="bold")
                    if node["message"]:
                        reward = node.get("reward")
                        ring.append_text(
                            message_tag(node["message"], reward[0] if reward else None)
                        )
                    for s in node["carriages"]:
                        ring.append("[")
                        ring.append_text(tag(s))
                        ring.append("]")
                    if not node["message"] and not node["carriages"]:
                        ring.append("·", style="dim")
                nxt = boroughs[(i + 1) % len(boroughs)]
                ring.append(" ─▸ ", style="dim")
                ring.append_text(
                    tag(nxt["seat"]) if nxt["seat"] is not None else Text(nxt["colour"])
                )
                ring.append(" 1", style="bold")
                table.add_row(owner, ring)
            return table

        roads = Text(
            "C links to its own 1-4, to the next borough's 1 and the previous one's 4",
            style="dim",
        )
        parts: list[RenderableType] = [Fit(build(True), build(False)), roads]
        if view["rules"] == "published":
            parts.append(
                Text("Rewards: (1) 1★+1 gold  (2) 2★+1 marker  (3) 3★+rat back  (4) 4★",
                     style="dim")
            )  # fmt: skip
        return Group(*parts)

    # ---- side ----
    def _hand(self, view: NotreDameView, you: CardsView) -> RenderableType:
        lines: list[RenderableType] = []
        if you["choose"]:
            lines.append(Text("Choose: ", style="bold").append(self._cards(you["choose"])))
        lines.append(Text("Hand: ", style="bold").append(self._cards(you["hand"]) or "–"))
        if you["passed"]:
            n = len(view["names"])
            left = view["names"][(you["seat"] + 1) % n]
            text = f"Passed to {left}: {self._cards(you['passed'])}"
            if you["passed_on"]:
                verb = "returned" if n == 2 else "then"
                text += f"; {verb} {self._cards(you['passed_on'])}"
            lines.append(Text(text, style="dim"))
        if you["thirds"]:
            lines.append(Text("Not played: " + self._cards(you["thirds"]), style="dim"))
        return Group(*lines)

    def _all_hands(self, view: NotreDameView) -> RenderableType:
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column()
        for h in view["hands"]:
            cards = self._cards(h["choose"] + h["hand"]) or "–"
            table.add_row(tag(h["seat"]), cards)
        return table

    @staticmethod
    def _cards(keys: list[str]) -> str:
        return ", ".join(CARD_LABELS.get(k, k) for k in keys)

    def _players(self, view: NotreDameView, compact: bool) -> RenderableType:
        def who(pl: PlayerView) -> Text:
            t = tag(pl["seat"], pl["name"])
            if pl["bell_ringer"]:
                t.append(" bell", style="bold")
            return t

        def prestige(pl: PlayerView) -> str:
            return "?" if pl["prestige"] is None else str(pl["prestige"])

        def msgs(pl: PlayerView) -> Text:
            t = Text()
            for c, n in pl["messages"].items():
                t.append(f"{n}{MESSAGE_LETTERS.get(c, c)}", style=MESSAGE_STYLES.get(c, ""))
            return t if t.plain else Text("–", style="dim")

        columns = [
            Column("gold", "gold", "", lambda p: p["gold"]),
            Column("own", "own", "", lambda p: p["supply"]),
            Column("general", "gen", "", lambda p: p["general"]),
            Column("messages", "msgs", "", msgs),
            Column("prestige", "★", "", prestige),
            Column("park", "park", "", lambda p: f"+{p['park_bonus']}★"),
        ]
        note = "own/gen: markers in own/general supply"
        if view["scores"] == "hidden" and not view["over"]:
            note += "\n? hidden until the end · park: bonus ★"

        def letter(pl: PlayerView) -> Text:
            return tag(pl["seat"]).append(" bell" if pl["bell_ringer"] else "", style="bold")

        table = player_table(view["players"], who, columns, note=note, who_short=letter)
        hired = [(pl["seat"], pl["hired"]) for pl in view["players"] if pl["hired"]]
        if not hired:
            return table
        t = Text("Hired: ", style="bold")
        for j, (seat, key) in enumerate(hired):
            if j:
                t.append(", ")
            t.append_text(tag(seat))
            t.append(" " + next((p["name"] for p in view["persons"] if p["key"] == key), key))
        return Group(table, t)

    def _plague(self, view: NotreDameView) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column(track_header(10), no_wrap=True)
        table.add_column("after plague", no_wrap=True)
        for pl in view["players"]:
            line = track(10, {pl["rat"]: tag(pl["seat"])})
            nxt = Text(f"→ {pl['rat_after_plague']}")
            if pl["overflow_threat"]:
                nxt.append(" !", style="bold red")
            if pl["doctor"]:
                nxt.append(" (the doctor protects)", style="green")
            table.add_row(tag(pl["seat"]), line, nxt)
        return table


UI: GameUI[NotreDameView] = NotreDameUI()  # its entry point in `boardgames_tui.boards`
