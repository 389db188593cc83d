"""The Cathedral of Orléans board: the map, the city's red and blue zones, orders, bags, builders.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see (the face-down stacks are only counts in the view).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Span, Text

from boardgames_tui.tui.games.base import SEAT_LETTERS, SEAT_STYLES, GameUI, Panel
from boardgames_tui.tui.games.elements import Fit, counted

if TYPE_CHECKING:
    from boardgames_tui.engine.cathedral.view import (
        CathedralView,
        ConnectionView,
        OrderTileView,
        SpaceView,
    )


GOOD_CHAR = {"wood": "w", "stone": "s", "bread": "b", "glass": "g"}
GOOD_STYLE = {"wood": "yellow", "stone": "white", "bread": "bright_red", "glass": "bold magenta"}
SUBJECT_STYLE = {
    "knight": "bold red",
    "fisherman": "bold blue",
    "farmer": "bold white",
    "merchant": "bold",
    "monk": "bold yellow",
}
PLURALS = {"fisherman": "fishermen"}
ROAD = "─"
RIVER = "≈"
ROAD_STYLE = "dim"
RIVER_STYLE = "blue"

# Map layout [ui]: city label positions (column, row) on a 72 x 14 canvas; the legend sits in
# the empty corner top right.
CITY_POS: dict[str, tuple[int, int]] = {
    "chartres": (24, 0),
    "chateaudun": (1, 4),
    "orleans": (25, 4),
    "montargis": (49, 4),
    "blois": (1, 9),
    "vierzon": (25, 9),
    "bourges": (49, 9),
    "tours": (1, 13),
}
MAP_W, MAP_H = 72, 14
LEGEND_X = 41
# rows of the map that only hold road and river strokes: left out where height is short
STROKE_ROWS = (1, 3, 5, 7, 8, 10, 12)
DOUBLED_ROWS = (8, 12)  # the second stroke of two: left out everywhere


def builder_tag(i: int) -> Text:
    """A master builder's letter in its colour (colour is never the only carrier)."""
    return Text(SEAT_LETTERS[i % len(SEAT_LETTERS)], style=SEAT_STYLES[i % len(SEAT_STYLES)])


class _Canvas:
    """A character grid with a style per cell, turned into a Rich Text."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.chars = [[" "] * w for _ in range(h)]
        self.styles: list[list[str]] = [[""] * w for _ in range(h)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        for k, ch in enumerate(text):
            if 0 <= x + k < self.w and 0 <= y < self.h:
                self.chars[y][x + k] = ch
                self.styles[y][x + k] = style

    def text(self, skip: tuple[int, ...] = ()) -> Text:
        """The grid as one Text, a span per run of cells of one style (rows in `skip` left out)."""
        lines: list[str] = []
        spans: list[Span] = []
        at = 0
        for y in (y for y in range(self.h) if y not in skip):
            line = "".join(self.chars[y]).rstrip()
            styles = self.styles[y]
            x = 0
            while x < len(line):
                style, end = styles[x], x + 1
                while end < len(line) and styles[end] == style:
                    end += 1
                if style:
                    spans.append(Span(at + x, at + end, style))
                x = end
            lines.append(line)
            at += len(line) + 1
        return Text("\n".join(lines), spans=spans)


def _slots(conn: ConnectionView) -> list[tuple[str, str]]:
    """(char, style) per token space of a connection: goods, then the stained glass space."""
    out = [(GOOD_CHAR[g], GOOD_STYLE[g]) if g else ("·", "dim") for g in conn["goods"]]
    if conn["glass_space"]:
        out.append(("g", GOOD_STYLE["glass"]) if conn["glass"] else ("◇", "magenta"))
    return out


def _put_slots(cv: _Canvas, x: int, y: int, conn: ConnectionView) -> None:
    style = RIVER_STYLE if conn["kind"] == "river" else ROAD_STYLE
    cv.put(x, y, "[", style)
    k = x + 1
    for ch, st in _slots(conn):
        cv.put(k, y, ch, st)
        k += 1
    cv.put(k, y, "]", style)


def map_text(view: CathedralView, short: bool = False) -> Text:
    """The schematic map: cities with master builders, roads (─) and rivers (≈) with goods.

    `short`: only the rows with cities and goods (7 lines, for the compact layout), the
    legend beneath it instead of in the corner."""
    cv = _Canvas(MAP_W, MAP_H)
    conns = {frozenset((c["a"], c["b"])): c for c in view["connections"]}

    def conn(a: str, b: str) -> ConnectionView:
        return conns[frozenset((a, b))]

    # horizontal roads on rows 4 and 9 (city labels and builders are drawn over them)
    for a, b in (
        ("chateaudun", "orleans"),
        ("orleans", "montargis"),
        ("blois", "vierzon"),
        ("vierzon", "bourges"),
    ):
        x0 = CITY_POS[a][0] + len(view["cities"][a])
        x1, y = CITY_POS[b][0] - 2, CITY_POS[b][1]
        cv.put(x0, y, ROAD * (x1 - x0 + 1), ROAD_STYLE)
        _put_slots(cv, (x0 + 6 + x1) // 2 - 1, y, conn(a, b))
    # Orléans - Chartres (vertical) and Chartres - Châteaudun (diagonal)
    for y in (1, 3):
        cv.put(28, y, "│", ROAD_STYLE)
    _put_slots(cv, 27, 2, conn("orleans", "chartres"))
    cv.put(18, 1, "/", ROAD_STYLE)
    _put_slots(cv, 12, 2, conn("chartres", "chateaudun"))
    cv.put(8, 3, "/", ROAD_STYLE)
    # Châteaudun - Blois, Orléans - Vierzon, Montargis - Bourges (vertical roads)
    for x, (a, b) in (
        (4, ("chateaudun", "blois")),
        (28, ("orleans", "vierzon")),
        (52, ("montargis", "bourges")),
    ):
        for y in (5, 8):
            cv.put(x, y, "│", ROAD_STYLE)
        _put_slots(cv, x - 1, 6, conn(a, b))
        cv.put(x, 7, "│", ROAD_STYLE)
    # Orléans - Blois river (diagonal), Blois - Tours, Tours - Bourges
    cv.put(23, 5, "≈", RIVER_STYLE)
    _put_slots(cv, 15, 6, conn("orleans", "blois"))
    cv.put(12, 7, "≈", RIVER_STYLE)
    cv.put(10, 8, "≈", RIVER_STYLE)
    for y in (10, 12):
        cv.put(3, y, RIVER, RIVER_STYLE)
    _put_slots(cv, 2, 11, conn("blois", "tours"))
    cv.put(6, 13, RIVER * 48, RIVER_STYLE)
    _put_slots(cv, 30, 13, conn("tours", "bourges"))
    for y in (10, 11, 12):
        cv.put(55, y, RIVER, RIVER_STYLE)
    # cities with their builders and workshop marks
    ws_cities = {w["city"]: w for w in view["workshops"]}
    here: dict[str, list[int]] = {}
    for i, builder in enumerate(view["builders"]):
        here.setdefault(builder["city"], []).append(i)
    for city, (x, y) in CITY_POS.items():
        name = view["cities"][city]
        style = "bold" if city in ws_cities else ""
        cv.put(x, y, name, style)
        k = x + len(name)
        if city in ws_cities:
            cv.put(k, y, "⌂", "green" if not ws_cities[city]["done"] else "dim")
            k += 1
        if here.get(city):
            cv.put(k, y, " ")
            k += 1
        for i in here.get(city, []):
            cv.put(k, y, SEAT_LETTERS[i % 6], SEAT_STYLES[i % 6])
            k += 1
        if city in ("chateaudun", "orleans", "blois", "vierzon", "tours"):
            cv.put(k, y, " ")
    if short:
        return cv.text(STROKE_ROWS)
    for y, line in enumerate(_legend_lines()):
        x = LEGEND_X
        for chunk, style in line:
            cv.put(x, y, chunk, style)
            x += len(chunk)
    return cv.text(DOUBLED_ROWS)


def _legend_lines() -> list[list[tuple[str, str]]]:
    """The map's legend as four short lines of (text, style)."""
    g = GOOD_STYLE
    return [
        [("w", g["wood"]), (" wood  ", ""), ("s", g["stone"]), (" stone  ", ""),
         ("b", g["bread"]), (" bread", "")],
        [("g", g["glass"]), (" stained glass  ", ""), ("◇", "magenta"), (" its space", "")],
        [(ROAD, ROAD_STYLE), (" road (Cart)  ", ""), (RIVER, RIVER_STYLE),
         (" river (Ship)", "")],
        [("⌂", "green"), (" workshop  ", ""), ("·", "dim"), (" empty good space", "")],
    ]  # fmt: skip


def _legend() -> Text:
    """The map's legend on two lines (the compact layout, where the map has no corner)."""
    t = Text()
    for k, line in enumerate(_legend_lines()):
        for chunk, style in line:
            t.append(chunk, style=style or None)
        t.append("\n" if k == 1 else "  ")
    t.rstrip()
    return t


def _subject(subj: str) -> Text:
    if not subj:
        return Text("·", style="dim")
    return Text(subj, style=SUBJECT_STYLE[subj])


def _space(sp: SpaceView) -> Text:
    """A space of the city: its action, and the subject on it or what it accepts."""
    t = Text(f"{sp['action']} ")
    if sp["subject"]:
        t.append("▸ ")
        t.append_text(_subject(sp["subject"]))
    else:
        acc = sp["accepts"]
        shows = "any subject" if len(acc) == 5 else " or ".join(acc)
        t.append(f"({shows})", style="dim")
    return t


def zones_table(view: CathedralView) -> RenderableType:
    """The city: red zone (left) and blue zone (right); a space shows the subject on it (▸)
    or, while empty, the subjects it accepts."""
    t = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
    t.add_column(style="red", no_wrap=True)
    t.add_column(style="blue", no_wrap=True)
    red, blue = view["zones"]["red"], view["zones"]["blue"]
    for r, b in zip(red, blue, strict=True):
        t.add_row(_space(r), _space(b))
    bell = Text("Bell tower ")
    if view["bell"]:
        bell.append("▸ ")
        bell.append_text(_subject(view["bell"]))
    else:
        bell.append("(any subject)", style="dim")
    t.add_row(bell, "")
    return t


def _order_line(order: dict[str, int], filled: dict[str, int]) -> Text:
    t = Text()
    for item, n in order.items():
        for k in range(n):
            ch = GOOD_CHAR[item]
            if k < filled.get(item, 0):
                t.append(ch.upper(), style=GOOD_STYLE[item] + " reverse")
            else:
                t.append(ch, style=GOOD_STYLE[item])
    return t


REWARD_SHORT = {
    "section": "section",
    "blueprint": "blueprint",
    "glass": "stained glass",
    "monk_red": "monk to red",
    "monk_blue": "monk to blue",
}


def orders_text(view: CathedralView) -> RenderableType:
    """Workshops, the current hourglass and the active order, with their filled spaces
    (capitals: delivered), then the cathedral and the face-down stacks."""

    def goods(o: OrderTileView) -> Text:
        t = _order_line(o["order"], o["filled"])
        t.append(f" {sum(o['filled'].values())}/{sum(o['order'].values())}", style="dim")
        return t

    def reward(rs: list[str]) -> str:
        counts: dict[str, int] = {}
        for r in rs:
            counts[r] = counts.get(r, 0) + 1
        return "→ " + " + ".join(
            counted(n, REWARD_SHORT[r]) if n > 1 else REWARD_SHORT[r] for r, n in counts.items()
        )

    def build(cities: bool) -> RenderableType:
        t = Table.grid(padding=(0, 1))
        t.add_column(no_wrap=True)
        t.add_column(no_wrap=True)
        t.add_column()
        for w in view["workshops"]:
            where = f", {view['cities'][w['city']]}" if cities else ""
            name = Text(f"{w['name']}{where}", style="dim strike" if w["done"] else "bold")
            if w["done"]:
                t.add_row(name, Text("fulfilled", style="green"), "")
            else:
                t.add_row(name, goods(w), reward(w["reward"]))
        hg = view["hourglass"]
        if hg:
            t.add_row(Text(f"⧗ {hg['name']}", style="bold cyan"), goods(hg), reward(hg["reward"]))
        else:
            t.add_row(Text("⧗ Hourglass", style="dim"), Text("none until the round ends"), "")
        return t

    order = view["order"]
    rows = len(view["workshops"]) + 1
    # a row per order: the cities go before a reward wraps
    lines: list[RenderableType] = [Fit(build(True), build(False), max_lines=rows)]
    if order:
        lines.append(
            Text.assemble((order["name"], "bold yellow"), f": blueprint when {order['text']}")
        )
    else:
        lines.append(Text("No active order", style="dim"))
    return Group(*lines)


def cathedral_text(view: CathedralView) -> RenderableType:
    """The cathedral's sections and the face-down stacks (under the map), on one line where
    the words fit."""
    n, total = view["sections"], view["sections_total"]

    def line(short: bool) -> Text:
        cat = Text("Cathedral ", style="bold")
        cat.append("▰" * n, style="bold green")
        cat.append("▱" * (total - n), style="dim")
        e, b, h = view["events_left"], view["blueprints_left"], view["hourglass_left"]
        if short:
            cat.append(f" {n}/{total} · face down ")
            cat.append(f"{e} events, {b} blueprints, {h} hourglass", style="dim")
        else:
            cat.append(f" {n}/{total} sections · face down: ")
            words = f"{counted(e, 'event')}, {counted(b, 'blueprint')}, "
            cat.append(words + counted(h, "hourglass tile"), style="dim")
        return cat

    return Fit(line(False), line(True), max_lines=1)


def bags_table(view: CathedralView) -> Table:
    """The three bags with counts (and contents with bag memory), supplies."""
    t = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
    t.add_column(no_wrap=True)
    t.add_column()
    for bag, style in (("red", "bold red"), ("blue", "bold blue"), ("black", "bold")):
        info = view["bags"][bag]
        label = Text(f"{bag.capitalize()} bag {info['count']:>2}", style=style)
        body = Text()
        if "contents" in info:
            for k, (item, n) in enumerate(info["contents"].items()):
                if k:
                    body.append(", ")
                body.append(f"{n} ")
                if bag == "black":
                    body.append(item, style=GOOD_STYLE[item])
                else:
                    word = counted(n, item, PLURALS.get(item)).split(" ", 1)[1]
                    body.append(word, style=SUBJECT_STYLE[item])
        elif bag != "black":
            body.append("(contents unknown)", style="dim")
        t.add_row(label, body)
    sup = view["supply"]
    t.add_row("Supply", f"{counted(sup['monks'], 'monk')}, {sup['glass']} stained glass")
    if view["removed"]:
        t.add_row("Left the game", ", ".join(view["removed"]))
    if view["drawn"]:
        d = Text("In hand")
        t.add_row(d, _subject(view["drawn"]).append(f" (from the {view['drawn_bag']} bag)"))
    return t


def builders_table(view: CathedralView) -> Table:
    """Master builders: city and backpack (5 places)."""
    t = Table(show_header=False, box=None, padding=(0, 1))
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True)
    size = view["backpack_size"]
    for i, b in enumerate(view["builders"]):
        who = builder_tag(i)
        who.append(f" {b['name']}")
        if view["to_move"] is not None and i == view["turn"]:
            who.append(" ◀", style="bold")
        pack = Text()
        for item in ("wood", "stone", "bread", "glass"):
            for _ in range(b["pack"][item]):
                pack.append(GOOD_CHAR[item], style=GOOD_STYLE[item])
        pack.append("·" * (size - b["size"]), style="dim")
        t.add_row(who, view["cities"][b["city"]], pack)
    return t


class CathedralUI:
    """The GameUI of The Cathedral of Orléans."""

    game_id = "cathedral-of-orleans"

    def status(self, view: CathedralView) -> str:
        base = f"Round {view['round']}/{view['rounds']} · {view['phase']}"
        return f"{base} · cathedral {view['sections']}/{view['sections_total']}"

    def panels(self, view: CathedralView, viewer: int | None, compact: bool) -> list[Panel]:
        if compact:
            map_body = Group(map_text(view, short=True), _legend())
        else:
            map_body = Group(map_text(view), cathedral_text(view))
        return [
            Panel("map", "Map", map_body),
            Panel("city", "City · red zone | blue zone", zones_table(view)),
            *(
                [
                    Panel("builders", "Master builders", builders_table(view)),
                    Panel("bags", "Bags and supply", bags_table(view)),
                ]
                if compact  # one short tab each; side by side they share a frame
                else [
                    Panel(
                        "builders",
                        "Master builders · bags and supply",
                        Group(builders_table(view), bags_table(view)),
                        area="side",
                    )
                ]
            ),
            Panel(
                "orders",
                "Orders" if not compact else "Orders and cathedral",
                Group(orders_text(view), cathedral_text(view)) if compact else orders_text(view),
                area="side",
            ),
        ]


UI: GameUI[CathedralView] = CathedralUI()  # its entry point in `boardgames_tui.boards`
