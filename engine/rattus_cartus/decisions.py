"""Rattus Cartus: what each kind of pending task does, and `DECISIONS`, the table of them.

Decisions (a seat chooses): supply, look, enter, commit, sword, flute, hospital, give — each a
`prompt_<kind>` and a `play_<kind>`. Automatic steps (the rules resolve them): reveal, actions,
act, cleanup, end_round — each a `run_<kind>`. A decision that offers no real choice (a look
with the whole Nun-row seen, a Sword with one other player there...) is resolved by its
`settle_<kind>` without asking. Handlers push follow-up tasks to the front of the queue, so a
building's actions and their sub-decisions resolve before the next building.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core import chance
from ..core.decisions import DecisionTable, automatic, choice
from ..core.protocol import Event, IllegalMove, Move, Prompt
from .data import (
    CARD_CLASS,
    CLASS_NAMES,
    CLASSES,
    COMMIT_KINDS,
    HAND_KINDS,
    HOSPITAL_PREMIUM_RATS,
    KIND_NAMES,
    NUN_ROW_SIZE,
    Building,
    building_of,
    card_name,
    kind_count,
    supply_of,
)
from .state import SPECIAL_FIELDS, Player, RattusState, Task, hand_counts

if TYPE_CHECKING:
    from .rules import RattusCartus

PHASES = {"supply": "Supplies", "enter": "Enter buildings", "resolve": "Resolve", "over": "End"}
CLASS_OF_KIND = {cls: i for i, cls in enumerate(CLASSES)}


# ---- words -----------------------------------------------------------------------------
def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def row_label(s: RattusState, i: int) -> str:
    """A revealed building for people: "Farm [1]" (its row position)."""
    return f"{building_of(s.row[i]).name} [{i + 1}]"


def describe_kinds(kinds: Sequence[str]) -> str:
    """["church", "church", "joker"] -> "2 Church, 1 Joker"."""
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(kind_count(k, v) for k, v in counts.items()) or "nothing"


def item_name(item: int | str) -> str:
    return card_name(item) if isinstance(item, int) else KIND_NAMES[item]


def phase_name(s: RattusState) -> str:
    return PHASES.get(s.phase, s.phase)


def _illegal(mid: str) -> IllegalMove:
    """The error for a move id that is not a legal move at this decision."""
    return IllegalMove(f"{mid!r} is not a legal move here")


def _resolved(s: RattusState) -> bool:
    """A decision settled without asking leaves the queue (True, for `settle`)."""
    s.pending.pop(0)
    return True


def _others(s: RattusState, t: Task) -> list[int]:
    """The other seats with a disc in the row of `t` (whom a Sword or Flute can reach)."""
    return [o for o in s.discs[t.row] if o != t.seat]


def _nobody_else(s: RattusState, t: Task, card: str, ev: list[Event]) -> bool:
    """A Sword or Flute (`card`) with nobody else in its row goes back to the supply unused."""
    p = s.players[t.seat]
    if card == "sword":
        p.c_swords -= 1
    else:
        p.c_flutes -= 1
    s.supply[card] += 1
    name = KIND_NAMES[card]
    ev.append(Event(f"{s.names[t.seat]}'s {name}: nobody else in {row_label(s, t.row)}"))
    return True


def _kind_of(mid: str, verb: str, kinds: Sequence[str]) -> str:
    """The kind of card a move id `verb:kind` names; IllegalMove when it names none of `kinds`."""
    kind = mid.removeprefix(f"{verb}:")
    if kind == mid or kind not in kinds:
        raise _illegal(mid)
    return kind


def move_index(mid: str, prefix: str, n: int) -> int:
    """The 0-based index in a move id like `enter:2`; IllegalMove when out of range."""
    if mid.startswith(prefix):
        tail = mid[len(prefix) :]
        if tail.isdigit() and 1 <= int(tail) <= n:
            return int(tail) - 1
    raise _illegal(mid)


# ---- cards changing hands ----------------------------------------------------------------
def take_from_hand(p: Player, kind: str) -> int | str:
    """Remove one card of `kind` from the hand: a population card id, or the special kind."""
    ci = CLASS_OF_KIND.get(kind)
    if ci is not None:
        for idx, card in enumerate(p.pop):
            if CARD_CLASS[card] == ci:
                return p.pop.pop(idx)
        raise IllegalMove(f"no {KIND_NAMES[kind]} card in hand")
    fld = SPECIAL_FIELDS.get(kind)
    if fld is None or getattr(p, fld) <= 0:
        raise IllegalMove(f"no {kind} card in hand")
    setattr(p, fld, getattr(p, fld) - 1)
    return kind


def add_to_hand(p: Player, item: int | str) -> None:
    if isinstance(item, int):
        p.pop.append(item)
    else:
        fld = SPECIAL_FIELDS[item]
        setattr(p, fld, getattr(p, fld) + 1)


def to_discard(s: RattusState, item: int | str) -> None:
    """A card leaving a hand: population cards to the discard pile, others to supply."""
    if isinstance(item, int):
        s.discard.append(item)
    else:
        s.supply[item] += 1


def draw(s: RattusState, seat: int, k: int, ev: list[Event]) -> None:
    """Draw k population cards into a hand (reshuffling the discard pile when needed)."""
    got: list[int] = []
    p = s.players[seat]
    for _ in range(k):
        if not s.deck:
            if not s.discard:
                break
            s.deck, s.discard = s.discard, []
            chance.shuffle(s, s.deck)
            ev.append(Event("The discard pile is shuffled into a new population deck", reveal=True))
        got.append(s.deck.pop())
    p.pop.extend(got)
    name = s.names[seat]
    if not got:
        ev.append(Event(f"{name} draws no card: the population cards are used up"))
        return
    ev.append(
        Event(
            f"{name} draws {plural(len(got), 'card')}: {', '.join(card_name(c) for c in got)}",
            seat=seat,
            public=f"{name} draws {plural(len(got), 'card')}",
            reveal=True,
        )
    )


def discard_rats(s: RattusState, seat: int, k: int, ev: list[Event]) -> None:
    p = s.players[seat]
    k = min(k, p.rats)
    p.rats -= k
    ev.append(Event(f"{s.names[seat]} discards {plural(k, 'rat')}"))


def sword_takes(s: RattusState, seat: int, victim: int, ev: list[Event]) -> None:
    """A Sword acts: half of the victim's hand (rounded down), at random, to the thief."""
    p, v = s.players[seat], s.players[victim]
    p.c_swords -= 1
    s.supply["sword"] += 1
    k = v.hand_size() // 2
    thief, name = s.names[seat], s.names[victim]
    if k == 0:
        ev.append(Event(f"{thief}'s Sword: {name} has too few cards, nothing taken"))
        return
    items: list[int | str] = sorted(v.pop)
    for kind in ("joker", "sword", "flute", "pass"):
        items.extend([kind] * getattr(v, SPECIAL_FIELDS[kind]))
    chance.shuffle(s, items)
    taken = items[:k]
    for item in taken:
        if isinstance(item, int):
            v.pop.remove(item)
        else:
            fld = SPECIAL_FIELDS[item]
            setattr(v, fld, getattr(v, fld) - 1)
        add_to_hand(p, item)
    names = ", ".join(item_name(x) for x in taken)
    ev.append(
        Event(
            f"{thief}'s Sword takes {plural(k, 'card')} from {name}: {names}",
            seat=seat,
            public=f"{thief}'s Sword takes {plural(k, 'card')} from {name} at random",
            reveal=True,
        )
    )
    ev.append(Event(f"{thief}'s Sword takes from you: {names}", seat=victim, public=None))


# ---- B. supply ---------------------------------------------------------------------------
def prompt_supply(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    h = p.hand_size()
    avail = len(s.deck) + len(s.discard)
    unseen = NUN_ROW_SIZE - len(p.seen)
    moves = []
    for i, card in enumerate(s.row):
        sup = supply_of(card)
        parts = []
        if sup.draw:
            parts.append(f"hand {h}→{h + min(sup.draw, avail)}")
        if sup.rats:
            parts.append(f"rats {p.rats}→{max(0, p.rats - sup.rats)}")
        if sup.look:
            parts.append(f"see {min(sup.look, unseen)} of {unseen} unseen Nun-row cards")
        moves.append(Move(f"supply:{i + 1}", f"{row_label(s, i)}: {sup.text()}", ", ".join(parts)))
    return Prompt(t.seat, "B. Choose a supply action", tuple(moves), True, 0, PHASES["supply"])


def play_supply(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    i = move_index(mid, "supply:", len(s.row))
    s.pending.pop(0)
    name = s.names[t.seat]
    sup = supply_of(s.row[i])
    ev.append(Event(f"{name} takes the supply of {row_label(s, i)}: {sup.text()}"))
    if sup.draw:
        draw(s, t.seat, sup.draw, ev)
    if sup.rats:
        discard_rats(s, t.seat, sup.rats, ev)
    if sup.look:
        s.pending.insert(0, Task("look", t.seat, n=sup.look))


# ---- looking at Nun-row cards (a supply, the Fortune-teller's Tent) ---------------------
def prompt_look(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    moves = []
    for pos in range(NUN_ROW_SIZE):
        if pos in p.seen:
            continue
        others = [s.names[i] for i, q in enumerate(s.players) if pos in q.seen]
        pv = f"seen by {', '.join(others)}" if others else "seen by nobody yet"
        moves.append(Move(f"look:{pos + 1}", f"Look at Nun-row card {pos + 1}", pv))
    text = f"Look at a Nun-row card ({plural(t.n, 'look')} left)"
    return Prompt(t.seat, text, tuple(moves), True, t.k, phase_name(s))


def play_look(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    pos = move_index(mid, "look:", NUN_ROW_SIZE)
    p = s.players[t.seat]
    if pos in p.seen:
        raise IllegalMove(f"Nun-row card {pos + 1} was already seen")
    p.seen.append(pos)
    p.seen.sort()
    name = s.names[t.seat]
    ev.append(
        Event(
            f"{name} looks at Nun-row card {pos + 1}: {card_name(s.nun_row[pos])}",
            seat=t.seat,
            public=f"{name} looks at Nun-row card {pos + 1}",
            reveal=True,
        )
    )
    t.n -= 1
    t.k += 1
    if t.n <= 0:
        s.pending.pop(0)


def settle_look(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    if len(s.players[t.seat].seen) < NUN_ROW_SIZE:
        return False
    ev.append(Event(f"{s.names[t.seat]} has seen the whole Nun-row: the look is lost"))
    return _resolved(s)


# ---- C. enter a building -------------------------------------------------------------------
def prompt_enter(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    moves = []
    for i, card in enumerate(s.row):
        b = building_of(card)
        there = ", ".join(
            f"{s.names[o]} ({plural(s.players[o].committed(), 'card')})" for o in s.discs[i]
        )
        pv = f"space {len(s.discs[i]) + 1}" + (f"; there: {there}" if there else "; empty")
        moves.append(Move(f"enter:{i + 1}", f"Enter {b.name} [{i + 1}]", pv))
    if p.passes and not p.passed:
        moves.append(
            Move(
                "pass",
                "Play a Pass",
                f"enter after everyone else; Passes {p.passes}→{p.passes - 1}",
            )
        )
    return Prompt(t.seat, "C. Enter a building", tuple(moves), True, 0, PHASES["enter"])


def play_enter(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    p = s.players[t.seat]
    name = s.names[t.seat]
    s.pending.pop(0)
    if mid == "pass":
        if not p.passes or p.passed:
            raise IllegalMove("no Pass to play")
        p.passes -= 1
        s.supply["pass"] += 1
        p.passed = True
        s.pending.append(Task("enter", t.seat))  # after every other player has entered
        ev.append(Event(f"{name} plays a Pass and will enter after the others"))
        return
    i = move_index(mid, "enter:", len(s.row))
    s.discs[i].append(t.seat)
    p.entered = i
    ev.append(Event(f"{name} enters {row_label(s, i)} on space {len(s.discs[i])}"))
    s.pending.insert(0, Task("commit", t.seat, row=i, k=1))


# ---- C. cards face down in the building entered ---------------------------------------------
def prompt_commit(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    b = building_of(s.row[t.row])
    bname = CLASS_NAMES[b.cls]
    own = CLASS_OF_KIND[b.cls]
    counts = hand_counts(p)
    moves = []
    for ki, kind in enumerate(COMMIT_KINDS):
        c = counts[ki]
        if not c:
            continue
        if ki < 6:
            pv = f"+1 {bname} influence" + ("" if ki == own else ", +1 rat")
        elif kind == "joker":
            pv = f"+1 {bname} influence, no rat"
        elif kind == "sword":
            pv = "take half the hand of a player in this building"
        else:
            pv = "give up to 2 rats to a player in this building"
        moves.append(Move(f"commit:{kind}", f"Commit a {KIND_NAMES[kind]} card ({c} in hand)", pv))
    k = p.committed()
    moves.append(Move("done", f"Done: {plural(k, 'card')} face down", f"in {row_label(s, t.row)}"))
    text = f"Cards face down in {row_label(s, t.row)}, one by one ({k} so far)"
    return Prompt(t.seat, text, tuple(moves), True, t.k, PHASES["enter"])


def play_commit(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    p = s.players[t.seat]
    if mid == "done":
        s.pending.pop(0)
        commit_done(s, t, ev)
        return
    kind = _kind_of(mid, "commit", COMMIT_KINDS)
    p.commit(take_from_hand(p, kind))
    t.k += 1


def commit_done(s: RattusState, t: Task, ev: list[Event]) -> None:
    """The cards are down: what the seat placed (the others learn only how many)."""
    p = s.players[t.seat]
    name = s.names[t.seat]
    kinds = [CLASSES[CARD_CLASS[c]] for c in p.c_pop]
    kinds += ["joker"] * p.c_jokers + ["sword"] * p.c_swords + ["flute"] * p.c_flutes
    k = len(kinds)
    where = row_label(s, t.row)
    ev.append(
        Event(
            f"{name} places {plural(k, 'card')} face down in {where}: {describe_kinds(kinds)}",
            seat=t.seat,
            public=f"{name} places {plural(k, 'card')} face down in {where}",
        )
    )


def settle_commit(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    # Only an empty hand (public) skips the step: holding only Passes still asks,
    # so the table cannot tell what the hand holds.
    if s.players[t.seat].hand_size():
        return False
    commit_done(s, t, ev)
    return _resolved(s)


# ---- D.a Swords and Flutes ---------------------------------------------------------------
def prompt_sword(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    moves = []
    for o in _others(s, t):
        h = s.players[o].hand_size()
        moves.append(
            Move(f"sword:{o + 1}", f"Take from {s.names[o]}", f"{h // 2} of {h} cards at random")
        )
    text = f"Sword in {row_label(s, t.row)}: whose hand do you raid?"
    return Prompt(t.seat, text, tuple(moves), False, 0, PHASES["resolve"])


def play_sword(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    victim = move_index(mid, "sword:", len(s.players))
    if victim == t.seat or victim not in s.discs[t.row]:
        raise _illegal(mid)
    s.pending.pop(0)
    sword_takes(s, t.seat, victim, ev)


def settle_sword(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    others = _others(s, t)
    if len(others) > 1:
        return False
    if others:
        sword_takes(s, t.seat, others[0], ev)
        return _resolved(s)
    return _nobody_else(s, t, "sword", ev) and _resolved(s)


def prompt_flute(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    moves = []
    for o in _others(s, t):
        for k in (2, 1):
            if k <= p.rats:
                moves.append(
                    Move(f"flute:{o + 1}:{k}", f"Give {plural(k, 'rat')} to {s.names[o]}",
                         f"your rats {p.rats}→{p.rats - k}")
                )  # fmt: skip
    moves.append(Move("flute:none", "Give no rats", f"your rats stay {p.rats}"))
    text = f"Flute in {row_label(s, t.row)}: give up to 2 rats"
    return Prompt(t.seat, text, tuple(moves), True, 0, PHASES["resolve"])


def play_flute(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    p = s.players[t.seat]
    name = s.names[t.seat]
    s.pending.pop(0)
    p.c_flutes -= 1
    s.supply["flute"] += 1
    if mid == "flute:none":
        ev.append(Event(f"{name}'s Flute: gives no rats"))
        return
    parts = mid.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ("1", "2"):
        raise _illegal(mid)
    o, k = int(parts[1]) - 1, int(parts[2])
    if o == t.seat or o not in s.discs[t.row] or k > p.rats:
        raise _illegal(mid)
    p.rats -= k
    s.players[o].rats += k
    ev.append(Event(f"{name}'s Flute: gives {plural(k, 'rat')} to {s.names[o]}"))


def settle_flute(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    # With somebody else there it always asks (even with 0 rats: rats are secret).
    if len(s.discs[t.row]) > 1:
        return False
    return _nobody_else(s, t, "flute", ev) and _resolved(s)


# ---- D.b actions that ask: Hospital, Guard Tower --------------------------------------------
def _hand_moves(p: Player, verb: str, preview: str) -> list[Move]:
    """A move `verb:kind` for each kind of card in `p`'s hand (discard one, give one)."""
    counts = hand_counts(p)
    return [
        Move(
            f"{verb}:{kind}",
            f"{verb.capitalize()} a {KIND_NAMES[kind]} card ({counts[ki]} in hand)",
            preview,
        )
        for ki, kind in enumerate(HAND_KINDS)
        if counts[ki]
    ]


def _one_card_less(s: RattusState, t: Task) -> None:
    """One of the up to `t.n` cards is done; after the last, the step is over."""
    t.n -= 1
    t.k += 1
    if t.n <= 0:
        s.pending.pop(0)


def _no_card_left(s: RattusState, t: Task) -> bool:
    """Whether the step is over without asking: no card more to take, or an empty hand."""
    return not (t.n > 0 and s.players[t.seat].hand_size() > 0)


def prompt_hospital(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    moves = _hand_moves(p, "discard", f"rats {p.rats}→{p.rats - 1}") if p.rats > 0 else []
    moves.append(Move("done", "Stop discarding", f"rats stay {p.rats}"))
    text = f"Hospital: discard up to {plural(t.n, 'more card')} to discard as many rats"
    return Prompt(t.seat, text, tuple(moves), True, t.k, PHASES["resolve"])


def play_hospital(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    p = s.players[t.seat]
    name = s.names[t.seat]
    if mid == "done":
        s.pending.pop(0)
        return
    kind = _kind_of(mid, "discard", HAND_KINDS)
    if p.rats <= 0:
        raise _illegal(mid)
    item = take_from_hand(p, kind)
    to_discard(s, item)
    p.rats -= 1
    ev.append(Event(f"{name} discards {item_name(item)} and 1 rat (Hospital)"))
    _one_card_less(s, t)


def settle_hospital(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    # Asks even with 0 rats (then only "stop"): rats are secret.
    return _no_card_left(s, t) and _resolved(s)


def prompt_give(game: RattusCartus, s: RattusState, t: Task) -> Prompt:
    p = s.players[t.seat]
    h = p.hand_size()
    moves = tuple(_hand_moves(p, "give", f"hand {h}→{h - 1}"))
    text = f"Guard Tower: give {s.names[t.target]} {plural(t.n, 'more card')} of your choice"
    return Prompt(t.seat, text, moves, True, t.k, PHASES["resolve"])


def play_give(game: RattusCartus, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
    p = s.players[t.seat]
    item = take_from_hand(p, _kind_of(mid, "give", HAND_KINDS))
    add_to_hand(s.players[t.target], item)
    giver, taker = s.names[t.seat], s.names[t.target]
    ev.append(
        Event(
            f"{giver} gives {taker} {item_name(item)} (Guard Tower)",
            seat=t.seat,
            public=f"{giver} gives {taker} a card (Guard Tower)",
        )
    )
    ev.append(Event(f"{giver} gives you {item_name(item)}", seat=t.target, public=None))
    _one_card_less(s, t)


def settle_give(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> bool:
    return _no_card_left(s, t) and _resolved(s)


# ---- D.a reveal: influence, rats, then Swords and Flutes --------------------------------------
def run_reveal(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> None:
    s.pending.pop(0)
    i = t.row
    own = CLASS_OF_KIND[building_of(s.row[i]).cls]
    follow: list[Task] = []
    if not s.discs[i]:
        ev.append(Event(f"{row_label(s, i)}: nobody entered"))
    for seat in s.discs[i]:
        p = s.players[seat]
        reveal_cards(s, i, seat, own, ev)
        follow.extend(Task("sword", seat, row=i) for _ in range(p.c_swords))
        follow.extend(Task("flute", seat, row=i) for _ in range(p.c_flutes))
    follow.append(Task("actions", row=i))
    s.pending[0:0] = follow


def reveal_cards(s: RattusState, i: int, seat: int, own: int, ev: list[Event]) -> None:
    """`seat`'s cards in the building at row position `i` face up: influence and rats."""
    b = building_of(s.row[i])
    p = s.players[seat]
    p.revealed = True
    kinds = [CLASSES[CARD_CLASS[c]] for c in p.c_pop]
    kinds += ["joker"] * p.c_jokers + ["sword"] * p.c_swords + ["flute"] * p.c_flutes
    p.shown = kinds
    infl = len(p.c_pop) + p.c_jokers
    rats = sum(1 for c in p.c_pop if CARD_CLASS[c] != own)
    p.track[own] += infl
    p.gained += infl
    p.rats += rats
    effects = []
    if infl:
        effects.append(f"+{infl} {CLASS_NAMES[b.cls]} influence")
    if rats:
        effects.append(f"+{plural(rats, 'rat')}")
    cards = ", ".join(card_name(c) for c in p.c_pop)
    extra = describe_kinds(kinds[len(p.c_pop) :]) if len(kinds) > len(p.c_pop) else ""
    shown = "; ".join(x for x in (cards, extra) if x) or "no cards"
    ev.append(
        Event(
            f"{s.names[seat]} reveals in {row_label(s, i)}: {shown}"
            + (f" → {', '.join(effects)}" if effects else ""),
            reveal=True,
        )
    )


# ---- D.b actions: premium to the most population cards + Jokers (tie: lowest disc) ------------
def run_actions(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> None:
    s.pending.pop(0)
    i = t.row
    b = building_of(s.row[i])
    best, premium = 0, -1
    for seat in s.discs[i]:
        c = sum(1 for k in s.players[seat].shown if k in CLASS_OF_KIND or k == "joker")
        if c > best:
            best, premium = c, seat
    follow = [Task("act", seat, row=i, n=1 if seat == premium else 0) for seat in s.discs[i]]
    if premium >= 0:
        ev.append(Event(f"{s.names[premium]} gets the premium action of {b.name}"))
    follow.append(Task("cleanup", row=i))
    s.pending[0:0] = follow


def run_act(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> None:
    """One seat's action in a building (`n` = 1: the premium action)."""
    s.pending.pop(0)
    b = building_of(s.row[t.row])
    premium = t.n == 1
    amount = b.premium if premium else b.standard
    BUILDING_ACTIONS[b.effect](s, t.seat, b, premium, amount, t.row, ev)


def _grade(premium: bool) -> str:
    return "premium" if premium else "standard"


def act_draw(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
             row: int, ev: list[Event]) -> None:  # fmt: skip
    ev.append(Event(f"{s.names[seat]}: {b.name} {_grade(premium)}"))
    draw(s, seat, amount, ev)


def act_brewery(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                row: int, ev: list[Event]) -> None:  # fmt: skip
    gained = s.players[seat].gained
    k = gained if premium else gained // 2
    ev.append(
        Event(f"{s.names[seat]}: Brewery {_grade(premium)}, "
              f"{gained} influence gained this round → draw {k}")
    )  # fmt: skip
    draw(s, seat, k, ev)


def act_take(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
             row: int, ev: list[Event]) -> None:  # fmt: skip
    kind = b.effect
    got = min(amount, s.supply[kind])
    s.supply[kind] -= got
    p = s.players[seat]
    if kind == "gold":
        p.gold += got
    elif kind == "vp":
        p.vp += got
    else:
        fld = SPECIAL_FIELDS[kind]
        setattr(p, fld, getattr(p, fld) + got)
    short = f" (the supply had only {got})" if got < amount else ""
    ev.append(
        Event(f"{s.names[seat]}: {b.name} {_grade(premium)} → "
              f"takes {kind_count(kind, got)}{short}")
    )  # fmt: skip


def act_rats(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
             row: int, ev: list[Event]) -> None:  # fmt: skip
    ev.append(Event(f"{s.names[seat]}: {b.name} {_grade(premium)}"))
    discard_rats(s, seat, amount, ev)


def act_hospital(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                 row: int, ev: list[Event]) -> None:  # fmt: skip
    ev.append(Event(f"{s.names[seat]}: Hospital {_grade(premium)}"))
    if premium:
        discard_rats(s, seat, HOSPITAL_PREMIUM_RATS, ev)
    s.pending.insert(0, Task("hospital", seat, row=row, n=amount))


def act_guard(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
              row: int, ev: list[Event]) -> None:  # fmt: skip
    name = s.names[seat]
    if not premium:
        ev.append(Event(f"{name}: Guard Tower standard → immune to Guard Tower premiums"))
        return
    n = len(s.players)
    mine = s.players[seat].hand_size()
    gives = []
    for step in range(1, n):
        o = (seat + step) % n
        q = s.players[o]
        if q.entered >= 0 and building_of(s.row[q.entered]).effect == "guard":
            continue  # entered a Guard Tower this round: immune
        h = q.hand_size()
        if h >= mine and h > 0:
            gives.append(Task("give", o, row=row, n=min(amount, h), target=seat))
    who = ", ".join(s.names[g.seat] for g in gives) or "nobody"
    ev.append(Event(f"{name}: Guard Tower premium → cards from {who}"))
    s.pending[0:0] = gives


def act_look(s: RattusState, seat: int, b: Building, premium: bool, amount: int,
             row: int, ev: list[Event]) -> None:  # fmt: skip
    ev.append(
        Event(f"{s.names[seat]}: {b.name} {_grade(premium)} → "
              f"looks at {plural(amount, 'Nun-row card')}")
    )  # fmt: skip
    s.pending.insert(0, Task("look", seat, row=row, n=amount))


BuildingAction = Callable[[RattusState, int, Building, bool, int, int, list[Event]], None]
# A building's action by its effect (premium or standard: the same function, another amount).
BUILDING_ACTIONS: dict[str, BuildingAction] = {
    "draw": act_draw,
    "brewery": act_brewery,
    "pass": act_take,
    "joker": act_take,
    "sword": act_take,
    "flute": act_take,
    "vp": act_take,
    "gold": act_take,
    "rats": act_rats,
    "hospital": act_hospital,
    "guard": act_guard,
    "look": act_look,
}


# ---- D.c cleanup, E. end of the round ----------------------------------------------------------
def run_cleanup(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> None:
    """Played population cards to the discard pile, Jokers back to the supply."""
    s.pending.pop(0)
    for seat in s.discs[t.row]:
        p = s.players[seat]
        s.discard.extend(p.c_pop)
        p.c_pop = []
        s.supply["joker"] += p.c_jokers
        p.c_jokers = 0
        # Swords and Flutes went back when they acted; this is only a safeguard.
        s.supply["sword"] += p.c_swords
        s.supply["flute"] += p.c_flutes
        p.c_swords = p.c_flutes = 0


def run_end_round(game: RattusCartus, s: RattusState, t: Task, ev: list[Event]) -> None:
    s.pending.pop(0)
    game.end_round(s, ev)


DECISIONS: DecisionTable[RattusCartus, RattusState, Task] = DecisionTable(
    {
        "supply": choice(prompt_supply, play_supply),
        "look": choice(prompt_look, play_look, settle_look),
        "enter": choice(prompt_enter, play_enter),
        "commit": choice(prompt_commit, play_commit, settle_commit),
        "sword": choice(prompt_sword, play_sword, settle_sword),
        "flute": choice(prompt_flute, play_flute, settle_flute),
        "hospital": choice(prompt_hospital, play_hospital, settle_hospital),
        "give": choice(prompt_give, play_give, settle_give),
        "reveal": automatic(run_reveal),
        "actions": automatic(run_actions),
        "act": automatic(run_act),
        "cleanup": automatic(run_cleanup),
        "end_round": automatic(run_end_round),
    }
)
