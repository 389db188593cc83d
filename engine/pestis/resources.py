"""The resource cards of 1347: the deck with its face-up top card, buying, spending, and what
each card does when it is played in the Investments stage (+1 wealth point face up)."""

from __future__ import annotations

from boardgames_tui.engine.core.protocol import Event

from . import data, logic
from .logic import area_name, name, plural
from .state import PestisState

Out = list[Event]


def play_resource(s: PestisState, seat: int, key: str) -> None:
    """The card leaves the hand and lies face up before its owner (1 wealth point)."""
    s.res_hand[seat].remove(key)
    s.res_played[seat].append(key)
    forget_card(s, seat, key)


def forget_card(s: PestisState, seat: int, key: str) -> None:
    """A card left `seat`'s hand face up: it is no longer a publicly known card in that hand."""
    if key in s.res_known[seat]:
        s.res_known[seat].remove(key)


def show_top(s: PestisState, out: Out) -> None:
    if s.res_deck:
        out.append(
            Event(f"New top resource card: {data.RESOURCES[s.res_deck[-1]].name}.", reveal=True)
        )
    else:
        out.append(Event("The resource deck is empty."))


def buy_resource(s: PestisState, seat: int, area: int, out: Out) -> None:
    price = logic.resource_price(s, seat, area)
    logic.pay(s, seat, price)
    card = s.res_deck.pop()
    s.res_hand[seat].append(card)
    s.res_known[seat].append(card)  # it was the face-up top card: everybody saw it
    out.append(
        Event(
            f"{name(s, seat)} buys {data.RESOURCES[card].name} for {plural(price, 'coin')} "
            f"in {area_name(area)}."
        )
    )
    logic.refill_resources(s)
    show_top(s, out)


def discard_resource(s: PestisState, seat: int, key: str, out: Out) -> None:
    """A resource card spent (healing, building, selling) goes to the face-up discards."""
    s.res_hand[seat].remove(key)
    s.res_discard.append(key)
    forget_card(s, seat, key)
    if logic.refill_resources(s):
        show_top(s, out)


def sell_resource(s: PestisState, seat: int, key: str, out: Out) -> None:
    logic.gain(s, seat, data.LAST_MARKET_SELL)
    out.append(
        Event(
            f"{name(s, seat)} sells {data.RESOURCES[key].name} for "
            f"{data.LAST_MARKET_SELL} coins (Last market)."
        )
    )
    discard_resource(s, seat, key, out)


def resolve_simple_resource(s: PestisState, seat: int, key: str, out: Out) -> None:
    """Cards without a target: apply them (the turn is over)."""
    play_resource(s, seat, key)
    nm = name(s, seat)
    if key == "credit":
        logic.gain(s, seat, data.CREDIT_COINS)
        out.append(Event(f"{nm} plays Letter of credit: +{data.CREDIT_COINS} coins."))
    elif key == "cart":
        got = logic.hire(s, seat, data.CART_GRAVE_DIGGERS)
        out.append(Event(f"{nm} plays Cart of the dead: +{plural(got, 'grave-digger')}."))
    elif key == "relic":
        s.relic[seat] = True
        out.append(
            Event(f"{nm} plays Holy relic: one infected subject heals for free in this Upkeep.")
        )
    elif key == "remedy":
        s.remedy[seat] = True
        out.append(Event(f"{nm} plays Herbal remedy: no upkeep for their subjects this round."))


def resolve_leeches(s: PestisState, seat: int, area: int, out: Out) -> None:
    play_resource(s, seat, "leeches")
    s.leeches[area][seat] += data.LEECHES_BONUS
    out.append(
        Event(
            f"{name(s, seat)} plays Leeches on {area_name(area)}: +{data.LEECHES_BONUS} there "
            "this round."
        )
    )


def resolve_quarantine(s: PestisState, seat: int, area: int, out: Out) -> None:
    play_resource(s, seat, "quarantine")
    s.quarantined[area] = True
    out.append(
        Event(
            f"{name(s, seat)} plays Quarantine: no more reinforcements in {area_name(area)} "
            "this round."
        )
    )


def resolve_spreader(s: PestisState, seat: int, target: int, area: int, out: Out) -> None:
    play_resource(s, seat, "spreader")
    s.blocked[target].append(area)
    out.append(
        Event(
            f"{name(s, seat)} plays Plague spreader for hire: {name(s, target)} may not invest "
            f"in {area_name(area)} this round."
        )
    )


def resolve_informer(s: PestisState, seat: int, area: int, out: Out) -> None:
    play_resource(s, seat, "informer")
    nm, an = name(s, seat), area_name(area)
    seen = []
    for q in range(s.n):
        if q != seat and s.invest[area][q]:
            vals = sorted(s.invest[area][q], reverse=True)
            s.informed[seat].append([area, q, vals])
            seen.append(f"{name(s, q)} {'+'.join(map(str, vals))}")
    text = "; ".join(seen) if seen else "no face-down tokens of others"
    out.append(
        Event(
            f"{nm}'s informer sees in {an}: {text}.",
            seat=seat,
            public=f"{nm} plays Informer and looks at the tokens in {an}.",
            reveal=True,
        )
    )


def resolve_seal(s: PestisState, seat: int, src: int, value: int, area: int, out: Out) -> None:
    play_resource(s, seat, "seal")
    nm, an = name(s, seat), area_name(area)
    s.invest[src][seat].remove(value)
    s.invest[area][seat].append(value)
    # Sightings of the seat's tokens there are stale now (nobody saw which token moved).
    for q in range(s.n):
        s.informed[q] = [x for x in s.informed[q] if not (x[0] == src and x[1] == seat)]
    out.append(
        Event(
            f"{nm} plays Forged seal: moves the {value}-point token from {area_name(src)} to {an}.",
            seat=seat,
            public=f"{nm} plays Forged seal: moves a token from {area_name(src)} to {an}.",
        )
    )


def resolve_theriac(s: PestisState, seat: int, key: str, out: Out) -> None:
    play_resource(s, seat, "theriac")
    logic.heal(s, seat, key)
    sub = data.SUBJECTS[key]
    out.append(
        Event(
            f"{name(s, seat)} plays Theriac: the {sub.name} is healed (+{sub.token}-point token)."
        )
    )
