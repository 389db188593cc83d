"""The Cathedral of Orléans: every component, map, tile and [design] value in one place.

Values taken from the rulebook (seed) are marked "seed"; everything the spec decides is
marked [design]. The rule code reads these tables and never repeats their numbers.
"""

from __future__ import annotations

from typing import NamedTuple

# ---- components (seed: Game Contents) ------------------------------------------------------
ROUNDS = 3
SECTIONS = 8  # cathedral sections; attaching number 8 wins at once
BACKPACK_SIZE = 5
BLUEPRINT_COUNT = 12
GLASS_TOTAL = 10  # stained glass tokens
GLASS_ON_MAP = 1  # one on the stained glass space at setup and refilled at each round end

GOODS: tuple[str, ...] = ("wood", "stone", "bread")
GOODS_COUNT: dict[str, int] = {"wood": 15, "stone": 12, "bread": 10}  # 37 goods tokens
ITEMS: tuple[str, ...] = (*GOODS, "glass")  # what a backpack, workshop or hourglass holds
ITEM_NAMES: dict[str, str] = {
    "wood": "wood",
    "stone": "stone",
    "bread": "bread",
    "glass": "stained glass",
}

SUBJECTS: tuple[str, ...] = ("knight", "fisherman", "farmer", "merchant", "monk")
SUBJECT_COUNT: dict[str, int] = {
    "knight": 6,
    "fisherman": 6,
    "farmer": 6,
    "merchant": 6,
    "monk": 10,
}  # 34 subject tokens
SUBJECT_PLURAL: dict[str, str] = {
    "knight": "knights",
    "fisherman": "fishermen",
    "farmer": "farmers",
    "merchant": "merchants",
    "monk": "monks",
}

BAGS: tuple[str, ...] = ("red", "blue")  # the subject bags (the black bag holds goods)

# Seed, setup step 9 and the harder variant: what goes into each bag; the rest of the monks
# form the supply.
BAG_SETUP: dict[str, dict[str, dict[str, int]]] = {
    "normal": {
        "red": {"knight": 6, "farmer": 3, "merchant": 3, "monk": 2},
        "blue": {"fisherman": 6, "farmer": 3, "merchant": 3, "monk": 2},
    },
    "harder": {
        "red": {"knight": 6, "farmer": 3, "merchant": 3, "monk": 1},
        "blue": {"fisherman": 6, "farmer": 3, "merchant": 3, "monk": 1},
    },
}

# ---- the map [design] ----------------------------------------------------------------------
START_CITY = "orleans"  # seed: master builders start in Orléans

CITIES: dict[str, str] = {
    "orleans": "Orléans",
    "chartres": "Chartres",
    "chateaudun": "Châteaudun",
    "blois": "Blois",
    "montargis": "Montargis",
    "bourges": "Bourges",
    "vierzon": "Vierzon",
    "tours": "Tours",
}


class Connection(NamedTuple):
    """A road (Cart) or river (Ship) between two cities with its goods spaces."""

    a: str
    b: str
    kind: str  # "road" or "river"
    goods: int  # goods spaces on it
    glass: bool = False  # holds the stained glass space (seed: between Bourges and Tours)
    few: int | None = None  # goods spaces on the scaled map with two master builders


# [design] the spec's map table; `goods` and `few` are tuning knobs (balance): with two
# master builders (solo and 2 players) the scaled map, the default, has 15 goods spaces
CONNECTIONS: tuple[Connection, ...] = (
    Connection("orleans", "chartres", "road", 2, few=1),
    Connection("orleans", "chateaudun", "road", 1),
    Connection("chartres", "chateaudun", "road", 1),
    Connection("chateaudun", "blois", "road", 1),
    Connection("orleans", "montargis", "road", 2, few=1),  # spec: 1; balance tuning raised it
    Connection("montargis", "bourges", "road", 2),
    Connection("orleans", "vierzon", "road", 2, few=1),
    Connection("blois", "vierzon", "road", 1),
    Connection("vierzon", "bourges", "road", 1),
    Connection("orleans", "blois", "river", 2),
    Connection("blois", "tours", "river", 2),
    Connection("tours", "bourges", "river", 1, glass=True),
)

# [design] the 3 workshop spaces, filled in this order with the 3 drawn workshop tiles
WORKSHOP_CITIES: tuple[str, ...] = ("chartres", "blois", "bourges")
WORKSHOPS_IN_PLAY = 3

# ---- action spaces [design] ----------------------------------------------------------------
ACTION_NAMES: dict[str, str] = {
    "cart": "Cart",
    "ship": "Ship",
    "market": "Market",
    "glassworks": "Glassworks",
    "glassshop": "Stained glass workshop",
    "fair": "Fair square",
    "bell": "Bell tower",
}
ACTION_KIND: dict[str, str] = {"cart": "road", "ship": "river"}  # what a move travels along


class Space(NamedTuple):
    """An action space of the city: zone, action and the subjects it shows (monks: any)."""

    id: str
    zone: str  # "red" or "blue": the bag its subject returns to at the round end
    action: str
    accepts: tuple[str, ...]  # subjects shown on the space; a monk fits every space (seed)


ANY = SUBJECTS
SPACES: tuple[Space, ...] = (
    Space("r-cart1", "red", "cart", ("knight",)),
    Space("r-cart2", "red", "cart", ("knight",)),
    Space("r-cart3", "red", "cart", ("knight", "farmer")),
    Space("r-cart4", "red", "cart", ("knight", "merchant")),
    Space("r-market1", "red", "market", ("merchant",)),
    Space("r-market2", "red", "market", ("farmer", "merchant")),
    Space("r-glassworks", "red", "glassworks", ("monk",)),
    Space("r-fair", "red", "fair", ANY),
    Space("b-ship1", "blue", "ship", ("fisherman",)),
    Space("b-ship2", "blue", "ship", ("fisherman",)),
    Space("b-ship3", "blue", "ship", ("fisherman", "farmer")),
    Space("b-ship4", "blue", "ship", ("fisherman", "merchant")),
    Space("b-market1", "blue", "market", ("merchant",)),
    Space("b-market2", "blue", "market", ("farmer", "merchant")),
    Space("b-glassshop", "blue", "glassshop", ("monk",)),
    Space("b-fair", "blue", "fair", ANY),
)
SPACE_BY_ID: dict[str, Space] = {sp.id: sp for sp in SPACES}
BELL = "bell"  # the bell tower space: any subject, ends the round

# ---- tiles [design] ------------------------------------------------------------------------
# Reward codes: "section" (next cathedral section), "blueprint" (flip one), "glass" (a stained
# glass to a chosen player's backpack), "monk_red" / "monk_blue" (a supply monk into that bag).
REWARD_NAMES: dict[str, str] = {
    "section": "cathedral section",
    "blueprint": "blueprint",
    "glass": "stained glass",
    "monk_red": "monk into the red bag",
    "monk_blue": "monk into the blue bag",
}


class OrderTile(NamedTuple):
    """A workshop or hourglass tile: the order (items to deliver) and its reward."""

    key: str
    name: str
    order: tuple[str, ...]  # one entry per order space
    reward: tuple[str, ...]


WORKSHOPS: tuple[OrderTile, ...] = (
    OrderTile("mason", "Mason", ("stone", "stone", "wood"), ("section",)),
    OrderTile("carpenter", "Carpenter", ("wood", "wood", "wood"), ("section",)),
    OrderTile("bakery", "Bakery", ("bread", "bread", "wood"), ("section",)),
    OrderTile("quarry", "Quarry", ("stone", "wood", "bread"), ("section",)),
    OrderTile("glazier", "Glazier", ("stone", "glass"), ("section",)),
    OrderTile("smithy", "Smithy", ("stone", "stone", "bread"), ("section", "monk_red")),
    OrderTile("roofer", "Roofer", ("wood", "wood", "glass"), ("blueprint", "blueprint")),
    OrderTile(
        "chapter",
        "Chapter house",
        ("wood", "stone", "bread", "glass"),
        ("section", "blueprint"),
    ),
)
WORKSHOP_BY_KEY: dict[str, OrderTile] = {t.key: t for t in WORKSHOPS}

HOURGLASSES: tuple[OrderTile, ...] = (
    OrderTile("1", "Hourglass 1", ("wood", "wood", "bread"), ("section",)),
    OrderTile("2", "Hourglass 2", ("stone", "stone", "wood"), ("section",)),
    OrderTile("3", "Hourglass 3", ("wood", "stone", "bread"), ("section",)),
    OrderTile("4", "Hourglass 4", ("bread", "bread", "glass"), ("section", "glass")),
    OrderTile("5", "Hourglass 5", ("wood", "wood", "wood", "stone"), ("blueprint", "blueprint")),
    OrderTile("6", "Hourglass 6", ("stone", "bread", "glass"), ("section",)),
)
HOURGLASS_BY_KEY: dict[str, OrderTile] = {t.key: t for t in HOURGLASSES}
HOURGLASSES_IN_PLAY = 3  # seed: one per round

# Blueprint tokens (12, face down): what each gives when flipped.
BLUEPRINTS: tuple[str, ...] = (
    *(("section",) * 6),
    *(("glass",) * 3),
    *(("monk_red",) * 2),
    "monk_blue",
)


class EventTile(NamedTuple):
    """An event tile revealed at the fair square."""

    key: str
    kind: str  # "glass", "monk" or "order"
    param: str  # monk: the bag; order: a city, "meeting" or "glass"
    name: str
    text: str


EVENTS: tuple[EventTile, ...] = (
    EventTile("glass-a", "glass", "", "Stained glass", "take 1 stained glass"),
    EventTile("glass-b", "glass", "", "Stained glass", "take 1 stained glass"),
    EventTile("glass-c", "glass", "", "Stained glass", "take 1 stained glass"),
    EventTile("monk-red", "monk", "red", "Monk (red)", "a supply monk into the red bag"),
    EventTile("monk-blue", "monk", "blue", "Monk (blue)", "a supply monk into the blue bag"),
    EventTile("chartres", "order", "chartres", "Chartres order", "a master builder is in Chartres"),
    EventTile(
        "montargis", "order", "montargis", "Montargis order", "a master builder is in Montargis"
    ),
    EventTile("tours", "order", "tours", "Tours order", "a master builder is in Tours"),
    EventTile(
        "meeting", "order", "meeting", "Meeting order", "two master builders are in one city"
    ),
    EventTile("glass2", "order", "glass", "Glass order", "a player holds 2 or more stained glass"),
)
EVENT_BY_KEY: dict[str, EventTile] = {e.key: e for e in EVENTS}

# [design] the map option: "scaled" (the default) gives two master builders the `few` goods
# spaces; "full" keeps every count on `goods` (and is what saves from before the option had)
MAP_SCALED_BUILDERS = 2


def goods_spaces(builders: int, scaled: bool) -> tuple[int, ...]:
    """Goods spaces per connection (CONNECTIONS order) for a game's master builders."""
    few = scaled and builders <= MAP_SCALED_BUILDERS
    return tuple(c.few if few and c.few is not None else c.goods for c in CONNECTIONS)


# ---- derived tables (computed once from the tables above) ---------------------------------
# kind ("road"/"river") -> city -> [(connection index, neighbour)]
NEIGHBOURS: dict[str, dict[str, list[tuple[int, str]]]] = {
    "road": {c: [] for c in CITIES},
    "river": {c: [] for c in CITIES},
}
for _i, _c in enumerate(CONNECTIONS):
    NEIGHBOURS[_c.kind][_c.a].append((_i, _c.b))
    NEIGHBOURS[_c.kind][_c.b].append((_i, _c.a))


def _need(order: tuple[str, ...]) -> dict[str, int]:
    """An order as a count per item (every item listed, in ITEMS order)."""
    out = dict.fromkeys(ITEMS, 0)
    for item in order:
        out[item] += 1
    return out


WORKSHOP_NEED: dict[str, dict[str, int]] = {t.key: _need(t.order) for t in WORKSHOPS}
HOURGLASS_NEED: dict[str, dict[str, int]] = {t.key: _need(t.order) for t in HOURGLASSES}
# identical free spaces (same zone, action, subjects) are offered once
SPACE_KEY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    sp.id: (sp.zone, sp.action, sp.accepts) for sp in SPACES
}

# ---- table rules of this edition (beyond the spec's tables) --------------------------------
# Each entry is shown in the rules reference under "Table rules of this edition", with its
# source: the seed text, or this edition's own decision (an entry mixing sources takes it).
SEED, EDITION = "seed", "this edition"
TABLE_RULES: tuple[tuple[str, str], ...] = (
    (
        EDITION,
        "Solo: one person plays two master builders with two backpacks, taking their turns "
        "alternately (spec).",
    ),
    (
        EDITION,
        "Turn order: master builders play in seating order (seed: clockwise); round 1 starts "
        "with the first player named; every later round starts with the player to the left of "
        "the one who ended the previous round (spec).",
    ),
    (
        EDITION,
        "Bags hold no order: a draw takes a uniformly random token of the chosen bag. An empty "
        "bag cannot be chosen; if both bags are empty at the start of a turn the round ends as "
        "if the bell tower had been taken, without removing a token (spec).",
    ),
    (
        SEED,
        "The bell tower may be chosen with any drawn token; it is the only choice when the "
        "drawn token fits no other free space.",
    ),
    (
        EDITION,
        "Two identical free spaces (same zone, action and subjects) are offered once, as the "
        "first free one.",
    ),
    (
        EDITION,
        "An action that cannot be carried out (a Cart from a city with no road, a Market with "
        "nothing deliverable, the Glassworks with an empty supply (or a full backpack after the "
        "turn's rest stop), the stained glass workshop without stained glass) is declined "
        "automatically: the subject just occupies the space.",
    ),
    (
        EDITION,
        "Cart/Ship: the tokens on the path are offered one at a time (goods spaces in order, "
        "then the stained glass space); each may be taken or left. With a full backpack a token "
        "may be taken by sending back a token of a different kind (a good to the black bag, "
        "stained glass to the supply; seed), or after a rest stop declared on the spot. The "
        "master builder arrives (and city orders are checked) after the last token of the path.",
    ),
    (
        SEED,
        "Rest stop: with every backpack space occupied you may declare it at any time on your "
        "turn (an additional action: it does not replace the main action).",
    ),
    (
        EDITION,
        "A rest stop is offered on each of your decisions while your backpack is full: drawing, "
        "placing, choosing a route, on the way, at the Market, the Glassworks and the stained "
        "glass workshop, before a stained glass reward that would not fit, and at the end of "
        "the turn; at most once per turn.",
    ),
    (
        EDITION,
        "Market: each delivery is one token to another player's backpack (it needs a free "
        "space), to a free matching order space of the workshop in the city where your master "
        "builder stands, or of the current hourglass tile (from anywhere).",
    ),
    (EDITION, "Glassworks: the stained glass goes into your own backpack (it needs a free space)."),
    (
        EDITION,
        "Stained glass received as a reward or event goes to a backpack with a free space chosen "
        "by the player whose turn it is (seed: yours or another player's); automatic when only "
        "one backpack has room and your own cannot make room with a rest stop. If no backpack "
        "has room (and you do not rest), or the supply is empty, it is not received.",
    ),
    (
        SEED,
        "Blueprints lie face down in a shuffled pile: the player who earns one flips the top "
        "token (choosing among identical face-down tokens is the same as flipping the top). If "
        "the pile is empty the reward is lost. The player whose turn it is decides what the "
        "flipped blueprint requires (who gets its stained glass). This holds both when an order "
        "is met at the moment it is revealed and when it is met later.",
    ),
    (
        EDITION,
        "An order is checked as soon as anything changes (a builder arrives, a token moves); the "
        "Meeting order counts every two master builders in one city, including Orléans at the "
        "start. A fulfilled order is discarded.",
    ),
    (
        EDITION,
        "A monk reward or monk event with an empty supply gives nothing; a fair square with no "
        "event tile left reveals nothing.",
    ),
    (
        SEED,
        "Round end: goods spaces are refilled from the black bag (in map order, as listed); "
        "spaces stay empty when the bag runs out.",
    ),
    (EDITION, "After round 3 the game ends at once (no clean-up)."),
    (
        EDITION,
        "Monks: 10 in all (seed); 2 per bag (1 in the harder variant), the rest (6, or 8) form "
        "the supply. A subject sent to the bell tower leaves the game (seed).",
    ),
    (
        EDITION,
        "Balance: the road Orléans-Montargis holds 2 goods spaces (the spec's table: 1), so the "
        "map has 18 goods spaces. With two master builders (solo and 2 players) the scaled map "
        "(the Map option's default) has 1 on each road from Orléans to Chartres, Montargis and "
        "Vierzon, 15 in all; the full map keeps 18. See the measured win rates below.",
    ),
    (
        EDITION,
        "Bag memory (option): off shows how many tokens each bag holds; on also shows what they "
        "hold (public knowledge: every token going in and out is seen). The order inside a bag "
        "never exists: draws are uniformly random.",
    ),
)

# Measured balance [design, must be measured]: `python -m boardgames_tui.engine.cathedral.policy 1000`
# (seeds 0-999 per row; the rule player of policy.py plays every seat). Solo plays two master
# builders, exactly like 2 players, so its rows equal the 2-player rows.
BALANCE_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("1 (solo)", "normal", "30.5%", "0.0%"),
    ("1 (solo)", "harder", "24.0%", "0.0%"),
    ("2", "normal", "30.5%", "0.0%"),
    ("2", "harder", "24.0%", "0.0%"),
    ("3", "normal", "41.9%", "0.0%"),
    ("3", "harder", "34.5%", "0.0%"),
    ("4", "normal", "33.3%", "0.0%"),
    ("4", "harder", "26.1%", "0.0%"),
)
# The same with the strong computer player on every seat (`boardgames-tui simulate
# cathedral-of-orleans --players N --seats strong`, 0.6 s a decision on the CPU clock, normal
# setup, default map): players, team wins (95% interval), games. A game takes 1-2 minutes.
STRONG_BALANCE: tuple[tuple[str, str, str], ...] = (
    ("1 (solo) and 2", "62% (52%-71%)", "100"),
    ("3", "60% (51%-69%)", "101"),
    ("4", "53% (43%-62%)", "100"),
)
STRONG_NOTE = (
    "Solo and 2 players are the same game (two master builders; the rule player plays 20 of 20 "
    "seeds move for move alike at 1 and 2 players), measured once. On the full map strong won "
    "84% of 38 two-builder games, above the 30-70% band: the scaled map takes a goods space "
    "from each road from Orléans to Chartres, Montargis and Vierzon for two builders. The rate "
    "rises with the thinking time: at 0.15 s a decision strong won 11 of 30 two-builder games "
    'on the full map, so longer "Computer thinking" or a faster machine makes the game easier.'
)
BALANCE_NOTE = (
    "1000 seeded games per row. Tuning: the spec's map gave the rule player 43.3%/40.5%/28.8% "
    "(2/3/4 players, normal, 600 games); Orléans-Montargis was raised from 1 to 2 goods "
    "spaces (18 goods spaces in all), which brought 4 players into the 30-70% band. The "
    "scaled map (the default) then took 3 goods spaces from two master builders for the strong "
    "player (below); on the full map the rule player wins 45.0% (normal) and 36.2% (harder) "
    "of their games. All other values are the spec's."
)
