"""What a seat sees of a game of 1347: the view the TUI draws, typed part by part."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from boardgames_tui.engine.core.protocol import PUBLIC

from . import data, logic, scoring
from .decisions import PHASES
from .state import PestisState


class StackView(TypedDict):
    """One seat's investment in an area; `values` and `total` only where the viewer sees them."""

    seat: int
    tokens: int
    reinforcements: int
    gd_tokens: int
    base: int
    leeches: int
    values: NotRequired[list[int]]
    total: NotRequired[int]


class SightingView(TypedDict):
    """Tokens of another seat that the viewer's Informer saw in an area."""

    owner: int
    values: list[int]


class RevealView(TypedDict):
    """What the reveal of an area showed (kept until the end of the round)."""

    tokens: list[list[int]]
    reinforcements: list[int]
    gd_tokens: list[int]
    extra: list[int]  # development base points and subject/Leeches bonuses in the total
    totals: list[int]
    investors: list[int]
    active: int


class AreaView(TypedDict):
    key: str
    name: str
    number: int
    action: str
    closed: bool
    quarantined: bool
    blocked_for: list[int]
    revealed: bool
    current: bool
    stacks: list[StackView]
    informer: list[SightingView]
    result: RevealView | None


class SubjectView(TypedDict):
    """A subject card a player holds."""

    key: str
    name: str
    healed: bool
    token: int
    upkeep: int
    ability: str


class PlayerView(TypedDict):
    seat: int
    name: str
    first: bool
    coins: int
    reserve: int
    agrus: int
    docks: int
    tokens_in_hand: int
    hand: list[int] | None  # None: not the viewer's
    token_values: list[int]
    subjects: list[SubjectView]
    infected: int
    healed: int
    developments: list[str]
    resources: list[str] | None  # None: not the viewer's
    resource_count: int
    played: list[str]
    relic: bool
    remedy: bool
    gd_token_used: bool
    wealth: int


class EventView(TypedDict):
    key: str
    name: str
    text: str
    period: int


class BurgusView(TypedDict):
    """A subject card on offer in the Burgus."""

    key: str
    name: str
    cost: int
    token: int
    upkeep: int
    ability: str


class ResourceView(TypedDict):
    key: str
    name: str
    text: str


class PestisView(TypedDict):
    """The whole table as `you` may see it (None: an omniscient observer)."""

    game: str
    you: int | None
    names: list[str]
    round: int
    rounds: int
    period: int
    phase: str
    over: bool  # the game has ended
    first_player: int
    to_move: int | None
    area_active: int | None
    event: EventView
    events_seen: list[str]
    events_left: list[int]
    areas: list[AreaView]
    burgus: list[BurgusView]
    subject_deck: int
    subject_discard: list[str]  # face up, as the rulebook has them: every card by name
    resource_top: ResourceView | None
    resource_deck: int
    resource_discard: list[str]
    players: list[PlayerView]


def view(s: PestisState, viewer: int | None, game_id: str, to_move: int | None) -> PestisView:
    """Everything `seat` may see (None: everything; PUBLIC: nobody's hand)."""
    ev = data.EVENTS[s.event]
    top = s.res_deck[-1] if s.res_deck else None
    return {
        "game": game_id,
        "you": None if viewer == PUBLIC else viewer,
        "names": list(s.names),
        "round": s.round,
        "rounds": data.ROUNDS,
        "period": logic.period_of(s.round),
        "phase": PHASES.get(s.phase, "Game over" if s.phase == "over" else s.phase),
        "over": s.phase == "over",
        "first_player": s.first,
        "to_move": to_move,
        "area_active": s.area if s.phase == "action" else None,
        "event": {"key": ev.key, "name": ev.name, "text": ev.text, "period": ev.period},
        "events_seen": [data.EVENTS[e].name for e in s.events_seen],
        "events_left": [len(d) for d in s.event_decks],
        "areas": [area_view(s, a, viewer) for a in range(len(data.AREAS))],
        "burgus": [
            {
                "key": k,
                "name": data.SUBJECTS[k].name,
                "cost": data.SUBJECTS[k].cost,
                "token": data.SUBJECTS[k].token,
                "upkeep": data.SUBJECTS[k].upkeep,
                "ability": data.SUBJECTS[k].ability,
            }
            for k in s.burgus
        ],
        "subject_deck": len(s.subj_deck),
        "subject_discard": [data.SUBJECTS[k].name for k in s.subj_discard],
        "resource_top": None
        if top is None
        else {"key": top, "name": data.RESOURCES[top].name, "text": data.RESOURCES[top].text},
        "resource_deck": len(s.res_deck),
        "resource_discard": [data.RESOURCES[r].name for r in s.res_discard],
        "players": [player_view(s, seat, viewer) for seat in range(s.n)],
    }


def stack_view(s: PestisState, a: int, seat: int, viewer: int | None) -> StackView:
    toks = s.invest[a][seat]
    st: StackView = {
        "seat": seat,
        "tokens": len(toks),
        "reinforcements": s.reinf[a][seat],
        "gd_tokens": s.gdtok[a][seat],
        "base": logic.base_points(s, seat, a),
        "leeches": s.leeches[a][seat],
    }
    if viewer is None or seat == viewer or s.revealed[a]:
        st["values"] = sorted(toks, reverse=True)
        st["total"] = logic.total(s, a, seat)
    return st


def area_view(s: PestisState, a: int, viewer: int | None) -> AreaView:
    key = data.AREAS[a]
    seen: list[SightingView] = []
    if viewer not in (None, PUBLIC):
        seen = [{"owner": q, "values": list(vals)} for ar, q, vals in s.informed[viewer] if ar == a]
    res = s.results[a]
    return {
        "key": key,
        "name": data.AREA_NAMES[key],
        "number": a + 1,
        "action": data.AREA_ACTIONS[key],
        "closed": logic.closed(s, a),
        "quarantined": s.quarantined[a],
        "blocked_for": [seat for seat in range(s.n) if a in s.blocked[seat]],
        "revealed": s.revealed[a],
        "current": s.phase == "action" and s.area == a,
        "stacks": [stack_view(s, a, seat, viewer) for seat in range(s.n)],
        "informer": seen,
        "result": None
        if res is None
        else {
            "tokens": [list(t) for t in res["tokens"]],
            "reinforcements": list(res["reinf"]),
            "gd_tokens": list(res["gdtok"]),
            "extra": [
                total - sum(tokens) - reinf - gd
                for total, tokens, reinf, gd in zip(
                    res["totals"], res["tokens"], res["reinf"], res["gdtok"], strict=True
                )
            ],
            "totals": list(res["totals"]),
            "investors": list(res["who"]),
            "active": res["active"],
        },
    }


def player_view(s: PestisState, seat: int, viewer: int | None) -> PlayerView:
    own = viewer is None or seat == viewer
    return {
        "seat": seat,
        "name": s.names[seat],
        "first": seat == s.first,
        "coins": s.coins[seat],
        "reserve": s.reserve[seat],
        "agrus": s.agrus[seat],
        "docks": s.docks[seat],
        "tokens_in_hand": len(s.hand[seat]),
        "hand": list(s.hand[seat]) if own else None,
        "token_values": sorted(scoring.tokens_owned(s, seat), reverse=True),
        "subjects": [
            {
                "key": k,
                "name": data.SUBJECTS[k].name,
                "healed": h,
                "token": data.SUBJECTS[k].token,
                "upkeep": data.SUBJECTS[k].upkeep,
                "ability": data.SUBJECTS[k].ability,
            }
            for k, h in s.subjects[seat].items()
        ],
        "infected": sum(1 for h in s.subjects[seat].values() if not h),
        "healed": sum(1 for h in s.subjects[seat].values() if h),
        "developments": [data.DEV_NAMES[d] for d in s.devs[seat]],
        "resources": [data.RESOURCES[r].name for r in sorted(s.res_hand[seat])] if own else None,
        "resource_count": len(s.res_hand[seat]),
        "played": [data.RESOURCES[r].name for r in s.res_played[seat]],
        "relic": s.relic[seat],
        "remedy": s.remedy[seat],
        "gd_token_used": s.gd_used[seat],
        "wealth": scoring.wealth(s, seat),
    }
