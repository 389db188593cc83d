"""The Cathedral of Orléans board: the map, the city's red and blue zones, orders, bags, builders.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see (the face-down stacks are only counts in the view).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .base import SEAT_LETTERS, SEAT_STYLES, Panel

GOOD_CHAR = {"wood": "w", "stone": "s", "bread": "b", "glass": "g"}
GOOD_STYLE = {"wood": "yellow", "stone": "white", "bread": "bright_red", "glass": "bold magenta"}
SUBJECT_SHORT = {
    "knight": "Kni",
    "fisherman": "Fis",
    "farmer": "Far",
    "merchant": "Mer",
    "monk": "Mon",
}
SUBJECT_STYLE = {
    "knight": "bold red",
    "fisherman": "bold blue",
    "farmer": "bold white",
    "merchant": "bold",
    "monk": "bold yellow",
}
ROAD = "─"
RIVER = "≈"
ROAD_STYLE = "dim"
RIVER_STYLE = "blue"

# Map layout [ui]: city label positions (column, row) on a 66 x 14 canvas.
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
MAP_W, MAP_H = 66, 14


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

    def text(self) -> Text:
        out = Text()
        for y in range(self.h):
            line = "".join(self.chars[y]).rstrip()
            for x in range(len(line)):
                out.append(self.chars[y][x], style=self.styles[y][x] or None)
            if y < self.h - 1:
                out.append("\n")
        return out


def _slots(conn: dict[str, Any]) -> list[tuple[str, str]]:
    """(char, style) per token space of a connection: goods, then the stained glass space."""
    out = [(GOOD_CHAR[g], GOOD_STYLE[g]) if g else ("·", "dim") for g in conn["goods"]]
    if conn["glass_space"]:
        out.append(("g", GOOD_STYLE["glass"]) if conn["glass"] else ("◇", "magenta"))
    return out


def _put_slots(cv: _Canvas, x: int, y: int, conn: dict[str, Any]) -> None:
    style = RIVER_STYLE if conn["kind"] == "river" else ROAD_STYLE
    cv.put(x, y, "[", style)
    k = x + 1
    for ch, st in _slots(conn):
        cv.put(k, y, ch, st)
        k += 1
    cv.put(k, y, "]", style)


def map_text(view: dict[str, Any]) -> Text:
    """The schematic map: cities with master builders, roads (─) and rivers (≈) with goods."""
    cv = _Canvas(MAP_W, MAP_H)
    conns = {frozenset((c["a"], c["b"])): c for c in view["connections"]}

    def conn(a: str, b: str) -> dict[str, Any]:
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
    for i, b in enumerate(view["builders"]):
        here.setdefault(b["city"], []).append(i)
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
    return cv.text()


def _legend() -> Text:
    t = Text("goods: ")
    for g, ch in GOOD_CHAR.items():
        t.append(ch, style=GOOD_STYLE[g])
        t.append(f" {g if g != 'glass' else 'stained glass'}  ")
    t.append("· empty  ")
    t.append(ROAD, style=ROAD_STYLE)
    t.append(" road (Cart)  ")
    t.append(RIVER, style=RIVER_STYLE)
    t.append(" river (Ship)  ⌂ workshop")
    return t


def _subject(subj: str) -> Text:
    if not subj:
        return Text("·", style="dim")
    return Text(SUBJECT_SHORT[subj], style=SUBJECT_STYLE[subj])


def zones_table(view: dict[str, Any]) -> Table:
    """The city: red zone (left) and blue zone (right) with the subjects on their spaces."""
    t = Table(show_header=True, box=None, padding=(0, 1), header_style="bold")
    t.add_column("Red zone", style="red", no_wrap=True)
    t.add_column("", no_wrap=True)
    t.add_column("Blue zone", style="blue", no_wrap=True)
    t.add_column("", no_wrap=True)
    red, blue = view["zones"]["red"], view["zones"]["blue"]

    def label(sp: dict[str, Any]) -> str:
        acc = sp["accepts"]
        shows = "any" if len(acc) == 5 else "/".join(SUBJECT_SHORT[a] for a in acc)
        return f"{sp['action']} ({shows})"

    for r, b in zip(red, blue, strict=True):
        t.add_row(label(r), _subject(r["subject"]), label(b), _subject(b["subject"]))
    bell = Text("Bell tower (any): ")
    bell.append_text(_subject(view["bell"]))
    t.add_row(bell, "", "", "")
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
    "glass": "glass",
    "monk_red": "monk→red",
    "monk_blue": "monk→blue",
}


def orders_text(view: dict[str, Any]) -> Text:
    """Workshops, the current hourglass and the active order, with their filled spaces."""
    out = Text()
    width = 26

    def row(label: Text, spaces: Text, reward: str) -> None:
        label.truncate(width, pad=True)
        out.append_text(label)
        out.append(" ")
        out.append_text(spaces)
        if reward:
            out.append(f" → {reward}")
        out.append("\n")

    for w in view["workshops"]:
        name = Text(f"{w['name']} ({view['cities'][w['city']]})")
        name.stylize("dim strike" if w["done"] else "bold")
        if w["done"]:
            row(name, Text("fulfilled", style="green"), "")
            continue
        spaces = _order_line(w["order"], w["filled"])
        spaces.append(f" {sum(w['filled'].values())}/{sum(w['order'].values())}", style="dim")
        row(name, spaces, " + ".join(REWARD_SHORT[r] for r in w["reward"]))
    hg = view["hourglass"]
    if hg:
        spaces = _order_line(hg["order"], hg["filled"])
        spaces.append(f" {sum(hg['filled'].values())}/{sum(hg['order'].values())}", style="dim")
        label = Text(f"⧗ {hg['name']} (anywhere)", style="bold cyan")
        row(label, spaces, " + ".join(REWARD_SHORT[r] for r in hg["reward"]))
    else:
        row(Text("⧗ Hourglass", style="dim"), Text("none until the round ends", style="dim"), "")
    order = view["order"]
    if order:
        out.append(f"{order['name']}", style="bold yellow")
        out.append(f": blueprint when {order['text']}\n")
    else:
        out.append("No active order\n", style="dim")
    out.rstrip()
    return out


def cathedral_text(view: dict[str, Any]) -> Text:
    n, total = view["sections"], view["sections_total"]
    t = Text("Cathedral ")
    t.append("▰" * n, style="bold green")
    t.append("▱" * (total - n), style="dim")
    t.append(f" {n}/{total}   Round {view['round']}/{view['rounds']}\n")
    t.append(
        f"Face down: {view['events_left']} events, {view['blueprints_left']} blueprints, "
        f"{view['hourglass_left']} hourglass tiles"
    )
    return t


def bags_table(view: dict[str, Any]) -> Table:
    """The three bags with counts (and contents with bag memory), supplies."""
    t = Table(show_header=False, box=None, padding=(0, 1))
    t.add_column(no_wrap=True)
    t.add_column()
    for bag, style in (("red", "bold red"), ("blue", "bold blue"), ("black", "bold")):
        info = view["bags"][bag]
        label = Text(f"{bag.capitalize()} bag {info['count']:>2}", style=style)
        if "contents" in info:
            if bag == "black":
                body = Text()
                for g, n in info["contents"].items():
                    body.append(f"{n}")
                    body.append(GOOD_CHAR[g], style=GOOD_STYLE[g])
                    body.append(" ")
            else:
                body = Text()
                for subj, n in info["contents"].items():
                    body.append(f"{n} ")
                    body.append(SUBJECT_SHORT[subj], style=SUBJECT_STYLE[subj])
                    body.append(" ")
        else:
            body = Text("(contents unknown)" if bag != "black" else "", style="dim")
        t.add_row(label, body)
    sup = view["supply"]
    t.add_row("Supply", f"{sup['monks']} monks, {sup['glass']} stained glass")
    if view["removed"]:
        t.add_row("Left game", ", ".join(SUBJECT_SHORT[r] for r in view["removed"]))
    if view["drawn"]:
        d = Text("In hand ")
        t.add_row(d, _subject(view["drawn"]).append(f" (from the {view['drawn_bag']} bag)"))
    return t


def builders_table(view: dict[str, Any]) -> Table:
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

    def status(self, view: dict[str, Any]) -> str:
        base = f"Round {view['round']}/{view['rounds']} · {view['phase']}"
        return f"{base} · cathedral {view['sections']}/{view['sections_total']}"

    def panels(self, view: dict[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        map_body = map_text(view) if compact else Group(map_text(view), _legend())
        orders = Group(orders_text(view), cathedral_text(view))
        return [
            Panel("map", "Map", map_body),
            Panel("city", "City: red and blue zones", zones_table(view)),
            Panel("orders", "Orders and cathedral", orders),
            Panel("builders", "Master builders", builders_table(view), area="side"),
            Panel("bags", "Bags and supply", bags_table(view), area="side"),
        ]


UI = CathedralUI()
