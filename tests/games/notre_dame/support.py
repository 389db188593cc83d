"""Helpers for the Notre Dame tests: build scenario states and play moves from the prompt.

(No tests here.)
"""

from __future__ import annotations

from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.engine.notre_dame import GAME
from boardgames_tui.engine.notre_dame import data as D
from boardgames_tui.engine.notre_dame.rules import queue_turn
from boardgames_tui.engine.notre_dame.state import ACTIONS, HIRE, NotreDameState

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


def new(n: int = 3, rules: str = "seed", scores: str = "open", seed: int = 1) -> NotreDameState:
    """A fresh game after setup (round 1, draft)."""
    return GAME.new_state(list(NAMES[:n]), {"rules": rules, "scores": scores}, seed)


def code(seat: int, key: str) -> int:
    """The card of `seat`'s colour with action `key`."""
    return seat * D.CARDS_PER_COLOUR + D.CARDS.index(key)


def to_actions(st: NotreDameState, hands: dict[int, list[str]] | None = None) -> NotreDameState:
    """Skip the draft: every seat holds the given own-colour cards (others: the drawn ones).

    Cards come out of the owner's deck, so card conservation still holds.
    """
    hands = hands or {}
    for s in range(st.n):
        st.decks[s].extend(st.drawn[s])
        st.drawn[s] = []
    for s in range(st.n):
        want = hands.get(s)
        if want is None:
            cards = [st.decks[s].pop() for _ in range(3)]
        else:
            cards = []
            for key in want:
                c = code(s, key)
                st.decks[s].remove(c)
                cards.append(c)
        st.hands[s] = cards
    st.phase = ACTIONS
    st.draft_step = 1
    st.pos = st.lap = st.step = 0
    st.pending = []
    queue_turn(st)  # the first seat's action
    return st


def begin_with(st: NotreDameState, start: int) -> NotreDameState:
    """The phase under way begins with the bell-ringer `start` (its first turn re-queued)."""
    st.start = start
    st.pending = []
    queue_turn(st)
    return st


def to_hire(st: NotreDameState, persons: list[str]) -> NotreDameState:
    """Skip to the hire phase with the given face-up persons (hands emptied into thirds)."""
    for s in range(st.n):
        st.decks[s].extend(st.drawn[s])
        st.drawn[s] = []
    # the persons come from their decks so the person cards stay consistent
    for key in st.persons:
        if key in D.BROWN:
            st.brown_deck.append(key)
        else:
            st.gray_deck.append(key)
    for key in persons:
        if key in st.brown_deck:
            st.brown_deck.remove(key)
        elif key in st.gray_deck:
            st.gray_deck.remove(key)
    st.persons = list(persons)
    st.phase = HIRE
    st.pos = st.lap = st.step = 0
    st.pending = []
    queue_turn(st)  # the first seat's hire
    return st


def play(st: NotreDameState, *move_ids: str) -> list[Event]:
    """Play moves by id (each must be legal at its prompt); returns all events."""
    events: list[Event] = []
    for mid in move_ids:
        prompt = GAME.prompt(st)
        assert prompt is not None, f"game over before {mid}"
        events += GAME.play(st, prompt.move(mid))
    return events


def ids(st: NotreDameState) -> list[str]:
    prompt = GAME.prompt(st)
    assert prompt is not None
    return prompt.ids()


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def place(st: NotreDameState, s: int, loc: int, k: int = 1) -> None:
    """Move `k` of `s`'s markers from the general supply to `loc` (a sector or Notre Dame)."""
    assert st.general[s] >= k
    st.general[s] -= k
    if loc == D.NOTRE_DAME:
        st.nd[s] += k
    else:
        st.sectors[s][loc] += k


def empty_supply(st: NotreDameState, s: int) -> None:
    """Return `s`'s personal supply to the general supply (markers stay conserved)."""
    st.general[s] += st.supply[s]
    st.supply[s] = 0
