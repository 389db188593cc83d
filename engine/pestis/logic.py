"""Small rule helpers shared by the stages: transfers, prices, influence totals, ties.

Every coin goes through `gain`/`pay` (the bank ledger) or `transfer`; every grave-digger moves
between named places, so the invariants can account for each of them.
"""

from __future__ import annotations

from boardgames_tui.engine.core import chance

from . import data
from .state import PestisState


def ev(s: PestisState, seat: int) -> str:
    """The event in force for `seat`: the same for everybody (seed 3.4: the event takes
    precedence over any conflicting resource or subject card)."""
    return s.event


def period_of(round_no: int) -> int:
    """Period (1-3) of a round (1-9)."""
    return (round_no - 1) // data.ROUNDS_PER_PERIOD + 1


def order_from(s: PestisState, start: int) -> list[int]:
    """All seats clockwise from `start`."""
    n = s.n
    return [(start + i) % n for i in range(n)]


def healed(s: PestisState, seat: int, key: str) -> bool:
    return s.subjects[seat].get(key, False)


# ---- coins and grave-diggers -------------------------------------------------------------
def gain(s: PestisState, seat: int, n: int) -> None:
    """`seat` takes `n` coins from the (unlimited) bank."""
    s.coins[seat] += n
    s.bank_net += n


def pay(s: PestisState, seat: int, n: int) -> None:
    """`seat` pays `n` coins to the bank (callers check that it can)."""
    if n > s.coins[seat]:
        raise ValueError("paying more coins than held")
    s.coins[seat] -= n
    s.bank_net -= n


def transfer(s: PestisState, src: int, dst: int, n: int) -> None:
    """Coins change hands between two seats (Suburbium)."""
    s.coins[src] -= n
    s.coins[dst] += n


def hire(s: PestisState, seat: int, k: int) -> int:
    """Up to `k` grave-diggers of `seat`'s colour from the docks to the reserve; returns how many."""
    k = min(k, s.docks[seat])
    s.docks[seat] -= k
    s.reserve[seat] += k
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
def resource_price(s: PestisState, seat: int, area: int) -> int:
    """Coins `seat` pays for the top resource card in Schola Medica or Mercatus."""
    e = ev(s, seat)
    if area == data.SCHOLA:
        price = data.CHARTER_SCHOLA_PRICE if e == "charter" else data.SCHOLA_PRICE
    else:
        price = data.MERCATUS_PRICE
    if e == "rumours":
        price += data.RUMOURS_SURCHARGE
    elif e == "fleet":
        price -= data.FLEET_DISCOUNT
    if "emporium" in s.devs[seat]:
        price -= data.EMPORIUM_DISCOUNT
    return max(0, price)


def subject_cost(s: PestisState, seat: int, key: str) -> int:
    """Influence points `seat` spends in Burgus to take a subject of type `key`."""
    cost = data.SUBJECTS[key].cost
    if "apotheca" in s.devs[seat]:
        cost -= data.APOTHECA_DISCOUNT
    if ev(s, seat) == "pilgrims":
        cost -= data.PILGRIMS_DISCOUNT
    return max(0, cost)


def dev_gd_cost(s: PestisState, seat: int) -> int:
    """Grave-diggers to the docks that pay for a development instead of a resource card."""
    if healed(s, seat, "builder") or ev(s, seat) == "rebuilding":
        return data.BUILDER_GD_COST
    return data.DEVELOPMENT_GD_COST


def upkeep_cost(s: PestisState, seat: int, key: str) -> int:
    """Coins a healed subject costs in this upkeep."""
    if s.remedy[seat]:
        return 0
    cost = data.SUBJECTS[key].upkeep
    if ev(s, seat) == "black_death":
        cost *= 2
    return cost


def convert_coins(s: PestisState, seat: int, value: int) -> int | None:
    """Coins an unused token of `value` converts to (None: it cannot become coins)."""
    e = ev(s, seat)
    if e == "ships":  # the event beats the Minstrel (seed)
        return value + data.SHIPS_BONUS
    if value == 0:
        return None  # FAQ: a 0-point token converts only to a grave-digger
    coins = value
    if e == "guild_feast":
        coins += data.GUILD_FEAST_BONUS
    if healed(s, seat, "minstrel"):
        coins += data.MINSTREL_BONUS
    return coins


def convert_gd(s: PestisState, seat: int) -> int:
    """Grave-diggers an unused token converts to (0: not possible)."""
    if ev(s, seat) == "ships" or s.docks[seat] == 0:
        return 0
    return min(s.docks[seat], 1 + (data.FOREMAN_BONUS if healed(s, seat, "foreman") else 0))


# ---- influence -----------------------------------------------------------------------------
def closed(s: PestisState, area: int) -> bool:
    """Closed by this round's event: no investments, no activation."""
    return data.CLOSES.get(s.event, -1) == area


def can_invest_in(s: PestisState, seat: int, area: int) -> bool:
    return not closed(s, area) and area not in s.blocked[seat]


def has_tokens(s: PestisState, area: int, seat: int) -> bool:
    return bool(s.invest[area][seat]) or s.gdtok[area][seat] > 0


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


def base_points(s: PestisState, seat: int, area: int) -> int:
    """Development base influence of `seat` in `area` (counts even without tokens)."""
    devs = s.devs[seat]
    if not devs:
        return 0
    return sum(v for d, v in _BASE_DEVS[area] if d in devs)


def bonus_points(s: PestisState, seat: int, area: int) -> int:
    """Subject and Leeches bonuses of `seat` in `area` (count only with a token there)."""
    b = s.leeches[area][seat]
    subjects = s.subjects[seat]
    if subjects:
        for key in _BONUS_SUBJECTS[area]:
            if subjects.get(key):
                b += data.SUBJECT_AREA_BONUS
    return b


def total(s: PestisState, area: int, seat: int) -> int:
    """`seat`'s influence in `area`: tokens, reinforcements, law tokens, base points, bonuses."""
    t = base_points(s, seat, area)
    if has_tokens(s, area, seat):
        t += sum(s.invest[area][seat]) + s.reinf[area][seat] + s.gdtok[area][seat]
        t += bonus_points(s, seat, area)
    return t


def wealth_of_cards(s: PestisState, seat: int) -> int:
    """The 6-player Period III tie value: subject cards + developments (1 wealth point each)."""
    return len(s.subjects[seat]) + len(s.devs[seat])


def tie_winner(s: PestisState, tied: list[int]) -> tuple[int, str]:
    """The winner among `tied` (listed in First Player order) and the rule that decided."""
    why = "First Player order"
    if len(tied) > 1 and s.event == "audit":
        low = min(s.coins[seat] for seat in tied)
        tied = [seat for seat in tied if s.coins[seat] == low]
        why = "Royal audit: fewest coins"
    if len(tied) > 1:
        notaries = [seat for seat in tied if healed(s, seat, "notary")]
        if notaries:
            tied = notaries
            why = "Notary"
    if len(tied) > 1 and (s.n, period_of(s.round)) == data.SIX_PLAYER_TIE_RULE:
        high = max(wealth_of_cards(s, seat) for seat in tied)
        tied = [seat for seat in tied if wealth_of_cards(s, seat) == high]
        why = "6 players, Period III: most subjects and developments"
    if len(tied) > 1:
        why = "First Player order"
    return tied[0], why


def law_option(s: PestisState, seat: int) -> bool:
    """May `seat` still invest a grave-digger as a 1-point token this round?"""
    return (
        ev(s, seat) in data.LAW_EVENTS
        and not s.gd_used[seat]
        and not s.gd_passed[seat]
        and s.reserve[seat] > 0
    )


def heal(s: PestisState, seat: int, key: str) -> None:
    """Flip a subject to healed: its token joins the owner's tokens in hand."""
    s.subjects[seat][key] = True
    s.hand[seat].append(data.SUBJECTS[key].token)
    s.hand[seat].sort(reverse=True)


# ---- words for the log ----------------------------------------------------------------------
def name(s: PestisState, seat: int) -> str:
    return s.names[seat]


def area_name(a: int) -> str:
    return data.AREA_NAMES[data.AREAS[a]]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
