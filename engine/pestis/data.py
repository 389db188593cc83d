"""1347: De Nigrae Pestis Ludo — every table of the game and every [design] value.

The printed card texts could not be established; the card tables are this edition's [design]
(spec shared/rules/1347.md) and satisfy every example of the rulebook's appendix. Rule
code reads these tables and never repeats their numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

TITLE = "1347: De Nigrae Pestis Ludo"
MIN_PLAYERS = 2
MAX_PLAYERS = 6

# ---- setup ---------------------------------------------------------------------------------
START_TOKENS = (4, 3, 2, 1, 0)  # influence tokens each player starts with
START_GRAVE_DIGGERS = 3  # in each player's reserve
GRAVE_DIGGERS_PER_COLOUR = 15  # 90 in the box for 6 colours; the rest wait at the docks
START_COINS = 6
BOX_COINS = 60  # coins in the box; the bank is unlimited in this edition (see TABLE_RULES)
BURGUS_SUBJECTS = 3  # subjects laid out in the Burgus each round
EVENTS_PER_PERIOD = 3
ROUNDS = 9
ROUNDS_PER_PERIOD = 3
PERIOD_NUMERALS = ("I", "II", "III")  # the rulebook names the periods so, everywhere
FIRST_PLAYER_SEAT = 0  # [design] the first seat of the setup screen starts as First Player

# ---- the Apothecary option: when a healed Apothecary's ability may first be used -------------
# Seed (Upkeep): a cured subject's abilities are "for use in the following rounds", so an
# Apothecary healed in an Upkeep heals for coins from the next Upkeep on. Games played before
# the option existed let it heal in the same Upkeep: they replay so (Option.legacy).
APOTHECARY_RULEBOOK, APOTHECARY_AT_ONCE = "next-round", "same-upkeep"

# ---- areas, in activation order --------------------------------------------------------------
AREAS = ("schola", "burgus", "mercatus", "agrus", "portus", "suburbium")
AREA_NAMES = {
    "schola": "Schola Medica",
    "burgus": "Burgus",
    "mercatus": "Mercatus",
    "agrus": "Agrus",
    "portus": "Portus",
    "suburbium": "Suburbium",
}
AREA_ACTIONS = {
    "schola": "one of: build a development, buy a resource, send a grave-digger to Agrus",
    "burgus": "take subjects costing in total up to your points",
    "mercatus": "buy the top resource card",
    "agrus": "send one more grave-digger from your reserve to Agrus",
    "portus": "build developments",
    "suburbium": "rob the least invested player of goods worth up to your points",
}
SCHOLA, BURGUS, MERCATUS, AGRUS, PORTUS, SUBURBIUM = range(6)

# ---- prices -----------------------------------------------------------------------------------
MERCATUS_PRICE = 4  # seed: a resource card for 4 coins
SCHOLA_PRICE = 6  # seed: a resource card for 6 coins
AGRUS_INCOME = 2  # coins per grave-digger in Agrus each upkeep (seed)
DEVELOPMENT_GD_COST = 3  # grave-diggers to the docks instead of a resource card (seed)
# [design] Suburbium robbery prices in points (seed example: 1 grave-digger + 1 resource = 7).
ROB_COIN = 1
ROB_GRAVE_DIGGER = 3
ROB_RESOURCE = 4
LAST_MARKET_SELL = 3  # [design] coins for each resource sold under Last market
HEAL_COINS_CHEAP = 3  # [design] Lazaretum / Apothecary heal price
HEAL_COINS_GUILD = 4  # [design] Doctors' guild heal price
REINFORCEMENT_COINS = 1  # seed: every unused point converts into 1 coin (appendix: Burgus)
MONEY_CHANGER_MAX = 3

# ---- numbers on the cards ([design] card tables; texts below are built from these) ----------
FAIR_WEATHER_RATE = 3
FAMINE_RATE = 1
AGRUS_RATE = {"fair_weather": FAIR_WEATHER_RATE, "famine": FAMINE_RATE}
HARVEST_COINS = 2
MASS_GRAVES_GD = 1
REFUGEES_EXTRA = 2  # Burgus shows 3 + 2 = 5 subjects: 2 are added when Refugees is revealed
PILGRIMS_DISCOUNT = 1
RUMOURS_SURCHARGE = 2
FLEET_DISCOUNT = 1
CHARTER_SCHOLA_PRICE = 4
MARKET_DAY_BUYS = 2
TAX_PER = 5  # 1 coin per full 5 coins
MONEY_CHANGER_PER = 5
NOBLEMAN_WP = 2
SUBJECT_AREA_BONUS = 1  # Town Crier, Hangman, Merchant, Friar, Boatman
MINSTREL_BONUS = 1  # coin per token converted to coins
FOREMAN_BONUS = 1  # grave-digger per token converted to grave-diggers
FARMER_BONUS = 1  # coin per upkeep (with a grave-digger in Agrus)
GUILD_FEAST_BONUS = 1  # coin per token converted to coins
SHIPS_BONUS = 1  # coin per token (coins only)
THANKS_COINS = 1  # per healed subject: Thanksgiving (upkeep) and Procession of thanks (now)
SIX_PLAYER_TIE_RULE = (6, 3)  # seed: with 6 players in Period III ties go to subjects + devs
BUILDER_GD_COST = 2  # Master builder and Rebuilding: developments cost 2 grave-diggers
LEECHES_BONUS = 2
CREDIT_COINS = 4
CART_GRAVE_DIGGERS = 2

# ---- developments ----------------------------------------------------------------------------
DEVELOPMENTS = ("apotheca", "emporium", "lazaretum", "taberna")
DEV_NAMES = {
    "apotheca": "Apotheca",
    "emporium": "Emporium",
    "lazaretum": "Lazaretum",
    "taberna": "Taberna",
}
DEV_AREA = {"apotheca": BURGUS, "emporium": MERCATUS, "lazaretum": AGRUS, "taberna": SUBURBIUM}
# Base influence a development gives its owner in its area every round (seed: Apotheca,
# Taberna; these make the area activate even without tokens). [design] none for the others.
DEV_BASE = {"apotheca": 1, "emporium": 0, "lazaretum": 0, "taberna": 1}
APOTHECA_DISCOUNT = 1  # subjects cost 1 less per acquisition (seed)
EMPORIUM_DISCOUNT = 2  # [design]
DEV_TEXT = {
    "apotheca": f"+{DEV_BASE['apotheca']} base influence in Burgus every round; each subject you take "
    f"costs {APOTHECA_DISCOUNT} less",
    "emporium": f"resource cards cost you {EMPORIUM_DISCOUNT} coins less",
    "lazaretum": f"in upkeep you may heal one subject for {HEAL_COINS_CHEAP} coins instead of a resource card",
    "taberna": f"+{DEV_BASE['taberna']} base influence in Suburbium every round",
}


# ---- subjects ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Subject:
    """A subject card type: cost in Burgus, token gained when healed, upkeep while healed."""

    key: str
    name: str
    copies: int
    cost: int
    token: int
    upkeep: int
    ability: str
    area_bonus: int = -1  # area where it adds +1 influence while healed (-1: none)


SUBJECTS: dict[str, Subject] = {
    s.key: s
    for s in (
        Subject("crier", "Town Crier", 3, 2, 1, 1, "+1 influence in Burgus", BURGUS),
        Subject(
            "builder",
            "Master builder",
            3,
            4,
            2,
            2,
            f"developments cost {BUILDER_GD_COST} grave-diggers instead of {DEVELOPMENT_GD_COST}",
        ),
        Subject("hangman", "Hangman", 3, 3, 1, 1, "+1 influence in Suburbium", SUBURBIUM),
        Subject(
            "minstrel", "Minstrel", 3, 2, 1, 1, "+1 coin each time you convert a token to coins"
        ),
        Subject("farmer", "Farmer", 3, 2, 1, 0, "+1 coin per upkeep from Agrus"),
        Subject(
            "apothecary",
            "Apothecary",
            3,
            3,
            2,
            2,
            f"once per upkeep heal a subject for {HEAL_COINS_CHEAP} coins instead of a resource",
        ),
        Subject("merchant", "Merchant", 3, 3, 2, 1, "+1 influence in Mercatus", MERCATUS),
        Subject("notary", "Notary", 3, 3, 2, 2, "you win ties in every area"),
        Subject("friar", "Friar", 3, 2, 1, 0, "+1 influence in Schola Medica", SCHOLA),
        Subject("boatman", "Boatman", 3, 2, 1, 1, "+1 influence in Portus", PORTUS),
        Subject(
            "changer",
            "Money changer",
            3,
            3,
            1,
            1,
            f"+1 coin per full {MONEY_CHANGER_PER} coins held, each upkeep (at most {MONEY_CHANGER_MAX})",
        ),
        Subject("washerwoman", "Washerwoman", 2, 1, 0, 0, "none"),
        Subject("guard", "Guard", 2, 3, 1, 1, "you cannot be the Suburbium victim"),
        Subject("pupil", "Physician's pupil", 2, 4, 3, 2, "none"),
        Subject(
            "nobleman",
            "Nobleman",
            2,
            5,
            3,
            3,
            f"+{NOBLEMAN_WP} wealth points at the end while healed",
        ),
        Subject(
            "foreman",
            "Foreman",
            2,
            3,
            1,
            1,
            "+1 grave-digger each time you convert a token to grave-diggers",
        ),
    )
}
SUBJECT_DECK: tuple[str, ...] = tuple(k for k, s in SUBJECTS.items() for _ in range(s.copies))


# ---- resources ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Resource:
    """A resource card kind. `target` names what playing it asks for (see rules)."""

    key: str
    name: str
    text: str
    target: str = ""  # "", "area", "player+area", "subject", "token+area"


RESOURCES: dict[str, Resource] = {
    r.key: r
    for r in (
        Resource(
            "spreader",
            "Plague spreader for hire",
            "name a player and an area: that player may not invest there this round",
            "player+area",
        ),
        Resource(
            "leeches",
            "Leeches",
            f"one area of your choice: +{LEECHES_BONUS} to your total there this round",
            "area",
        ),
        Resource(
            "theriac",
            "Theriac",
            "heal one of your infected subjects now (its token can be invested this round)",
            "subject",
        ),
        Resource("credit", "Letter of credit", f"take {CREDIT_COINS} coins"),
        Resource(
            "cart", "Cart of the dead", f"take {CART_GRAVE_DIGGERS} grave-diggers from the docks"
        ),
        Resource(
            "relic",
            "Holy relic",
            "in this round's Upkeep, heal one infected subject without discarding a resource",
        ),
        Resource(
            "seal",
            "Forged seal",
            "move one of your face-down tokens to another area",
            "token+area",
        ),
        Resource(
            "quarantine", "Quarantine", "name an area: no reinforcements there this round", "area"
        ),
        Resource("remedy", "Herbal remedy", "your healed subjects pay no upkeep this round"),
        Resource("informer", "Informer", "look at all tokens invested so far in one area", "area"),
    )
}
RESOURCE_COPIES = 2
RESOURCE_DECK: tuple[str, ...] = tuple(k for k in RESOURCES for _ in range(RESOURCE_COPIES))


# ---- events ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card: the period deck it belongs to and its effect for the round."""

    key: str
    name: str
    period: int
    text: str


EVENTS: dict[str, EventCard] = {
    e.key: e
    for e in (
        # Period I
        EventCard(
            "law1",
            "New agrarian law I",
            1,
            "grave-diggers may also be invested as 1-point tokens, one per turn",
        ),
        EventCard("calm", "Calm", 1, "no effect"),
        EventCard(
            "fair_weather",
            "Fair weather",
            1,
            f"Agrus pays {FAIR_WEATHER_RATE} coins per grave-digger",
        ),
        EventCard("harvest", "Good harvest", 1, f"every player takes {HARVEST_COINS} coins now"),
        EventCard("pilgrims", "Pilgrims", 1, f"subjects cost {PILGRIMS_DISCOUNT} less in Burgus"),
        EventCard(
            "rumours", "Rumours of plague", 1, f"resources cost {RUMOURS_SURCHARGE} coins more"
        ),
        EventCard(
            "market_day",
            "Market day",
            1,
            f"the Mercatus winner may buy {MARKET_DAY_BUYS} resources",
        ),
        EventCard(
            "procession",
            "Bishop's procession",
            1,
            "the Schola Medica winner takes two different actions",
        ),
        EventCard(
            "guild_feast", "Guild feast", 1, "unused tokens converted to coins give +1 coin each"
        ),
        EventCard(
            "tax", "Tax collector", 1, f"in upkeep each player pays 1 coin per full {TAX_PER} coins"
        ),
        # Period II
        EventCard(
            "law2",
            "New agrarian law II",
            2,
            "grave-diggers may also be invested as 1-point tokens, one per turn",
        ),
        EventCard(
            "ships",
            "Trading ships from the East",
            2,
            "unused tokens convert to coins only, +1 coin each; the Minstrel gives nothing",
        ),
        EventCard("black_death", "Black death", 2, "healed subjects cost double upkeep"),
        EventCard("harbour", "Harbour quarantine", 2, "Portus is closed"),
        EventCard("wave", "Wave of deaths", 2, "each player discards one infected subject, if any"),
        EventCard("curfew", "Curfew", 2, "Suburbium is closed"),
        EventCard(
            "doctors_guild",
            "Doctors' guild",
            2,
            f"healing may be paid with {HEAL_COINS_GUILD} coins instead of a resource",
        ),
        EventCard("famine", "Famine", 2, f"Agrus pays {FAMINE_RATE} coin per grave-digger"),
        EventCard(
            "mass_graves",
            "Mass graves",
            2,
            f"every player takes {MASS_GRAVES_GD} grave-digger from the docks",
        ),
        EventCard(
            "refugees",
            "Refugees",
            2,
            f"Burgus shows {BURGUS_SUBJECTS + REFUGEES_EXTRA} subjects this round",
        ),
        # Period III
        EventCard(
            "law3",
            "New agrarian law III",
            3,
            "grave-diggers may also be invested as 1-point tokens, one per turn",
        ),
        EventCard(
            "rebuilding",
            "Rebuilding",
            3,
            f"developments cost {BUILDER_GD_COST} grave-diggers instead of {DEVELOPMENT_GD_COST}",
        ),
        EventCard("thanksgiving", "Thanksgiving", 3, "each healed subject gives 1 coin in upkeep"),
        EventCard("fleet", "Merchant fleet", 3, f"resources cost {FLEET_DISCOUNT} coin less"),
        EventCard(
            "charter",
            "University charter",
            3,
            f"Schola Medica sells resources for {CHARTER_SCHOLA_PRICE} coins",
        ),
        EventCard("amnesty", "Amnesty", 3, "Suburbium is closed"),
        EventCard(
            "audit", "Royal audit", 3, "ties are won by the tied player with the fewest coins"
        ),
        EventCard(
            "thanks",
            "Procession of thanks",
            3,
            "every player takes 1 coin per healed subject now",
        ),
        EventCard("peace", "Peace", 3, "no effect"),
        EventCard(
            "last_market",
            "Last market",
            3,
            f"the Mercatus winner may also sell resources for {LAST_MARKET_SELL} coins each",
        ),
    )
}
PERIOD_EVENTS: tuple[tuple[str, ...], ...] = tuple(
    tuple(k for k, e in EVENTS.items() if e.period == p) for p in (1, 2, 3)
)
LAW_EVENTS = frozenset({"law1", "law2", "law3"})
CLOSES = {"harbour": PORTUS, "curfew": SUBURBIUM, "amnesty": SUBURBIUM}
# Events whose effect happens once, when the card is revealed.
IMMEDIATE_EVENTS = frozenset({"harvest", "wave", "mass_graves", "thanks", "refugees"})

# ---- end scoring ---------------------------------------------------------------------------------
WP_COINS = 10  # 1 wealth point per 10 coins
WP_GRAVE_DIGGERS = 3  # 1 wealth point per 3 grave-diggers (reserve + Agrus)

# ---- table rules of this edition ---------------------------------------------------------------
# How this edition plays where a reading or a choice is needed, shown in the in-app rules
# reference under "Table rules of this edition". Each entry names its source: the seed text
# or this edition's own decision.
SEED, EDITION = "seed", "this edition"
TABLE_RULES: tuple[tuple[str, str], ...] = (
    (
        EDITION,
        f"The bank: the seed lists {BOX_COINS} coins in the box and puts what the players do not "
        "take at setup in the bank, but does not say what happens when the bank runs out. Here "
        "the bank is unlimited; coins are still accounted for move by move.",
    ),
    (EDITION, "The first seat of the setup screen is the First Player of round 1."),
    (
        EDITION,
        f"{ROUNDS} rounds for every player count, {EVENTS_PER_PERIOD} event cards per period; "
        "the first Period I card governs round 1, every Event stage reveals the card of the next "
        f"round, the game ends after the Upkeep of round {ROUNDS} (the seed gives no count for "
        "6 players).",
    ),
    (
        EDITION,
        "Grave-diggers have no hidden side: reinforcements and grave-diggers invested as tokens "
        "are seen by everybody; only influence tokens lie face down.",
    ),
    (
        EDITION,
        "New agrarian law: each player may invest at most one grave-digger from the reserve per "
        "round as a 1-point token; it takes a turn of its own (the seed's 'one extra turn'), "
        "cannot be reinforced, and is optional (a player with nothing else to invest may pass "
        "it). After its area it goes back to the owner's reserve like a token; if it loses it "
        "converts like a 1-point token.",
    ),
    (EDITION, "A resource card can be played only on a turn in which you could still invest."),
    (
        SEED,
        "Development base points count in their area even without a token there, and never "
        "become unused points.",
    ),
    (
        EDITION,
        f"A subject's +1 influence and Leeches' +{LEECHES_BONUS} count only in an area where "
        "you invested at least one token.",
    ),
    (
        SEED,
        "Ties go to the First Player, else the nearest to the First Player's left; with 6 "
        "players in Period III the most subject cards + developments (each worth 1 wealth "
        "point) first.",
    ),
    (
        EDITION,
        "Before those: Royal audit (fewest coins), then a healed Notary. Each rule only breaks "
        "the tie among those still tied.",
    ),
    (
        SEED,
        "When nobody becomes active in an area (no total of at least 1), nobody converts: all "
        "the tokens simply go back to their owners (the appendix's Agrus example).",
    ),
    (
        SEED,
        "A losing player's reinforcements are unused points: each converts into 1 coin, and the "
        "grave-digger itself goes back to the docks. Grave-diggers are still hired one per "
        "token (never per reinforcement). The rule text says reinforcements 'are completely "
        "lost and returned to the Portus docks area'; the appendix's Burgus example gives "
        "Geoffrey, with tokens 1 + 3 and one reinforcement, '5 unused points into 5 Coins' "
        "while the reinforcement grave-digger 'is discarded'. This reading keeps both: the "
        "piece is lost, its point is not.",
    ),
    (
        SEED,
        "Every invested grave-digger goes back to the docks at the end of its area's actions, "
        "whether or not the area was activated (a closed area, or reinforcements left alone by "
        "a Forged seal).",
    ),
    (
        EDITION,
        "A conversion with only one possible outcome (a 0-point token, docks of your colour "
        "empty, Trading ships, reinforcement points) is made automatically.",
    ),
    (
        SEED,
        "Unused points are converted after the active player's action, at the end of the "
        "area's actions (the rule text and the appendix's examples).",
    ),
    (
        EDITION,
        "The losers convert in this order: first every loser's reinforcement points, then the "
        "tokens in turn order from the First Player, each player's from the highest.",
    ),
    (
        SEED,
        "Events take precedence over any conflicting resource or subject card (3.4): Trading "
        "ships beats the Minstrel; Black death doubles the upkeep of a Holy relic's holder too.",
    ),
    (
        EDITION,
        "Trading ships from the East: every token, 0-point included, converts to its value + 1 "
        "coins.",
    ),
    (
        EDITION,
        "Minstrel: +1 coin per token converted to coins. Foreman: +1 grave-digger per token "
        "converted to a grave-digger, if the docks of your colour still have one.",
    ),
    (
        EDITION,
        "Suburbium: the victim's invested influence is their total there (tokens, "
        "reinforcements, base points, bonuses). Holders of a healed Guard are never victims; "
        "with no possible victim nobody is robbed. A stolen resource card is taken at random "
        "from the victim's hand.",
    ),
    (
        EDITION,
        "A stolen grave-digger goes back to the docks of the victim's colour and the thief hires "
        "one of their own colour from the docks; it can be chosen only while the docks of the "
        "thief's colour have one.",
    ),
    (
        EDITION,
        f"Subject cost never drops below 0 (Apotheca -{APOTHECA_DISCOUNT} per subject taken, "
        f"Pilgrims -{PILGRIMS_DISCOUNT}); resource prices never drop below 0 (Emporium "
        f"-{EMPORIUM_DISCOUNT}, Merchant fleet -{FLEET_DISCOUNT}, Rumours "
        f"+{RUMOURS_SURCHARGE}, University charter {CHARTER_SCHOLA_PRICE} in Schola Medica).",
    ),
    (SEED, "Schola Medica and every other action may be passed (FAQ: winning without the means)."),
    (
        EDITION,
        "Upkeep, for each player in turn from the First Player: Agrus income (+1 with a healed "
        "Farmer and at least one grave-digger in Agrus), Money changer, Thanksgiving, then Tax "
        "collector on the coins held, then healing, then upkeep of healed subjects.",
    ),
    (
        SEED,
        "A subject healed in an Upkeep pays its upkeep in that same Upkeep (the seed's order: "
        "heal, then pay).",
    ),
    (
        EDITION,
        "Paying upkeep is compulsory while you can; when you cannot pay for all, you choose "
        "which subjects you keep, the others fall ill again.",
    ),
    (
        EDITION,
        f"Lazaretum and Apothecary each allow one heal for {HEAL_COINS_CHEAP} coins per Upkeep "
        "(two heals with both); the Apothecary must itself be healed.",
    ),
    (
        SEED,
        "A subject healed in an Upkeep gives its abilities 'for use in the following rounds': "
        "an Apothecary healed in an Upkeep first heals for coins in the next Upkeep.",
    ),
    (
        EDITION,
        "Games begun before this edition followed that rule (saves and tables that name no "
        "Apothecary option) keep the earlier reading, so that they replay as they were played: "
        "there the Apothecary heals in the Upkeep in which it is healed. The Apothecary option "
        "chooses either reading for a new game.",
    ),
    (
        EDITION,
        "Holy relic: one infected subject heals for free in this round's Upkeep. (A relic that "
        "lifted the event for its holder would contradict the seed's 3.4.)",
    ),
    (
        EDITION,
        f"Refugees: {REFUGEES_EXTRA} extra subjects are laid out in the Burgus when the card is "
        "revealed. Wave of deaths: a player with several infected subjects chooses which to "
        "discard.",
    ),
    (
        EDITION,
        "Plague spreader, Quarantine and Forged seal act from now on: tokens and reinforcements "
        "already placed stay. Forged seal moves one face-down token alone: its reinforcements "
        "stay and, if no token of yours is left there, count for nothing and go back to the "
        "docks. Theriac needs an infected subject; Forged seal needs a face-down token of yours.",
    ),
    (
        SEED,
        "When the subject or resource deck is empty its face-up discards are shuffled into a new "
        "deck (seed: discards gradually form new decks).",
    ),
    (
        EDITION,
        "Resources sold under Last market go to the discard pile. The Emporium discount applies "
        "in Schola Medica and in Mercatus.",
    ),
    (
        EDITION,
        "Informer: what you saw stays on your board for the round (until the owner moves a token "
        "away from that area with a Forged seal).",
    ),
    (EDITION, "At most one development of each kind per player (spec)."),
)
