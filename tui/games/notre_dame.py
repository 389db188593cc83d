"""Notre Dame board: persons, the boroughs' sectors and Notre Dame, market places, players.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine.notre_dame.data import CARD_NAMES

from .base import SEAT_LETTERS, SEAT_STYLES, Panel

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
    ("carriage", "Carriage h."),
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

    def status(self, view: dict[str, Any]) -> str:
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

    def panels(self, view: dict[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        out = [
            Panel(
                "persons",
                f"Persons this round · plague value {view['plague_value']}",
                self._persons(view, compact),
            ),
            Panel(
                "boroughs",
                "Boroughs & Notre Dame",
                self._boroughs(view, compact),
            ),
            Panel(
                "market",
                "Market places & messages",
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
        out.append(Panel("players", "Players", self._players(view, compact), area="side"))
        out.append(Panel("plague", "Plague track", self._plague(view), area="side"))
        return out

    # ---- board ----
    def _persons(self, view: dict[str, Any], compact: bool) -> RenderableType:
        if not view["persons"]:
            return Text("No persons face up (the game is over).", style="dim")
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")
        for i, p in enumerate(view["persons"], start=1):
            deck = "brown" if p["deck"] == "brown" else f"gray {p['deck']}"
            rats = "●" * p["rats"] if p["rats"] else "–"
            name = Text(f"{i} {p['name']}", style="bold")
            table.add_row(name, Text(f"{rats} ({deck})", style="dim"), p["text"])
        hired = [(pl["seat"], pl["name"], pl["hired"]) for pl in view["players"] if pl["hired"]]
        lines: list[RenderableType] = [table]
        if hired:
            t = Text("Hired: ")
            for j, (seat, _name, key) in enumerate(hired):
                if j:
                    t.append(", ")
                t.append_text(tag(seat))
                person = next((p["name"] for p in view["persons"] if p["key"] == key), key)
                t.append(f" {person}")
            lines.append(t)
        if not compact:
            nxt = view["gray_next"]
            lines.append(
                Text(
                    f"Decks: brown {view['brown_left']} left, gray {view['gray_left']} left"
                    + (f" (next: {nxt})" if nxt else ""),
                    style="dim",
                )
            )
        return Group(*lines)

    def _boroughs(self, view: dict[str, Any], compact: bool) -> RenderableType:
        players = view["players"]
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("", no_wrap=True, style="bold")
        for pl in players:
            name = pl["name"] if not compact or len(players) <= 3 else pl["name"][:6]
            table.add_column(tag(pl["seat"], name), no_wrap=True)
        for key, label in SECTOR_ROWS:
            row: list[RenderableType] = [label]
            for pl in players:
                row.append(markers(pl["sectors"][key], pl["friend"] == key, pl["seat"]))
            table.add_row(*row)
        nd = view["notre_dame"]
        row = [Text("Notre Dame", style="bold magenta")]
        for pl in players:
            row.append(markers(pl["notre_dame"], pl["friend"] == "notredame", pl["seat"]))
        table.add_row(*row)
        table.add_row(
            "Friend",
            *[
                Text(CARD_LABELS.get(pl["friend"], "in hand")[:11], style="dim")
                if pl["friend"]
                else Text("play area", style="dim")
                for pl in players
            ],
        )
        table.add_row(
            "Park / Hosp.",
            *[Text(f"+{pl['park_bonus']}★ / −{pl['hospital']}", style="dim") for pl in players],
        )
        total = nd["total"]
        share = nd["pool"] // total if total else nd["pool"]
        foot = Text(
            f"Notre Dame: pool {nd['pool']} ÷ {total} marker{'s' if total != 1 else ''} = "
            f"{share}★ each at the period's end",
            style="dim",
        )
        return Group(table, foot)

    def _market(self, view: dict[str, Any], compact: bool) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("Borough", no_wrap=True)
        for place in PLACES:
            table.add_column(place, no_wrap=True)
        by_borough: dict[int, list[dict[str, Any]]] = {}
        for node in view["market"]:
            by_borough.setdefault(node["borough"], []).append(node)
        for b in view["boroughs"]:
            seat = b["seat"]
            if seat is None:
                owner = Text(f"– ({b['colour']})", style="dim")
            else:
                owner = tag(seat, view["names"][seat] if not compact else None)
            cells: list[RenderableType] = [owner]
            for node in by_borough[b["index"]]:
                cell = Text()
                if node["message"]:
                    reward = node.get("reward")
                    cell.append_text(message_tag(node["message"], reward[0] if reward else None))
                for s in node["carriages"]:
                    cell.append("[")
                    cell.append_text(tag(s))
                    cell.append("]")
                if not cell.plain:
                    cell = Text("·", style="dim")
                cells.append(cell)
            table.add_row(*cells)
        legend = Text(
            "◆ message (colour letter)  [A] carriage  · empty market place",
            style="dim",
        )
        held = Text("Messages held: ")
        for i, pl in enumerate(view["players"]):
            if i:
                held.append("  ")
            held.append_text(tag(pl["seat"]))
            msgs = pl["messages"]
            held.append(
                " " + (" ".join(f"{MESSAGE_LETTERS.get(c, c)}{n}" for c, n in msgs.items()) or "–")
            )
        parts: list[RenderableType] = [table, held]
        if view["rules"] == "published" and not compact:
            parts.append(
                Text(
                    "Rewards: (1) 1★+1 gold  (2) 2★+1 marker  (3) 3★+rat back  (4) 4★",
                    style="dim",
                )
            )
        if not compact:
            parts.append(legend)
            parts.append(
                Text(
                    "Roads: C–O1..O4, ring O1–O2–O3–O4, O4–next O1, C–next O1, C–prev. O4",
                    style="dim",
                )
            )
        return Group(*parts)

    # ---- side ----
    def _hand(self, view: dict[str, Any], you: dict[str, Any]) -> RenderableType:
        lines: list[RenderableType] = []
        if you["choose"]:
            lines.append(Text("Choose from: ", style="bold").append(self._cards(you["choose"])))
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
            lines.append(Text("Unplayed this period: " + self._cards(you["thirds"]), style="dim"))
        return Group(*lines)

    def _all_hands(self, view: dict[str, Any]) -> RenderableType:
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

    def _players(self, view: dict[str, Any], compact: bool) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("gold", justify="right")
        table.add_column("sup", justify="right")
        table.add_column("gen", justify="right")
        table.add_column("msg", justify="right")
        table.add_column("★", justify="right")
        for pl in view["players"]:
            name = tag(pl["seat"], pl["name"][:10])
            if pl["bell_ringer"]:
                name.append("*")
            prestige = "?" if pl["prestige"] is None else str(pl["prestige"])
            table.add_row(
                name,
                str(pl["gold"]),
                str(pl["supply"]),
                str(pl["general"]),
                str(pl["messages_total"]),
                prestige,
            )
        note = Text(
            f"bank {view['bank']} gold · * bell-ringer\nsup: personal supply · gen: general supply",
            style="dim",
        )
        if view["scores"] == "hidden" and not view["over"]:
            note.append("\n★ prestige is hidden until the end", style="dim")
        return Group(table, note)

    def _plague(self, view: dict[str, Any]) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("0 1 2 3 4 5 6 7 8 9", no_wrap=True)
        table.add_column("next", no_wrap=True)
        for pl in view["players"]:
            track = Text()
            for i in range(10):
                if i:
                    track.append(" ")
                if i == pl["rat"]:
                    track.append_text(tag(pl["seat"]))
                else:
                    track.append("·", style="dim")
            nxt = Text(f"→{pl['rat_after_plague']}")
            if pl["overflow_threat"]:
                nxt.append(" !", style="bold red")
            if pl["doctor"]:
                nxt.append(" Dr", style="green")
            table.add_row(tag(pl["seat"]), track, nxt)
        return Group(
            table,
            Text(
                f"plague value {view['plague_value']} − hospital markers; ! = overflow "
                "(−2★, lose a marker)",
                style="dim",
            ),
        )


UI = NotreDameUI()
