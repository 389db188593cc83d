"""Rattus Cartus: every card, count and table value of this edition, in one place.

Values marked [design] in the specification (and the choices this edition made where spec and
seed are silent) are collected in DESIGN_NOTES so the rules reference can list them.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- population cards ------------------------------------------------------------------
# The six classes, in the order of the influence board's tracks.
CLASSES: tuple[str, ...] = ("peasantry", "bourgeoisie", "church", "chivalry", "royalty", "magic")
CLASS_NAMES: dict[str, str] = {
    "peasantry": "Peasantry",
    "bourgeoisie": "Bourgeoisie",
    "church": "Church",
    "chivalry": "Chivalry",
    "royalty": "Royalty",
    "magic": "Magic",
}
CARDS_PER_CLASS = 14
POPULATION_CARDS = CARDS_PER_CLASS * len(CLASSES)  # 84
# [design] Nun symbols of a class's 14 cards: 4 cards with 4 nuns, 2 with 3, 2 with 2,
# 2 with 1, 4 with 0 (over six classes: 24x4, 12x3, 12x2, 12x1, 24x0 as confirmed).
NUNS_IN_CLASS: tuple[int, ...] = (4, 4, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0)


def card_class(card: int) -> int:
    """Class index (into CLASSES) of population card `card` (0..83)."""
    return card // CARDS_PER_CLASS


# Nun symbols of every population card, by card id (id = class * 14 + index in class).
CARD_NUNS: tuple[int, ...] = tuple(
    NUNS_IN_CLASS[i % CARDS_PER_CLASS] for i in range(POPULATION_CARDS)
)
CARD_CLASS: tuple[int, ...] = tuple(card_class(i) for i in range(POPULATION_CARDS))


def card_name(card: int) -> str:
    """A population card for people: "Church (2 nuns)"."""
    nuns = CARD_NUNS[card]
    return f"{CLASS_NAMES[CLASSES[CARD_CLASS[card]]]} ({nuns} nun{'' if nuns == 1 else 's'})"


# ---- special cards and tokens ----------------------------------------------------------
# Hand cards that are not population cards. Jokers, Swords and Flutes may be committed to a
# building; Passes are played in phase C instead of entering.
SPECIALS: tuple[str, ...] = ("joker", "sword", "flute", "pass")
SPECIAL_NAMES: dict[str, str] = {
    "joker": "Joker",
    "sword": "Sword",
    "flute": "Flute",
    "pass": "Pass",
}
# Every kind of hand card, as used in move ids (`commit:church`, `give:joker`, ...).
HAND_KINDS: tuple[str, ...] = CLASSES + SPECIALS
COMMIT_KINDS: tuple[str, ...] = (*CLASSES, "joker", "sword", "flute")
KIND_NAMES: dict[str, str] = {**CLASS_NAMES, **SPECIAL_NAMES}
# Component counts (confirmed): the supplies are limited.
SUPPLY_TOTALS: dict[str, int] = {
    "joker": 15,
    "sword": 12,
    "flute": 12,
    "pass": 12,
    "gold": 15,
    "vp": 20,
}
SUPPLY_NAMES: dict[str, str] = {**SPECIAL_NAMES, "gold": "Gold", "vp": "VP token"}
PLURALS: dict[str, str] = {
    "joker": "Jokers",
    "sword": "Swords",
    "flute": "Flutes",
    "pass": "Passes",
    "gold": "Gold",
    "vp": "VP tokens",
    **CLASS_NAMES,
}


def kind_count(kind: str, n: int) -> str:
    """ "2 Swords", "1 Pass", "3 Church" (population cards are named by class)."""
    return f"{n} {PLURALS[kind] if n != 1 else SUPPLY_NAMES.get(kind) or KIND_NAMES[kind]}"


# ---- setup -----------------------------------------------------------------------------
RATS_AT_START = 10
HAND_AT_START = 5
NUN_ROW_SIZE = 5
ROUNDS: dict[int, int] = {2: 10, 3: 9, 4: 8, 5: 8}
BUILDINGS_PER_ROUND: dict[int, int] = {2: 2, 3: 2, 4: 3, 5: 3}
REPLACEMENT_DECK: dict[int, int] = {2: 10, 3: 12, 4: 6, 5: 6}
BUILDING_CARDS_IN_GAME = 30  # 5 per class
CARDS_PER_BUILDING = 5
# [design] The players sit in the order they were named; the first named starts.
FIRST_START_PLAYER = 0
# [design] Rat tokens come in values 5, 3 and 1; a total is shown as the fewest tokens
# (greedy 5/3/1), which is the only thing the other players see of it.
RAT_TOKEN_VALUES: tuple[int, ...] = (5, 3, 1)


def rat_tokens(total: int) -> list[int]:
    """The rat tokens a total is kept as (greedy decomposition, largest first)."""
    out: list[int] = []
    for value in RAT_TOKEN_VALUES:
        k, total = divmod(total, value)
        out.extend([value] * k)
    return out


# ---- supply actions printed on building cards ------------------------------------------
@dataclass(frozen=True, slots=True)
class Supply:
    """A supply action (phase B): draw cards, discard rats, look at Nun-row cards."""

    draw: int = 0
    rats: int = 0
    look: int = 0

    def text(self) -> str:
        parts = []
        if self.draw:
            parts.append(f"draw {self.draw}")
        if self.rats:
            parts.append(f"discard {self.rats} rat{'s' if self.rats > 1 else ''}")
        if self.look:
            parts.append(f"look at {self.look} Nun-row card{'s' if self.look > 1 else ''}")
        return " + ".join(parts)


# [design] The 5 copies of every building carry these 5 supplies (copy 1..5).
SUPPLIES: tuple[Supply, ...] = (
    Supply(draw=4),
    Supply(draw=2, look=1),
    Supply(rats=2),
    Supply(draw=2, rats=1),
    Supply(draw=1, rats=1, look=1),
)


# ---- buildings -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Building:
    """One of the 12 buildings: its class, and the amounts of its premium/standard action.

    `effect` names the action handled by the rules ("draw", "brewery", "pass", "joker",
    "rats", "hospital", "sword", "guard", "vp", "gold", "look", "flute"); `premium` and
    `standard` are its amounts.
    """

    key: str
    name: str
    cls: str
    effect: str
    premium: int
    standard: int
    premium_text: str
    standard_text: str


BUILDINGS: tuple[Building, ...] = (
    Building("farm", "Farm", "peasantry", "draw", 4, 2,
             "draw 4 population cards", "draw 2 population cards"),
    Building("brewery", "Brewery", "peasantry", "brewery", 1, 2,
             "draw 1 card per influence you gained this round",
             "draw 1 card per 2 influence you gained this round"),
    Building("office", "Office", "bourgeoisie", "pass", 2, 1, "take 2 Passes", "take 1 Pass"),
    Building("marketplace", "Marketplace", "bourgeoisie", "joker", 2, 1,
             "take 2 Jokers", "take 1 Joker"),
    Building("monastery", "Monastery", "church", "rats", 2, 1,
             "discard 2 rats", "discard 1 rat"),
    Building("hospital", "Hospital", "church", "hospital", 3, 2,
             "discard 1 rat, then discard up to 3 hand cards to discard as many rats",
             "discard up to 2 hand cards to discard as many rats"),
    Building("castle", "Castle", "chivalry", "sword", 2, 1, "take 2 Swords", "take 1 Sword"),
    Building("guard_tower", "Guard Tower", "chivalry", "guard", 3, 0,
             "every player who entered no Guard Tower this round and holds at least as many "
             "cards as you gives you 3 cards of their choice (all if fewer)",
             "no action, but immune to Guard Tower premiums this round"),
    Building("palace", "Palace", "royalty", "vp", 2, 1, "take 2 VP tokens", "take 1 VP token"),
    Building("treasury", "Treasury", "royalty", "gold", 2, 1, "take 2 Gold", "take 1 Gold"),
    Building("fortune_teller", "Fortune-teller's Tent", "magic", "look", 2, 1,
             "look at 2 Nun-row cards", "look at 1 Nun-row card"),
    Building("piper", "Piper's Lodge", "magic", "flute", 2, 1, "take 2 Flutes", "take 1 Flute"),
)  # fmt: skip
BUILDING_INDEX: dict[str, int] = {b.key: i for i, b in enumerate(BUILDINGS)}
# Hospital premium: the rat discarded before the hand cards.
HOSPITAL_PREMIUM_RATS = 1


def building_of(card: int) -> Building:
    """The building a building card (id = building index * 5 + copy) shows."""
    return BUILDINGS[card // CARDS_PER_BUILDING]


def supply_of(card: int) -> Supply:
    """The supply action printed on a building card."""
    return SUPPLIES[card % CARDS_PER_BUILDING]


# ---- choosing the 30 building cards (setup option "buildings") -------------------------
# The recommended first set (seed): 5 copies each of one building per class.
RECOMMENDED_SET: tuple[str, ...] = (
    "farm",
    "marketplace",
    "monastery",
    "castle",
    "palace",
    "fortune_teller",
)
BUILDING_METHODS: tuple[tuple[str, str], ...] = (
    ("recommended", "Recommended first set"),
    ("random-building", "One random building per class"),
    ("random-cards", "Five random cards per class"),
    ("choose", "Chosen by the players"),
)
# [design] With 2 players the Guard Tower is left out of random sets.
LEFT_OUT_WITH_TWO: tuple[str, ...] = ("guard_tower",)

# ---- scoring ---------------------------------------------------------------------------
TRACK_PAYOUT: tuple[int, ...] = (10, 5, 2)  # 1st / 2nd / 3rd on each class track
VP_TOKEN_VALUE = 2  # [design]
HAND_MAJORITY_VP = 5  # [design] most population + Joker cards in hand; tied: all 5
GOLD_PAYOUT: tuple[int, ...] = (5, 2)  # [design] most / second most Gold

# ---- the table rules of this edition (listed in the rules reference) -------------------
# Each entry: its source (the seed text, the published rulebook beyond the seed, or this
# edition's own decision; an entry mixing sources takes its least certain one) and the rule.
SEED, PUBLISHED, EDITION = "seed", "published rulebook", "this edition"
DESIGN_NOTES: tuple[tuple[str, str], ...] = (
    (
        EDITION,
        "Population cards: each class has 4 cards with 4 nuns, 2 with 3, 2 with 2, 2 with 1 "
        "and 4 with 0.",
    ),
    (
        EDITION,
        "The 5 copies of every building carry these supplies: "
        + "; ".join(s.text() for s in SUPPLIES)
        + ".",
    ),
    (SEED, "The building set may be decided upon collectively by the players."),
    (
        EDITION,
        "Decided by the players, the set is one building per class (5 copies each), like the "
        "recommended first set: the setup offers a choice per class.",
    ),
    (
        EDITION,
        "With 2 players the Guard Tower is left out of random building sets (Chivalry then "
        "always uses the Castle); players choosing their set may take it.",
    ),
    (
        EDITION,
        "The first named player is the first start player; the start player card passes to the "
        "next player (clockwise) at the end of every round.",
    ),
    (
        EDITION,
        "Rats are kept as a total; the other players see only how many rat tokens it makes "
        "with the fewest tokens of 5, 3 and 1 (e.g. 10 = 2 tokens, 7 = 3 tokens). Rats cannot "
        "go below 0; the rat supply is unlimited.",
    ),
    (
        EDITION,
        "Supply action: draw first, then discard rats, then look. A look shows a Nun-row card "
        "you have not seen yet (you choose which); with all five seen, it is lost.",
    ),
    (EDITION, "A player may play at most one Pass per round; a Pass goes back to its supply."),
    (
        SEED,
        "Each player enters one building per round, placing one of their discs on its first "
        "free space.",
    ),
    (
        EDITION,
        "The second disc in front of each player has no use (the rules we have do not say what "
        "it is for): it stays there.",
    ),
    (
        EDITION,
        "Premium action: the most population cards + Jokers played, at least 1; tied: the "
        "lowest disc. If nobody played a population card or Joker, everyone gets the standard "
        "action.",
    ),
    (PUBLISHED, "Actions of a building are carried out in disc order."),
    (
        EDITION,
        "Played population cards go to the discard pile, which is face up: its cards are "
        "public. Jokers and special cards go back to their supplies.",
    ),
    (
        EDITION,
        "When a supply (Jokers, Swords, Flutes, Passes, Gold, VP tokens) runs out, a player "
        "takes what is left.",
    ),
    (
        SEED,
        "When the population deck is empty, the discard pile is shuffled into a new deck.",
    ),
    (EDITION, "When both the population deck and its discard pile are empty, nothing is drawn."),
    (
        EDITION,
        "No hand limit. Hand cards are population cards, Jokers, Swords, Flutes and Passes "
        "(Gold and VP tokens lie face up). The other players see how many cards you hold, not "
        "which.",
    ),
    (
        EDITION,
        "Cards are chosen by kind (class or special card): of several population cards of one "
        "class, the one held longest is played, given or discarded (the nuns on hand cards "
        "never affect play).",
    ),
    (
        EDITION,
        "Sword: choose one other player in the same building and take half their hand (rounded "
        "down) at random; with nobody else there it has no effect. Each Sword acts separately.",
    ),
    (
        EDITION,
        "Flute: give 1 or 2 of your rats (or none) to one other player in the same building; "
        "with nobody else there it has no effect.",
    ),
    (
        EDITION,
        "Hospital: each hand card discarded (any card) discards one rat; you may only discard "
        "cards while you still have rats.",
    ),
    (
        EDITION,
        "Guard Tower premium: hand sizes are compared once, before any card is given; the "
        "givers give in turn order starting left of the receiver, each choosing the cards.",
    ),
    (
        EDITION,
        "Brewery: counts the influence you gained this round so far (this building's included).",
    ),
    (EDITION, "Influence tracks have no upper limit."),
    (
        EDITION,
        "A VP token is worth 2 VP. Most population + Joker cards in hand: 5 VP (tied: all 5), "
        "at least 1 card needed. Gold: most 5 VP, second 2 VP, at least 1 Gold needed.",
    ),
    (
        EDITION,
        "Tied players share the points of the places they cover, rounded down (tracks and "
        "Gold); players still on a track's start space score nothing there.",
    ),
    (
        EDITION,
        "Dead players are scored (so places on tracks are taken by them) but cannot win. If "
        "everyone dies, the plague wins and nobody does.",
    ),
    (PUBLISHED, "Winner: most VP among the survivors; tie: fewest rats."),
    (EDITION, "Still tied: a shared victory."),
)
