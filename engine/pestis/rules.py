"""The Game object of 1347: setup, the flow of a round (Investments, Actions, Upkeep, Event),
prompt and play through the decision table, and the result.

Each flow function mutates the state, appends log events, and runs on until a seat has to
decide (it then leaves a decision in `s.pending`) or the game is over. A play hands back to
them through an automatic kind in `pending` (`HAND_BACKS`), which the core's driver runs.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from boardgames_tui.engine.core import chance
from boardgames_tui.engine.core.decisions import DecisionTable, Kind, automatic
from boardgames_tui.engine.core.flow import FlowGame
from boardgames_tui.engine.core.protocol import Event, Option, Result

from . import data, evaluation, hidden, invariants, logic, scoring, view
from .decisions import (
    CHOICES,
    Out,
    TheGame,
    convert_to_coins,
    convert_to_gd,
    decide,
    has_options,
    set_victim,
)
from .events import reveal_event
from .logic import area_name, law_option, name, plural
from .reference import rules_reference
from .state import INVEST_STEPS, PestisDecision, PestisState
from .title import TITLE
from .view import PestisView


class Pestis(FlowGame[PestisState, PestisDecision, PestisView]):
    """1347: De Nigrae Pestis Ludo — plague doctors invest influence in six town areas."""

    meta = TITLE
    summary = (
        "Plague doctors invest influence tokens face down in six town areas, win actions, "
        "gather and heal subjects over 9 rounds of plague."
    )
    options = (
        Option(
            "apothecary",
            "Apothecary",
            (
                (data.APOTHECARY_RULEBOOK, "from the next Upkeep (rulebook)"),
                (data.APOTHECARY_AT_ONCE, "in the same Upkeep (earlier)"),
            ),
            data.APOTHECARY_RULEBOOK,
            "A healed subject's ability is for the following rounds (rulebook): an Apothecary "
            "healed in an Upkeep first heals for coins in the next one.",
            legacy=data.APOTHECARY_AT_ONCE,
        ),
    )
    decisions: ClassVar[DecisionTable[TheGame, PestisState, PestisDecision]]

    # ---- lifecycle -------------------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> PestisState:
        self.check_players(len(names))
        opts = self.check_options(options)
        s = PestisState(names=list(names), seed=seed, options=opts, n=len(names))
        out: list[Event] = []
        setup(s, out)
        s.opening = [e.text for e in out]  # all public
        return s

    def result(self, state: PestisState) -> Result:
        return scoring.result(state)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return rules_reference(options)

    def view(self, state: PestisState, seat: int | None) -> PestisView:
        prompt = self.prompt(state)
        return view.view(state, seat, self.id, prompt.seat if prompt else None)

    # ---- computer players, tests, saves ----------------------------------------------------
    def determinize(self, state: PestisState, seat: int, rng: random.Random) -> PestisState:
        """Resample what `seat` cannot see: others' face-down tokens and hands, the decks."""
        s = self.clone(state)
        head = s.pending[0] if s.pending else None
        if head is not None and head.kind in INVEST_STEPS and head.seat != seat:
            clear_pending(s)  # another seat's half-made investment is hidden
        return hidden.determinize(s, seat, rng)

    def twin(self, state: PestisState, seat: int, rng: random.Random) -> PestisState | None:
        return hidden.twin(self, state, seat, rng)

    def evaluate(self, state: PestisState, seat: int) -> float:
        return evaluation.evaluate(state, seat)

    def invariants(self, state: PestisState) -> list[str]:
        return invariants.invariants(state)

    def digest_data(self, state: PestisState) -> object:
        """The state as layout 1 held it: `dec`, `dec_seat` and the `pend*` fields of the
        half-made investment instead of the pending decision."""
        out = dataclasses.asdict(state)
        del out["pending"]
        head = state.pending[0] if state.pending else None
        out["dec"] = state.dec
        # With nothing pending (the game is over) the last seat asked was the last in upkeep.
        out["dec_seat"] = state.up_seat if head is None else head.seat
        out["pend"] = "" if head is None else INVEST_STEPS.get(head.kind, "")
        for key, value in (
            ("pend_val", None if head is None else head.value),
            ("pend_area", None if head is None else head.area),
            ("pend_target", None if head is None else head.target),
            ("pend_from", None if head is None else head.source),
        ):
            out[key] = -1 if value is None else value
        # games from before the Apothecary option replay with its legacy value: digests kept
        if out["options"].get("apothecary") == data.APOTHECARY_AT_ONCE:
            del out["options"]["apothecary"]
        return out


# =============================================================================================
# Setup and rounds
# =============================================================================================
def setup(s: PestisState, out: Out) -> None:
    """Deal everything, reveal the first event and open the Investments stage of round 1."""
    n = s.n
    s.first = data.FIRST_PLAYER_SEAT % n
    s.coins = [data.START_COINS] * n  # bank_net counts what the bank pays out after this
    s.reserve = [data.START_GRAVE_DIGGERS] * n
    s.agrus = [0] * n
    s.docks = [data.GRAVE_DIGGERS_PER_COLOUR - data.START_GRAVE_DIGGERS] * n
    s.hand = [sorted(data.START_TOKENS, reverse=True) for _ in range(n)]
    s.subjects = [{} for _ in range(n)]
    s.devs = [[] for _ in range(n)]
    s.res_hand = [[] for _ in range(n)]
    s.res_played = [[] for _ in range(n)]
    s.res_known = [[] for _ in range(n)]
    s.invest = [[[] for _ in range(n)] for _ in data.AREAS]
    s.reinf = [[0] * n for _ in data.AREAS]
    s.gdtok = [[0] * n for _ in data.AREAS]
    s.revealed = [False] * len(data.AREAS)
    s.res_deck = list(data.RESOURCE_DECK)
    chance.shuffle(s, s.res_deck)
    s.subj_deck = list(data.SUBJECT_DECK)
    chance.shuffle(s, s.subj_deck)
    s.event_decks = []
    for cards in data.PERIOD_EVENTS:
        deck = list(cards)
        chance.shuffle(s, deck)
        s.event_decks.append(deck[: data.EVENTS_PER_PERIOD])
    reset_round(s)
    for _ in range(data.BURGUS_SUBJECTS):
        card = logic.draw_subject(s)
        if card:
            s.burgus.append(card)
    out.append(
        Event(
            f"Setup: First Player {name(s, s.first)}; each player has tokens 4-3-2-1-0, "
            f"{data.START_GRAVE_DIGGERS} grave-diggers and {data.START_COINS} coins."
        )
    )
    out.append(Event("Burgus: " + ", ".join(data.SUBJECTS[k].name for k in s.burgus), reveal=True))
    reveal_event(s, out)
    out.append(Event(f"Round 1 (Period I): {name(s, s.first)} is First Player."))
    if s.dec != "wave":
        begin_investments(s, out)


def reset_round(s: PestisState) -> None:
    """Clear the effects that last one round."""
    n = s.n
    s.blocked = [[] for _ in range(n)]
    s.quarantined = [False] * len(data.AREAS)
    s.leeches = [[0] * n for _ in data.AREAS]
    s.relic = [False] * n
    s.remedy = [False] * n
    s.informed = [[] for _ in range(n)]
    s.returned = [[] for _ in range(n)]
    s.gd_used = [False] * n
    s.gd_passed = [False] * n
    s.revealed = [False] * len(data.AREAS)
    s.results = [None] * len(data.AREAS)


def after_wave(s: PestisState, out: Out) -> None:
    """Next player to discard under Wave of deaths, or on to the next round."""
    s.wave_left.pop(0)
    if s.wave_left:
        decide(s, "wave", s.wave_left[0])
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
            f"Round {s.round} (Period {data.PERIOD_NUMERALS[logic.period_of(s.round) - 1]}): "
            f"{name(s, s.first)} is First Player."
        )
    )
    begin_investments(s, out)


# =============================================================================================
# 3.1 Investments stage
# =============================================================================================
def can_take_turn(s: PestisState, seat: int) -> bool:
    return bool(s.hand[seat]) or law_option(s, seat)


def next_investor(s: PestisState, start: int) -> int:
    for seat in logic.order_from(s, start):
        if can_take_turn(s, seat):
            return seat
    return -1


def begin_investments(s: PestisState, out: Out) -> None:
    s.phase = "invest"
    s.turn = next_investor(s, s.first)
    decide(s, "invest", s.turn)


def clear_pending(s: PestisState) -> None:
    """A half-made investment is taken back: the investing seat starts its turn afresh."""
    if s.pending and s.pending[0].kind in INVEST_STEPS:
        decide(s, "invest", s.pending[0].seat)


def end_turn(s: PestisState, out: Out) -> None:
    """The investing seat's turn is over: the next seat with something to invest goes on."""
    nxt = next_investor(s, (s.turn + 1) % s.n)
    if nxt < 0:
        s.pending = []
        begin_actions(s, out)
        return
    s.turn = nxt
    decide(s, "invest", nxt)


# =============================================================================================
# 3.2 Action stage
# =============================================================================================
def begin_actions(s: PestisState, out: Out) -> None:
    s.phase = "action"
    s.area = 0
    out.append(Event("Action stage: the areas are activated from Schola Medica to Suburbium."))
    run_areas(s, out)


def participants(s: PestisState, a: int) -> list[int]:
    return [
        seat
        for seat in range(s.n)
        if logic.has_tokens(s, a, seat) or logic.base_points(s, seat, a) > 0
    ]


def run_areas(s: PestisState, out: Out) -> None:
    """Activate areas in order until an active player or a loser has to decide."""
    while s.area < len(data.AREAS):
        a = s.area
        if logic.closed(s, a):
            out.append(Event(f"{area_name(a)} is closed this round ({data.EVENTS[s.event].name})."))
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
    totals = [logic.total(s, a, seat) for seat in range(s.n)]
    parts = [
        f"{name(s, seat)} {', '.join(_stack_words(s, a, seat))} = {totals[seat]}"
        for seat in logic.order_from(s, s.first)
        if seat in who
    ]
    best = max(totals[seat] for seat in who)
    s.active = -1
    why = ""
    if best >= 1:
        tied = [p for p in logic.order_from(s, s.first) if p in who and totals[p] == best]
        s.active, why = logic.tie_winner(s, tied)
        if len(tied) == 1:
            why = ""
    s.results[a] = {
        "tokens": [sorted(s.invest[a][seat], reverse=True) for seat in range(s.n)],
        "reinf": list(s.reinf[a]),
        "gdtok": [s.gdtok[a][seat] for seat in range(s.n)],
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


def _stack_words(s: PestisState, a: int, seat: int) -> list[str]:
    """What a revealed stack is made of, for the log."""
    bits = []
    if s.invest[a][seat]:
        bits.append("+".join(str(v) for v in sorted(s.invest[a][seat], reverse=True)))
    if s.gdtok[a][seat]:
        bits.append(f"{s.gdtok[a][seat]} law grave-digger")
    if s.reinf[a][seat]:
        bits.append(f"{plural(s.reinf[a][seat], 'reinforcement')}")
    base = logic.base_points(s, seat, a)
    if base:
        bits.append(f"base {base}")
    if logic.has_tokens(s, a, seat):
        bonus = logic.bonus_points(s, seat, a)
        if bonus:
            bits.append(f"bonus {bonus}")
    return bits


def begin_action(s: PestisState, out: Out) -> bool:
    """Set up the active player's decision; False when they have nothing they could do."""
    a, seat = s.area, s.active
    s.acts = []
    s.buys = 0
    s.victim = -1
    s.budget = logic.total(s, a, seat)
    kind = data.AREAS[a]
    if kind == "suburbium":
        return begin_robbery(s, out)
    decide(s, kind, seat)
    if has_options(s):
        return True
    out.append(Event(f"{name(s, seat)} wins {area_name(a)} but cannot do anything there."))
    return False


def begin_robbery(s: PestisState, out: Out) -> bool:
    """Suburbium: find the victim (least invested; the active player breaks ties)."""
    a, seat = s.area, s.active
    cands = [q for q in range(s.n) if q != seat and not logic.healed(s, q, "guard")]
    if not cands:
        out.append(Event(f"{name(s, seat)} wins Suburbium but nobody can be robbed."))
        return False
    low = min(logic.total(s, a, q) for q in cands)
    victims = [
        q for q in logic.order_from(s, s.first) if q in cands and logic.total(s, a, q) == low
    ]
    if len(victims) > 1:
        decide(s, "victim", seat)
        s.acts = []
        return True
    return set_victim(s, victims[0], out)


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
        for seat in logic.order_from(s, s.first):
            if seat == s.active:
                continue
            r = s.reinf[a][seat]
            if r and logic.has_tokens(s, a, seat):
                logic.gain(s, seat, r * data.REINFORCEMENT_COINS)
                out.append(
                    Event(
                        f"{name(s, seat)} converts {plural(r, 'unused reinforcement point')} "
                        f"into {plural(r * data.REINFORCEMENT_COINS, 'coin')}; the "
                        f"{'grave-digger goes' if r == 1 else 'grave-diggers go'} back to the "
                        "docks."
                    )
                )
            for v in sorted(s.invest[a][seat], reverse=True):
                s.conv.append([seat, v, 0])
            for _ in range(s.gdtok[a][seat]):
                s.conv.append([seat, 1, 1])
    return next_conversion(s, out)


def next_conversion(s: PestisState, out: Out) -> bool:
    """Convert automatically while there is one outcome; True when a loser must choose."""
    while s.conv:
        seat, v, _g = s.conv[0]
        coins = logic.convert_coins(s, seat, v)
        gds = logic.convert_gd(s, seat)
        if coins is not None and gds:
            decide(s, "convert", seat)
            return True
        s.conv.pop(0)
        if coins is not None:
            convert_to_coins(s, seat, v, coins, out)
        elif gds:
            convert_to_gd(s, seat, v, gds, out)
        else:
            out.append(
                Event(
                    f"{name(s, seat)}'s unused {v}-point token brings nothing: no "
                    f"grave-digger of their colour left at the docks."
                )
            )
    return False


def after_conversion(s: PestisState, out: Out) -> None:
    if next_conversion(s, out):
        return
    cleanup_area(s, s.area)
    next_area(s)
    run_areas(s, out)


def cleanup_area(s: PestisState, a: int) -> None:
    """Tokens go back to their owners, reinforcements to the docks, law tokens to reserves."""
    for seat in range(s.n):
        toks = s.invest[a][seat]
        if toks:
            s.hand[seat].extend(toks)
            s.hand[seat].sort(reverse=True)
            s.returned[seat].extend(toks)
            s.invest[a][seat] = []
        if s.reinf[a][seat]:
            s.docks[seat] += s.reinf[a][seat]
            s.reinf[a][seat] = 0
        if s.gdtok[a][seat]:
            s.reserve[seat] += s.gdtok[a][seat]
            s.gdtok[a][seat] = 0


# =============================================================================================
# 3.3 Upkeep stage
# =============================================================================================
def begin_upkeep(s: PestisState, out: Out) -> None:
    s.phase = "upkeep"
    s.pending = []
    s.subj_discard.extend(s.burgus)
    s.burgus = []
    for _ in range(data.BURGUS_SUBJECTS):
        c = logic.draw_subject(s)
        if c:
            s.burgus.append(c)
    out.append(
        Event(
            "Upkeep: Burgus now shows "
            + (", ".join(data.SUBJECTS[k].name for k in s.burgus) or "no subjects")
            + ".",
            reveal=True,
        )
    )
    s.up_count = 0
    s.up_seat = s.first
    upkeep_begin(s, out)


def upkeep_begin(s: PestisState, out: Out) -> None:
    """Income for the seat whose upkeep it is, then its healing decision (if any)."""
    seat = s.up_seat
    income(s, seat, out)
    s.heal_used = []
    s.paid = []
    s.acts = []
    decide(s, "heal", seat)
    if not has_options(s):
        upkeep_pay(s, out)


def income(s: PestisState, seat: int, out: Out) -> None:
    e = logic.ev(s, seat)
    parts = []
    got = 0
    if s.agrus[seat]:
        rate = data.AGRUS_RATE.get(e, data.AGRUS_INCOME)
        got += s.agrus[seat] * rate
        parts.append(f"Agrus {s.agrus[seat]}×{rate}")
        if logic.healed(s, seat, "farmer"):
            got += data.FARMER_BONUS
            parts.append(f"Farmer {data.FARMER_BONUS}")
    if logic.healed(s, seat, "changer"):
        c = min(data.MONEY_CHANGER_MAX, (s.coins[seat] + got) // data.MONEY_CHANGER_PER)
        if c:
            got += c
            parts.append(f"Money changer {c}")
    if e == "thanksgiving":
        k = data.THANKS_COINS * sum(1 for h in s.subjects[seat].values() if h)
        if k:
            got += k
            parts.append(f"Thanksgiving {k}")
    if got:
        logic.gain(s, seat, got)
        out.append(Event(f"{name(s, seat)} earns {plural(got, 'coin')} ({', '.join(parts)})."))
    if e == "tax":
        t = s.coins[seat] // data.TAX_PER
        if t:
            logic.pay(s, seat, t)
            out.append(Event(f"Tax collector: {name(s, seat)} pays {plural(t, 'coin')}."))


def relapse(s: PestisState, seat: int, key: str) -> None:
    """Flip a subject back to infected: its token (in hand during upkeep) is lost."""
    s.subjects[seat][key] = False
    s.hand[seat].remove(data.SUBJECTS[key].token)


def upkeep_pay(s: PestisState, out: Out) -> None:
    """Pay the upkeep of healed subjects; when short, the seat chooses whom to keep."""
    seat = s.up_seat
    todo = [k for k, h in s.subjects[seat].items() if h and k not in s.paid]
    if s.remedy[seat] and todo:
        out.append(Event(f"Herbal remedy: {name(s, seat)}'s subjects pay no upkeep."))
        todo = []
    # Free subjects first, then everything at once when affordable.
    costs = {k: logic.upkeep_cost(s, seat, k) for k in todo}
    need = sum(costs.values())
    if need <= s.coins[seat]:
        if need:
            logic.pay(s, seat, need)
            out.append(Event(f"{name(s, seat)} pays {plural(need, 'coin')} of upkeep."))
        s.paid.extend(todo)
        upkeep_next(s, out)
        return
    for k in todo:
        if costs[k] == 0:
            s.paid.append(k)
    if any(0 < costs[k] <= s.coins[seat] for k in todo):
        decide(s, "keep", seat)
        return
    for k in todo:
        if k not in s.paid:
            relapse(s, seat, k)
            out.append(
                Event(
                    f"{name(s, seat)} cannot pay the upkeep of the {data.SUBJECTS[k].name}: "
                    f"it falls ill again (−{data.SUBJECTS[k].token}-point token)."
                )
            )
    upkeep_next(s, out)


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
    s.pending = []
    if s.round >= data.ROUNDS:
        s.phase = "over"
        out.append(Event("The last round is over: end of the game."))
        return
    s.phase = "event"
    reset_round(s)
    reveal_event(s, out)
    if s.dec == "wave":
        return
    new_round(s, out)


# =============================================================================================
# The table: the choices (decisions.py) and the hand-backs, which the core's driver runs
# =============================================================================================
def _goes_on(
    step: Callable[[PestisState, Out], None],
) -> Kind[TheGame, PestisState, PestisDecision]:
    """An automatic kind: the flow of the round goes on with `step` (it decides who next)."""

    def run(game: TheGame, s: PestisState, d: PestisDecision, out: Out) -> None:
        s.pending.pop(0)
        step(s, out)

    return automatic(run)


DECISIONS: DecisionTable[TheGame, PestisState, PestisDecision] = DecisionTable(
    {
        **CHOICES,
        "end_turn": _goes_on(end_turn),
        "finish_action": _goes_on(finish_action),
        "after_conversion": _goes_on(after_conversion),
        "upkeep_pay": _goes_on(upkeep_pay),
        "after_wave": _goes_on(after_wave),
    }
)
Pestis.decisions = DECISIONS
GAME = Pestis()
