"""The stages of a round as the rulebook names them: Investments, Actions, Upkeep, Event.

Each function mutates the state, appends log events, and runs on until a seat has to decide
(it then sets `s.dec` / `s.dec_seat`) or the game is over. `rules.py` builds the prompt for
the pending decision and dispatches the chosen move back here.
"""

from __future__ import annotations

from engine.core import chance
from engine.core.protocol import Event

from . import data as D
from . import logic as L
from .logic import law_option
from .moves import action_moves
from .state import PestisState

Out = list[Event]


def name(s: PestisState, p: int) -> str:
    return s.names[p]


def area_name(a: int) -> str:
    return D.AREA_NAMES[D.AREAS[a]]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# =============================================================================================
# Setup and rounds
# =============================================================================================
def setup(s: PestisState, out: Out) -> None:
    """Deal everything, reveal the first event and open the Investments stage of round 1."""
    n = s.n
    s.first = D.FIRST_PLAYER_SEAT % n
    s.coins = [D.START_COINS] * n  # bank_net counts what the bank pays out after this
    s.reserve = [D.START_GRAVE_DIGGERS] * n
    s.agrus = [0] * n
    s.docks = [D.GRAVE_DIGGERS_PER_COLOUR - D.START_GRAVE_DIGGERS] * n
    s.hand = [sorted(D.START_TOKENS, reverse=True) for _ in range(n)]
    s.subjects = [{} for _ in range(n)]
    s.devs = [[] for _ in range(n)]
    s.res_hand = [[] for _ in range(n)]
    s.res_played = [[] for _ in range(n)]
    s.res_known = [[] for _ in range(n)]
    s.invest = [[[] for _ in range(n)] for _ in D.AREAS]
    s.reinf = [[0] * n for _ in D.AREAS]
    s.gdtok = [[0] * n for _ in D.AREAS]
    s.revealed = [False] * len(D.AREAS)
    s.res_deck = list(D.RESOURCE_DECK)
    chance.shuffle(s, s.res_deck)
    s.subj_deck = list(D.SUBJECT_DECK)
    chance.shuffle(s, s.subj_deck)
    s.event_decks = []
    for cards in D.PERIOD_EVENTS:
        deck = list(cards)
        chance.shuffle(s, deck)
        s.event_decks.append(deck[: D.EVENTS_PER_PERIOD])
    reset_round(s)
    for _ in range(D.BURGUS_SUBJECTS):
        card = L.draw_subject(s)
        if card:
            s.burgus.append(card)
    out.append(
        Event(
            f"Setup: First Player {name(s, s.first)}; each player has tokens 4-3-2-1-0, "
            f"{D.START_GRAVE_DIGGERS} grave-diggers and {D.START_COINS} coins."
        )
    )
    out.append(Event("Burgus: " + ", ".join(D.SUBJECTS[k].name for k in s.burgus), reveal=True))
    reveal_event(s, out)
    out.append(Event(f"Round 1 (Period 1): {name(s, s.first)} is First Player."))
    if s.dec != "wave":
        begin_investments(s, out)


def reset_round(s: PestisState) -> None:
    """Clear the effects that last one round."""
    n = s.n
    s.blocked = [[] for _ in range(n)]
    s.quarantined = [False] * len(D.AREAS)
    s.leeches = [[0] * n for _ in D.AREAS]
    s.relic = [False] * n
    s.remedy = [False] * n
    s.informed = [[] for _ in range(n)]
    s.returned = [[] for _ in range(n)]
    s.gd_used = [False] * n
    s.gd_passed = [False] * n
    s.revealed = [False] * len(D.AREAS)
    s.results = [None] * len(D.AREAS)


def reveal_event(s: PestisState, out: Out) -> None:
    """Reveal the event card of the round to come and apply its immediate effect."""
    idx = L.period_of(s.round + (1 if s.events_seen else 0)) - 1
    card = s.event_decks[idx].pop()
    s.event = card
    s.events_seen.append(card)
    e = D.EVENTS[card]
    out.append(Event(f"Event: {e.name} — {e.text}.", reveal=True))
    n = s.n
    if card == "harvest":
        for p in range(n):
            L.gain(s, p, D.HARVEST_COINS)
        out.append(Event(f"Good harvest: every player takes {D.HARVEST_COINS} coins."))
    elif card == "mass_graves":
        for p in L.order_from(s, s.first):
            got = L.hire(s, p, D.MASS_GRAVES_GD)
            out.append(Event(f"Mass graves: {name(s, p)} takes {plural(got, 'grave-digger')}."))
    elif card == "thanks":
        for p in range(n):
            k = D.THANKS_COINS * sum(1 for h in s.subjects[p].values() if h)
            if k:
                L.gain(s, p, k)
                out.append(Event(f"Procession of thanks: {name(s, p)} takes {plural(k, 'coin')}."))
    elif card == "refugees":
        drawn = []
        for _ in range(D.REFUGEES_EXTRA):
            c = L.draw_subject(s)
            if c:
                s.burgus.append(c)
                drawn.append(D.SUBJECTS[c].name)
        if drawn:
            out.append(Event("Refugees: Burgus also shows " + ", ".join(drawn) + ".", reveal=True))
    elif card == "wave":
        s.wave_left = []
        for p in L.order_from(s, s.first):
            infected = [k for k, h in s.subjects[p].items() if not h]
            if len(infected) == 1:
                discard_subject(s, p, infected[0], out)
            elif infected:
                s.wave_left.append(p)
        if s.wave_left:
            s.dec = "wave"
            s.dec_seat = s.wave_left[0]


def discard_subject(s: PestisState, p: int, key: str, out: Out) -> None:
    """Wave of deaths: an infected subject leaves the game's holdings."""
    del s.subjects[p][key]
    s.subj_discard.append(key)
    out.append(Event(f"Wave of deaths: {name(s, p)} loses the infected {D.SUBJECTS[key].name}."))


def after_wave(s: PestisState, out: Out) -> None:
    """Next player to discard under Wave of deaths, or on to the next round."""
    s.wave_left.pop(0)
    if s.wave_left:
        s.dec_seat = s.wave_left[0]
        return
    if s.round == 1 and s.phase == "invest":
        begin_investments(s, out)  # the setup card
    else:
        new_round(s, out)


def new_round(s: PestisState, out: Out) -> None:
    """End of the Event stage: the First Player token passes left; a new round starts."""
    s.first = (s.first + 1) % s.n
    s.round += 1
    out.append(
        Event(
            f"Round {s.round} (Period {L.period_of(s.round)}): {name(s, s.first)} is First Player."
        )
    )
    begin_investments(s, out)


# =============================================================================================
# 3.1 Investments stage
# =============================================================================================
def can_take_turn(s: PestisState, p: int) -> bool:
    return bool(s.hand[p]) or law_option(s, p)


def next_investor(s: PestisState, start: int) -> int:
    for p in L.order_from(s, start):
        if can_take_turn(s, p):
            return p
    return -1


def begin_investments(s: PestisState, out: Out) -> None:
    s.phase = "invest"
    clear_pending(s)
    s.turn = next_investor(s, s.first)
    s.dec = "invest"
    s.dec_seat = s.turn


def clear_pending(s: PestisState) -> None:
    s.pend = ""
    s.pend_val = -1
    s.pend_area = -1
    s.pend_target = -1
    s.pend_from = -1


def end_turn(s: PestisState, out: Out) -> None:
    """The investing seat's turn is over: the next seat with something to invest goes on."""
    clear_pending(s)
    nxt = next_investor(s, (s.turn + 1) % s.n)
    if nxt < 0:
        begin_actions(s, out)
        return
    s.turn = nxt
    s.dec = "invest"
    s.dec_seat = nxt


def place_token(s: PestisState, p: int, value: int, area: int, reinf: int, out: Out) -> None:
    s.hand[p].remove(value)
    s.invest[area][p].append(value)
    s.reserve[p] -= reinf
    s.reinf[area][p] += reinf
    extra = f" reinforced by {plural(reinf, 'grave-digger')}" if reinf else ""
    an = area_name(area)
    out.append(
        Event(
            f"{name(s, p)} invests a {value}-point token in {an}{extra}.",
            seat=p,
            public=f"{name(s, p)} invests a token in {an}{extra}.",
        )
    )
    end_turn(s, out)


def place_gd_token(s: PestisState, p: int, area: int, out: Out) -> None:
    s.reserve[p] -= 1
    s.gdtok[area][p] += 1
    s.gd_used[p] = True
    out.append(
        Event(
            f"{name(s, p)} invests a grave-digger as a 1-point token in "
            f"{area_name(area)} (agrarian law)."
        )
    )
    end_turn(s, out)


def play_resource(s: PestisState, p: int, key: str, out: Out) -> None:
    """The card leaves the hand and lies face up before its owner (1 wealth point)."""
    s.res_hand[p].remove(key)
    s.res_played[p].append(key)
    forget_card(s, p, key)


def forget_card(s: PestisState, p: int, key: str) -> None:
    """A card left `p`'s hand face up: it is no longer a publicly known card in that hand."""
    if key in s.res_known[p]:
        s.res_known[p].remove(key)


def heal(s: PestisState, p: int, key: str) -> None:
    """Flip a subject to healed: its token joins the owner's tokens in hand."""
    s.subjects[p][key] = True
    s.hand[p].append(D.SUBJECTS[key].token)
    s.hand[p].sort(reverse=True)


def relapse(s: PestisState, p: int, key: str) -> None:
    """Flip a subject back to infected: its token (in hand during upkeep) is lost."""
    s.subjects[p][key] = False
    s.hand[p].remove(D.SUBJECTS[key].token)


def resolve_simple_resource(s: PestisState, p: int, key: str, out: Out) -> None:
    """Cards without a target: apply and end the turn."""
    play_resource(s, p, key, out)
    nm = name(s, p)
    if key == "credit":
        L.gain(s, p, D.CREDIT_COINS)
        out.append(Event(f"{nm} plays Letter of credit: +{D.CREDIT_COINS} coins."))
    elif key == "cart":
        got = L.hire(s, p, D.CART_GRAVE_DIGGERS)
        out.append(Event(f"{nm} plays Cart of the dead: +{plural(got, 'grave-digger')}."))
    elif key == "relic":
        s.relic[p] = True
        out.append(
            Event(f"{nm} plays Holy relic: one infected subject heals for free in this Upkeep.")
        )
    elif key == "remedy":
        s.remedy[p] = True
        out.append(Event(f"{nm} plays Herbal remedy: no upkeep for their subjects this round."))
    end_turn(s, out)


def resolve_area_resource(s: PestisState, p: int, key: str, area: int, out: Out) -> None:
    """Leeches, Quarantine, Informer, Plague spreader (with its target) and Forged seal."""
    play_resource(s, p, key, out)
    nm, an = name(s, p), area_name(area)
    if key == "leeches":
        s.leeches[area][p] += D.LEECHES_BONUS
        out.append(Event(f"{nm} plays Leeches on {an}: +{D.LEECHES_BONUS} there this round."))
    elif key == "quarantine":
        s.quarantined[area] = True
        out.append(Event(f"{nm} plays Quarantine: no more reinforcements in {an} this round."))
    elif key == "spreader":
        q = s.pend_target
        s.blocked[q].append(area)
        out.append(
            Event(
                f"{nm} plays Plague spreader for hire: {name(s, q)} may not invest "
                f"in {an} this round."
            )
        )
    elif key == "informer":
        seen = []
        for q in range(s.n):
            if q != p and s.invest[area][q]:
                vals = sorted(s.invest[area][q], reverse=True)
                s.informed[p].append([area, q, vals])
                seen.append(f"{name(s, q)} {'+'.join(map(str, vals))}")
        text = "; ".join(seen) if seen else "no face-down tokens of others"
        out.append(
            Event(
                f"{nm}'s informer sees in {an}: {text}.",
                seat=p,
                public=f"{nm} plays Informer and looks at the tokens in {an}.",
                reveal=True,
            )
        )
    elif key == "seal":
        src, value = s.pend_from, s.pend_val
        s.invest[src][p].remove(value)
        s.invest[area][p].append(value)
        # Sightings of p's tokens there are stale now (nobody saw which token moved).
        for q in range(s.n):
            s.informed[q] = [x for x in s.informed[q] if not (x[0] == src and x[1] == p)]
        out.append(
            Event(
                f"{nm} plays Forged seal: moves the {value}-point token from "
                f"{area_name(src)} to {an}.",
                seat=p,
                public=f"{nm} plays Forged seal: moves a token from {area_name(src)} to {an}.",
            )
        )
    end_turn(s, out)


def play_theriac(s: PestisState, p: int, key: str, out: Out) -> None:
    play_resource(s, p, "theriac", out)
    heal(s, p, key)
    sub = D.SUBJECTS[key]
    out.append(
        Event(f"{name(s, p)} plays Theriac: the {sub.name} is healed (+{sub.token}-point token).")
    )
    end_turn(s, out)


# =============================================================================================
# 3.2 Action stage
# =============================================================================================
def begin_actions(s: PestisState, out: Out) -> None:
    s.phase = "action"
    s.area = 0
    out.append(Event("Action stage: the areas are activated from Schola Medica to Suburbium."))
    run_areas(s, out)


def participants(s: PestisState, a: int) -> list[int]:
    return [p for p in range(s.n) if L.has_tokens(s, a, p) or L.base_points(s, p, a) > 0]


def run_areas(s: PestisState, out: Out) -> None:
    """Activate areas in order until an active player or a loser has to decide."""
    while s.area < len(D.AREAS):
        a = s.area
        if L.closed(s, a):
            out.append(Event(f"{area_name(a)} is closed this round ({D.EVENTS[s.event].name})."))
            cleanup_area(s, a)
            next_area(s)
            continue
        who = participants(s, a)
        if not who:
            # Reinforcements left alone by a Forged seal still go back to the docks.
            cleanup_area(s, a)
            next_area(s)
            continue
        activate(s, a, who, out)
        if s.active >= 0 and begin_action(s, out):
            return
        if start_conversions(s, out):
            return
        cleanup_area(s, a)
        next_area(s)
    begin_upkeep(s, out)


def next_area(s: PestisState) -> None:
    s.area += 1
    s.active = -1
    s.acts = []


def activate(s: PestisState, a: int, who: list[int], out: Out) -> None:
    """Reveal the tokens of area `a` and find its active player."""
    s.revealed[a] = True
    totals = [L.total(s, a, p) for p in range(s.n)]
    parts = []
    for p in L.order_from(s, s.first):
        if p not in who:
            continue
        bits = []
        if s.invest[a][p]:
            bits.append("+".join(str(v) for v in sorted(s.invest[a][p], reverse=True)))
        if s.gdtok[a][p]:
            bits.append(f"{s.gdtok[a][p]} law grave-digger")
        if s.reinf[a][p]:
            bits.append(f"{plural(s.reinf[a][p], 'reinforcement')}")
        base = L.base_points(s, p, a)
        if base:
            bits.append(f"base {base}")
        if L.has_tokens(s, a, p):
            bonus = L.bonus_points(s, p, a)
            if bonus:
                bits.append(f"bonus {bonus}")
        parts.append(f"{name(s, p)} {', '.join(bits)} = {totals[p]}")
    best = max(totals[p] for p in who)
    s.active = -1
    why = ""
    if best >= 1:
        tied = [p for p in L.order_from(s, s.first) if p in who and totals[p] == best]
        s.active, why = L.tie_winner(s, tied)
        if len(tied) == 1:
            why = ""
    s.results[a] = {
        "tokens": [sorted(s.invest[a][p], reverse=True) for p in range(s.n)],
        "reinf": list(s.reinf[a]),
        "gdtok": [s.gdtok[a][p] for p in range(s.n)],
        "totals": totals,
        "who": who,
        "active": s.active,
    }
    line = f"{area_name(a)} revealed: " + "; ".join(parts) + "."
    if s.active >= 0:
        line += f" {name(s, s.active)} is active" + (f" (tie: {why})" if why else "") + "."
    else:
        line += " Nobody reaches 1 point: nobody acts and nobody converts."
    out.append(Event(line, reveal=True))


def begin_action(s: PestisState, out: Out) -> bool:
    """Set up the active player's decision; False when they have nothing they could do."""
    a, p = s.area, s.active
    s.acts = []
    s.buys = 0
    s.victim = -1
    s.budget = L.total(s, a, p)
    kind = D.AREAS[a]
    if kind == "suburbium":
        return begin_robbery(s, out)
    s.dec = kind
    s.dec_seat = p
    if action_possible(s):
        return True
    out.append(Event(f"{name(s, p)} wins {area_name(a)} but cannot do anything there."))
    return False


def action_possible(s: PestisState) -> bool:
    """Whether the pending action decision has a real option besides passing."""
    return any(m.id not in ("pass", "done") for m in action_moves(s))


def finish_action(s: PestisState, out: Out) -> None:
    """The active player is done: conversions, then the next area."""
    if start_conversions(s, out):
        return
    cleanup_area(s, s.area)
    next_area(s)
    run_areas(s, out)


def start_conversions(s: PestisState, out: Out) -> bool:
    """Queue the losers' tokens; True when a loser has to choose.

    A loser's reinforcements are unused points too: each converts into 1 coin at once (the
    seed's Burgus example: tokens 1 + 3 and a reinforcement give 5 coins), while the
    grave-digger itself goes back to the docks in the clean-up.
    """
    a = s.area
    s.conv = []
    if s.active >= 0:
        for p in L.order_from(s, s.first):
            if p == s.active:
                continue
            r = s.reinf[a][p]
            if r and L.has_tokens(s, a, p):
                L.gain(s, p, r * D.REINFORCEMENT_COINS)
                out.append(
                    Event(
                        f"{name(s, p)} converts {plural(r, 'unused reinforcement point')} into "
                        f"{plural(r * D.REINFORCEMENT_COINS, 'coin')}; the "
                        f"{'grave-digger goes' if r == 1 else 'grave-diggers go'} back to the "
                        "docks."
                    )
                )
            for v in sorted(s.invest[a][p], reverse=True):
                s.conv.append([p, v, 0])
            for _ in range(s.gdtok[a][p]):
                s.conv.append([p, 1, 1])
    return next_conversion(s, out)


def next_conversion(s: PestisState, out: Out) -> bool:
    """Convert automatically while there is one outcome; True when a loser must choose."""
    while s.conv:
        p, v, _g = s.conv[0]
        coins = L.convert_coins(s, p, v)
        gds = L.convert_gd(s, p)
        if coins is not None and gds:
            s.dec = "convert"
            s.dec_seat = p
            return True
        s.conv.pop(0)
        if coins is not None:
            convert_to_coins(s, p, v, coins, out)
        elif gds:
            convert_to_gd(s, p, v, gds, out)
        else:
            out.append(
                Event(
                    f"{name(s, p)}'s unused {v}-point token brings nothing: no "
                    f"grave-digger of their colour left at the docks."
                )
            )
    return False


def convert_to_coins(s: PestisState, p: int, v: int, coins: int, out: Out) -> None:
    L.gain(s, p, coins)
    out.append(
        Event(f"{name(s, p)} converts an unused {v}-point token into {plural(coins, 'coin')}.")
    )


def convert_to_gd(s: PestisState, p: int, v: int, gds: int, out: Out) -> None:
    got = L.hire(s, p, gds)
    out.append(
        Event(
            f"{name(s, p)} converts an unused {v}-point token into {plural(got, 'grave-digger')}."
        )
    )


def after_conversion(s: PestisState, out: Out) -> None:
    if next_conversion(s, out):
        return
    cleanup_area(s, s.area)
    next_area(s)
    run_areas(s, out)


def cleanup_area(s: PestisState, a: int) -> None:
    """Tokens go back to their owners, reinforcements to the docks, law tokens to reserves."""
    for p in range(s.n):
        toks = s.invest[a][p]
        if toks:
            s.hand[p].extend(toks)
            s.hand[p].sort(reverse=True)
            s.returned[p].extend(toks)
            s.invest[a][p] = []
        if s.reinf[a][p]:
            s.docks[p] += s.reinf[a][p]
            s.reinf[a][p] = 0
        if s.gdtok[a][p]:
            s.reserve[p] += s.gdtok[a][p]
            s.gdtok[a][p] = 0


# ---- the area actions ------------------------------------------------------------------------
def buy_resource(s: PestisState, p: int, area: int, out: Out) -> None:
    price = L.resource_price(s, p, area)
    L.pay(s, p, price)
    card = s.res_deck.pop()
    s.res_hand[p].append(card)
    s.res_known[p].append(card)  # it was the face-up top card: everybody saw it
    out.append(
        Event(
            f"{name(s, p)} buys {D.RESOURCES[card].name} for {plural(price, 'coin')} "
            f"in {area_name(area)}."
        )
    )
    L.refill_resources(s)
    show_top(s, out)


def show_top(s: PestisState, out: Out) -> None:
    if s.res_deck:
        out.append(
            Event(f"New top resource card: {D.RESOURCES[s.res_deck[-1]].name}.", reveal=True)
        )
    else:
        out.append(Event("The resource deck is empty."))


def discard_resource(s: PestisState, p: int, key: str, out: Out) -> None:
    """A resource card spent (healing, building, selling) goes to the face-up discards."""
    s.res_hand[p].remove(key)
    s.res_discard.append(key)
    forget_card(s, p, key)
    if L.refill_resources(s):
        show_top(s, out)


def build(s: PestisState, p: int, dev: str, pay: str, out: Out) -> None:
    """A development: 1 grave-digger onto it, plus a resource card or grave-diggers to the docks."""
    s.reserve[p] -= 1
    s.devs[p].append(dev)
    if pay == "gd":
        k = L.dev_gd_cost(s, p)
        s.reserve[p] -= k
        s.docks[p] += k
        how = f"{plural(k, 'grave-digger')} to the docks"
    else:
        discard_resource(s, p, pay, out)
        how = f"discarding {D.RESOURCES[pay].name}"
    dn = D.DEV_NAMES[dev]
    art = "an" if dn[0] in "AEIOU" else "a"
    out.append(Event(f"{name(s, p)} builds {art} {dn} ({how}).", reveal=pay != "gd"))


def send_to_agrus(s: PestisState, p: int, out: Out) -> None:
    s.reserve[p] -= 1
    s.agrus[p] += 1
    out.append(Event(f"{name(s, p)} sends a grave-digger to work in Agrus ({s.agrus[p]} there)."))


def take_subject(s: PestisState, p: int, key: str, out: Out) -> None:
    cost = L.subject_cost(s, p, key)
    s.burgus.remove(key)
    s.subjects[p][key] = False
    s.budget -= cost
    out.append(
        Event(
            f"{name(s, p)} takes the {D.SUBJECTS[key].name} (infected) for "
            f"{plural(cost, 'point')}; {plural(s.budget, 'point')} left."
        )
    )


def sell_resource(s: PestisState, p: int, key: str, out: Out) -> None:
    L.gain(s, p, D.LAST_MARKET_SELL)
    out.append(
        Event(
            f"{name(s, p)} sells {D.RESOURCES[key].name} for "
            f"{D.LAST_MARKET_SELL} coins (Last market)."
        )
    )
    discard_resource(s, p, key, out)


def begin_robbery(s: PestisState, out: Out) -> bool:
    """Suburbium: find the victim (least invested; the active player breaks ties)."""
    a, p = s.area, s.active
    cands = [q for q in range(s.n) if q != p and not L.healed(s, q, "guard")]
    if not cands:
        out.append(Event(f"{name(s, p)} wins Suburbium but nobody can be robbed."))
        return False
    low = min(L.total(s, a, q) for q in cands)
    victims = [q for q in L.order_from(s, s.first) if q in cands and L.total(s, a, q) == low]
    if len(victims) > 1:
        s.dec = "victim"
        s.dec_seat = p
        s.acts = []
        return True
    return set_victim(s, victims[0], out)


def set_victim(s: PestisState, q: int, out: Out) -> bool:
    s.victim = q
    s.dec = "rob"
    s.dec_seat = s.active
    out.append(
        Event(
            f"{name(s, s.active)} robs {name(s, q)} (least invested in Suburbium) "
            f"with {plural(s.budget, 'point')}."
        )
    )
    if action_possible(s):
        return True
    out.append(Event(f"{name(s, q)} has nothing {name(s, s.active)} can take."))
    return False


def steal(s: PestisState, what: str, arg: int, out: Out) -> None:
    p, q = s.active, s.victim
    if what == "gd":
        s.reserve[q] -= 1
        s.docks[q] += 1
        L.hire(s, p, 1)
        s.budget -= D.ROB_GRAVE_DIGGER
        out.append(Event(f"{name(s, p)} robs a grave-digger from {name(s, q)}."))
    elif what == "res":
        i = chance.draw_index(s, len(s.res_hand[q]))
        card = s.res_hand[q].pop(i)
        s.res_hand[p].append(card)
        s.res_known[q] = []  # the others do not know which card went
        s.budget -= D.ROB_RESOURCE
        rn = D.RESOURCES[card].name
        public = f"{name(s, p)} robs a resource card from {name(s, q)}."
        text = f"{name(s, p)} robs {rn} from {name(s, q)}."
        out.append(Event(text, seat=p, public=public, reveal=True))
        out.append(Event(f"{name(s, q)} loses {rn}.", seat=q, reveal=True))
    else:
        L.transfer(s, q, p, arg)
        s.budget -= arg * D.ROB_COIN
        out.append(Event(f"{name(s, p)} robs {plural(arg, 'coin')} from {name(s, q)}."))


# =============================================================================================
# 3.3 Upkeep stage
# =============================================================================================
def begin_upkeep(s: PestisState, out: Out) -> None:
    s.phase = "upkeep"
    s.dec = ""
    s.subj_discard.extend(s.burgus)
    s.burgus = []
    for _ in range(D.BURGUS_SUBJECTS):
        c = L.draw_subject(s)
        if c:
            s.burgus.append(c)
    out.append(
        Event(
            "Upkeep: Burgus now shows "
            + (", ".join(D.SUBJECTS[k].name for k in s.burgus) or "no subjects")
            + ".",
            reveal=True,
        )
    )
    s.up_count = 0
    s.up_seat = s.first
    upkeep_begin(s, out)


def upkeep_begin(s: PestisState, out: Out) -> None:
    """Income for the seat whose upkeep it is, then its healing decision (if any)."""
    p = s.up_seat
    income(s, p, out)
    s.heal_used = []
    s.paid = []
    s.acts = []
    s.dec = "heal"
    s.dec_seat = p
    if not action_possible(s):
        upkeep_pay(s, out)


def income(s: PestisState, p: int, out: Out) -> None:
    e = L.ev(s, p)
    parts = []
    got = 0
    if s.agrus[p]:
        rate = D.AGRUS_RATE.get(e, D.AGRUS_INCOME)
        got += s.agrus[p] * rate
        parts.append(f"Agrus {s.agrus[p]}×{rate}")
        if L.healed(s, p, "farmer"):
            got += D.FARMER_BONUS
            parts.append(f"Farmer {D.FARMER_BONUS}")
    if L.healed(s, p, "changer"):
        c = min(D.MONEY_CHANGER_MAX, (s.coins[p] + got) // D.MONEY_CHANGER_PER)
        if c:
            got += c
            parts.append(f"Money changer {c}")
    if e == "thanksgiving":
        k = D.THANKS_COINS * sum(1 for h in s.subjects[p].values() if h)
        if k:
            got += k
            parts.append(f"Thanksgiving {k}")
    if got:
        L.gain(s, p, got)
        out.append(Event(f"{name(s, p)} earns {plural(got, 'coin')} ({', '.join(parts)})."))
    if e == "tax":
        t = s.coins[p] // D.TAX_PER
        if t:
            L.pay(s, p, t)
            out.append(Event(f"Tax collector: {name(s, p)} pays {plural(t, 'coin')}."))


def heal_in_upkeep(s: PestisState, p: int, key: str, how: str, out: Out) -> None:
    sub = D.SUBJECTS[key]
    if how == "lazaretum" or how == "apothecary":
        L.pay(s, p, D.HEAL_COINS_CHEAP)
        s.heal_used.append(how)
        paid = f"{D.HEAL_COINS_CHEAP} coins ({'Lazaretum' if how == 'lazaretum' else 'Apothecary'})"
        reveal = False
    elif how == "relic":
        s.heal_used.append(how)
        paid = "Holy relic"
        reveal = False
    elif how == "guild":
        L.pay(s, p, D.HEAL_COINS_GUILD)
        paid = f"{D.HEAL_COINS_GUILD} coins (Doctors' guild)"
        reveal = False
    else:
        discard_resource(s, p, how, out)
        paid = f"discarding {D.RESOURCES[how].name}"
        reveal = True
    heal(s, p, key)
    s.acts.append(key)
    out.append(
        Event(
            f"{name(s, p)} heals the {sub.name} ({paid}): +{sub.token}-point token.", reveal=reveal
        )
    )


def upkeep_pay(s: PestisState, out: Out) -> None:
    """Pay the upkeep of healed subjects; when short, the seat chooses whom to keep."""
    p = s.up_seat
    todo = [k for k, h in s.subjects[p].items() if h and k not in s.paid]
    if s.remedy[p] and todo:
        out.append(Event(f"Herbal remedy: {name(s, p)}'s subjects pay no upkeep."))
        todo = []
    # Free subjects first, then everything at once when affordable.
    costs = {k: L.upkeep_cost(s, p, k) for k in todo}
    need = sum(costs.values())
    if need <= s.coins[p]:
        if need:
            L.pay(s, p, need)
            out.append(Event(f"{name(s, p)} pays {plural(need, 'coin')} of upkeep."))
        s.paid.extend(todo)
        upkeep_next(s, out)
        return
    for k in todo:
        if costs[k] == 0:
            s.paid.append(k)
    affordable = [k for k in todo if 0 < costs[k] <= s.coins[p]]
    if affordable:
        s.dec = "keep"
        s.dec_seat = p
        return
    for k in todo:
        if k not in s.paid:
            relapse(s, p, k)
            out.append(
                Event(
                    f"{name(s, p)} cannot pay the upkeep of the {D.SUBJECTS[k].name}: "
                    f"it falls ill again (−{D.SUBJECTS[k].token}-point token)."
                )
            )
    upkeep_next(s, out)


def keep_subject(s: PestisState, p: int, key: str, out: Out) -> None:
    c = L.upkeep_cost(s, p, key)
    L.pay(s, p, c)
    s.paid.append(key)
    out.append(
        Event(f"{name(s, p)} pays {plural(c, 'coin')} of upkeep for the {D.SUBJECTS[key].name}.")
    )
    upkeep_pay(s, out)


def upkeep_next(s: PestisState, out: Out) -> None:
    s.up_count += 1
    if s.up_count >= s.n:
        event_stage(s, out)
        return
    s.up_seat = (s.up_seat + 1) % s.n
    upkeep_begin(s, out)


# =============================================================================================
# 3.4 Event stage
# =============================================================================================
def event_stage(s: PestisState, out: Out) -> None:
    if s.round >= D.ROUNDS:
        s.phase = "over"
        s.dec = ""
        out.append(Event("The last round is over: end of the game."))
        return
    s.phase = "event"
    s.dec = ""
    reset_round(s)
    reveal_event(s, out)
    if s.dec == "wave":
        return
    new_round(s, out)
