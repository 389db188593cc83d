"""Notre Dame: every table of the game and every [design] value of this edition, in one place.

Rule code reads these tables; nothing here is scattered through the rules as literals. The
values marked [design] in the spec (and the choices this edition makes where spec and seed are
silent) are listed in `TABLE_RULES`, which the in-app rules reference prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

# ---- Components ------------------------------------------------------------------------
MARKERS_PER_COLOUR = 14  # influence markers per colour
START_SUPPLY = 4  # markers in the personal supply at the start (the other 10: general supply)
START_GOLD = 3
GOLD_COINS = 25  # all the gold of the game: the players take their starting gold from it
ROUNDS = 9
ROUNDS_PER_PERIOD = 3
SCORING_ROUNDS = (3, 6, 9)  # Notre Dame is scored at the end of these rounds
PERIOD_LETTERS = ("A", "B", "C")

# Seat colours (the TUI draws seat i in SEAT_STYLES[i]; these are the same colours by name).
COLOURS = ("red", "blue", "green", "yellow", "magenta")
# 2 players: the 4-borough layout, players opposite; the empty boroughs carry the messages of
# these two unused colours (indexes into COLOURS). [design]
TWO_PLAYER_BOROUGHS = (0, None, 1, None)  # borough -> seat (None: empty borough)
TWO_PLAYER_EMPTY_COLOURS = (2, 3)

# ---- Sectors and action cards -----------------------------------------------------------
# The 7 borough sectors; an action card of the same index places a marker there.
SECTORS = ("cloister", "bank", "residence", "carriage", "hotel", "park", "hospital")
CLOISTER, BANK, RESIDENCE, CARRIAGE, HOTEL, PARK, HOSPITAL = range(7)
NOTRE_DAME = 7  # location index of Notre Dame (one shared central sector)
FRIEND = 8  # card index of the trusted friend
PLAY_AREA = -1  # location of a trusted friend that is not on the board
LOCATIONS = (*SECTORS, "notredame")  # location keys: the 7 sectors + Notre Dame
CARDS = (*SECTORS, "notredame", "friend")  # the 9 action cards of every colour
CARDS_PER_COLOUR = len(CARDS)

CARD_NAMES = {
    "cloister": "Cloister school",
    "bank": "Bank",
    "residence": "Residence",
    "carriage": "Carriage house",
    "hotel": "Hotel",
    "park": "Park",
    "hospital": "Hospital",
    "notredame": "Notre Dame",
    "friend": "Trusted friend",
}
LOCATION_NAMES = tuple(CARD_NAMES[k] for k in LOCATIONS)
SHORT_NAMES = {
    "cloister": "Cloister",
    "bank": "Bank",
    "residence": "Residence",
    "carriage": "Carriage h.",
    "hotel": "Hotel",
    "park": "Park",
    "hospital": "Hospital",
    "notredame": "Notre Dame",
    "friend": "Friend",
}
CARD_TEXT = {
    "cloister": "take n own markers from the general supply",
    "bank": "take n gold",
    "residence": "gain n prestige",
    "carriage": "move the carriage up to n market-place steps; take a message where it stops",
    "hotel": "one bonus, or two with enough markers: 1 gold / 1 marker / rat back 1",
    "park": "rat back 1; passive: +1 prestige per 2 park markers on every prestige gain",
    "hospital": "rat back 1; passive: each marker reduces the plague movement by 1",
    "notredame": "donate 1-3 gold: 1 → 1, 2 → 3, 3 → 6 prestige",
    "friend": "put or move the trusted friend into a sector and execute its action",
}

# Hotel: markers needed for two bonuses, by rule set.
HOTEL_TWO_BONUSES = {"seed": 4, "published": 3}
HOTEL_BONUSES = ("gold", "marker", "rat")
HOTEL_BONUS_NAMES = {"gold": "1 gold", "marker": "1 marker", "rat": "rat back 1"}

# Park: +1 prestige per this many park markers (friend included) on every other prestige gain.
PARK_MARKERS_PER_BONUS = 2

# Notre Dame: donation -> prestige, and the period pool by player count.
DONATION = {1: 1, 2: 3, 3: 6}
ND_POOL = {2: 6, 3: 8, 4: 10, 5: 12}  # 2 and 4 [confirmed]; 3 and 5 [design]

# ---- Plague -------------------------------------------------------------------------------
PLAGUE_MAX = 9
OVERFLOW_PRESTIGE = 2  # returned when a rat would pass 9 (not below 0)

# ---- Messages -----------------------------------------------------------------------------
MESSAGES_PER_COLOUR = 4


@dataclass(frozen=True, slots=True)
class Reward:
    """One message reward: prestige plus at most one other benefit."""

    key: str
    prestige: int
    gold: int = 0
    marker: int = 0
    rat_back: int = 0

    @property
    def text(self) -> str:
        extra = []
        if self.gold:
            extra.append(f"{self.gold} gold")
        if self.marker:
            extra.append(f"{self.marker} marker")
        if self.rat_back:
            extra.append(f"rat back {self.rat_back}")
        return " + ".join([f"{self.prestige} prestige", *extra])


REWARDS = (
    Reward("a", 1, gold=1),
    Reward("b", 2, marker=1),
    Reward("c", 3, rat_back=1),
    Reward("d", 4),
)
REWARD_BY_KEY = {r.key: r for r in REWARDS}
# [design] each colour's 4 messages carry one of each reward (published rule set; with the
# standard rules the player taking a message chooses the reward, so a message is just a colour).
MESSAGE_REWARDS_PER_COLOUR = tuple(range(len(REWARDS)))

# ---- Persons ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Person:
    """A person card: its deck (brown, or the gray letter A/B/C), rat icons and ability."""

    key: str
    name: str
    deck: str
    rats: int
    text: str


PERSONS = (
    Person("hostess", "Hostess", "brown", 2, "3 prestige + one of 1 gold / 1 marker / rat back 1"),
    Person(
        "minstrel",
        "Minstrel",
        "brown",
        0,
        "move 1-3 own markers (friend allowed) from one sector to another; no action",
    ),
    Person("monk", "Monk", "brown", 1, "2 markers from the general supply + 1 prestige"),
    Person(
        "fool",
        "Fool",
        "brown",
        1,
        "move 1 marker or the friend from a sector or Notre Dame to another sector (not Notre Dame) and execute that sector's action",
    ),
    Person("moneylender", "Money lender", "brown", 3, "2 gold + 1 prestige"),
    Person("doctor", "Doctor", "brown", 2, "plague value 0 for this player this round"),
    Person(
        "cityguard",
        "City guard",
        "A",
        1,
        "1 prestige per own marker in the 7 sectors and Notre Dame",
    ),
    Person("nightwatchman", "Night watchman", "A", 1, "1 prestige per own empty sector"),
    Person(
        "bishop",
        "Bishop",
        "A",
        1,
        "1 marker from the general supply into an empty sector; execute its action",
    ),
    Person("advocate", "Advocate", "B", 1, "3 prestige per 2 messages held"),
    Person("beggarking", "Beggar king", "B", 2, "1 prestige per space above the rat (9 − rat)"),
    Person("guildmaster", "Guild master", "B", 1, "2 prestige per sector with at least 2 markers"),
    Person("lady", "Lady of the Court", "C", 1, "1 prestige per marker in the fullest sector"),
    Person("mayor", "Mayor", "C", 1, "3 prestige per sector with at least 3 markers"),
    Person("carpenter", "Carpenter", "C", 1, "1 prestige per sector with at least 1 marker"),
)
PERSON_BY_KEY = {p.key: p for p in PERSONS}
BROWN = tuple(p.key for p in PERSONS if p.deck == "brown")
GRAY = {letter: tuple(p.key for p in PERSONS if p.deck == letter) for letter in PERIOD_LETTERS}
BROWN_PER_ROUND = 2
GRAY_PER_ROUND = 1
HIRE_COST = 1

# ---- Boroughs, market places and roads [design] ----------------------------------------
# Each borough has 5 market places: C (centre) and O1-O4 (edges, one message each at setup).
# Node index = borough * 5 + k (k 0 = C, 1-4 = O1-O4).
NODES_PER_BOROUGH = 5
NODE_LABELS = ("C", "O1", "O2", "O3", "O4")


def borough_seats(players: int) -> tuple[int | None, ...]:
    """Borough -> seat (None for an empty borough), around the table."""
    if players == 2:
        return TWO_PLAYER_BOROUGHS
    return tuple(range(players))


def node_key(node: int) -> str:
    """Stable id of a market place: b<borough>c or b<borough>o<k> (borough 0-based)."""
    b, k = divmod(node, NODES_PER_BOROUGH)
    return f"b{b}c" if k == 0 else f"b{b}o{k}"


def road_edges(boroughs: int) -> list[tuple[int, int]]:
    """The roads between market places [design].

    In each borough C joins its own O1-O4 and the edges form a ring O1-O2-O3-O4-O1.
    Neighbouring boroughs share roads: O4 of borough i joins O1 of borough i+1, and each
    centre joins the nearest edge market place of each neighbour (O1 of borough i+1 and O4 of
    borough i-1). Crossings without a market place are not steps.
    """
    edges: set[tuple[int, int]] = set()

    def link(u: int, v: int) -> None:
        edges.add((min(u, v), max(u, v)))

    for i in range(boroughs):
        c = i * NODES_PER_BOROUGH
        nxt = ((i + 1) % boroughs) * NODES_PER_BOROUGH
        prv = ((i - 1) % boroughs) * NODES_PER_BOROUGH
        for k in range(1, 5):
            link(c, c + k)
            link(c + k, c + k % 4 + 1)
        link(c + 4, nxt + 1)
        link(c, nxt + 1)
        link(c, prv + 4)
    return sorted(edges)


@cache
def road_graph(boroughs: int) -> tuple[tuple[int, ...], ...]:
    """Adjacency lists of the road graph for `boroughs` boroughs."""
    adj: list[list[int]] = [[] for _ in range(boroughs * NODES_PER_BOROUGH)]
    for u, v in road_edges(boroughs):
        adj[u].append(v)
        adj[v].append(u)
    return tuple(tuple(sorted(a)) for a in adj)


@cache
def road_distances(boroughs: int) -> tuple[tuple[int, ...], ...]:
    """Steps between every two market places (breadth-first search over the road graph)."""
    adj = road_graph(boroughs)
    out = []
    for start in range(len(adj)):
        dist = [-1] * len(adj)
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for u in frontier:
                for v in adj[u]:
                    if dist[v] < 0:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


# ---- Table rules of this edition ---------------------------------------------------------
# How this edition plays where a reading or a choice is needed. Each entry: its source (the
# seed text, the published rulebook beyond the seed, or this edition's own decision; an entry
# mixing sources takes its least certain one), a title and the rule.
SEED, PUBLISHED, EDITION = "seed", "published rulebook", "this edition"


def _pool_text() -> str:
    return ", ".join(f"{n} players {p}" for n, p in ND_POOL.items())


TABLE_RULES: tuple[tuple[str, str, str], ...] = (
    (
        EDITION,
        "Gold",
        f"The {GOLD_COINS} coins are all the gold in the game: each player takes "
        f"{START_GOLD} of them at setup, so the bank starts with {GOLD_COINS} − {START_GOLD} × "
        "players ("
        + ", ".join(f"{n} players: {GOLD_COINS - START_GOLD * n}" for n in ND_POOL)
        + ").",
    ),
    (
        EDITION,
        "Bank running short",
        "The published rulebook has the richest player pay what the bank lacks. Every gold gain (Bank, Hotel, Hostess, Money lender, message) takes from the bank "
        "first; missing coins come from the richest other player (the taker never pays "
        "himself); on a tie, the first such player clockwise from the taker pays; if that "
        "player has too few, the next richest pays the rest. With no coins anywhere, the gain "
        "is smaller.",
    ),
    (
        EDITION,
        "Where gold goes",
        "Donations to Notre Dame and the hire fee of persons go back to the bank.",
    ),
    (
        EDITION,
        "Notre Dame pool",
        f"Prestige divided at period scoring: {_pool_text()} (the seed names the four values; "
        "2 and 4 players: published rulebook; 3 and 5 players: this edition).",
    ),
    (
        EDITION,
        "Notre Dame scoring and the park",
        "A player's Notre Dame payout (share × own markers) is one prestige gain: the park bonus "
        "is added once to it, not once per marker. A payout of 0 earns no bonus.",
    ),
    (
        EDITION,
        "Person rat icons",
        "; ".join(f"{p.name} {p.rats}" for p in PERSONS) + " (periods A, B, C: 12, 13, 12 rats).",
    ),
    (
        EDITION,
        "Friend counts as a marker for persons",
        "The trusted friend counts as one of the player's markers for every person card "
        "(City guard, Night watchman, Guild master, Lady of the Court, Mayor, Carpenter) and "
        "makes a sector non-empty (Night watchman, Bishop).",
    ),
    (
        EDITION,
        "Sectors for persons",
        "Minstrel, Bishop, Guild master, Lady of the Court, Mayor, Carpenter and Night watchman "
        "count or use only the 7 borough sectors (not Notre Dame); the City guard counts Notre "
        "Dame too.",
    ),
    (
        EDITION,
        "Hiring an unusable person",
        "A person whose ability cannot be used at all (Minstrel or Fool with nothing to move, "
        "Bishop with no empty sector or no marker left in the general supply) cannot be hired.",
    ),
    (
        EDITION,
        "Road graph",
        "In each borough the centre C joins its own O1-O4 and the edge market places form a ring "
        "O1-O2-O3-O4-O1; O4 of a borough joins O1 of the next borough clockwise; each centre "
        "joins O1 of the next borough and O4 of the previous one.",
    ),
    (
        EDITION,
        "Carriage move",
        "The carriage may go to any market place within n steps, including staying where it "
        "is; ending there (even without moving) lets the player take a message lying there.",
    ),
    (
        EDITION,
        "Messages",
        "Each colour's 4 messages carry one of each reward (used by the published rule set, "
        "where they are shuffled onto the 4 edge market places face up). The rat back of "
        "reward (c) is always taken: a lower rat never hurts.",
    ),
    (
        EDITION,
        "Two players",
        "The 4-borough layout with the players opposite (published rulebook); the empty "
        "boroughs hold the messages "
        f"of {COLOURS[TWO_PLAYER_EMPTY_COLOURS[0]]} and {COLOURS[TWO_PLAYER_EMPTY_COLOURS[1]]} "
        "and no carriage.",
    ),
    (
        EDITION,
        "Empty personal supply",
        "The marker moved in may come from any sector or Notre Dame except the target itself "
        "(never the friend). For Notre Dame the donation is still required.",
    ),
    (
        EDITION,
        "Trusted friend and Notre Dame",
        "With the standard rules the friend may go to Notre Dame only with a donation of 1-3 gold "
        "(no gold, no move there).",
    ),
    (
        PUBLISHED,
        "Minstrel",
        "Moves 1-3 pieces from one borough sector to another: markers, or the friend with up to "
        "2 markers.",
    ),
    (
        EDITION,
        "Plague overflow",
        "Only sectors holding a removable marker can lose one: when the sectors with the most "
        "pieces hold only the friend, no marker is removed; when several sectors tie for the "
        "most, the player picks among those with a marker.",
    ),
    (
        EDITION,
        "Turn order of the plague",
        "Rats move one player at a time from the bell-ringer clockwise (it matters only for who "
        "picks first on an overflow tie).",
    ),
    (
        EDITION,
        "Start player",
        "The first player listed at setup is the first bell-ringer.",
    ),
    (
        EDITION,
        "What you remember",
        "Your own view keeps the cards you passed this round and your unplayed third cards of "
        "the period (you saw them); two cards of the same action in a hand are one choice.",
    ),
    (
        SEED,
        "Ties",
        "Most prestige wins; then most gold + personal supply markers.",
    ),
    (EDITION, "Still tied", "A shared win."),
    (
        PUBLISHED,
        "Hidden prestige",
        "With hidden scores each player sees only their own prestige until the end; the public "
        "log says who gains prestige but not how much.",
    ),
)

# Where prestige came from (keys of `NotreDameState.sources`), in breakdown order.
SOURCE_LABELS = {
    "residence": "Residence",
    "donation": "Notre Dame donations",
    "notredame": "Notre Dame scoring",
    "messages": "Messages",
    "persons": "Persons",
    "park": "Park bonus",
    "plague": "Plague (returned)",
}
