"""Helpers for the 1347 tests: build scenario states and play moves from the prompt.

(No tests here.) Every
helper keeps the game's conservation invariants: cards come out of their decks, coins are
booked against the bank, grave-diggers move from or to the docks of their colour.
"""

from __future__ import annotations

from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from boardgames_tui.engine.pestis import rules as F
from boardgames_tui.engine.pestis.state import PestisState

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
APPENDIX = ("Geoffrey", "Lothar", "Rolph", "Hugo")
A = {k: i for i, k in enumerate(D.AREAS)}  # area key -> index


def new(n: int = 4, event: str = "calm", seed: int = 1, names: tuple = NAMES) -> PestisState:
    """A fresh game in round 1, Investments, with `event` in force and 6 coins each."""
    s = GAME.new_state(list(names[:n]), {}, seed)
    s.opening = []  # the setup's log lines no longer describe the scenario built below
    calm_decks(s)
    set_event(s, event)
    for p in range(n):
        set_coins(s, p, D.START_COINS)
    s.bank_net = 0
    check(s)
    return s


def check(s: PestisState) -> None:
    bad = GAME.invariants(s)
    assert not bad, bad


def calm_decks(s: PestisState) -> None:
    """Replace events with an immediate effect in the mini-decks by unused quiet ones, so a
    scenario's next round starts without surprises (tests of those events set them)."""
    for i, deck in enumerate(s.event_decks):
        spare = [
            e
            for e in D.PERIOD_EVENTS[i]
            if e not in D.IMMEDIATE_EVENTS and e not in deck and e not in s.events_seen
        ]
        for j, e in enumerate(deck):
            if e in D.IMMEDIATE_EVENTS:
                deck[j] = spare.pop()


def set_event(s: PestisState, key: str) -> None:
    """Make `key` the event in force (swapping cards so that the decks stay consistent)."""
    old = s.events_seen[-1]
    if old == key:
        s.event = key
        return
    if key in s.events_seen:
        i = s.events_seen.index(key)
        s.events_seen[i] = old
    for deck in s.event_decks:
        if key in deck:
            deck[deck.index(key)] = old
    s.events_seen[-1] = key
    s.event = key


def set_round(s: PestisState, r: int, event: str | None = None) -> None:
    """Jump to round `r` (same stage), revealing event cards as the rounds would have."""
    while s.round < r:
        s.round += 1
        s.events_seen.append(s.event_decks[(s.round - 1) // 3].pop())
    s.event = s.events_seen[-1]
    if event:
        set_event(s, event)


def set_coins(s: PestisState, p: int, c: int) -> None:
    s.bank_net += c - s.coins[p]
    s.coins[p] = c


def set_reserve(s: PestisState, p: int, k: int) -> None:
    """Grave-diggers in `p`'s reserve, moved from or to the docks of its colour."""
    s.docks[p] -= k - s.reserve[p]
    s.reserve[p] = k
    assert s.docks[p] >= 0


def set_docks(s: PestisState, p: int, k: int) -> None:
    """Grave-diggers at `p`'s docks, moved from or to the reserve."""
    s.reserve[p] -= k - s.docks[p]
    s.docks[p] = k
    assert s.reserve[p] >= 0


def set_agrus(s: PestisState, p: int, k: int) -> None:
    """Grave-diggers of `p` in Agrus, taken from or returned to the docks."""
    s.docks[p] -= k - s.agrus[p]
    s.agrus[p] = k


def _take(cards: list[str], key: str) -> None:
    cards.remove(key)


def give_res(s: PestisState, p: int, *keys: str) -> None:
    """Resource cards into `p`'s hand, taken from the deck (below the top when possible)."""
    for key in keys:
        if key in s.res_deck[:-1]:
            i = s.res_deck[:-1].index(key)
            s.res_deck.pop(i)
        elif key in s.res_deck:
            s.res_deck.remove(key)
        else:
            s.res_discard.remove(key)
        s.res_hand[p].append(key)


def set_top(s: PestisState, key: str) -> None:
    """Put a `key` card on top of the resource deck."""
    if key in s.res_deck:
        s.res_deck.remove(key)
    else:
        s.res_discard.remove(key)
    s.res_deck.append(key)


def set_burgus(s: PestisState, *keys: str) -> None:
    """Lay out exactly these subjects in the Burgus (cards come from the deck)."""
    s.subj_deck.extend(s.burgus)
    s.burgus = []
    for key in keys:
        if key in s.subj_deck:
            s.subj_deck.remove(key)
        else:
            s.subj_discard.remove(key)
        s.burgus.append(key)


def give_subject(s: PestisState, p: int, key: str, healed: bool = False) -> None:
    """A subject card for `p` from the deck; healed ones bring their token."""
    if key in s.subj_deck:
        s.subj_deck.remove(key)
    elif key in s.burgus:
        s.burgus.remove(key)
    else:
        s.subj_discard.remove(key)
    s.subjects[p][key] = healed
    if healed:
        s.hand[p].append(D.SUBJECTS[key].token)
        s.hand[p].sort(reverse=True)


def add_dev(s: PestisState, p: int, dev: str) -> None:
    """A development of `p` (its grave-digger comes from the docks of `p`'s colour)."""
    s.docks[p] -= 1
    s.devs[p].append(dev)


def place(s: PestisState, p: int, area: str, *values: int, reinf: int = 0, gd: int = 0) -> None:
    """Invest tokens directly (scenario setup): values leave the hand, reinforcements the
    reserve; `gd` law grave-digger tokens leave the reserve too."""
    a = A[area]
    for v in values:
        s.hand[p].remove(v)
        s.invest[a][p].append(v)
    s.reserve[p] -= reinf + gd
    assert s.reserve[p] >= 0
    s.reinf[a][p] += reinf
    s.gdtok[a][p] += gd
    if gd:
        s.gd_used[p] = True


def hold(s: PestisState, p: int) -> None:
    """Invest `p`'s 1-point token in Suburbium: the robbery there is a decision that keeps
    the round from running on while a test looks at the earlier areas."""
    place(s, p, "suburbium", 1)


def to_actions(s: PestisState) -> list[Event]:
    """End the Investments stage here and start the Action stage (tokens left in hand stay)."""
    F.clear_pending(s)
    out: list[Event] = []
    F.begin_actions(s, out)
    check(s)
    return out


def tie_in_agrus(s: PestisState, value: int, *seats: int) -> list[Event]:
    """`seats` invest a `value`-point token each in Agrus (a tie there); the Action stage starts."""
    for p in seats:
        place(s, p, "agrus", value)
    return to_actions(s)


def to_upkeep(s: PestisState) -> list[Event]:
    """Skip the Action stage: nothing invested, straight into the Upkeep stage."""
    F.clear_pending(s)
    s.phase = "action"
    s.area = len(D.AREAS)
    out: list[Event] = []
    F.begin_upkeep(s, out)
    check(s)
    return out


def lose_agrus_to_seat_0(s: PestisState) -> list[Event]:
    """Seat 0 (a 4-point token) beats seat 1 (a 3) in Agrus and sends a grave-digger there;
    seat 1's token is next to convert."""
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", 3)
    to_actions(s)
    return play(s, "agrus")


def upkeep_with(key: str, *cards: str) -> PestisState:
    """A 2-player game in Upkeep where seat 0 has the infected `key` and the resource `cards`."""
    s = new(2)
    give_subject(s, 0, key)
    give_res(s, 0, *cards)
    to_upkeep(s)
    return s


def ids(s: PestisState) -> list[str]:
    p = GAME.prompt(s)
    return p.ids() if p else []


def play(s: PestisState, *move_ids: str) -> list[Event]:
    """Play moves taken from the prompt (each must be legal), checking invariants each time."""
    out: list[Event] = []
    for mid in move_ids:
        p = GAME.prompt(s)
        assert p is not None, f"game over before {mid}"
        assert mid in p.ids(), f"{mid} not in {p.ids()} ({p.text})"
        out += GAME.play(s, p.move(mid))
        check(s)
    return out


def seat_to_move(s: PestisState) -> int:
    p = GAME.prompt(s)
    assert p is not None
    return p.seat


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def invest(s: PestisState, value: int | str, area: str, reinf: int | None = None) -> list[Event]:
    """One investment turn through the prompts: token, area, reinforcements if asked."""
    out = play(s, f"token:{value}", f"area:{area}")
    p = GAME.prompt(s)
    if p is not None and p.step == 2:
        out += play(s, f"reinf:{reinf or 0}")
    else:
        assert not reinf, "no reinforcement step was offered"
    return out
