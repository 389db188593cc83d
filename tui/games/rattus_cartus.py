"""Rattus Cartus board: influence tracks, the building row, the Nun-row, hand and players.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from boardgames_tui.tui.games.base import SEAT_LETTERS, SEAT_STYLES, GameUI, Panel
from boardgames_tui.tui.games.elements import Column, Fit, Packed, counted, first, player_table
from boardgames_tui.tui.text import plain

if TYPE_CHECKING:
    from boardgames_tui.engine.rattus_cartus.view import (
        BuildingView,
        PlayerView,
        RattusView,
        YouView,
    )


PHASE_TITLES = {
    "supply": "B. Supplies",
    "enter": "C. Enter buildings",
    "resolve": "D. Resolve buildings",
    "over": "Game over",
}
SHORT_CLASS = {
    "peasantry": "Peas",
    "bourgeoisie": "Bour",
    "church": "Chur",
    "chivalry": "Chiv",
    "royalty": "Roy",
    "magic": "Mag",
}
KIND_LABELS = {
    "peasantry": "Peasantry",
    "bourgeoisie": "Bourgeoisie",
    "church": "Church",
    "chivalry": "Chivalry",
    "royalty": "Royalty",
    "magic": "Magic",
    "joker": "Joker",
    "sword": "Sword",
    "flute": "Flute",
    "pass": "Pass",
}
SUPPLY_LABELS = (
    ("joker", "Jokers"),
    ("sword", "Swords"),
    ("flute", "Flutes"),
    ("pass", "Passes"),
    ("gold", "Gold"),
    ("vp", "VP tokens"),
)


def tag(seat: int, name: str | None = None) -> Text:
    """A seat's letter in its colour (and its name): colour is never the only carrier."""
    t = Text(SEAT_LETTERS[seat % len(SEAT_LETTERS)], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    if name:
        t.append(f" {name}")
    return t


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def kinds_text(kinds: dict[str, int]) -> str:
    def word(k: str, n: int) -> str:
        label = KIND_LABELS.get(k, k)
        return label + "s" if n != 1 and k in ("joker", "sword", "flute", "pass") else label

    return ", ".join(f"{n} {word(k, n)}" for k, n in kinds.items()) or "nothing"


class RattusCartusUI:
    """The GameUI of Rattus Cartus."""

    game_id = "rattus-cartus"

    def status(self, view: RattusView) -> str:
        phase = PHASE_TITLES.get(view["phase"], view["phase"])
        start = view["names"][view["start"]]
        if view["phase"] == "over":
            return f"Round {view['rounds']}/{view['rounds']} · {phase}"
        return f"Round {view['round']}/{view['rounds']} · {phase} · start: {start}"

    # ---- panels ----------------------------------------------------------------------
    def panels(self, view: RattusView, viewer: int | None, compact: bool) -> list[Panel]:
        title = f"Buildings · round {view['round']}/{view['rounds']}"
        # at 80x24 what the buildings do is a tab of its own: a long premium fills the screen
        buildings = self._buildings(view, effects=not compact)
        out = [Panel("buildings", title, buildings)]
        if compact and view["row"]:
            out.append(Panel("effects", "Actions · what the buildings do", self._effects(view)))
        you = view.get("you")
        if you is not None:
            name = view["names"][you["seat"]]
            body = self._hand(view, you, compact)
            tokens = "+".join(str(v) for v in you["rat_token_values"]) or "none"
            title = f"Your hand ({name}) · rats {you['rats']} (tokens {tokens})"
            if compact:
                out.append(Panel("hand", title, body))
            else:  # one frame: the row is short while hands are full, and the other way round
                rule = Rule(plain(title), align="left", style="dim")
                out[0] = Panel("buildings", out[0].title, Group(buildings, rule, body))
        out += [
            Panel("influence", "Influence (pays 10/5/2 VP; * leads)",
                  self._influence(view, compact)),
            Panel("players", "Players", self._players(view, compact), area="side"),
            Panel("nuns", "Nun-row", self._nun_row(view, viewer, compact), area="side"),
        ]  # fmt: skip
        if view.get("final"):  # the supplies matter no more: the plague's reckoning instead
            out.append(Panel("end", "Plague · who survives", self._final(view), area="side"))
        else:
            out.append(Panel("supply", "Round & supplies", self._supplies(view), area="side"))
        if compact and view["phase"] == "over":
            return first(out, "end", "players")
        return out

    def _effects(self, view: RattusView) -> RenderableType:
        """Each building's premium and standard action, by its place in the row."""
        table = Table.grid(padding=(0, 1))
        table.add_column(width=3)
        table.add_column()
        for b in view["row"]:
            text = Text.assemble(
                (b["name"], "bold"),
                ("  premium: ", "dim"),
                b["premium"],
                ("  standard: ", "dim"),
                b["standard"],
            )
            table.add_row(Text(f"[{b['pos']}]", style="bold"), text)
        return table

    def _buildings(self, view: RattusView, effects: bool = True) -> RenderableType:
        names = view["names"]
        if not view["row"]:
            return Text("No buildings in the row (the game is over).", style="dim")
        table = Table.grid(padding=(0, 1))
        table.add_column(width=3)
        table.add_column()
        for b in view["row"]:
            cls = KIND_LABELS[b["class"]]
            draw, rats, look = b["supply_parts"]
            sup = ", ".join(
                x
                for x in (
                    f"draw {draw}" if draw else "",
                    f"-{rats} rat{'s' if rats > 1 else ''}" if rats else "",
                    f"look {look}" if look else "",
                )
                if x
            )
            head = Text.assemble((b["name"], "bold"), f" · {cls}", (f" · supply: {sup}", "dim"))
            lines: list[RenderableType] = [head]
            if effects:
                lines.append(
                    Text.assemble(
                        ("premium: ", "dim"), b["premium"], ("  standard: ", "dim"), b["standard"]
                    )
                )

            def discs(b: BuildingView, with_names: bool) -> Text:
                t = Text()
                if not b["discs"]:
                    t.append("no discs yet", style="dim")
                for d in b["discs"]:
                    if len(t):
                        t.append(" · ")
                    t.append(f"space {d['space']} ", style="dim")
                    t.append_text(tag(d["seat"], names[d["seat"]] if with_names else None))
                    if d["revealed"] is not None:
                        t.append(f": {kinds_text(d['revealed'])}")
                    else:
                        t.append(f": {counted(d['cards'], 'card')}")
                return t

            lines.append(Fit(discs(b, True), discs(b, False), max_lines=1))
            table.add_row(Text(f"[{b['pos']}]", style="bold"), Group(*lines))
        return table

    def _influence(self, view: RattusView, compact: bool) -> RenderableType:
        """A row per player, a column per class: the leader's value is starred."""
        players = view["players"]
        classes = view["classes"]
        leaders = []
        for ci in range(len(classes)):
            values = [p["track"][ci] for p in players]
            leaders.append(max(values) if any(values) else None)

        def build(names: bool) -> Table:
            table = Table(box=None, padding=(0, 1), collapse_padding=True, show_edge=False,
                          pad_edge=False)  # fmt: skip
            table.add_column("", no_wrap=True)
            for _key, cname in classes:
                table.add_column(cname, justify="right", no_wrap=True)
            for p in players:
                cells: list[Text | str] = [tag(p["seat"], p["name"] if names else None)]
                for ci, v in enumerate(p["track"]):
                    if v == 0:
                        cells.append(Text("·", style="dim"))
                    elif v == leaders[ci]:
                        cells.append(Text(f"{v}*", style="bold"))
                    else:
                        cells.append(f"{v} ")
                table.add_row(*cells)
            return table

        return Fit(build(True), build(False))

    def _nun_row(self, view: RattusView, viewer: int | None, compact: bool) -> RenderableType:
        table = Table.grid(padding=(0, 1))
        table.add_column(justify="right")
        table.add_column()
        table.add_column()
        for n in view["nun_row"]:
            c = n["card"]
            if c is None:
                card = Text("?", style="bold")
            else:
                card = Text(plural(c["nuns"], "nun"), style="bold")
                card.append(f" {KIND_LABELS[c['class']]}", style="dim")
            who = Text("seen by ", style="dim")
            for s in n["seen_by"]:
                who.append_text(tag(s))
            if not n["seen_by"]:
                who.append("nobody", style="dim")
            table.add_row(str(n["pos"]), card, who)
        lines: list[RenderableType] = [table]
        you = view.get("you")
        if you is not None:
            lines.append(
                Text(f"You know {you['nun_cards_seen']}/5: {plural(you['nuns_seen'], 'nun')}; "
                     f"your rats: {you['rats']}", style="dim")
            )  # fmt: skip
        final = view.get("final")
        if final:
            lines.append(Text(f"Revealed: {plural(final['nuns'], 'nun')} in all.", style="bold"))
        return Group(*lines)

    def _hand(self, view: RattusView, you: YouView, compact: bool) -> RenderableType:
        # a card's nuns count only in the Nun-row: in a hand they never matter
        by_class: dict[str, int] = {}
        for c in you["cards"]:
            by_class[c["class"]] = by_class.get(c["class"], 0) + 1
        parts: list[Text] = []  # one per kind: a line breaks between kinds, never inside one
        for key, cname in view["classes"]:
            if key in by_class:
                parts.append(Text(f"{by_class[key]} {cname}", style="bold"))
        for k in ("joker", "sword", "flute", "pass"):
            if you["hand"].get(k):
                n = you["hand"][k]
                parts.append(Text(f"{n} {KIND_LABELS[k]}{'' if n == 1 else 's'}", style="bold"))
        cards = Packed(parts) if parts else Text("no cards", style="dim")
        me = view["players"][you["seat"]]
        if not you["committed"]:
            return cards
        where = me["entered"]
        bname = next((b["name"] for b in view["row"] if b["pos"] == where), "?")
        down = Text(f"Face down in {bname} [{where}]: {kinds_text(you['committed'])}")
        return Group(cards, down)

    def _players(self, view: RattusView, compact: bool) -> RenderableType:
        final = view.get("final")

        def who(p: PlayerView) -> Text:
            t = tag(p["seat"], p["name"])
            if p["start_player"] and not final:
                t.append(" start", style="bold")
            return t

        def rats(p: PlayerView) -> str:
            return str(p["rats"]) if "rats" in p else counted(p["rat_tokens"], "token")

        def where(p: PlayerView) -> str:
            if p["entered"]:
                return f"[{p['entered']}]"
            return "passed" if p["passed"] else "–"

        columns = [
            Column("cards", "cards", "", lambda p: p["hand"]),
            Column("rats", "rats", "", rats),
            Column("gold", "gold", "", lambda p: p["gold"]),
            Column("VP", "VP", "", lambda p: p["vp_tokens"]),
            Column("in", "in", "", where),
        ]

        def who_short(p: PlayerView) -> Text:  # the name goes first where room is short
            t = tag(p["seat"])
            if p["start_player"] and not final:
                t.append(" start", style="bold")
            return t

        return player_table(
            view["players"],
            who,
            columns,
            note="in: the building entered this round",
            who_short=who_short,
        )

    def _supplies(self, view: RattusView) -> RenderableType:
        r, total = view["round"], view["rounds"]
        track = Text("Round ")
        for i in range(1, total + 1):
            track.append("■" if i < r or view["phase"] == "over" else ("▣" if i == r else "□"),
                         style="bold" if i == r else "")  # fmt: skip
        track.append(f" {r}/{total}")
        sup = view["supply"]
        lines = [
            track,
            Text(" · ".join(f"{label} {sup[k]}" for k, label in SUPPLY_LABELS[:3])),
            Text(" · ".join(f"{label} {sup[k]}" for k, label in SUPPLY_LABELS[3:])),
            Text(f"Population deck {view['deck']} · discard {view['discard']}"),
            Text(f"Building deck {view['building_deck']} · replacement {view['replacement_deck']}"),
        ]
        return Group(*lines)

    def _final(self, view: RattusView) -> RenderableType:
        final = view["final"]
        if final is None:  # drawn only once the game is over
            return Text("")
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("")
        table.add_column("Rats", justify="right")
        table.add_column("VP", justify="right")
        table.add_column("")
        for p in view["players"]:
            i = p["seat"]
            fate = Text("dead", style="bold red") if final["dead"][i] else Text("alive")
            table.add_row(
                tag(i, p["name"][:10]), str(final["rats"][i]), str(final["scores"][i]), fate
            )
        return Group(Text(f"Nun-row: {final['nuns']} nuns"), table)


UI: GameUI[RattusView] = RattusCartusUI()  # its entry point in `boardgames_tui.boards`
