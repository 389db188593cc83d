"""The event cards of 1347: revealing the card of the round and its immediate effect
(Good harvest, Mass graves, Procession of thanks, Refugees, Wave of deaths)."""

from __future__ import annotations

from boardgames_tui.engine.core.protocol import Event

from . import data, logic
from .decisions import Out, decide, discard_subject
from .logic import name, plural
from .state import PestisState


def reveal_event(s: PestisState, out: Out) -> None:
    """Reveal the event card of the round to come and apply its immediate effect."""
    idx = logic.period_of(s.round + (1 if s.events_seen else 0)) - 1
    card = s.event_decks[idx].pop()
    s.event = card
    s.events_seen.append(card)
    e = data.EVENTS[card]
    out.append(Event(f"Event: {e.name} — {e.text}.", reveal=True))
    n = s.n
    if card == "harvest":
        for seat in range(n):
            logic.gain(s, seat, data.HARVEST_COINS)
        out.append(Event(f"Good harvest: every player takes {data.HARVEST_COINS} coins."))
    elif card == "mass_graves":
        for seat in logic.order_from(s, s.first):
            got = logic.hire(s, seat, data.MASS_GRAVES_GD)
            out.append(Event(f"Mass graves: {name(s, seat)} takes {plural(got, 'grave-digger')}."))
    elif card == "thanks":
        for seat in range(n):
            k = data.THANKS_COINS * sum(1 for h in s.subjects[seat].values() if h)
            if k:
                logic.gain(s, seat, k)
                out.append(
                    Event(f"Procession of thanks: {name(s, seat)} takes {plural(k, 'coin')}.")
                )
    elif card == "refugees":
        refugees(s, out)
    elif card == "wave":
        wave_of_deaths(s, out)


def refugees(s: PestisState, out: Out) -> None:
    """Refugees: more subjects in the Burgus."""
    drawn = []
    for _ in range(data.REFUGEES_EXTRA):
        c = logic.draw_subject(s)
        if c:
            s.burgus.append(c)
            drawn.append(data.SUBJECTS[c].name)
    if drawn:
        out.append(Event("Refugees: Burgus also shows " + ", ".join(drawn) + ".", reveal=True))


def wave_of_deaths(s: PestisState, out: Out) -> None:
    """Wave of deaths: a lone infected subject dies; the others choose which of theirs."""
    s.wave_left = []
    for seat in logic.order_from(s, s.first):
        infected = [k for k, h in s.subjects[seat].items() if not h]
        if len(infected) == 1:
            discard_subject(s, seat, infected[0], out)
        elif infected:
            s.wave_left.append(seat)
    if s.wave_left:
        decide(s, "wave", s.wave_left[0])
