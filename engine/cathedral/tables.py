"""Tables derived once from the data, shared by the rules and the rule-following player."""

from __future__ import annotations

from . import data as D
from .state import Builder, empty_items

# kind ("road"/"river") -> city -> [(connection index, neighbour)]
NEIGHBOURS: dict[str, dict[str, list[tuple[int, str]]]] = {
    "road": {c: [] for c in D.CITIES},
    "river": {c: [] for c in D.CITIES},
}
for _i, _c in enumerate(D.CONNECTIONS):
    NEIGHBOURS[_c.kind][_c.a].append((_i, _c.b))
    NEIGHBOURS[_c.kind][_c.b].append((_i, _c.a))


def _need(order: tuple[str, ...]) -> dict[str, int]:
    out = empty_items()
    for item in order:
        out[item] += 1
    return out


WORKSHOP_NEED = {t.key: _need(t.order) for t in D.WORKSHOPS}
HOURGLASS_NEED = {t.key: _need(t.order) for t in D.HOURGLASSES}


def pack_size(b: Builder) -> int:
    """Tokens in a backpack."""
    p = b.pack
    return p["wood"] + p["stone"] + p["bread"] + p["glass"]
