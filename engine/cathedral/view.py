"""What a seat sees of a game of The Cathedral of Orléans: the view the TUI renders.

Bag contents are shown only with the bag-memory option (they are public knowledge, but the
rulebook asks players to remember them); the face-down stacks are counts, except for an
omniscient observer (`seat` None), who also gets their order under "hidden".
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from . import data
from .state import CathedralState, label, pack_size, seat_of
from .title import TITLE


class BagView(TypedDict):
    """A bag: how many tokens it holds, and (with bag memory) which."""

    count: int
    contents: NotRequired[dict[str, int]]


class ConnectionView(TypedDict):
    """A road or river between cities `a` and `b`, with the goods on its spaces ("" empty)."""

    a: str
    b: str
    kind: str  # "road" or "river"
    goods: list[str]
    glass_space: bool  # it holds the stained glass space
    glass: bool  # a stained glass lies on that space


class SpaceView(TypedDict):
    """An action space of the city and the subject on it ("" free)."""

    id: str
    action: str  # its name
    accepts: list[str]
    subject: str


class OrderTileView(TypedDict):
    """An hourglass tile: its order, the order spaces filled, its reward."""

    key: str
    name: str
    order: dict[str, int]
    filled: dict[str, int]
    reward: list[str]


class WorkshopView(OrderTileView):
    """A workshop tile on its city's workshop space (`done`: fulfilled, face down)."""

    city: str
    done: bool


class EventView(TypedDict):
    """The active order event."""

    key: str
    name: str
    text: str


class BuilderView(TypedDict):
    """A master builder: who plays it, where it stands, its backpack."""

    name: str
    seat: int
    city: str
    pack: dict[str, int]
    size: int  # tokens in the backpack


class SupplyView(TypedDict):
    monks: int
    glass: int


class HiddenView(TypedDict):
    """The face-down stacks in order (only for an omniscient observer)."""

    events: list[str]
    blueprints: list[str]
    hourglass_stack: list[str]
    hourglass_box: list[str]
    workshop_box: list[str]


class CathedralView(TypedDict):
    """Everything a seat may see (`hidden` only for an omniscient observer)."""

    game: str
    names: list[str]
    round: int
    rounds: int
    phase: str
    turn: int  # the master builder whose turn it is
    to_move: int | None  # its seat (None: the game is over)
    builders: list[BuilderView]
    backpack_size: int
    cities: dict[str, str]
    connections: list[ConnectionView]
    zones: dict[str, list[SpaceView]]  # "red" / "blue"
    bell: str
    drawn: str
    drawn_bag: str
    bags: dict[str, BagView]  # "red", "blue", "black"
    bag_memory: bool
    supply: SupplyView
    removed: list[str]
    workshops: list[WorkshopView]
    hourglass: OrderTileView | None
    hourglass_left: int
    hourglass_done: list[str]
    hourglass_lost: list[str]
    order: EventView | None
    events_left: int
    event_discard: list[str]
    blueprints_left: int
    blueprints_flipped: list[str]
    sections: int
    sections_total: int
    section_log: list[str]
    won: bool
    over: bool
    hidden: NotRequired[HiddenView]


# The phase as the status line names it, by the step of the turn under way.
PHASES: dict[str, str] = {
    "bag": "Draw",
    "place": "Place",
    "move": "Move",
    "pickup": "Move",
    "market": "Market",
    "glassworks": "Glassworks",
    "glassshop": "Stained glass workshop",
    "end_turn": "Rest stop",
}


def phase(s: CathedralState) -> str:
    if s.over:
        return "Won" if s.won else "Lost"
    if s.glass_offer:
        return "Reward"
    return PHASES.get(s.stage, s.stage)


def view(s: CathedralState, seat: int | None) -> CathedralView:
    """What `seat` sees (None: an omniscient observer)."""
    memory = seat is None or s.options.get("bag_memory") == "on"
    v: CathedralView = {
        "game": TITLE.id,
        "names": list(s.names),
        "round": s.round,
        "rounds": data.ROUNDS,
        "phase": phase(s),
        "turn": s.turn,
        "to_move": None if s.over else seat_of(s, s.turn),
        "builders": [
            {
                "name": label(s, i),
                "seat": seat_of(s, i),
                "city": b.city,
                "pack": dict(b.pack),
                "size": pack_size(b),
            }
            for i, b in enumerate(s.builders)
        ],
        "backpack_size": data.BACKPACK_SIZE,
        "cities": dict(data.CITIES),
        "connections": _connections(s),
        "zones": _zones(s),
        "bell": s.bell,
        "drawn": s.drawn,
        "drawn_bag": s.drawn_bag if s.drawn else "",
        "bags": _bags(s, memory),
        "bag_memory": memory,
        "supply": {"monks": s.monk_supply, "glass": s.glass_supply},
        "removed": list(s.removed),
        "workshops": _workshops(s),
        "hourglass": _hourglass(s),
        "hourglass_left": len(s.hourglass_stack),
        "hourglass_done": list(s.hourglass_done),
        "hourglass_lost": list(s.hourglass_lost),
        "order": _order(s),
        "events_left": len(s.events),
        "event_discard": [data.EVENT_BY_KEY[k].name for k in s.event_discard],
        "blueprints_left": len(s.blueprints),
        "blueprints_flipped": [data.REWARD_NAMES[k] for k in s.blueprints_flipped],
        "sections": s.sections,
        "sections_total": data.SECTIONS,
        "section_log": list(s.section_log),
        "won": s.won,
        "over": s.over,
    }
    if seat is None:
        v["hidden"] = {
            "events": list(s.events),
            "blueprints": list(s.blueprints),
            "hourglass_stack": list(s.hourglass_stack),
            "hourglass_box": list(s.hourglass_box),
            "workshop_box": list(s.workshop_box),
        }
    return v


def _bags(s: CathedralState, memory: bool) -> dict[str, BagView]:
    bags: dict[str, BagView] = {}
    for bag in data.BAGS:
        bags[bag] = {"count": sum(s.bags[bag].values())}
        if memory:
            bags[bag]["contents"] = {k: n for k, n in s.bags[bag].items() if n}
    bags["black"] = {"count": sum(s.black.values())}
    if memory:
        bags["black"]["contents"] = {k: n for k, n in s.black.items() if n}
    return bags


def _connections(s: CathedralState) -> list[ConnectionView]:
    return [
        {
            "a": c.a,
            "b": c.b,
            "kind": c.kind,
            "goods": list(s.roads[ci]),
            "glass_space": c.glass,
            "glass": bool(c.glass and s.glass_space),
        }
        for ci, c in enumerate(data.CONNECTIONS)
    ]


def _zones(s: CathedralState) -> dict[str, list[SpaceView]]:
    zones: dict[str, list[SpaceView]] = {"red": [], "blue": []}
    for sp in data.SPACES:
        zones[sp.zone].append(
            {
                "id": sp.id,
                "action": data.ACTION_NAMES[sp.action],
                "accepts": list(sp.accepts),
                "subject": s.spaces[sp.id],
            }
        )
    return zones


def _workshops(s: CathedralState) -> list[WorkshopView]:
    out: list[WorkshopView] = []
    for w in s.workshops:
        tile = data.WORKSHOP_BY_KEY[w.key]
        out.append(
            {
                "key": w.key,
                "name": tile.name,
                "city": w.city,
                "order": dict(data.WORKSHOP_NEED[w.key]),
                "filled": dict(w.filled),
                "reward": list(tile.reward),
                "done": w.done,
            }
        )
    return out


def _hourglass(s: CathedralState) -> OrderTileView | None:
    if not s.hourglass:
        return None
    tile = data.HOURGLASS_BY_KEY[s.hourglass]
    return {
        "key": tile.key,
        "name": tile.name,
        "order": dict(data.HOURGLASS_NEED[tile.key]),
        "filled": dict(s.hourglass_filled),
        "reward": list(tile.reward),
    }


def _order(s: CathedralState) -> EventView | None:
    if not s.order:
        return None
    e = data.EVENT_BY_KEY[s.order]
    return {"key": e.key, "name": e.name, "text": e.text}
