"""What each seat may see of a game of Notre Dame: `view(game, s, viewer)`, typed.

The TUI (tui/games/notre_dame.py) draws only from these views, so nothing it shows can leak
what the viewer may not see. Cards, sectors and locations are keys of `data` ("cloister",
"notredame", "friend"), market places their `data.node_key`, colours names of `data.COLOURS`.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..core.protocol import PUBLIC, Game
from . import data
from .queries import count, park_bonus, plague_value, rat_after_plague
from .state import DRAFT, OVER, NotreDameState

_CPC = data.CARDS_PER_COLOUR


def _card(code: int) -> str:
    return data.CARDS[code % _CPC]


def _period(s: NotreDameState) -> str:
    return data.PERIOD_LETTERS[(s.round - 1) // data.ROUNDS_PER_PERIOD]


class PlayerView(TypedDict):
    """A player's public board: pieces, resources, rat, messages; prestige if visible."""

    seat: int
    name: str
    colour: str
    borough: int  # the player's borough (index of `NotreDameView.boroughs`)
    bell_ringer: bool
    gold: int
    supply: int  # personal supply markers
    general: int  # markers in the general supply
    sectors: dict[str, int]  # sector -> markers (the friend not included)
    friend: str | None  # location of the trusted friend (None: in the play area)
    notre_dame: int  # markers in Notre Dame (the friend not included)
    rat: int
    rat_after_plague: int  # where the rat would end this round's plague
    overflow_threat: bool  # ... and whether it would pass the end of the track
    hospital: int  # pieces in the hospital (the friend included)
    park_bonus: int  # extra prestige on every other gain
    carriage: str  # market place of the carriage
    messages: dict[str, int]  # colour -> messages held (colours held only)
    messages_total: int
    prestige: int | None  # None: hidden from this viewer
    prestige_sources: dict[str, int] | None  # source key (data.SOURCE_LABELS) -> prestige
    cards_held: int
    deck: int  # cards left in the player's face-down stack
    played: list[str]  # cards played this round
    # card backs show their owner (by seat): those of the cards held, drawn, passed to the
    # player and kept for later, sorted, and of the cards played
    backs: dict[str, list[int]]
    hired: str | None  # person hired this round
    doctor: bool  # the Doctor protects this round


class MarketPlaceView(TypedDict):
    """A market place: its message (if still there) and the carriages on it."""

    key: str
    borough: int
    place: str  # "C" (centre) or "O1"-"O4" (edges)
    message: str | None  # the colour of the message there
    carriages: list[int]  # seats
    reward: NotRequired[str]  # the message's reward (published rules only, where one lies)


class PersonView(TypedDict):
    """A face-up person card."""

    key: str
    name: str
    deck: str  # "brown", or the gray deck's period letter
    rats: int
    text: str


class BoroughView(TypedDict):
    """A borough: its owner (None: an empty borough of 2 players) and colour."""

    index: int
    seat: int | None
    colour: str


class NotreDameBoxView(TypedDict):
    """Notre Dame itself: the scoring pool and the pieces in it."""

    pool: int
    markers: list[int]  # seat -> markers and friend
    total: int
    friends: list[int]  # seats whose trusted friend is in Notre Dame


class CardsView(TypedDict):
    """A seat's own cards (only that seat, or an observer, sees them)."""

    seat: int
    hand: list[str]
    choose: list[str]  # the draft: the cards to choose from
    passed: list[str]  # the 2 cards passed left in the first draft step
    passed_on: list[str]  # the card passed on in the second
    thirds: list[str]  # this period's unplayed third cards


class NotreDameView(TypedDict):
    """Everything a viewer may see. `hands`: an observer's (every seat's cards); `you`: a
    seat's own cards; neither for PUBLIC."""

    game: str
    names: list[str]
    players_count: int
    rules: str  # "standard" or "published"
    scores: str  # "hidden" or "open"
    round: int
    rounds: int
    period: str  # "A", "B", "C"
    phase: str  # state.DRAFT ... state.OVER
    draft_step: int
    lap: int  # actions: 0 the first card, 1 the second
    over: bool
    bell_ringer: int
    to_move: int | None
    decision: str | None  # the prompt's text
    viewer: int | None
    bank: int
    persons: list[PersonView]
    plague_value: int
    brown_left: int
    gray_left: int
    gray_next: str | None  # the period letter of the next gray person
    boroughs: list[BoroughView]
    market: list[MarketPlaceView]
    notre_dame: NotreDameBoxView
    players: list[PlayerView]
    played_this_period: list[str]
    played_backs: list[int]  # the owners of the cards played this period
    hands: NotRequired[list[CardsView]]
    you: NotRequired[CardsView]


# ---- view ---------------------------------------------------------------------------------
def view(game: Game[NotreDameState], s: NotreDameState, viewer: int | None) -> NotreDameView:
    """Everything `viewer` may see (None: an omniscient observer) as plain data."""
    over = s.phase == OVER
    scores_visible = viewer is None or over or s.open_scores
    prompt = game.prompt(s)
    players = [_player(s, seat, scores_visible or viewer == seat) for seat in range(s.n)]
    nd_counts = [count(s, seat, data.NOTRE_DAME) for seat in range(s.n)]
    gray_next = data.PERSON_BY_KEY[s.gray_deck[-1]].deck if s.gray_deck else None
    out: NotreDameView = {
        "game": "notre-dame",
        "names": list(s.names),
        "players_count": s.n,
        "rules": "published" if s.published else "standard",
        "scores": "open" if s.open_scores else "hidden",
        "round": s.round,
        "rounds": data.ROUNDS,
        "period": _period(s),
        "phase": s.phase,
        "draft_step": s.draft_step,
        "lap": s.lap,
        "over": over,
        "bell_ringer": s.start,
        "to_move": prompt.seat if prompt else None,
        "decision": prompt.text if prompt else None,
        "viewer": viewer,
        "bank": s.bank,
        "persons": [
            {
                "key": k,
                "name": data.PERSON_BY_KEY[k].name,
                "deck": data.PERSON_BY_KEY[k].deck,
                "rats": data.PERSON_BY_KEY[k].rats,
                "text": data.PERSON_BY_KEY[k].text,
            }
            for k in s.persons
        ],
        "plague_value": plague_value(s),
        "brown_left": len(s.brown_deck),
        "gray_left": len(s.gray_deck),
        "gray_next": gray_next,
        "boroughs": [
            {
                "index": b,
                "seat": s.boroughs[b] if s.boroughs[b] >= 0 else None,
                "colour": data.COLOURS[s.borough_colour[b]],
            }
            for b in range(len(s.boroughs))
        ],
        "market": _market(s),
        "notre_dame": {
            "pool": data.ND_POOL[s.n],
            "markers": nd_counts,
            "total": sum(nd_counts),
            "friends": [seat for seat in range(s.n) if s.friend[seat] == data.NOTRE_DAME],
        },
        "players": players,
        "played_this_period": [_card(c) for c in s.discard],
        "played_backs": [c // _CPC for c in s.discard],
    }
    if viewer is None:
        out["hands"] = [_private(s, seat) for seat in range(s.n)]
    elif viewer != PUBLIC:
        out["you"] = _private(s, viewer)
    return out


def _player(s: NotreDameState, seat: int, sees_prestige: bool) -> PlayerView:
    """`seat`'s board as every viewer sees it, its prestige only if `sees_prestige`."""
    f = s.friend[seat]
    after, overflow = rat_after_plague(s, seat)
    return {
        "seat": seat,
        "name": s.names[seat],
        "colour": data.COLOURS[seat],
        "borough": s.home[seat],
        "bell_ringer": seat == s.start,
        "gold": s.gold[seat],
        "supply": s.supply[seat],
        "general": s.general[seat],
        "sectors": {data.SECTORS[k]: s.sectors[seat][k] for k in range(len(data.SECTORS))},
        "friend": data.LOCATIONS[f] if f >= 0 else None,
        "notre_dame": s.nd[seat],
        "rat": s.rat[seat],
        "rat_after_plague": after,
        "overflow_threat": overflow,
        "hospital": count(s, seat, data.HOSPITAL),
        "park_bonus": park_bonus(s, seat),
        "carriage": data.node_key(s.carriage[seat]),
        "messages": {
            data.COLOURS[c]: s.msgs[seat][c] for c in range(len(data.COLOURS)) if s.msgs[seat][c]
        },
        "messages_total": sum(s.msgs[seat]),
        "prestige": s.prestige[seat] if sees_prestige else None,
        "prestige_sources": dict(s.sources[seat]) if sees_prestige else None,
        "cards_held": len(s.hands[seat]) + len(s.drawn[seat]) + len(s.incoming[seat]),
        "deck": len(s.decks[seat]),
        "played": [_card(c) for c in s.played[seat]],
        "backs": {
            "hand": sorted(c // _CPC for c in s.hands[seat]),
            "choosing": sorted(c // _CPC for c in s.drawn[seat]),
            "received": sorted(c // _CPC for c in s.incoming[seat]),
            "set_aside": sorted(c // _CPC for c in s.thirds[seat]),
            "played": [c // _CPC for c in s.played[seat]],
        },
        "hired": s.hired[seat] or None,
        "doctor": s.doctor[seat],
    }


def _market(s: NotreDameState) -> list[MarketPlaceView]:
    """The market places, in node order."""
    market: list[MarketPlaceView] = []
    for node, code in enumerate(s.board_msg):
        b, k = divmod(node, data.NODES_PER_BOROUGH)
        entry: MarketPlaceView = {
            "key": data.node_key(node),
            "borough": b,
            "place": data.NODE_LABELS[k],
            "message": data.COLOURS[code // 4] if code >= 0 else None,
            "carriages": [seat for seat in range(s.n) if s.carriage[seat] == node],
        }
        if s.published and code >= 0:
            entry["reward"] = data.REWARDS[code % 4].text
        market.append(entry)
    return market


def _private(s: NotreDameState, seat: int) -> CardsView:
    """What `seat` alone knows: its cards, the cards it passed left this round (the two of
    the first draft step, then the one of the second), its unplayed third cards."""
    return {
        "seat": seat,
        "hand": [_card(c) for c in s.hands[seat]],
        "choose": [_card(c) for c in s.drawn[seat]] if s.phase == DRAFT else [],
        "passed": [_card(c) for c in s.passed1[seat]],
        "passed_on": [_card(c) for c in s.passed2[seat]],
        "thirds": [_card(c) for c in s.thirds[seat]],
    }
