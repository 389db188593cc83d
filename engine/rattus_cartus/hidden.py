"""Hidden information: what a seat cannot see, resampled (`determinize`) for the computer
players."""

from __future__ import annotations

from typing import Any

from ..core.protocol import Game
from .data import NUN_ROW_SIZE, rat_tokens
from .state import SPECIAL_FIELDS, RattusState

# One hidden card's place: (owner, 0 = hand / 1 = committed face down).
Slot = tuple[int, int]


def determinize(game: Game[RattusState], s: RattusState, seat: int, rng: Any) -> RattusState:
    """A copy whose hidden parts (for `seat`) are resampled with `rng`.

    Reads only what `seat` sees: its own hand, commits and rats, the Nun-row cards it looked
    at, the public counts (hand sizes, committed counts, supplies, rat tokens) and revealed
    cards. All unseen population cards and the others' unseen special cards are pooled,
    sorted, shuffled with `rng` and dealt back into slots of the public sizes.
    """
    new: RattusState = game.clone(s)
    me = new.players[seat]
    others = [i for i in range(len(new.players)) if i != seat]
    unseen = [pos for pos in range(NUN_ROW_SIZE) if pos not in me.seen]
    pop_pool = list(new.deck) + [new.nun_row[pos] for pos in unseen]
    specials: list[str] = []
    slots = _gather(new, others, pop_pool, specials)
    pop_pool.sort()
    specials.sort()
    rng.shuffle(pop_pool)
    rng.shuffle(specials)
    order = list(range(len(slots)))
    rng.shuffle(order)
    _deal(new, slots, order, pop_pool, specials)
    for pos in unseen:
        new.nun_row[pos] = pop_pool.pop()
    new.deck = pop_pool
    # Rat totals of the others: only the token count is visible; pick a total that makes
    # as many tokens.
    for o in others:
        tokens = len(rat_tokens(new.players[o].rats))
        candidates = [r for r in range(5 * tokens + 5) if len(rat_tokens(r)) == tokens]
        new.players[o].rats = candidates[rng.randrange(len(candidates))]
    new.seed = rng.randrange(2**31)
    return new


def _gather(
    new: RattusState, others: list[int], pop_pool: list[int], specials: list[str]
) -> list[Slot]:
    """Take the others' hands and unrevealed commits into the pools; their slots, in order."""
    slots: list[Slot] = []
    for o in others:
        p = new.players[o]
        pop_pool += p.pop
        specials += ["pass"] * p.passes + ["joker"] * p.jokers
        specials += ["sword"] * p.swords + ["flute"] * p.flutes
        slots += [(o, 0)] * p.hand_size()
        p.pop, p.passes, p.jokers, p.swords, p.flutes = [], 0, 0, 0, 0
    for o in others:
        p = new.players[o]
        if p.revealed:
            continue
        pop_pool += p.c_pop
        specials += ["joker"] * p.c_jokers + ["sword"] * p.c_swords + ["flute"] * p.c_flutes
        slots += [(o, 1)] * p.committed()
        p.c_pop, p.c_jokers, p.c_swords, p.c_flutes = [], 0, 0, 0
    return slots


def _deal(new: RattusState, slots: list[Slot], order: list[int], pop_pool: list[int],
          specials: list[str]) -> None:  # fmt: skip
    """Fill every slot: the special cards at shuffled slots, population cards in the rest."""
    # Passes can only be in hands: place them first, then the other special cards anywhere.
    passes = [x for x in specials if x == "pass"]
    rest = [x for x in specials if x != "pass"]
    filled: dict[int, str] = {}
    free = [j for j in order if slots[j][1] == 0]
    for token in passes:
        filled[free.pop()] = token
    remaining = [j for j in order if j not in filled]
    for token in rest:
        filled[remaining.pop()] = token
    for j, (o, where) in enumerate(slots):
        p = new.players[o]
        item = filled.get(j)
        if item is None:
            card = pop_pool.pop()
            (p.pop if where == 0 else p.c_pop).append(card)
        elif where == 0:
            fld = SPECIAL_FIELDS[item]
            setattr(p, fld, getattr(p, fld) + 1)
        else:
            p.commit(item)


def twin(game: Game[RattusState], s: RattusState, seat: int, rng: Any) -> RattusState | None:
    """A card of another player's hand swapped with a deck card, and the deck reversed; None
    when no other hand allows it."""
    t = game.clone(s)
    for o in rng.sample(range(len(t.players)), len(t.players)):
        p = t.players[o]
        if o != seat and p.pop and t.deck:
            i, j = rng.randrange(len(p.pop)), rng.randrange(len(t.deck))
            p.pop[i], t.deck[j] = t.deck[j], p.pop[i]
            t.deck.reverse()
            return t
    return None
