"""Rattus Cartus rules: setup, phases A-E, the twelve buildings, special cards and the end.

The round is a queue of `Task`s. Automatic tasks (revealing a building, handing out the
actions, the end of the round) run at once; a decision task at the head of the queue is the
current prompt. Handlers push follow-up tasks to the front of the queue, so a building's
actions and their sub-decisions resolve before the next building.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import chance
from ..core.protocol import (
    PICK_VALUE,
    Event,
    Game,
    IllegalMove,
    Move,
    Option,
    Prompt,
    Result,
    SetupError,
)
from . import scoring, views
from .data import (
    BUILDING_INDEX,
    BUILDING_METHODS,
    BUILDINGS,
    BUILDINGS_PER_ROUND,
    CARD_CLASS,
    CARDS_PER_BUILDING,
    CLASS_NAMES,
    CLASSES,
    COMMIT_KINDS,
    FIRST_START_PLAYER,
    HAND_AT_START,
    HAND_KINDS,
    HOSPITAL_PREMIUM_RATS,
    KIND_NAMES,
    LEFT_OUT_WITH_TWO,
    NUN_ROW_SIZE,
    POPULATION_CARDS,
    RATS_AT_START,
    RECOMMENDED_SET,
    REPLACEMENT_DECK,
    ROUNDS,
    SUPPLY_TOTALS,
    Building,
    building_of,
    card_name,
    kind_count,
    supply_of,
)
from .reference import reference
from .state import Player, RattusState, Task, copy_state, hand_counts
from .title import TITLE

PHASES = {"supply": "Supplies", "enter": "Enter buildings", "resolve": "Resolve", "over": "End"}
# Decision tasks (everything else in the queue runs automatically).
DECISIONS = frozenset({"supply", "look", "enter", "commit", "sword", "flute", "hospital", "give"})
SPECIAL_FIELDS = {"joker": "jokers", "sword": "swords", "flute": "flutes", "pass": "passes"}
CLASS_OF_KIND = {cls: i for i, cls in enumerate(CLASSES)}


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


def item_name(item: int | str) -> str:
    return card_name(item) if isinstance(item, int) else KIND_NAMES[item]


def _plain(text: str) -> str:
    """A building name or key as typed, compared without case, spaces or punctuation."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


_BUILDING_BY_NAME = {alias: b for b in BUILDINGS for alias in (_plain(b.key), _plain(b.name))}


_METHODS = frozenset(v for v, _ in BUILDING_METHODS if v != PICK_VALUE)


def building_pick(value: str) -> tuple[str, ...]:
    """The buildings of a set chosen by the players ("Farm,Office,…" or keys), as keys in
    class order: one building per class. SetupError says what is wrong."""
    chosen: dict[str, Building] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        b = _BUILDING_BY_NAME.get(_plain(part))
        if b is None:
            names = ", ".join(x.name for x in BUILDINGS)
            raise SetupError(f"unknown building {part.strip()!r} (one of: {names})")
        if b.cls in chosen and chosen[b.cls] is not b:
            raise SetupError(
                f"one building per class: {chosen[b.cls].name} and {b.name} are both "
                f"{CLASS_NAMES[b.cls]}"
            )
        chosen[b.cls] = b
    missing = [CLASS_NAMES[c] for c in CLASSES if c not in chosen]
    if missing:
        raise SetupError("choose one building for " + ", ".join(missing))
    return tuple(chosen[c].key for c in CLASSES)


def choose_buildings(s: RattusState, method: str, players: int) -> list[int]:
    """The 30 building cards of this game (setup step 7), by the chosen method."""
    left_out = LEFT_OUT_WITH_TWO if players == 2 else ()
    cards: list[int] = []
    if method == "recommended" or "," in method:
        for key in RECOMMENDED_SET if method == "recommended" else building_pick(method):
            b = BUILDING_INDEX[key]
            cards.extend(range(b * CARDS_PER_BUILDING, (b + 1) * CARDS_PER_BUILDING))
        return cards
    for cls in CLASSES:
        keys = [b.key for b in BUILDINGS if b.cls == cls and b.key not in left_out]
        if method == "random-building":
            key = keys[chance.draw_index(s, len(keys))] if len(keys) > 1 else keys[0]
            b = BUILDING_INDEX[key]
            cards.extend(range(b * CARDS_PER_BUILDING, (b + 1) * CARDS_PER_BUILDING))
        else:  # random-cards: 5 random of the class's 10 cards
            pool = [
                BUILDING_INDEX[k] * CARDS_PER_BUILDING + c
                for k in keys
                for c in range(CARDS_PER_BUILDING)
            ]
            chance.shuffle(s, pool)
            cards.extend(sorted(pool[:CARDS_PER_BUILDING]))
    return cards


class RattusCartus(Game[RattusState]):
    """Rattus Cartus: enter buildings with population cards, gain influence, beware the rats."""

    meta = TITLE
    summary = (
        "Enter the town's buildings with population cards for influence and actions; "
        "at the end, whoever has more rats than the Nun-row has nuns dies."
    )
    options = (
        Option(
            "buildings",
            "Building cards",
            BUILDING_METHODS,
            "recommended",
            "Which 30 building cards are used: the recommended first set, one random building "
            "per class (5 copies), five random cards of each class's ten, or one building per "
            "class chosen by the players (5 copies).",
            picks=tuple(
                (
                    CLASS_NAMES[cls],
                    tuple((b.key, b.name) for b in BUILDINGS if b.cls == cls),
                    next(k for k in RECOMMENDED_SET if BUILDINGS[BUILDING_INDEX[k]].cls == cls),
                )
                for cls in CLASSES
            ),
        ),
    )

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """A building set chosen by the players ("Farm,Office,…") is stored as its buildings'
        keys in class order; "choose" alone takes the recommended building of every class."""
        value = options.get("buildings")
        if value is None or value in _METHODS:
            return super().check_options(options)
        rest = {k: v for k, v in options.items() if k != "buildings"}
        try:
            keys = RECOMMENDED_SET if value == PICK_VALUE else building_pick(value)
        except SetupError as exc:
            methods = ", ".join(v for v, _ in BUILDING_METHODS)
            raise SetupError(f"option buildings: {exc} — or one of {methods}") from None
        return {**super().check_options(rest), "buildings": ",".join(keys)}

    # ---- setup -----------------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> RattusState:
        """Setup steps 1-9 of the rulebook, then phase A of round 1."""
        n = len(names)
        self.check_players(n)
        opts = self.check_options(options)
        s = RattusState(names=list(names), seed=seed, options=opts)
        s.rounds = ROUNDS[n]
        s.start = FIRST_START_PLAYER
        s.supply = dict(SUPPLY_TOTALS)
        cards = choose_buildings(s, opts["buildings"], n)
        if len(cards) != 30:
            raise SetupError("the building selection must give 30 cards")
        s.buildings = sorted({building_of(c).key for c in cards}, key=BUILDING_INDEX.__getitem__)
        chance.shuffle(s, cards)
        r = REPLACEMENT_DECK[n]
        s.replacement, s.bdeck = cards[:r], cards[r:]
        s.deck = list(range(POPULATION_CARDS))
        chance.shuffle(s, s.deck)
        s.nun_row = [s.deck.pop() for _ in range(NUN_ROW_SIZE)]
        s.players = [Player(rats=RATS_AT_START, track=[0] * len(CLASSES)) for _ in range(n)]
        for _ in range(HAND_AT_START):
            for p in s.players:
                p.pop.append(s.deck.pop())
        header: list[Event] = []
        self._begin_round(s, header)
        s.opening = [e.text for e in header]  # public: the building row and its supplies
        return s

    # ---- prompt ----------------------------------------------------------------------
    def prompt(self, s: RattusState) -> Prompt | None:
        if not s.queue:
            return None
        t = s.queue[0]
        return self._prompt_of[t.kind](self, s, t)

    def _prompt_supply(self, s: RattusState, t: Task) -> Prompt:
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
            moves.append(
                Move(f"supply:{i + 1}", f"{row_label(s, i)}: {sup.text()}", ", ".join(parts))
            )
        return Prompt(t.seat, "B. Choose a supply action", tuple(moves), True, 0, PHASES["supply"])

    def _prompt_look(self, s: RattusState, t: Task) -> Prompt:
        p = s.players[t.seat]
        moves = []
        for pos in range(NUN_ROW_SIZE):
            if pos in p.seen:
                continue
            others = [s.names[i] for i, q in enumerate(s.players) if pos in q.seen]
            pv = f"seen by {', '.join(others)}" if others else "seen by nobody yet"
            moves.append(Move(f"look:{pos + 1}", f"Look at Nun-row card {pos + 1}", pv))
        text = f"Look at a Nun-row card ({plural(t.n, 'look')} left)"
        return Prompt(t.seat, text, tuple(moves), True, t.k, self._phase(s))

    def _prompt_enter(self, s: RattusState, t: Task) -> Prompt:
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

    def _prompt_commit(self, s: RattusState, t: Task) -> Prompt:
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
            moves.append(
                Move(f"commit:{kind}", f"Commit a {KIND_NAMES[kind]} card ({c} in hand)", pv)
            )
        k = p.committed()
        moves.append(
            Move("done", f"Done: {plural(k, 'card')} face down", f"in {row_label(s, t.row)}")
        )
        text = f"Cards face down in {row_label(s, t.row)}, one by one ({k} so far)"
        return Prompt(t.seat, text, tuple(moves), True, t.k, PHASES["enter"])

    def _prompt_sword(self, s: RattusState, t: Task) -> Prompt:
        moves = []
        for o in s.discs[t.row]:
            if o == t.seat:
                continue
            h = s.players[o].hand_size()
            moves.append(
                Move(
                    f"sword:{o + 1}", f"Take from {s.names[o]}", f"{h // 2} of {h} cards at random"
                )
            )
        text = f"Sword in {row_label(s, t.row)}: whose hand do you raid?"
        return Prompt(t.seat, text, tuple(moves), False, 0, PHASES["resolve"])

    def _prompt_flute(self, s: RattusState, t: Task) -> Prompt:
        p = s.players[t.seat]
        moves = []
        for o in s.discs[t.row]:
            if o == t.seat:
                continue
            for k in (2, 1):
                if k <= p.rats:
                    moves.append(
                        Move(f"flute:{o + 1}:{k}", f"Give {plural(k, 'rat')} to {s.names[o]}",
                             f"your rats {p.rats}→{p.rats - k}")
                    )  # fmt: skip
        moves.append(Move("flute:none", "Give no rats", f"your rats stay {p.rats}"))
        text = f"Flute in {row_label(s, t.row)}: give up to 2 rats"
        return Prompt(t.seat, text, tuple(moves), True, 0, PHASES["resolve"])

    def _prompt_hospital(self, s: RattusState, t: Task) -> Prompt:
        p = s.players[t.seat]
        counts = hand_counts(p)
        moves = [
            Move(f"discard:{kind}", f"Discard a {KIND_NAMES[kind]} card ({counts[ki]} in hand)",
                 f"rats {p.rats}→{p.rats - 1}")
            for ki, kind in enumerate(HAND_KINDS)
            if counts[ki] and p.rats > 0
        ]  # fmt: skip
        moves.append(Move("done", "Stop discarding", f"rats stay {p.rats}"))
        text = f"Hospital: discard up to {plural(t.n, 'more card')} to discard as many rats"
        return Prompt(t.seat, text, tuple(moves), True, t.k, PHASES["resolve"])

    def _prompt_give(self, s: RattusState, t: Task) -> Prompt:
        p = s.players[t.seat]
        counts = hand_counts(p)
        h = p.hand_size()
        moves = tuple(
            Move(
                f"give:{kind}",
                f"Give a {KIND_NAMES[kind]} card ({counts[ki]} in hand)",
                f"hand {h}→{h - 1}",
            )
            for ki, kind in enumerate(HAND_KINDS)
            if counts[ki]
        )
        text = f"Guard Tower: give {s.names[t.target]} {plural(t.n, 'more card')} of your choice"
        return Prompt(t.seat, text, moves, True, t.k, PHASES["resolve"])

    _prompt_of: dict[str, Callable[[Any, RattusState, Task], Prompt]] = {
        "supply": _prompt_supply,
        "look": _prompt_look,
        "enter": _prompt_enter,
        "commit": _prompt_commit,
        "sword": _prompt_sword,
        "flute": _prompt_flute,
        "hospital": _prompt_hospital,
        "give": _prompt_give,
    }

    @staticmethod
    def _phase(s: RattusState) -> str:
        return PHASES.get(s.phase, s.phase)

    # ---- play ------------------------------------------------------------------------
    def play(self, s: RattusState, move: Move) -> list[Event]:
        if not s.queue:
            raise IllegalMove("the game is over: no move can be played")
        t = s.queue[0]
        events = [Event(line) for line in s.opening]  # round 1 opens the first move's log
        s.opening = []
        handler = self._play_of.get(t.kind)
        if handler is None:  # pragma: no cover - automatic tasks never wait at the head
            raise IllegalMove(f"nothing to decide ({t.kind})")
        handler(self, s, t, move.id, events)
        self._advance(s, events)
        return events

    def _play_supply(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        i = self._index(mid, "supply:", len(s.row))
        s.queue.pop(0)
        name = s.names[t.seat]
        sup = supply_of(s.row[i])
        ev.append(Event(f"{name} takes the supply of {row_label(s, i)}: {sup.text()}"))
        if sup.draw:
            self._draw(s, t.seat, sup.draw, ev)
        if sup.rats:
            self._discard_rats(s, t.seat, sup.rats, ev)
        if sup.look:
            s.queue.insert(0, Task("look", t.seat, n=sup.look))

    def _play_look(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        pos = self._index(mid, "look:", NUN_ROW_SIZE)
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
            s.queue.pop(0)

    def _play_enter(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        p = s.players[t.seat]
        name = s.names[t.seat]
        s.queue.pop(0)
        if mid == "pass":
            if not p.passes or p.passed:
                raise IllegalMove("no Pass to play")
            p.passes -= 1
            s.supply["pass"] += 1
            p.passed = True
            s.queue.append(Task("enter", t.seat))  # after every other player has entered
            ev.append(Event(f"{name} plays a Pass and will enter after the others"))
            return
        i = self._index(mid, "enter:", len(s.row))
        s.discs[i].append(t.seat)
        p.entered = i
        ev.append(Event(f"{name} enters {row_label(s, i)} on space {len(s.discs[i])}"))
        s.queue.insert(0, Task("commit", t.seat, row=i, k=1))

    def _play_commit(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        p = s.players[t.seat]
        if mid == "done":
            s.queue.pop(0)
            self._commit_done(s, t, ev)
            return
        if not mid.startswith("commit:") or mid[7:] not in COMMIT_KINDS:
            raise IllegalMove(f"{mid!r} is not a legal move here")
        kind = mid[7:]
        item = take_from_hand(p, kind)
        if isinstance(item, int):
            p.c_pop.append(item)
        elif item == "joker":
            p.c_jokers += 1
        elif item == "sword":
            p.c_swords += 1
        else:
            p.c_flutes += 1
        t.k += 1

    def _commit_done(self, s: RattusState, t: Task, ev: list[Event]) -> None:
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

    def _play_sword(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        victim = self._index(mid, "sword:", len(s.players))
        if victim == t.seat or victim not in s.discs[t.row]:
            raise IllegalMove(f"{mid!r} is not a legal move here")
        s.queue.pop(0)
        self._sword(s, t.seat, victim, ev)

    def _play_flute(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        p = s.players[t.seat]
        name = s.names[t.seat]
        s.queue.pop(0)
        p.c_flutes -= 1
        s.supply["flute"] += 1
        if mid == "flute:none":
            ev.append(Event(f"{name}'s Flute: gives no rats"))
            return
        parts = mid.split(":")
        if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ("1", "2"):
            raise IllegalMove(f"{mid!r} is not a legal move here")
        o, k = int(parts[1]) - 1, int(parts[2])
        if o == t.seat or o not in s.discs[t.row] or k > p.rats:
            raise IllegalMove(f"{mid!r} is not a legal move here")
        p.rats -= k
        s.players[o].rats += k
        ev.append(Event(f"{name}'s Flute: gives {plural(k, 'rat')} to {s.names[o]}"))

    def _play_hospital(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        p = s.players[t.seat]
        name = s.names[t.seat]
        if mid == "done":
            s.queue.pop(0)
            return
        if not mid.startswith("discard:") or mid[8:] not in HAND_KINDS or p.rats <= 0:
            raise IllegalMove(f"{mid!r} is not a legal move here")
        item = take_from_hand(p, mid[8:])
        self._to_discard(s, item)
        p.rats -= 1
        ev.append(Event(f"{name} discards {item_name(item)} and 1 rat (Hospital)"))
        t.n -= 1
        t.k += 1
        if t.n <= 0:
            s.queue.pop(0)

    def _play_give(self, s: RattusState, t: Task, mid: str, ev: list[Event]) -> None:
        p = s.players[t.seat]
        if not mid.startswith("give:") or mid[5:] not in HAND_KINDS:
            raise IllegalMove(f"{mid!r} is not a legal move here")
        item = take_from_hand(p, mid[5:])
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
        t.n -= 1
        t.k += 1
        if t.n <= 0:
            s.queue.pop(0)

    _play_of: dict[str, Callable[[Any, RattusState, Task, str, list[Event]], None]] = {
        "supply": _play_supply,
        "look": _play_look,
        "enter": _play_enter,
        "commit": _play_commit,
        "sword": _play_sword,
        "flute": _play_flute,
        "hospital": _play_hospital,
        "give": _play_give,
    }

    @staticmethod
    def _index(mid: str, prefix: str, n: int) -> int:
        """The 0-based index in a move id like `enter:2`; IllegalMove when out of range."""
        if mid.startswith(prefix):
            tail = mid[len(prefix) :]
            if tail.isdigit() and 1 <= int(tail) <= n:
                return int(tail) - 1
        raise IllegalMove(f"{mid!r} is not a legal move here")

    # ---- the automatic part of the round ---------------------------------------------
    def _advance(self, s: RattusState, ev: list[Event]) -> None:
        """Run automatic tasks (and decisions without a choice) until a decision waits."""
        while True:
            q = s.queue  # phase changes replace the queue
            if not q:
                if s.phase == "supply":
                    self._begin_enter(s)
                elif s.phase == "enter":
                    s.phase = "resolve"
                    q.extend(Task("reveal", row=i) for i in range(len(s.row)))
                    q.append(Task("end_round"))
                else:
                    return  # the game is over
                continue
            t = q[0]
            if t.kind in DECISIONS:
                if not self._no_choice(s, t, ev):
                    return
                continue
            q.pop(0)
            self._auto_of[t.kind](self, s, t, ev)

    def _no_choice(self, s: RattusState, t: Task, ev: list[Event]) -> bool:
        """Resolve (and pop) a decision task that offers no real choice; False otherwise."""
        kind = t.kind
        p = s.players[t.seat]
        if kind == "look":
            if len(p.seen) < NUN_ROW_SIZE:
                return False
            ev.append(Event(f"{s.names[t.seat]} has seen the whole Nun-row: the look is lost"))
        elif kind == "commit":
            # Only an empty hand (public) skips the step: holding only Passes still asks,
            # so the table cannot tell what the hand holds.
            if p.hand_size():
                return False
            self._commit_done(s, t, ev)
        elif kind == "sword":
            others = [o for o in s.discs[t.row] if o != t.seat]
            if len(others) > 1:
                return False
            if others:
                s.queue.pop(0)
                self._sword(s, t.seat, others[0], ev)
                return True
            p.c_swords -= 1
            s.supply["sword"] += 1
            ev.append(Event(f"{s.names[t.seat]}'s Sword: nobody else in {row_label(s, t.row)}"))
        elif kind == "flute":
            # With somebody else there it always asks (even with 0 rats: rats are secret).
            if len(s.discs[t.row]) > 1:
                return False
            p.c_flutes -= 1
            s.supply["flute"] += 1
            ev.append(Event(f"{s.names[t.seat]}'s Flute: nobody else in {row_label(s, t.row)}"))
        elif kind == "hospital":
            # Asks even with 0 rats (then only "stop"): rats are secret.
            if t.n > 0 and p.hand_size() > 0:
                return False
        elif kind == "give":
            if t.n > 0 and p.hand_size() > 0:
                return False
        else:
            return False
        s.queue.pop(0)
        return True

    # Phase A: draw new building cards.
    def _begin_round(self, s: RattusState, ev: list[Event]) -> None:
        k = BUILDINGS_PER_ROUND[len(s.players)]
        s.row = [s.bdeck.pop(0) for _ in range(min(k, len(s.bdeck)))]
        # All the same building: replace the last one from the replacement deck (the replaced
        # card goes under that deck) until one differs. With at most 5 copies of a building
        # the deck always holds a different one; the bound only guards against a loop.
        tries = 0
        while (
            len(s.row) > 1
            and s.replacement
            and tries <= len(s.replacement)
            and all(c // CARDS_PER_BUILDING == s.row[0] // CARDS_PER_BUILDING for c in s.row)
        ):
            old = s.row[-1]
            s.row[-1] = s.replacement.pop(0)
            s.replacement.append(old)
            tries += 1
            ev.append(
                Event(
                    f"All buildings are {building_of(old).name}: the last is replaced by "
                    f"{building_of(s.row[-1]).name}",
                    reveal=True,
                )
            )
        s.discs = [[] for _ in s.row]
        self._reset_round(s)
        s.phase = "supply"
        shown = ", ".join(f"{row_label(s, i)} ({supply_of(c).text()})" for i, c in enumerate(s.row))
        ev.append(
            Event(
                f"Round {s.round}/{s.rounds}, start player {s.names[s.start]}: {shown}",
                reveal=True,
            )
        )
        n = len(s.players)
        s.queue = [Task("supply", (s.start + i) % n) for i in range(n)]

    @staticmethod
    def _reset_round(s: RattusState) -> None:
        """Discs return: nobody has entered, passed or revealed anything this round."""
        for p in s.players:
            p.gained = 0
            p.entered = -1
            p.passed = False
            p.revealed = False
            p.shown = []

    # Phase C begins: enter in turn order from the start player.
    def _begin_enter(self, s: RattusState) -> None:
        n = len(s.players)
        s.phase = "enter"
        s.queue = [Task("enter", (s.start + i) % n) for i in range(n)]

    # Phase D.a: reveal a building's cards; influence, rats, then Swords and Flutes.
    def _auto_reveal(self, s: RattusState, t: Task, ev: list[Event]) -> None:
        i = t.row
        b = building_of(s.row[i])
        own = CLASS_OF_KIND[b.cls]
        follow: list[Task] = []
        if not s.discs[i]:
            ev.append(Event(f"{row_label(s, i)}: nobody entered"))
        for seat in s.discs[i]:
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
            follow.extend(Task("sword", seat, row=i) for _ in range(p.c_swords))
            follow.extend(Task("flute", seat, row=i) for _ in range(p.c_flutes))
        follow.append(Task("actions", row=i))
        s.queue[0:0] = follow

    # Phase D.b: premium to the most population cards + Jokers (tie: lowest disc).
    def _auto_actions(self, s: RattusState, t: Task, ev: list[Event]) -> None:
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
        s.queue[0:0] = follow

    def _auto_act(self, s: RattusState, t: Task, ev: list[Event]) -> None:
        b = building_of(s.row[t.row])
        premium = t.n == 1
        amount = b.premium if premium else b.standard
        self._action_of[b.effect](self, s, t.seat, b, premium, amount, t.row, ev)

    # Phase D.c: played population cards to the discard pile, Jokers back to the supply.
    def _auto_cleanup(self, s: RattusState, t: Task, ev: list[Event]) -> None:
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

    # Phase E: building cards out, discs back, start player card to the left.
    def _auto_end_round(self, s: RattusState, t: Task, ev: list[Event]) -> None:
        s.bout.extend(s.row)
        s.start = (s.start + 1) % len(s.players)
        if s.round >= s.rounds:
            s.row = []
            s.discs = []
            self._reset_round(s)
            self._end_game(s, ev)
            return
        s.round += 1
        self._begin_round(s, ev)

    _auto_of: dict[str, Callable[[Any, RattusState, Task, list[Event]], None]] = {
        "reveal": _auto_reveal,
        "actions": _auto_actions,
        "act": _auto_act,
        "cleanup": _auto_cleanup,
        "end_round": _auto_end_round,
    }

    # ---- building actions --------------------------------------------------------------
    def _act_draw(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                  row: int, ev: list[Event]) -> None:  # fmt: skip
        ev.append(Event(f"{s.names[seat]}: {b.name} {'premium' if premium else 'standard'}"))
        self._draw(s, seat, amount, ev)

    def _act_brewery(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                     row: int, ev: list[Event]) -> None:  # fmt: skip
        gained = s.players[seat].gained
        k = gained if premium else gained // 2
        ev.append(
            Event(f"{s.names[seat]}: Brewery {'premium' if premium else 'standard'}, "
                  f"{gained} influence gained this round → draw {k}")
        )  # fmt: skip
        self._draw(s, seat, k, ev)

    def _act_take(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
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
            Event(f"{s.names[seat]}: {b.name} {'premium' if premium else 'standard'} → "
                  f"takes {kind_count(kind, got)}{short}")
        )  # fmt: skip

    def _act_rats(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                  row: int, ev: list[Event]) -> None:  # fmt: skip
        ev.append(Event(f"{s.names[seat]}: {b.name} {'premium' if premium else 'standard'}"))
        self._discard_rats(s, seat, amount, ev)

    def _act_hospital(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                      row: int, ev: list[Event]) -> None:  # fmt: skip
        ev.append(Event(f"{s.names[seat]}: Hospital {'premium' if premium else 'standard'}"))
        if premium:
            self._discard_rats(s, seat, HOSPITAL_PREMIUM_RATS, ev)
        s.queue.insert(0, Task("hospital", seat, row=row, n=amount))

    def _act_guard(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                   row: int, ev: list[Event]) -> None:  # fmt: skip
        name = s.names[seat]
        if not premium:
            ev.append(Event(f"{name}: Guard Tower standard → immune to Guard Tower premiums"))
            return
        n = len(s.players)
        mine = s.players[seat].hand_size()
        gives = []
        for d in range(1, n):
            o = (seat + d) % n
            q = s.players[o]
            if q.entered >= 0 and building_of(s.row[q.entered]).effect == "guard":
                continue  # entered a Guard Tower this round: immune
            h = q.hand_size()
            if h >= mine and h > 0:
                gives.append(Task("give", o, row=row, n=min(amount, h), target=seat))
        who = ", ".join(s.names[g.seat] for g in gives) or "nobody"
        ev.append(Event(f"{name}: Guard Tower premium → cards from {who}"))
        s.queue[0:0] = gives

    def _act_look(self, s: RattusState, seat: int, b: Building, premium: bool, amount: int,
                  row: int, ev: list[Event]) -> None:  # fmt: skip
        ev.append(
            Event(f"{s.names[seat]}: {b.name} {'premium' if premium else 'standard'} → "
                  f"looks at {plural(amount, 'Nun-row card')}")
        )  # fmt: skip
        s.queue.insert(0, Task("look", seat, row=row, n=amount))

    _action_of: dict[str, Callable[..., None]] = {
        "draw": _act_draw,
        "brewery": _act_brewery,
        "pass": _act_take,
        "joker": _act_take,
        "sword": _act_take,
        "flute": _act_take,
        "vp": _act_take,
        "gold": _act_take,
        "rats": _act_rats,
        "hospital": _act_hospital,
        "guard": _act_guard,
        "look": _act_look,
    }

    # ---- helpers -----------------------------------------------------------------------
    def _draw(self, s: RattusState, seat: int, k: int, ev: list[Event]) -> None:
        """Draw k population cards into a hand (reshuffling the discard pile when needed)."""
        got: list[int] = []
        p = s.players[seat]
        for _ in range(k):
            if not s.deck:
                if not s.discard:
                    break
                s.deck, s.discard = s.discard, []
                chance.shuffle(s, s.deck)
                ev.append(
                    Event("The discard pile is shuffled into a new population deck", reveal=True)
                )
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

    def _discard_rats(self, s: RattusState, seat: int, k: int, ev: list[Event]) -> None:
        p = s.players[seat]
        k = min(k, p.rats)
        p.rats -= k
        ev.append(Event(f"{s.names[seat]} discards {plural(k, 'rat')}"))

    def _to_discard(self, s: RattusState, item: int | str) -> None:
        """A card leaving a hand: population cards to the discard pile, others to supply."""
        if isinstance(item, int):
            s.discard.append(item)
        else:
            s.supply[item] += 1

    def _sword(self, s: RattusState, seat: int, victim: int, ev: list[Event]) -> None:
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

    def _end_game(self, s: RattusState, ev: list[Event]) -> None:
        """After the last round: reveal the Nun-row, death by rats, final scores."""
        s.phase = "over"
        s.queue = []
        nuns = scoring.nun_total(s)
        cards = ", ".join(card_name(c) for c in s.nun_row)
        ev.append(Event(f"The Nun-row is revealed: {cards} = {plural(nuns, 'nun')}", reveal=True))
        for seat, p in enumerate(s.players):
            fate = "dies of the plague" if p.rats > nuns else "survives"
            ev.append(Event(f"{s.names[seat]} has {plural(p.rats, 'rat')}: {fate}", reveal=True))
        ev.append(Event(scoring.result(s).summary))

    # ---- results, views, references ---------------------------------------------------
    def result(self, s: RattusState) -> Result:
        return scoring.result(s)

    def view(self, s: RattusState, seat: int | None) -> dict[str, Any]:
        return views.view(s, seat)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return reference(options)

    def invariants(self, s: RattusState) -> list[str]:
        return views.invariants(s)

    def clone(self, s: RattusState) -> RattusState:
        return copy_state(s)

    def determinize(self, s: RattusState, seat: int, rng: Any) -> RattusState:
        return views.determinize(self, s, seat, rng)

    def evaluate(self, s: RattusState, seat: int) -> float:
        return views.evaluate(s, seat)


GAME = RattusCartus()
