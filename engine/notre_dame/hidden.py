"""Hidden information in Notre Dame: the cards a seat has not seen and the order of the person
decks, resampled for the computer players' sampled worlds (`Game.determinize`)."""

from __future__ import annotations

import random

from ..core.protocol import Game
from . import data
from .state import NotreDameState

_CPC = data.CARDS_PER_COLOUR


def determinize(
    game: Game[NotreDameState], s: NotreDameState, seat: int, rng: random.Random
) -> NotreDameState:
    """A clone whose cards unseen by `seat` (and the person decks) are resampled with `rng`.

    Card backs show their owner, so unseen cards are pooled per owner. What `seat` passed is
    kept consistent: the card passed on in the second draft step stays where it is; the two
    passed in the first step are only swapped between the places they can be.
    """
    new = game.clone(s)
    fixed = set(s.passed2[seat])
    pair = set(s.passed1[seat])
    groups: dict[tuple[str, int], list[tuple[list[int], int]]] = {}

    def put(key: tuple[str, int], cont: list[int], i: int) -> None:
        groups.setdefault(key, []).append((cont, i))

    for o in range(new.n):
        conts = [new.incoming[o]]
        if o != seat:
            conts += [new.drawn[o], new.hands[o], new.thirds[o]]
        for cont in conts:  # where in a hidden stack a card lies tells nothing: by back colour
            cont.sort(key=lambda c: (c // _CPC, c in pair, c in fixed))
        for cont in conts:
            for i, c in enumerate(cont):
                if c in fixed:
                    continue
                put(("pair", 0) if c in pair else ("owner", c // _CPC), cont, i)
        deck_key = ("deck", seat) if o == seat else ("owner", o)
        for i in range(len(new.decks[o])):
            put(deck_key, new.decks[o], i)
    moved: dict[int, int] = {}  # card -> the card dealt to its place
    for key in sorted(groups):
        places = groups[key]
        codes = sorted(cont[i] for cont, i in places)
        rng.shuffle(codes)
        for (cont, i), c in zip(places, codes, strict=True):
            moved[cont[i]] = c
            cont[i] = c
    # what the others passed is the cards now where theirs went (else the world would tell
    # what they really passed)
    for o in range(new.n):
        if o != seat:
            new.passed1[o] = sorted(moved.get(c, c) for c in new.passed1[o])
            new.passed2[o] = sorted(moved.get(c, c) for c in new.passed2[o])
    brown = sorted(new.brown_deck)
    rng.shuffle(brown)
    new.brown_deck = brown
    for letter in data.PERIOD_LETTERS:
        idx = [i for i, k in enumerate(new.gray_deck) if data.PERSON_BY_KEY[k].deck == letter]
        keys = sorted(new.gray_deck[i] for i in idx)
        rng.shuffle(keys)
        for i, k in zip(idx, keys, strict=True):
            new.gray_deck[i] = k
    new.seed = rng.randrange(2**31)
    return new


def twin(
    game: Game[NotreDameState], s: NotreDameState, seat: int, rng: random.Random
) -> NotreDameState | None:
    """A card of another seat's hand swapped with one of its face-down deck (card backs show
    their owner: only a card of that seat's own colour, one `seat` has not been passed), and
    the brown deck reversed; None when no hand allows it."""
    t = game.clone(s)
    known = set(s.passed1[seat]) | set(s.passed2[seat])
    for o in rng.sample(range(t.n), t.n):
        if o == seat:
            continue
        hand = [i for i, c in enumerate(t.hands[o]) if c not in known and c // 9 == o]
        if hand and t.decks[o]:
            i, j = rng.choice(hand), rng.randrange(len(t.decks[o]))
            t.hands[o][i], t.decks[o][j] = t.decks[o][j], t.hands[o][i]
            t.brown_deck.reverse()
            return t
    return None
