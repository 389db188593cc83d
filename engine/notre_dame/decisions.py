"""Every decision of Notre Dame, one prompt and one play per kind, and `DECISIONS`, the table.

The turn kinds are queued by the flow of the round when a seat's turn comes (rules.py,
`next_decisions`): `draft` (keep a card), `action` (play an action card), `hire` (hire a
person). The parts of an action under way wait before them in `NotreDameState.pending`, the
head first: an empty supply's `source`, the Notre Dame `donate`, the trusted `friend`,
the `carriage`, the `message` it reaches, a Hotel or Hostess `bonus`; the persons'
`minstrel_from`/`minstrel_to`/`minstrel_n`, `fool_from`/`fool_to` and `bishop`; and the
plague's `overflow` tie. Each kind is its own small dataclass (state.py: `Source`,
`Donate`, ...), and its handlers take that class. A play pushes the next part (`push`) when
the action goes on. Below the handlers: the effects they share with the round's flow (`gain`, `say`) and the
previews the moves show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from ..core.decisions import DecisionTable, choice, decision
from ..core.protocol import Event, Game, Move, Prompt
from . import data
from .queries import (
    SECTOR_RANGE,
    count,
    may_take_message,
    message_label,
    node_label,
    park_bonus,
    rat_after_plague,
    sector_counts,
)
from .state import (
    ACTIONS,
    DRAFT,
    HIRE,
    OVER,
    PLAGUE,
    ActionTurn,
    Bishop,
    Bonus,
    Carriage,
    Donate,
    DraftTurn,
    FoolFrom,
    FoolTo,
    Friend,
    HireTurn,
    Message,
    MinstrelCount,
    MinstrelFrom,
    MinstrelTo,
    NotreDameDecision,
    NotreDameState,
    Overflow,
    Source,
)

NotreDameGame = Game[NotreDameState]  # the game object the handlers receive (they do not use it)
Decisions = DecisionTable[NotreDameGame, NotreDameState, NotreDameDecision]

PHASE_NAMES = {DRAFT: "Draft", ACTIONS: "Actions", HIRE: "Hire", PLAGUE: "Plague", OVER: "Over"}
ORDINAL = ("1st", "2nd")
_PERSONS = data.PERSON_BY_KEY


def push(s: NotreDameState, d: NotreDameDecision) -> None:
    """`d` is the next part of the action under way: it is decided first."""
    s.pending.insert(0, d)


def _part(s: NotreDameState, d: NotreDameDecision, text: str, moves: list[Move]) -> Prompt:
    """The prompt of a part of an action: its step counts the parts taken this turn."""
    return Prompt(d.seat, text, tuple(moves), step=s.step, phase=PHASE_NAMES[s.phase])


def _arg(move_id: str) -> str:
    """What follows the verb of a move id (`from:bank` -> `bank`), "" for a bare verb."""
    return move_id.split(":", 1)[1] if ":" in move_id else ""


def _location(move_id: str) -> int:
    """The location a move id names (`from:bank` -> BANK, Notre Dame included)."""
    return data.LOCATIONS.index(_arg(move_id))


def _sector(move_id: str) -> int:
    """The sector a move id names (`to:bank` -> BANK; Notre Dame is no sector)."""
    return data.SECTORS.index(_arg(move_id))


def _loc_move(verb: str, loc: int, detail: str, label: str = "{}") -> Move:
    """A move naming location `loc` (`verb:key`), `label` framing the location's name."""
    return Move(f"{verb}:{data.LOCATIONS[loc]}", label.format(data.LOCATION_NAMES[loc]), detail)


def _act(s: NotreDameState, seat: int, loc: int, head: str, ev: list[Event]) -> None:
    """Carry out `loc`'s action for `seat` and log it after `head` (what moved where)."""
    full, pub = _execute(s, seat, loc)
    say(s, seat, ev, head + full, head + pub)


# ==================================================================== the turns ========
def prompt_draft(game: NotreDameGame, s: NotreDameState, d: DraftTurn) -> Prompt:
    """Draft: keep 1 of the cards drawn (step 0) or received (step 1), pass the rest left."""
    seat = d.seat
    left = s.names[(seat + 1) % s.n]
    cards = s.drawn[seat]
    moves = []
    for c in cards:
        key = data.CARDS[c % data.CARDS_PER_COLOUR]
        rest = [data.CARD_NAMES[data.CARDS[o % data.CARDS_PER_COLOUR]] for o in cards if o != c]
        verb = "return" if s.n == 2 and s.draft_step == 1 else "pass"
        moves.append(
            Move(f"keep:{key}", f"Keep {data.CARD_NAMES[key]}", f"{verb} {' + '.join(rest)}")
        )
    if s.draft_step == 0:
        text = f"Draft: keep 1 of your 3 cards, pass the other 2 to {left}"
    elif s.n == 2:
        text = f"Draft: keep 1 of the 2 cards from {left}, return the other"
    else:
        right = s.names[(seat - 1) % s.n]
        text = f"Draft: keep 1 of the 2 cards from {right}, pass the other to {left}"
    return Prompt(seat, text, tuple(moves), private=True, step=0, phase="Draft")


def play_draft(
    game: NotreDameGame, s: NotreDameState, d: DraftTurn, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    t = data.CARDS.index(_arg(move_id))
    cards = s.drawn[seat]
    keep = next(c for c in cards if c % data.CARDS_PER_COLOUR == t)
    rest = [c for c in cards if c != keep]
    left = (seat + 1) % s.n
    s.hands[seat].append(keep)
    s.incoming[left] = rest
    s.drawn[seat] = []
    names = " and ".join(data.CARD_NAMES[data.CARDS[c % data.CARDS_PER_COLOUR]] for c in rest)
    kept = data.CARD_NAMES[data.CARDS[t]]
    who, to = s.names[seat], s.names[left]
    if s.draft_step == 0:
        s.passed1[seat] = list(rest)
        ev.append(
            Event(
                f"{who} keeps {kept} and passes {names} to {to}",
                seat=seat,
                public=f"{who} keeps a card and passes two to {to}",
            )
        )
    else:
        s.passed2[seat] = list(rest)
        verb = "returns" if s.n == 2 else "passes"
        ev.append(
            Event(
                f"{who} keeps {kept} and {verb} {names} to {to}",
                seat=seat,
                public=f"{who} keeps a card and {verb} one to {to}",
            )
        )


def prompt_action(game: NotreDameGame, s: NotreDameState, d: ActionTurn) -> Prompt:
    """Actions: play one of the cards in hand, for its action or without effect."""
    seat = d.seat
    moves = []
    seen: set[int] = set()
    for c in s.hands[seat]:
        t = c % data.CARDS_PER_COLOUR
        if t in seen:
            continue
        seen.add(t)
        key = data.CARDS[t]
        name = data.CARD_NAMES[key]
        if _card_playable(s, seat, t):
            moves.append(Move(f"play:{key}", name, _card_preview(s, seat, t)))
        moves.append(Move(f"void:{key}", f"{name} without effect", "no effect"))
    text = f"{s.names[seat]}: play your {ORDINAL[s.lap]} card"
    return Prompt(seat, text, tuple(moves), private=True, step=0, phase="Actions")


def play_action(
    game: NotreDameGame, s: NotreDameState, d: ActionTurn, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    verb, key = move_id.split(":", 1)
    t = data.CARDS.index(key)
    hand = s.hands[seat]
    card = next(c for c in hand if c % data.CARDS_PER_COLOUR == t)
    hand.remove(card)
    s.discard.append(card)
    s.played[seat].append(card)
    if s.lap == 1:  # the third card is discarded unplayed and unseen
        s.thirds[seat].extend(hand)
        hand.clear()
    who = s.names[seat]
    name = data.CARD_NAMES[key]
    if verb == "void":
        ev.append(Event(f"{who} plays {name} without effect"))
        return
    if t == data.FRIEND:
        push(s, Friend(seat))
        ev.append(Event(f"{who} plays the Trusted friend"))
        return
    if s.supply[seat] == 0:
        push(s, Source(seat, target=t))
        ev.append(Event(f"{who} plays {name} (supply empty: a marker moves in)"))
        return
    if t == data.NOTRE_DAME:
        push(s, Donate(seat, origin=-1, via="marker"))
        ev.append(Event(f"{who} plays Notre Dame"))
        return
    s.supply[seat] -= 1
    s.sectors[seat][t] += 1
    _act(s, seat, t, f"{who} plays {name} ({count(s, seat, t)} there): ", ev)


def prompt_hire(game: NotreDameGame, s: NotreDameState, d: HireTurn) -> Prompt:
    """Hire: one of the face-up persons for 1 gold, or nobody."""
    seat = d.seat
    moves = []
    if s.gold[seat] >= data.HIRE_COST:
        for key in s.persons:
            if _hirable(s, seat, key):
                p = _PERSONS[key]
                moves.append(Move(f"hire:{key}", f"Hire {p.name}", _person_preview(s, seat, key)))
    moves.append(Move("pass", "Hire nobody", "keep your gold"))
    text = f"{s.names[seat]}: hire a person for {data.HIRE_COST} gold?"
    return Prompt(seat, text, tuple(moves), step=0, phase="Hire")


def play_hire(
    game: NotreDameGame, s: NotreDameState, d: HireTurn, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    who = s.names[seat]
    if move_id == "pass":
        ev.append(Event(f"{who} hires nobody"))
        return
    key = _arg(move_id)
    person = _PERSONS[key]
    s.gold[seat] -= data.HIRE_COST
    s.bank += data.HIRE_COST
    s.hired[seat] = key
    head = f"{who} hires the {person.name}"
    if key == "hostess":
        full, pub = gain(s, seat, 3, "persons")
        push(s, Bonus(seat, left=1, total=1, giver="Hostess"))
    elif key == "minstrel":
        push(s, MinstrelFrom(seat))
        full = pub = "moves pieces"
    elif key == "monk":
        got = _take_markers(s, seat, 2)
        full, pub = gain(s, seat, 1, "persons")
        full, pub = f"{got}, {full}", f"{got}, {pub}"
    elif key == "fool":
        push(s, FoolFrom(seat))
        full = pub = "moves a piece"
    elif key == "moneylender":
        got = _take_gold(s, seat, 2)
        full, pub = gain(s, seat, 1, "persons")
        full, pub = f"{got}, {full}", f"{got}, {pub}"
    elif key == "doctor":
        s.doctor[seat] = True
        full = pub = "plague value 0 this round"
    elif key == "bishop":
        push(s, Bishop(seat))
        full = pub = "places a marker"
    else:
        full, pub = gain(s, seat, _person_prestige(s, seat, key), "persons")
    say(s, seat, ev, f"{head}: {full}", f"{head}: {pub}")


# ================================================================ parts of an action ===
def prompt_source(game: NotreDameGame, s: NotreDameState, d: Source) -> Prompt:
    """Empty supply: where the marker that the card places comes from."""
    seat, target = d.seat, d.target
    moves = [
        _loc_move("from", loc, f"{count(s, seat, loc) - 1} left there", "From {}")
        for loc in _marker_sources(s, seat, target)
    ]
    text = f"{s.names[seat]}: supply empty — move a marker into {data.LOCATION_NAMES[target]} from"
    return _part(s, d, text, moves)


def play_source(
    game: NotreDameGame, s: NotreDameState, d: Source, move_id: str, ev: list[Event]
) -> None:
    seat, t = d.seat, d.target
    loc = _location(move_id)
    if t == data.NOTRE_DAME:
        push(s, Donate(seat, origin=loc, via="marker"))
        return
    _remove_marker(s, seat, loc)
    s.sectors[seat][t] += 1
    head = (
        f"{s.names[seat]} moves a marker from {data.LOCATION_NAMES[loc]} to "
        f"{data.LOCATION_NAMES[t]} ({count(s, seat, t)} there): "
    )
    _act(s, seat, t, head, ev)


def prompt_donate(game: NotreDameGame, s: NotreDameState, d: Donate) -> Prompt:
    """Notre Dame: how much gold to donate with the marker (or the friend)."""
    seat = d.seat
    moves = []
    for g in range(1, min(3, s.gold[seat]) + 1):
        moves.append(
            Move(
                f"donate:{g}",
                f"Donate {g} gold",
                _prestige_preview(s, seat, data.DONATION[g]),
            )
        )
    return _part(s, d, f"{s.names[seat]}: Notre Dame — donate how much gold?", moves)


def play_donate(
    game: NotreDameGame, s: NotreDameState, d: Donate, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    g = int(_arg(move_id))
    if d.via == "friend":
        s.friend[seat] = data.NOTRE_DAME
        what = "the trusted friend"
    else:
        if d.origin < 0:
            s.supply[seat] -= 1
        else:
            _remove_marker(s, seat, d.origin)
        s.nd[seat] += 1
        what = "a marker"
    s.gold[seat] -= g
    s.bank += g
    full, pub = gain(s, seat, data.DONATION[g], "donation")
    head = f"{s.names[seat]} puts {what} in Notre Dame and donates {g} gold: "
    say(s, seat, ev, head + full, head + pub)


def prompt_friend(game: NotreDameGame, s: NotreDameState, d: Friend) -> Prompt:
    """The trusted friend: the sector (or Notre Dame, by the standard rules) it goes to."""
    seat = d.seat
    where = s.friend[seat]
    locs = [x for x in SECTOR_RANGE if x != where]
    if not s.published and where != data.NOTRE_DAME and s.gold[seat] >= 1:
        locs.append(data.NOTRE_DAME)
    moves = []
    for loc in locs:
        if loc == data.NOTRE_DAME:
            preview = "donate 1-3 gold → +1/+3/+6 prestige"
        else:
            preview = _effect_preview(s, seat, loc, count(s, seat, loc) + 1)
        moves.append(_loc_move("friend", loc, preview))
    return _part(s, d, f"{s.names[seat]}: where does the trusted friend go?", moves)


def play_friend(
    game: NotreDameGame, s: NotreDameState, d: Friend, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    loc = _location(move_id)
    if loc == data.NOTRE_DAME:
        push(s, Donate(seat, origin=-1, via="friend"))
        return
    s.friend[seat] = loc
    head = (
        f"{s.names[seat]}'s trusted friend goes to {data.LOCATION_NAMES[loc]} "
        f"({count(s, seat, loc)} there): "
    )
    _act(s, seat, loc, head, ev)


def prompt_carriage(game: NotreDameGame, s: NotreDameState, d: Carriage) -> Prompt:
    """Carriage house: the market place the carriage moves to, up to `steps` roads away."""
    n = d.steps
    text = f"{s.names[d.seat]}: move the carriage up to {n} step{'' if n == 1 else 's'}"
    return _part(s, d, text, _carriage_moves(s, d.seat, n))


def play_carriage(
    game: NotreDameGame, s: NotreDameState, d: Carriage, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    node = _node_index(_arg(move_id))
    s.carriage[seat] = node
    code = s.board_msg[node]
    line = f"{s.names[seat]}'s carriage goes to {node_label(s, node)}"
    if code >= 0:
        if may_take_message(s, seat, code // 4):
            push(s, Message(seat, node=node))
        else:
            line += f" (the {data.COLOURS[code // 4]} message is barred by the set rule)"
    ev.append(Event(line))


def prompt_message(game: NotreDameGame, s: NotreDameState, d: Message) -> Prompt:
    """The message where the carriage stopped: its reward (standard rules: one of four), or
    leave it (published rules)."""
    seat = d.seat
    name = s.names[seat]
    code = s.board_msg[d.node]
    moves = []
    if s.published:
        r = data.REWARDS[code % 4]
        moves.append(Move("take", f"Take it: {r.text}", _reward_preview(s, seat, r)))
    else:
        for r in data.REWARDS:
            moves.append(Move(f"take:{r.key}", f"Take it: {r.text}", _reward_preview(s, seat, r)))
    if s.published:  # published rulebook: taking it is optional
        moves.append(Move("leave", "Leave it", "no message"))
        text = f"{name}: take the {message_label(s, code)}?"
    else:  # seed: "the player takes the token and chooses one of four" options
        text = f"{name}: you take the {message_label(s, code)} — choose your reward"
    return _part(s, d, text, moves)


def play_message(
    game: NotreDameGame, s: NotreDameState, d: Message, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    who = s.names[seat]
    code = s.board_msg[d.node]
    colour = data.COLOURS[code // 4]
    if move_id == "leave":
        ev.append(Event(f"{who} leaves the {colour} message"))
        return
    r = data.REWARDS[code % 4] if s.published else data.REWARD_BY_KEY[_arg(move_id)]
    s.board_msg[d.node] = -1
    s.msgs[seat][code // 4] += 1
    full, pub = gain(s, seat, r.prestige, "messages")
    extra = []
    if r.gold:
        extra.append(_take_gold(s, seat, r.gold))
    if r.marker:
        extra.append(_take_markers(s, seat, r.marker))
    if r.rat_back:
        extra.append(_rat_back(s, seat, r.rat_back))
    tail = "".join(", " + e for e in extra)
    head = f"{who} takes the {colour} message: "
    say(s, seat, ev, head + full + tail, head + pub + tail)


def prompt_bonus(game: NotreDameGame, s: NotreDameState, d: Bonus) -> Prompt:
    """A Hotel or Hostess bonus: 1 gold, 1 marker or the rat back 1."""
    seat = d.seat
    moves = [
        Move(f"bonus:{b}", data.HOTEL_BONUS_NAMES[b], _bonus_preview(s, seat, b))
        for b in data.HOTEL_BONUSES
    ]
    nth = d.total - d.left + 1
    text = f"{s.names[seat]}: {d.giver} — choose bonus {nth} of {d.total}"
    return _part(s, d, text, moves)


def play_bonus(
    game: NotreDameGame, s: NotreDameState, d: Bonus, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    arg = _arg(move_id)
    if arg == "gold":
        text = _take_gold(s, seat, 1)
    elif arg == "marker":
        text = _take_markers(s, seat, 1)
    else:
        text = _rat_back(s, seat, 1)
    ev.append(Event(f"{s.names[seat]}'s {d.giver} bonus: {text}"))
    if d.left > 1:
        push(s, replace(d, left=d.left - 1))


# ======================================================================== persons ======
def prompt_minstrel_from(game: NotreDameGame, s: NotreDameState, d: MinstrelFrom) -> Prompt:
    """Minstrel: the sector pieces leave."""
    moves = [
        _loc_move("from", loc, f"{c} there", "From {}")
        for loc, c in enumerate(sector_counts(s, d.seat))
        if c
    ]
    return _part(s, d, f"{s.names[d.seat]}: Minstrel — move pieces from which sector?", moves)


def play_minstrel_from(
    game: NotreDameGame, s: NotreDameState, d: MinstrelFrom, move_id: str, ev: list[Event]
) -> None:
    origin = _sector(move_id)
    push(s, MinstrelTo(d.seat, origin=origin))


def prompt_minstrel_to(game: NotreDameGame, s: NotreDameState, d: MinstrelTo) -> Prompt:
    """Minstrel: the sector the pieces go to."""
    seat, src = d.seat, d.origin
    moves = [
        _loc_move("to", loc, f"{count(s, seat, loc)} there", "To {}")
        for loc in SECTOR_RANGE
        if loc != src
    ]
    text = f"{s.names[seat]}: Minstrel — move them from {data.LOCATION_NAMES[src]} to"
    return _part(s, d, text, moves)


def play_minstrel_to(
    game: NotreDameGame, s: NotreDameState, d: MinstrelTo, move_id: str, ev: list[Event]
) -> None:
    seat, src, dst = d.seat, d.origin, _sector(move_id)
    options = _minstrel_options(s, seat, src)
    if len(options) == 1:  # no real choice: move at once
        _minstrel_move(s, seat, src, dst, options[0][0], ev)
    else:
        push(s, MinstrelCount(seat, origin=src, destination=dst))


def prompt_minstrel_n(game: NotreDameGame, s: NotreDameState, d: MinstrelCount) -> Prompt:
    """Minstrel: how many markers (with or without the friend) move."""
    to = f"to {data.LOCATION_NAMES[d.destination]}"
    moves = [Move(mid, label, to) for mid, label in _minstrel_options(s, d.seat, d.origin)]
    return _part(s, d, f"{s.names[d.seat]}: Minstrel — how many pieces?", moves)


def play_minstrel_n(
    game: NotreDameGame, s: NotreDameState, d: MinstrelCount, move_id: str, ev: list[Event]
) -> None:
    _minstrel_move(s, d.seat, d.origin, d.destination, move_id, ev)


def prompt_fool_from(game: NotreDameGame, s: NotreDameState, d: FoolFrom) -> Prompt:
    """Fool: the piece (a marker, Notre Dame's included, or the friend) that moves."""
    seat = d.seat
    moves = []
    for loc in range(len(data.LOCATIONS)):
        have = s.nd[seat] if loc == data.NOTRE_DAME else s.sectors[seat][loc]
        if have:
            moves.append(_loc_move("from", loc, f"{have} there", "A marker from {}"))
    if s.friend[seat] != data.PLAY_AREA:
        where = data.LOCATION_NAMES[s.friend[seat]]
        moves.append(Move("from:friend", f"The friend (in {where})", "move the friend"))
    return _part(s, d, f"{s.names[seat]}: Fool — which piece moves?", moves)


def play_fool_from(
    game: NotreDameGame, s: NotreDameState, d: FoolFrom, move_id: str, ev: list[Event]
) -> None:
    seat, arg = d.seat, _arg(move_id)
    if arg == "friend":
        push(s, FoolTo(seat, origin=s.friend[seat], friend=True))
    else:
        loc = data.LOCATIONS.index(arg)
        push(s, FoolTo(seat, origin=loc, friend=False))


def prompt_fool_to(game: NotreDameGame, s: NotreDameState, d: FoolTo) -> Prompt:
    """Fool: the sector the piece goes to (then its action)."""
    seat = d.seat
    moves = []
    for loc in SECTOR_RANGE:
        if loc != d.origin:
            preview = _effect_preview(s, seat, loc, count(s, seat, loc) + 1)
            moves.append(_loc_move("to", loc, preview))
    text = f"{s.names[seat]}: Fool — move it to which sector (then its action)?"
    return _part(s, d, text, moves)


def play_fool_to(
    game: NotreDameGame, s: NotreDameState, d: FoolTo, move_id: str, ev: list[Event]
) -> None:
    seat, src, dst = d.seat, d.origin, _sector(move_id)
    if d.friend:
        s.friend[seat] = dst
        what = "the trusted friend"
    else:
        _remove_marker(s, seat, src)
        s.sectors[seat][dst] += 1
        what = "a marker"
    head = (
        f"{s.names[seat]}'s Fool moves {what} from {data.LOCATION_NAMES[src]} to "
        f"{data.LOCATION_NAMES[dst]} ({count(s, seat, dst)} there): "
    )
    _act(s, seat, dst, head, ev)


def prompt_bishop(game: NotreDameGame, s: NotreDameState, d: Bishop) -> Prompt:
    """Bishop: the empty sector that receives a marker of the general supply."""
    seat = d.seat
    moves = [
        _loc_move("sector", loc, _effect_preview(s, seat, loc, 1))
        for loc, c in enumerate(sector_counts(s, seat))
        if c == 0
    ]
    text = f"{s.names[seat]}: Bishop — a marker into which empty sector (then its action)?"
    return _part(s, d, text, moves)


def play_bishop(
    game: NotreDameGame, s: NotreDameState, d: Bishop, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    loc = _sector(move_id)
    s.general[seat] -= 1
    s.sectors[seat][loc] += 1
    head = (
        f"{s.names[seat]}'s Bishop places a marker from the general supply in "
        f"{data.LOCATION_NAMES[loc]}: "
    )
    _act(s, seat, loc, head, ev)


# ========================================================================= plague ======
def prompt_overflow(game: NotreDameGame, s: NotreDameState, d: Overflow) -> Prompt:
    """Plague overflow: which of the tied largest sectors loses a marker."""
    seat = d.seat
    moves = [
        _loc_move("remove", loc, f"{count(s, seat, loc)} there", "Remove from {}") for loc in d.ties
    ]
    text = f"{s.names[seat]}: plague overflow — remove a marker from which sector?"
    return Prompt(seat, text, tuple(moves), step=0, phase=PHASE_NAMES[s.phase])


def play_overflow(
    game: NotreDameGame, s: NotreDameState, d: Overflow, move_id: str, ev: list[Event]
) -> None:
    seat = d.seat
    loc = _sector(move_id)
    s.sectors[seat][loc] -= 1
    s.general[seat] += 1
    ev.append(Event(f"{s.names[seat]} removes a marker from {data.LOCATION_NAMES[loc]} (plague)"))


# ======================================================================== effects ======
def _execute(s: NotreDameState, seat: int, k: int) -> tuple[str, str]:
    """Execute sector `k`'s action for `seat` (its marker is already there).

    Returns the effect as (full text, public text); multi-part effects push a sub-decision.
    """
    n = count(s, seat, k)
    if k == data.CLOISTER:
        got = min(n, s.general[seat])
        s.general[seat] -= got
        s.supply[seat] += got
        text = _plus(got, "markers")
        return text, text
    if k == data.BANK:
        text = _take_gold(s, seat, n)
        return text, text
    if k == data.RESIDENCE:
        return gain(s, seat, n, "residence")
    if k == data.CARRIAGE:
        push(s, Carriage(seat, steps=n))
        text = f"the carriage may move up to {n} step" + ("s" if n > 1 else "")
        return text, text
    if k == data.HOTEL:
        two = n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"]
        bonuses = 2 if two else 1
        push(s, Bonus(seat, left=bonuses, total=bonuses, giver="Hotel"))
        text = "2 bonuses" if two else "1 bonus"
        return text, text
    if k in (data.PARK, data.HOSPITAL):
        text = _rat_back(s, seat, 1)
        return text, text
    raise AssertionError(f"no action for location {k}")  # pragma: no cover


def gain(s: NotreDameState, seat: int, amount: int, source: str) -> tuple[str, str]:
    """Prestige gain from `source`, with the park bonus (not on a gain of 0)."""
    if amount <= 0:
        return "+0 prestige", "no prestige"
    bonus = park_bonus(s, seat)
    s.prestige[seat] += amount + bonus
    src = s.sources[seat]
    src[source] = src.get(source, 0) + amount
    if bonus:
        src["park"] = src.get("park", 0) + bonus
        return f"+{amount} prestige (+{bonus} park)", "gains prestige"
    return f"+{amount} prestige", "gains prestige"


def say(s: NotreDameState, seat: int, ev: list[Event], full: str, pub: str) -> None:
    """A log line whose public version hides prestige amounts (hidden scores)."""
    if s.open_scores or full == pub:
        ev.append(Event(full))
    else:
        ev.append(Event(full, seat=seat, public=pub))


def _richest(s: NotreDameState, seat: int) -> int:
    """The richest other player (first clockwise from `seat` on a tie), -1 if all are broke."""
    best, most = -1, 0
    for i in range(1, s.n):
        o = (seat + i) % s.n
        if s.gold[o] > most:
            best, most = o, s.gold[o]
    return best


def _take_gold(s: NotreDameState, seat: int, amount: int) -> str:
    """Gold from the bank; missing coins come from the richest other player(s)."""
    got = min(amount, s.bank)
    s.bank -= got
    s.gold[seat] += got
    missing = amount - got
    notes = []
    while missing > 0:
        o = _richest(s, seat)
        if o < 0:
            break
        t = min(missing, s.gold[o])
        s.gold[o] -= t
        s.gold[seat] += t
        missing -= t
        got += t
        notes.append(f"{t} from {s.names[o]}")
    text = _plus(got, "gold")
    if notes:
        text += f" (bank short: {', '.join(notes)})"
    return text


def _rat_back(s: NotreDameState, seat: int, steps: int) -> str:
    """The rat back `steps` spaces (not below 0)."""
    old = s.rat[seat]
    s.rat[seat] = max(0, old - steps)
    return f"rat {old}→{s.rat[seat]}"


def _take_markers(s: NotreDameState, seat: int, want: int) -> str:
    """Up to `want` markers from the general supply into the personal supply."""
    got = min(want, s.general[seat])
    s.general[seat] -= got
    s.supply[seat] += got
    return _plus(got, "marker" if got == 1 else "markers")


def _remove_marker(s: NotreDameState, seat: int, loc: int) -> None:
    """One of `seat`'s markers leaves `loc` (a sector or Notre Dame)."""
    if loc == data.NOTRE_DAME:
        s.nd[seat] -= 1
    else:
        s.sectors[seat][loc] -= 1


def _minstrel_move(
    s: NotreDameState, seat: int, src: int, dst: int, mid: str, ev: list[Event]
) -> None:
    """The Minstrel's move `mid` (`move:2`, `move:1f` with the friend) from `src` to `dst`."""
    arg = mid.split(":", 1)[1]
    with_friend = arg.endswith("f")
    m = int(arg.rstrip("f"))
    s.sectors[seat][src] -= m
    s.sectors[seat][dst] += m
    parts = [f"{m} marker" + ("s" if m != 1 else "")] if m else []
    if with_friend:
        s.friend[seat] = dst
        parts.insert(0, "the trusted friend")
    ev.append(
        Event(
            f"{s.names[seat]}'s Minstrel moves {' and '.join(parts)} from "
            f"{data.LOCATION_NAMES[src]} to {data.LOCATION_NAMES[dst]}"
        )
    )


def _node_index(key: str) -> int:
    """A market place from its move key (`b0c` the centre of borough 0, `b0o2` an edge)."""
    b, rest = key[1:].split("c" if key.endswith("c") else "o", 1)
    return int(b) * data.NODES_PER_BOROUGH + (int(rest) if rest else 0)


# ======================================================================= previews ======
def _card_playable(s: NotreDameState, seat: int, t: int) -> bool:
    """Whether action card `t` can be played for its effect (else only without)."""
    if t == data.FRIEND:
        return True
    if t == data.NOTRE_DAME and s.gold[seat] < 1:
        return False  # no donation, no marker
    if s.supply[seat] > 0:
        return True
    return bool(_marker_sources(s, seat, t))


def _marker_sources(s: NotreDameState, seat: int, target: int) -> list[int]:
    """Empty supply: where a marker (never the friend) can be moved from into `target`."""
    out = [k for k in SECTOR_RANGE if k != target and s.sectors[seat][k] > 0]
    if target != data.NOTRE_DAME and s.nd[seat] > 0:
        out.append(data.NOTRE_DAME)
    return out


def _card_preview(s: NotreDameState, seat: int, t: int) -> str:
    """What playing action card `t` would do (the move's preview)."""
    if t == data.FRIEND:
        where = s.friend[seat]
        if where == data.PLAY_AREA:
            return "put the friend into a sector, then its action"
        return f"move the friend from {data.LOCATION_NAMES[where]}, then that action"
    if t == data.NOTRE_DAME:
        text = "donate 1-3 gold → +1/+3/+6 prestige"
    else:
        text = _effect_preview(s, seat, t, count(s, seat, t) + 1)
    if s.supply[seat] == 0:
        return "supply empty: move a marker in; " + text
    return text


def _effect_preview(s: NotreDameState, seat: int, k: int, n: int) -> str:
    """What executing sector `k` with `n` markers there would do for `seat`."""
    if k == data.CLOISTER:
        return _plus(min(n, s.general[seat]), "markers")
    if k == data.BANK:
        return _plus(n, "gold")
    if k == data.RESIDENCE:
        return _prestige_preview(s, seat, n)
    if k == data.CARRIAGE:
        return f"carriage up to {n} step" + ("s" if n > 1 else "")
    if k == data.HOTEL:
        two = n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"]
        return "2 bonuses" if two else "1 bonus"
    if k == data.PARK:
        r = s.rat[seat]
        return f"rat {r}→{max(r - 1, 0)}, park bonus {n // data.PARK_MARKERS_PER_BONUS}"
    if k == data.HOSPITAL:
        r = s.rat[seat]
        return f"rat {r}→{max(r - 1, 0)}, plague −{n}"
    return "donate 1-3 gold → +1/+3/+6 prestige"


def _prestige_preview(s: NotreDameState, seat: int, amount: int) -> str:
    """A prestige gain as the previews show it (with the park bonus)."""
    if amount <= 0:
        return "+0 prestige"
    bonus = park_bonus(s, seat)
    return f"+{amount} prestige" + (f" (+{bonus} park)" if bonus else "")


def _hirable(s: NotreDameState, seat: int, key: str) -> bool:
    """Whether person `key` can be used by `seat` (the others always can)."""
    if key == "minstrel":
        return any(sector_counts(s, seat))
    if key == "fool":
        return s.friend[seat] != data.PLAY_AREA or s.nd[seat] > 0 or any(s.sectors[seat])
    if key == "bishop":
        return s.general[seat] > 0 and 0 in sector_counts(s, seat)
    return True


def _person_preview(s: NotreDameState, seat: int, key: str) -> str:
    """What hiring person `key` would do (the move's preview)."""
    if key == "hostess":
        return _prestige_preview(s, seat, 3) + " + a bonus"
    if key == "minstrel":
        return "move 1-3 pieces between sectors"
    if key == "monk":
        n = min(2, s.general[seat])
        return f"+{n} marker{'' if n == 1 else 's'}, " + _prestige_preview(s, seat, 1)
    if key == "fool":
        return "move a marker or the friend, then that sector's action"
    if key == "moneylender":
        return "+2 gold, " + _prestige_preview(s, seat, 1)
    if key == "doctor":
        now, over = rat_after_plague(s, seat)
        h = count(s, seat, data.HOSPITAL)
        healed = max(s.rat[seat] - h, 0)
        warn = " (overflow!)" if over else ""
        return f"rat would go {s.rat[seat]}→{now}{warn}; with the Doctor →{healed}"
    if key == "bishop":
        return "a marker into an empty sector, then its action"
    return _prestige_preview(s, seat, _person_prestige(s, seat, key))


def _person_prestige(s: NotreDameState, seat: int, key: str) -> int:
    """Prestige of the scoring persons (gray cards other than the Bishop)."""
    counts = sector_counts(s, seat)
    if key == "cityguard":
        return sum(s.sectors[seat]) + s.nd[seat] + (s.friend[seat] != data.PLAY_AREA)
    if key == "nightwatchman":
        return counts.count(0)
    if key == "advocate":
        return 3 * (sum(s.msgs[seat]) // 2)
    if key == "beggarking":
        return data.PLAGUE_MAX - s.rat[seat]
    if key == "guildmaster":
        return 2 * sum(1 for c in counts if c >= 2)
    if key == "lady":
        return max(counts)
    if key == "mayor":
        return 3 * sum(1 for c in counts if c >= 3)
    if key == "carpenter":
        return sum(1 for c in counts if c >= 1)
    return 0


def _carriage_moves(s: NotreDameState, seat: int, n: int) -> list[Move]:
    """The market places within `n` roads of the carriage, nearest first."""
    here = s.carriage[seat]
    dist = data.road_distances(len(s.boroughs))[here]
    reach = sorted((d, node) for node, d in enumerate(dist) if 0 <= d <= n)
    moves = []
    for d, node in reach:
        code = s.board_msg[node]
        label = node_label(s, node)
        if code >= 0:
            label += f" — {message_label(s, code)}"
            if may_take_message(s, seat, code // 4):
                preview = "may take the message" if s.published else "take the message"
            else:
                preview = "set rule: may not take it yet"
        else:
            preview = ""
        steps = "stay" if d == 0 else f"{d} step" + ("s" if d > 1 else "")
        preview = f"{steps}; {preview}" if preview else steps
        moves.append(Move(f"to:{data.node_key(node)}", label, preview))
    return moves


def _reward_preview(s: NotreDameState, seat: int, r: data.Reward) -> str:
    """What taking a message with reward `r` would bring."""
    parts = [_prestige_preview(s, seat, r.prestige)]
    if r.gold:
        parts.append(_plus(r.gold, "gold"))
    if r.marker:
        parts.append(_plus(min(r.marker, s.general[seat]), "marker"))
    if r.rat_back:
        parts.append(f"rat {s.rat[seat]}→{max(s.rat[seat] - r.rat_back, 0)}")
    return ", ".join(parts)


def _bonus_preview(s: NotreDameState, seat: int, b: str) -> str:
    """What Hotel bonus `b` would bring."""
    if b == "gold":
        if s.bank > 0:
            return "+1 gold"
        return "+1 gold from the richest player" if _richest(s, seat) >= 0 else "no gold anywhere"
    if b == "marker":
        return "+1 marker" if s.general[seat] else "general supply empty: no effect"
    r = s.rat[seat]
    return f"rat {r}→{r - 1}" if r else "rat on 0: no effect"


def _minstrel_options(s: NotreDameState, seat: int, src: int) -> list[tuple[str, str]]:
    """The Minstrel's choices of pieces leaving `src`: (move id, label)."""
    m = s.sectors[seat][src]
    out = [(f"move:{j}", f"{j} marker" + ("s" if j > 1 else "")) for j in range(1, min(3, m) + 1)]
    if s.friend[seat] == src:
        for j in range(min(2, m) + 1):
            extra = f" + {j} marker" + ("s" if j > 1 else "") if j else ""
            out.append((f"move:{j}f", f"The friend{extra}"))
    return out


def _plus(n: int, what: str) -> str:
    """`+2 markers`, `+1 marker`, `+3 gold`."""
    return f"+{n} {what[:-1] if n == 1 and what.endswith('s') else what}"


# ========================================================================== table ======
K = TypeVar("K", bound=NotreDameDecision)


def _taken(
    play: Callable[[NotreDameGame, NotreDameState, K, str, list[Event]], None],
) -> Callable[[NotreDameGame, NotreDameState, K, str, list[Event]], None]:
    """A decision leaves the queue before its play, which pushes the parts it leads to; a
    part that follows counts as a step of the turn (an empty queue: the turn is over)."""

    def taken(game: NotreDameGame, s: NotreDameState, d: K, mid: str, ev: list[Event]) -> None:
        s.pending.pop(0)
        play(game, s, d, mid, ev)
        if s.pending:
            s.step += 1

    return taken


DECISIONS: Decisions = DecisionTable(
    (
        decision(DraftTurn, choice(prompt_draft, _taken(play_draft))),
        decision(ActionTurn, choice(prompt_action, _taken(play_action))),
        decision(HireTurn, choice(prompt_hire, _taken(play_hire))),
        decision(Source, choice(prompt_source, _taken(play_source))),
        decision(Donate, choice(prompt_donate, _taken(play_donate))),
        decision(Friend, choice(prompt_friend, _taken(play_friend))),
        decision(Carriage, choice(prompt_carriage, _taken(play_carriage))),
        decision(Message, choice(prompt_message, _taken(play_message))),
        decision(Bonus, choice(prompt_bonus, _taken(play_bonus))),
        decision(MinstrelFrom, choice(prompt_minstrel_from, _taken(play_minstrel_from))),
        decision(MinstrelTo, choice(prompt_minstrel_to, _taken(play_minstrel_to))),
        decision(MinstrelCount, choice(prompt_minstrel_n, _taken(play_minstrel_n))),
        decision(FoolFrom, choice(prompt_fool_from, _taken(play_fool_from))),
        decision(FoolTo, choice(prompt_fool_to, _taken(play_fool_to))),
        decision(Bishop, choice(prompt_bishop, _taken(play_bishop))),
        decision(Overflow, choice(prompt_overflow, _taken(play_overflow))),
    )
)
