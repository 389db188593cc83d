"""Small rule helpers shared by the stages: transfers, prices, influence totals, ties.

Every coin goes through `gain`/`pay` (the bank ledger) or `transfer`; every grave-digger moves
between named places, so the invariants can account for each of them.
"""

from __future__ import annotations

from engine.core import chance

from . import data
from .state import PestisState


def ev(s: PestisState, p: int) -> str:
    """The event in force for seat `p`: the same for everybody (seed 3.4: the event takes
    precedence over any conflicting resource or subject card)."""
    return s.event


def period_of(round_no: int) -> int:
    """Period (1-3) of a round (1-9)."""
    return (round_no - 1) // data.ROUNDS_PER_PERIOD + 1


def order_from(s: PestisState, start: int) -> list[int]:
    """All seats clockwise from `start`."""
    n = s.n
    return [(start + i) % n for i in range(n)]


def healed(s: PestisState, p: int, key: str) -> bool:
    return s.subjects[p].get(key, False)


# ---- coins and grave-diggers -------------------------------------------------------------
def gain(s: PestisState, p: int, n: int) -> None:
    """Seat `p` takes `n` coins from the (unlimited) bank."""
    s.coins[p] += n
    s.bank_net += n


def pay(s: PestisState, p: int, n: int) -> None:
    """Seat `p` pays `n` coins to the bank (callers check that it can)."""
    if n > s.coins[p]:
        raise ValueError("paying more coins than held")
    s.coins[p] -= n
    s.bank_net -= n


def transfer(s: PestisState, src: int, dst: int, n: int) -> None:
    """Coins change hands between two seats (Suburbium)."""
    s.coins[src] -= n
    s.coins[dst] += n


def hire(s: PestisState, p: int, k: int) -> int:
    """Up to `k` grave-diggers of `p`'s colour from the docks to the reserve; returns how many."""
    k = min(k, s.docks[p])
    s.docks[p] -= k
    s.reserve[p] += k
    return k


# ---- decks -------------------------------------------------------------------------------
def refill_resources(s: PestisState) -> bool:
    """Shuffle the resource discards into a new deck when the deck is empty; True if done."""
    if s.res_deck or not s.res_discard:
        return False
    s.res_deck = sorted(s.res_discard)
    s.res_discard = []
    chance.shuffle(s, s.res_deck)
    return True


def draw_subject(s: PestisState) -> str | None:
    """The top subject card (the discards become a new deck when the deck runs out)."""
    if not s.subj_deck and s.subj_discard:
        s.subj_deck = sorted(s.subj_discard)
        s.subj_discard = []
        chance.shuffle(s, s.subj_deck)
    return s.subj_deck.pop() if s.subj_deck else None


# ---- prices and costs ---------------------------------------------------------------------
def resource_price(s: PestisState, p: int, area: int) -> int:
    """Coins `p` pays for the top resource card in Schola Medica or Mercatus."""
    e = ev(s, p)
    if area == data.SCHOLA:
        price = data.CHARTER_SCHOLA_PRICE if e == "charter" else data.SCHOLA_PRICE
    else:
        price = data.MERCATUS_PRICE
    if e == "rumours":
        price += data.RUMOURS_SURCHARGE
    elif e == "fleet":
        price -= data.FLEET_DISCOUNT
    if "emporium" in s.devs[p]:
        price -= data.EMPORIUM_DISCOUNT
    return max(0, price)


def subject_cost(s: PestisState, p: int, key: str) -> int:
    """Influence points `p` spends in Burgus to take a subject of type `key`."""
    cost = data.SUBJECTS[key].cost
    if "apotheca" in s.devs[p]:
        cost -= data.APOTHECA_DISCOUNT
    if ev(s, p) == "pilgrims":
        cost -= data.PILGRIMS_DISCOUNT
    return max(0, cost)


def dev_gd_cost(s: PestisState, p: int) -> int:
    """Grave-diggers to the docks that pay for a development instead of a resource card."""
    if healed(s, p, "builder") or ev(s, p) == "rebuilding":
        return data.BUILDER_GD_COST
    return data.DEVELOPMENT_GD_COST


def upkeep_cost(s: PestisState, p: int, key: str) -> int:
    """Coins a healed subject costs in this upkeep."""
    if s.remedy[p]:
        return 0
    cost = data.SUBJECTS[key].upkeep
    if ev(s, p) == "black_death":
        cost *= 2
    return cost


def convert_coins(s: PestisState, p: int, value: int) -> int | None:
    """Coins an unused token of `value` converts to (None: it cannot become coins)."""
    e = ev(s, p)
    if e == "ships":  # the event beats the Minstrel (seed)
        return value + data.SHIPS_BONUS
    if value == 0:
        return None  # FAQ: a 0-point token converts only to a grave-digger
    coins = value
    if e == "guild_feast":
        coins += data.GUILD_FEAST_BONUS
    if healed(s, p, "minstrel"):
        coins += data.MINSTREL_BONUS
    return coins


def convert_gd(s: PestisState, p: int) -> int:
    """Grave-diggers an unused token converts to (0: not possible)."""
    if ev(s, p) == "ships" or s.docks[p] == 0:
        return 0
    return min(s.docks[p], 1 + (data.FOREMAN_BONUS if healed(s, p, "foreman") else 0))


# ---- influence -----------------------------------------------------------------------------
def closed(s: PestisState, area: int) -> bool:
    """Closed by this round's event: no investments, no activation."""
    return data.CLOSES.get(s.event, -1) == area


def can_invest_in(s: PestisState, p: int, area: int) -> bool:
    return not closed(s, area) and area not in s.blocked[p]


def has_tokens(s: PestisState, area: int, p: int) -> bool:
    return bool(s.invest[area][p]) or s.gdtok[area][p] > 0


# Per area: the developments with base points there, the subjects with a bonus there.
_BASE_DEVS = tuple(
    tuple(
        (d, data.DEV_BASE[d])
        for d in data.DEVELOPMENTS
        if data.DEV_AREA[d] == a and data.DEV_BASE[d]
    )
    for a in range(len(data.AREAS))
)
_BONUS_SUBJECTS = tuple(
    tuple(k for k, sub in data.SUBJECTS.items() if sub.area_bonus == a)
    for a in range(len(data.AREAS))
)


def base_points(s: PestisState, p: int, area: int) -> int:
    """Development base influence of `p` in `area` (counts even without tokens)."""
    devs = s.devs[p]
    if not devs:
        return 0
    return sum(v for d, v in _BASE_DEVS[area] if d in devs)


def bonus_points(s: PestisState, p: int, area: int) -> int:
    """Subject and Leeches bonuses of `p` in `area` (count only with a token there)."""
    b = s.leeches[area][p]
    subjects = s.subjects[p]
    if subjects:
        for key in _BONUS_SUBJECTS[area]:
            if subjects.get(key):
                b += data.SUBJECT_AREA_BONUS
    return b


def total(s: PestisState, area: int, p: int) -> int:
    """`p`'s influence in `area`: tokens, reinforcements, law tokens, base points, bonuses."""
    t = base_points(s, p, area)
    if has_tokens(s, area, p):
        t += sum(s.invest[area][p]) + s.reinf[area][p] + s.gdtok[area][p]
        t += bonus_points(s, p, area)
    return t


def wealth_of_cards(s: PestisState, p: int) -> int:
    """The 6-player Period III tie value: subject cards + developments (1 wealth point each)."""
    return len(s.subjects[p]) + len(s.devs[p])


def tie_winner(s: PestisState, tied: list[int]) -> tuple[int, str]:
    """The winner among `tied` (listed in First Player order) and the rule that decided."""
    why = "First Player order"
    if len(tied) > 1 and s.event == "audit":
        low = min(s.coins[p] for p in tied)
        tied = [p for p in tied if s.coins[p] == low]
        why = "Royal audit: fewest coins"
    if len(tied) > 1:
        notaries = [p for p in tied if healed(s, p, "notary")]
        if notaries:
            tied = notaries
            why = "Notary"
    if len(tied) > 1 and (s.n, period_of(s.round)) == data.SIX_PLAYER_TIE_RULE:
        high = max(wealth_of_cards(s, p) for p in tied)
        tied = [p for p in tied if wealth_of_cards(s, p) == high]
        why = "6 players, Period III: most subjects and developments"
    if len(tied) > 1:
        why = "First Player order"
    return tied[0], why


def law_option(s: PestisState, p: int) -> bool:
    """May `p` still invest a grave-digger as a 1-point token this round?"""
    return (
        ev(s, p) in data.LAW_EVENTS and not s.gd_used[p] and not s.gd_passed[p] and s.reserve[p] > 0
    )
