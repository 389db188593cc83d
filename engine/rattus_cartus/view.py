"""What each seat may see of a Rattus Cartus game: the views the TUI renders, typed."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..core.protocol import PUBLIC
from . import scoring
from .data import (
    CARD_CLASS,
    CARD_NUNS,
    CLASS_NAMES,
    CLASSES,
    COMMIT_KINDS,
    HAND_KINDS,
    KIND_NAMES,
    building_of,
    rat_tokens,
    supply_of,
)
from .state import Player, RattusState, hand_counts

# A population card: its class key and its nuns ("class" is a keyword, hence this form).
CardView = TypedDict("CardView", {"class": str, "nuns": int})


class PlayerView(TypedDict):
    """A seat as everybody sees it; `rats` and the card lists only where the viewer may."""

    seat: int
    name: str
    hand: int  # cards in hand
    rat_tokens: int
    gold: int
    vp_tokens: int
    track: list[int]  # influence per class, in CLASSES order
    entered: int  # row position of the building entered (1-based), 0 = not yet
    cards_in_building: int
    revealed: dict[str, int] | None  # kind -> count, once face up
    passed: bool
    seen: list[int]  # Nun-row positions (1-based) looked at
    influence_this_round: int
    start_player: bool
    rats: NotRequired[int]  # the viewer's own, everybody's for an observer or at the end
    hand_cards: NotRequired[dict[str, int]]  # kind -> count: the viewer's own or an observer
    committed_cards: NotRequired[dict[str, int]]


class DiscView(TypedDict):
    """A seat's disc in a building: its space and its cards there."""

    seat: int
    space: int
    cards: int
    revealed: dict[str, int] | None


# A revealed building of the row ("class" is a keyword, hence this form).
BuildingView = TypedDict(
    "BuildingView",
    {
        "pos": int,
        "key": str,
        "name": str,
        "class": str,
        "supply": str,
        "supply_parts": list[int],  # cards drawn, rats discarded, Nun-row cards looked at
        "premium": str,
        "standard": str,
        "discs": list[DiscView],
    },
)


class NunCardView(TypedDict):
    """A Nun-row position: who has looked, and the card if the viewer may know it."""

    pos: int
    seen_by: list[int]
    card: CardView | None


class YouView(TypedDict):
    """The viewing seat's own hidden things."""

    seat: int
    hand: dict[str, int]  # kind -> count
    cards: list[CardView]  # the population cards in hand, by class, most nuns first
    rats: int
    rat_token_values: list[int]
    committed: dict[str, int]
    nuns_seen: int
    nun_cards_seen: int


class FinalView(TypedDict):
    """The reckoning at the end: nuns against every seat's rats, and the scores."""

    nuns: int
    rats: list[int]
    dead: list[bool]
    scores: list[int]


class _YouPart(TypedDict, total=False):
    you: YouView


class RattusView(TypedDict):
    """Everything a seat may see of the game (`view`)."""

    game: str
    viewer: int | None
    names: list[str]
    round: int
    rounds: int
    phase: str  # supply / enter / resolve / over
    start: int
    to_move: int | None
    classes: list[list[str]]  # [key, name] per class
    players: list[PlayerView]
    row: list[BuildingView]
    nun_row: list[NunCardView]
    supply: dict[str, int]
    deck: int
    discard: int
    discard_by_class: dict[str, int]
    discard_by_nuns: list[int]
    building_deck: int
    replacement_deck: int
    buildings_in_game: list[str]
    options: dict[str, str]
    you: NotRequired[YouView]  # a seat's view only (not an observer's, not the public one)
    final: FinalView | None
    kind_names: dict[str, str]
    n: int


def _card(card: int) -> CardView:
    return {"class": CLASSES[CARD_CLASS[card]], "nuns": CARD_NUNS[card]}


def _committed(p: Player) -> dict[str, int]:
    out = {k: 0 for k in COMMIT_KINDS}
    for c in p.c_pop:
        out[CLASSES[CARD_CLASS[c]]] += 1
    out["joker"] = p.c_jokers
    out["sword"] = p.c_swords
    out["flute"] = p.c_flutes
    return {k: v for k, v in out.items() if v}


def _shown(kinds: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in kinds:
        out[k] = out.get(k, 0) + 1
    return out


def _hand(p: Player) -> dict[str, int]:
    return {k: c for k, c in zip(HAND_KINDS, hand_counts(p), strict=True) if c}


def view(s: RattusState, seat: int | None) -> RattusView:
    """Everything `seat` may see (None: everything). Nothing of other seats' hidden things.

    Hidden from other seats: hand contents, committed cards until revealed, rat totals
    (only the number of rat tokens shows), and the Nun-row cards the seat has not looked at.
    At the end the Nun-row and all rat totals are revealed.
    """
    over = s.phase == "over"
    head = s.pending[0] if s.pending else None
    disc_classes = {c: 0 for c in CLASSES}
    disc_nuns = [0] * 5
    for c in s.discard:
        disc_classes[CLASSES[CARD_CLASS[c]]] += 1
        disc_nuns[CARD_NUNS[c]] += 1
    you: _YouPart = {} if seat in (None, PUBLIC) else {"you": _you(s, seat)}
    return {
        "game": "rattus-cartus",
        "viewer": seat,
        "names": list(s.names),
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "start": s.start,
        "to_move": head.seat if head is not None else None,
        "classes": [[c, CLASS_NAMES[c]] for c in CLASSES],
        "players": [_player(s, i, seat) for i in range(len(s.players))],
        "row": [_building(s, i) for i in range(len(s.row))],
        "nun_row": _nun_row(s, seat),
        "supply": dict(s.supply),
        "deck": len(s.deck),
        "discard": len(s.discard),
        "discard_by_class": disc_classes,
        "discard_by_nuns": disc_nuns,
        "building_deck": len(s.bdeck),
        "replacement_deck": len(s.replacement),
        "buildings_in_game": list(s.buildings),
        "options": dict(s.options),
        **you,
        "final": _final(s) if over else None,
        "kind_names": dict(KIND_NAMES),
        "n": len(s.players),
    }


def _player(s: RattusState, i: int, seat: int | None) -> PlayerView:
    """Seat `i` as `seat` sees it."""
    p = s.players[i]
    omni = seat is None
    out: PlayerView = {
        "seat": i,
        "name": s.names[i],
        "hand": p.hand_size(),
        "rat_tokens": len(rat_tokens(p.rats)),
        "gold": p.gold,
        "vp_tokens": p.vp,
        "track": list(p.track),
        "entered": p.entered + 1,  # row position, 0 = not yet
        "cards_in_building": len(p.shown) if p.revealed else p.committed(),
        "revealed": _shown(p.shown) if p.revealed else None,
        "passed": p.passed,
        "seen": [pos + 1 for pos in p.seen],
        "influence_this_round": p.gained,
        "start_player": i == s.start,
    }
    if omni or s.phase == "over" or i == seat:
        out["rats"] = p.rats
    if omni or i == seat:
        out["hand_cards"] = _hand(p)
        out["committed_cards"] = _committed(p)
    return out


def _building(s: RattusState, i: int) -> BuildingView:
    """The building at row position `i` (0-based) with the discs on it."""
    card = s.row[i]
    b = building_of(card)
    discs: list[DiscView] = []
    for space, o in enumerate(s.discs[i]):
        q = s.players[o]
        discs.append(
            {
                "seat": o,
                "space": space + 1,
                "cards": len(q.shown) if q.revealed else q.committed(),
                "revealed": _shown(q.shown) if q.revealed else None,
            }
        )
    return {
        "pos": i + 1,
        "key": b.key,
        "name": b.name,
        "class": b.cls,
        "supply": supply_of(card).text(),
        "supply_parts": [supply_of(card).draw, supply_of(card).rats, supply_of(card).look],
        "premium": b.premium_text,
        "standard": b.standard_text,
        "discs": discs,
    }


def _nun_row(s: RattusState, seat: int | None) -> list[NunCardView]:
    omni_or_over = seat is None or s.phase == "over"
    out: list[NunCardView] = []
    for pos, card in enumerate(s.nun_row):
        known = omni_or_over or (seat not in (None, PUBLIC) and pos in s.players[seat].seen)
        out.append(
            {
                "pos": pos + 1,
                "seen_by": [i for i, p in enumerate(s.players) if pos in p.seen],
                "card": _card(card) if known else None,
            }
        )
    return out


def _you(s: RattusState, seat: int) -> YouView:
    p = s.players[seat]
    nuns_seen = [CARD_NUNS[s.nun_row[pos]] for pos in p.seen]
    return {
        "seat": seat,
        "hand": _hand(p),
        "cards": sorted((_card(c) for c in p.pop), key=lambda c: (c["class"], -c["nuns"])),
        "rats": p.rats,
        "rat_token_values": rat_tokens(p.rats),
        "committed": _committed(p),
        "nuns_seen": sum(nuns_seen),
        "nun_cards_seen": len(nuns_seen),
    }


def _final(s: RattusState) -> FinalView:
    sc = scoring.compute(s, True)
    return {
        "nuns": sc.nuns,
        "rats": [p.rats for p in s.players],
        "dead": sc.dead,
        "scores": sc.totals,
    }
