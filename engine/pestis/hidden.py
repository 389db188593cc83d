"""Hidden information of 1347: resampling what a seat cannot see (for the computer players)."""

from __future__ import annotations

import random
from collections import Counter

from ..core.protocol import Game
from . import data
from .state import PestisState


def determinize(s: PestisState, seat: int, rng: random.Random) -> PestisState:
    """Resample, in the copy `s`, what `seat` cannot see: others' face-down tokens and hands,
    the decks. (The caller has taken back another seat's half-made investment.)"""
    for q in range(s.n):
        if q != seat:
            _resample_tokens(s, seat, q, rng)
    # Informer sightings of the others concern tokens `seat` may not know: use the
    # resampled values.
    for q in range(s.n):
        if q != seat:
            s.informed[q] = [
                [ar, owner, vals if owner in (seat, q) else sorted(s.invest[ar][owner])]
                for ar, owner, vals in s.informed[q]
            ]
    _resample_resources(s, seat, rng)
    # Subject deck order, and which event cards are still to come.
    s.subj_deck.sort()
    rng.shuffle(s.subj_deck)
    for i, deck in enumerate(s.event_decks):
        unseen = sorted(e for e in data.PERIOD_EVENTS[i] if e not in s.events_seen)
        rng.shuffle(unseen)
        s.event_decks[i] = unseen[: len(deck)]
    s.seed = rng.randrange(2**31)
    s.draws = 0
    return s


def _resample_tokens(s: PestisState, seat: int, q: int, rng: random.Random) -> None:
    """Deal `q`'s tokens `seat` does not know anew between `q`'s hand and face-down stacks."""
    # Tokens known: those back from revealed areas and those seen with an Informer.
    known = Counter(s.returned[q])
    seen_at: dict[int, Counter[int]] = {}
    for ar, owner, vals in s.informed[seat]:
        if owner == q and not s.revealed[ar]:
            seen_at.setdefault(ar, Counter()).update(vals)
    pool: list[int] = []
    hand_known: list[int] = []
    rest = Counter(s.hand[q])
    for v, c in known.items():
        k = min(c, rest[v])
        hand_known += [v] * k
        rest[v] -= k
    pool += list(rest.elements())
    hand_slots = len(s.hand[q]) - len(hand_known)
    area_slots: dict[int, tuple[list[int], int]] = {}
    for a in range(6):
        if s.revealed[a]:
            continue
        toks = Counter(s.invest[a][q])
        fixed: list[int] = []
        for v, c in seen_at.get(a, Counter()).items():
            k = min(c, toks[v])
            fixed += [v] * k
            toks[v] -= k
        pool += list(toks.elements())
        area_slots[a] = (fixed, len(s.invest[a][q]) - len(fixed))
    pool.sort()
    rng.shuffle(pool)
    hand = hand_known + pool[:hand_slots]
    pool = pool[hand_slots:]
    s.hand[q] = sorted(hand, reverse=True)
    for a, (fixed, k) in area_slots.items():
        s.invest[a][q] = fixed + pool[:k]
        pool = pool[k:]


def _resample_resources(s: PestisState, seat: int, rng: random.Random) -> None:
    """Others' unknown hand cards and the deck below the face-up top card."""
    pool: list[str] = []
    for q in range(s.n):
        if q != seat:
            unknown = list(s.res_hand[q])
            for card in s.res_known[q]:
                unknown.remove(card)
            pool += unknown
    pool += s.res_deck[:-1]
    pool.sort()
    rng.shuffle(pool)
    for q in range(s.n):
        if q != seat:
            k = len(s.res_hand[q]) - len(s.res_known[q])
            s.res_hand[q] = list(s.res_known[q]) + pool[:k]
            pool = pool[k:]
    if s.res_deck:
        s.res_deck = pool + s.res_deck[-1:]


def twin(
    game: Game[PestisState], s: PestisState, seat: int, rng: random.Random
) -> PestisState | None:
    """A token in another seat's hand swapped with one of its face-down investments (tokens
    back from a revealed area were seen: they stay), and the resource deck reordered; None
    when no other seat allows it."""
    t = game.clone(s)
    for q in rng.sample(range(t.n), t.n):
        if q == seat or not t.hand[q]:
            continue
        spots = [(a, i) for a in range(6) if not t.revealed[a] for i in range(len(t.invest[a][q]))]
        spots = [(a, i) for a, i in spots if t.invest[a][q][i] not in t.hand[q]]
        hand = [h for h, v in enumerate(t.hand[q]) if v not in t.returned[q]]
        if spots and hand:
            a, i = rng.choice(spots)
            h = rng.choice(hand)
            t.hand[q][h], t.invest[a][q][i] = t.invest[a][q][i], t.hand[q][h]
            t.hand[q].sort(reverse=True)
            if len(t.res_deck) > 2:
                t.res_deck[:-1] = t.res_deck[-2::-1]
            return t
    return None
