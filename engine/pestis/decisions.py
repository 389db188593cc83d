"""The decisions of 1347, one prompt and one play per kind, and `CHOICES` (the table's choices).

Kinds: the steps of an investment turn (`invest`, then `token` + `reinforce`, `law`, or the
card played: `spreader` + `spreader_area`, `seal` + `seal_area`, `leeches`, `quarantine`,
`informer`, `theriac`); the area actions (`schola`, `burgus`, `mercatus`, `agrus`, `portus`,
`victim` + `rob` in Suburbium); a loser's `convert`; the upkeep's `heal` and `keep`; the
Wave of deaths' `wave`.

Move ids are stable strings: `token:3`, `token:gd`, `play:leeches`, `area:burgus`, `reinf:2`,
`target:1`, `seal:burgus:3`, `heal:hangman` (Theriac), `build:apotheca:gd`,
`build:apotheca:leeches`, `buy`, `agrus`, `take:hangman`, `sell:leeches`, `victim:2`,
`steal:gd`, `steal:res`, `steal:coins:3`, `convert:coins`, `convert:gd`,
`heal:hangman:leeches` (upkeep), `keep:hangman`, `discard:hangman`, `pass`, `done`.

A play applies the move and hands back to the flow of the round with an automatic kind in
`pending` (`hand_back`), which the core's driver runs through rules.py: this module stays
below the flow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from boardgames_tui.engine.core import chance
from boardgames_tui.engine.core.decisions import Kind, choice
from boardgames_tui.engine.core.protocol import Event, Game, IllegalMove, Move, Prompt

from . import data, logic
from .logic import area_name, law_option, name, plural
from .resources import (
    buy_resource,
    discard_resource,
    resolve_informer,
    resolve_leeches,
    resolve_quarantine,
    resolve_seal,
    resolve_simple_resource,
    resolve_spreader,
    resolve_theriac,
    sell_resource,
)
from .state import PestisDecision, PestisState

Out = list[Event]
T = TypeVar("T")

AREA_INDEX = {k: i for i, k in enumerate(data.AREAS)}
PHASES = {"invest": "Investments", "action": "Actions", "upkeep": "Upkeep", "event": "Event"}


# The game object goes to every handler, as the shared pattern has it; these handlers need
# only the state.
TheGame = Game[PestisState]

# What a play hands back to: the flow of the round goes on through these automatic kinds,
# which rules.py runs (this module stays below the flow).
HAND_BACKS = ("end_turn", "finish_action", "after_conversion", "upkeep_pay", "after_wave")


def hand_back(s: PestisState, kind: str) -> None:
    """The decision is taken: the flow of the round goes on with `kind` (in HAND_BACKS)."""
    s.pending = [PestisDecision(kind)]


# ---- helpers ---------------------------------------------------------------------------------
def _distinct(items: list[T]) -> list[T]:
    seen: list[T] = []
    for x in items:
        if x not in seen:
            seen.append(x)
    return seen


def decide(s: PestisState, kind: str, seat: int) -> None:
    """`seat` decides `kind` next (1347 has one decision pending at a time)."""
    s.pending = [PestisDecision(kind, seat)]


def _step(s: PestisState, d: PestisDecision) -> None:
    """The next step of the same investment turn replaces the head."""
    s.pending[0] = d


# =============================================================================================
# 3.1 Investments: the effects
# =============================================================================================
def place_token(s: PestisState, seat: int, value: int, area: int, reinf: int, out: Out) -> None:
    s.hand[seat].remove(value)
    s.invest[area][seat].append(value)
    s.reserve[seat] -= reinf
    s.reinf[area][seat] += reinf
    extra = f" reinforced by {plural(reinf, 'grave-digger')}" if reinf else ""
    an = area_name(area)
    out.append(
        Event(
            f"{name(s, seat)} invests a {value}-point token in {an}{extra}.",
            seat=seat,
            public=f"{name(s, seat)} invests a token in {an}{extra}.",
        )
    )


def place_gd_token(s: PestisState, seat: int, area: int, out: Out) -> None:
    s.reserve[seat] -= 1
    s.gdtok[area][seat] += 1
    s.gd_used[seat] = True
    out.append(
        Event(
            f"{name(s, seat)} invests a grave-digger as a 1-point token in "
            f"{area_name(area)} (agrarian law)."
        )
    )


# =============================================================================================
# 3.1 Investments: the moves
# =============================================================================================
def resource_playable(s: PestisState, seat: int, key: str) -> bool:
    """Cards that need something to act on are offered only when they can act."""
    if key == "theriac":
        return any(not h for h in s.subjects[seat].values())
    if key == "seal":
        return any(
            s.invest[a][seat] and any(logic.can_invest_in(s, seat, b) for b in range(6) if b != a)
            for a in range(6)
        )
    if key == "quarantine":
        return any(not logic.closed(s, a) and not s.quarantined[a] for a in range(6))
    return True


# Moves are immutable: the frequent ones are built once and reused (prompt() stays cheap).
_AREA_MOVES: dict[tuple[int, int, int], Move] = {}
_TOKEN_MOVES: dict[int, Move] = {}
_REINF_MOVES: dict[tuple[int, int, int], tuple[Move, ...]] = {}
_PLAY_MOVES: dict[str, Move] = {}


def _area_move(a: int, now: int, then: int) -> Move:
    m = _AREA_MOVES.get((a, now, then))
    if m is None:
        key = data.AREAS[a]
        m = Move(f"area:{key}", data.AREA_NAMES[key], f"your total here {now} → {then}")
        _AREA_MOVES[(a, now, then)] = m
    return m


def _token_move(v: int) -> Move:
    m = _TOKEN_MOVES.get(v)
    if m is None:
        m = Move(f"token:{v}", f"Invest your {v}-point token", "then choose an area")
        _TOKEN_MOVES[v] = m
    return m


def _play_move(key: str) -> Move:
    m = _PLAY_MOVES.get(key)
    if m is None:
        r = data.RESOURCES[key]
        m = Move(f"play:{key}", f"Play {r.name}", r.text + " (+1 wealth point)")
        _PLAY_MOVES[key] = m
    return m


def _reinf_moves(a: int, base: int, r: int) -> tuple[Move, ...]:
    ms = _REINF_MOVES.get((a, base, r))
    if ms is None:
        out = [Move("reinf:0", "No reinforcement", f"your total in {area_name(a)} {base}")]
        for k in range(1, r + 1):
            out.append(
                Move(
                    f"reinf:{k}",
                    f"Reinforce with {plural(k, 'grave-digger')}",
                    f"total {base} → {base + k}; reserve {r} → {r - k}; they go to the docks",
                )
            )
        ms = _REINF_MOVES[(a, base, r)] = tuple(out)
    return ms


def _area_moves(s: PestisState, seat: int, add: int, exclude: int = -1) -> list[Move]:
    """Areas where `seat` may invest, previewing its total there before and after `add`."""
    out = []
    shut = data.CLOSES.get(s.event, -1)
    blocked = s.blocked[seat]
    for a in range(6):
        if a in (exclude, shut) or a in blocked:
            continue
        if s.invest[a][seat] or s.gdtok[a][seat]:
            now = logic.total(s, a, seat)
            then = now + add
        else:
            now = logic.base_points(s, seat, a) if s.devs[seat] else 0
            then = now + add + logic.bonus_points(s, seat, a) if add else now
        out.append(_area_move(a, now, then))
    return out


def _open_area_moves(
    s: PestisState, preview: Callable[[int], str], skip: Callable[[int], bool] = lambda a: False
) -> tuple[Move, ...]:
    """Every area not closed by the event (nor skipped), with a preview per area."""
    return tuple(
        Move(f"area:{k}", area_name(a), preview(a))
        for a, k in enumerate(data.AREAS)
        if not logic.closed(s, a) and not skip(a)
    )


def _others_tokens(s: PestisState, a: int, seat: int) -> int:
    return sum(len(s.invest[a][q]) for q in range(s.n) if q != seat)


def _invest_prompt(
    s: PestisState, d: PestisDecision, text: str, moves: tuple[Move, ...], step: int
) -> Prompt:
    """A step of an investment turn: private (it shows the seat's tokens and cards)."""
    seat = d.seat
    return Prompt(
        seat, f"{s.names[seat]}: {text}", moves, private=True, step=step, phase="Investments"
    )


def _card(key: str) -> str:
    return data.RESOURCES[key].name


def _arg(mid: str) -> str:
    """What a move id says after its head: `burgus` in `area:burgus`."""
    return mid.partition(":")[2]


def _area_id(mid: str) -> int:
    """The area a move id such as `area:burgus` names."""
    return AREA_INDEX[_arg(mid)]


# What an earlier step of the turn chose (always there at the steps that read it).
def _value(d: PestisDecision) -> int:
    if d.value is None:
        raise IllegalMove(f"no token chosen ({d.kind})")
    return d.value


def _area(a: int | None) -> int:
    if a is None:
        raise IllegalMove("no area chosen")
    return a


def _target(d: PestisDecision) -> int:
    if d.target is None:
        raise IllegalMove("no player named")
    return d.target


# ---- invest: a token, the law grave-digger, a resource card, or stop ---------------------------
def prompt_invest(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    seat = d.seat
    moves = [_token_move(v) for v in _distinct(s.hand[seat])]
    law = law_option(s, seat)
    if law:
        r = s.reserve[seat]
        moves.append(
            Move(
                "token:gd",
                "Invest a grave-digger as a 1-point token (agrarian law)",
                f"reserve {r} → {r - 1}; it comes back after its area",
            )
        )
    for key in _distinct(s.res_hand[seat]):
        if resource_playable(s, seat, key):
            moves.append(_play_move(key))
    if not s.hand[seat] and law:
        moves.append(Move("pass", "Stop investing (keep your grave-diggers)", ""))
    return _invest_prompt(s, d, "invest a token or play a resource card", tuple(moves), 0)


def play_invest(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    seat = d.seat
    head, _, arg = mid.partition(":")
    if head == "token":
        if arg == "gd":
            _step(s, PestisDecision("law", seat))
        else:
            _step(s, PestisDecision("token", seat, value=int(arg)))
    elif head == "play":
        if data.RESOURCES[arg].target:
            _step(s, PestisDecision(arg, seat))
        else:
            resolve_simple_resource(s, seat, arg, out)
            hand_back(s, "end_turn")
    elif head == "pass":
        s.gd_passed[seat] = True
        out.append(Event(f"{name(s, seat)} stops investing."))
        hand_back(s, "end_turn")
    else:
        raise IllegalMove(mid)


# ---- token: where the token goes; reinforce: how many grave-diggers with it ---------------------
def prompt_token(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    v = _value(d)
    text = f"where do you invest your {v}-point token?"
    return _invest_prompt(s, d, text, tuple(_area_moves(s, d.seat, v)), 1)


def play_token(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    seat, v = d.seat, _value(d)
    a = _area_id(mid)
    if s.reserve[seat] > 0 and not s.quarantined[a]:
        _step(s, PestisDecision("reinforce", seat, value=v, area=a))
        return
    place_token(s, seat, v, a, 0, out)
    hand_back(s, "end_turn")


def prompt_reinforce(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    seat, v, a = d.seat, _value(d), _area(d.area)
    if logic.has_tokens(s, a, seat):
        base = logic.total(s, a, seat) + v
    else:
        base = logic.base_points(s, seat, a) + v + logic.bonus_points(s, seat, a)
    text = f"reinforce your {v}-point token in {area_name(a)}?"
    return _invest_prompt(s, d, text, _reinf_moves(a, base, s.reserve[seat]), 2)


def play_reinforce(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    place_token(s, d.seat, _value(d), _area(d.area), int(_arg(mid)), out)
    hand_back(s, "end_turn")


# ---- law: the area of the grave-digger token (agrarian law) -----------------------------------
def prompt_law(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    text = "where do you invest the grave-digger token?"
    return _invest_prompt(s, d, text, tuple(_area_moves(s, d.seat, 1)), 1)


def play_law(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    place_gd_token(s, d.seat, _area_id(mid), out)
    hand_back(s, "end_turn")


# ---- Plague spreader for hire: a player, then the area closed to them ---------------------------
def prompt_spreader(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    seat = d.seat
    moves = tuple(
        Move(f"target:{q}", f"Name {s.names[q]}", "then choose the area closed to them")
        for q in logic.order_from(s, (seat + 1) % s.n)
        if q != seat
    )
    return _invest_prompt(s, d, f"{_card('spreader')} — which player?", moves, 1)


def play_spreader(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    _step(s, PestisDecision("spreader_area", d.seat, target=int(_arg(mid))))


def prompt_spreader_area(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    q = _target(d)
    moves = _open_area_moves(
        s, lambda a: f"{s.names[q]} may not invest here this round", lambda a: a in s.blocked[q]
    )
    text = f"{_card('spreader')} — which area is closed to {s.names[q]}?"
    return _invest_prompt(s, d, text, moves, 2)


def play_spreader_area(
    game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out
) -> None:
    resolve_spreader(s, d.seat, _target(d), _area_id(mid), out)
    hand_back(s, "end_turn")


# ---- Leeches, Quarantine, Informer: an area; Theriac: a subject --------------------------------
def prompt_leeches(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    bonus = data.LEECHES_BONUS
    moves = _open_area_moves(s, lambda a: f"+{bonus} to your total here (with a token)")
    return _invest_prompt(s, d, f"{_card('leeches')} — which area gets +{bonus}?", moves, 1)


def play_leeches(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    resolve_leeches(s, d.seat, _area_id(mid), out)
    hand_back(s, "end_turn")


def prompt_quarantine(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    moves = _open_area_moves(
        s, lambda a: "no more reinforcements here this round", lambda a: s.quarantined[a]
    )
    text = f"{_card('quarantine')} — which area gets no more reinforcements?"
    return _invest_prompt(s, d, text, moves, 1)


def play_quarantine(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    resolve_quarantine(s, d.seat, _area_id(mid), out)
    hand_back(s, "end_turn")


def prompt_informer(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    seat = d.seat
    moves = _open_area_moves(
        s, lambda a: f"{plural(_others_tokens(s, a, seat), 'token')} of others here"
    )
    return _invest_prompt(
        s, d, f"{_card('informer')} — look at the tokens of which area?", moves, 1
    )


def play_informer(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    resolve_informer(s, d.seat, _area_id(mid), out)
    hand_back(s, "end_turn")


def prompt_theriac(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    moves = tuple(
        Move(
            f"heal:{k}",
            f"Heal the {data.SUBJECTS[k].name}",
            f"+{data.SUBJECTS[k].token}-point token now; upkeep {data.SUBJECTS[k].upkeep}",
        )
        for k, h in s.subjects[d.seat].items()
        if not h
    )
    return _invest_prompt(s, d, f"{_card('theriac')} — heal which subject?", moves, 1)


def play_theriac(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    resolve_theriac(s, d.seat, _arg(mid), out)
    hand_back(s, "end_turn")


# ---- Forged seal: one of the seat's tokens, then the area it moves to ---------------------------
def prompt_seal(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    moves = []
    for a, k in enumerate(data.AREAS):
        for v in _distinct(sorted(s.invest[a][d.seat], reverse=True)):
            moves.append(
                Move(
                    f"seal:{k}:{v}",
                    f"Your {v}-point token in {area_name(a)}",
                    "then choose where it goes",
                )
            )
    return _invest_prompt(s, d, f"{_card('seal')} — which token?", tuple(moves), 1)


def play_seal(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    area, _, v = _arg(mid).partition(":")
    _step(s, PestisDecision("seal_area", d.seat, value=int(v), source=AREA_INDEX[area]))


def prompt_seal_area(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    moves = _area_moves(s, d.seat, _value(d), exclude=_area(d.source))
    return _invest_prompt(s, d, f"{_card('seal')} — move it to which area?", tuple(moves), 2)


def play_seal_area(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    area = _area_id(mid)
    resolve_seal(s, d.seat, _area(d.source), _value(d), area, out)
    hand_back(s, "end_turn")


# =============================================================================================
# 3.2 Action stage: the effects of the area actions
# =============================================================================================
def build(s: PestisState, seat: int, dev: str, pay: str, out: Out) -> None:
    """A development: 1 grave-digger onto it, plus a resource card or grave-diggers to the docks."""
    s.reserve[seat] -= 1
    s.devs[seat].append(dev)
    if pay == "gd":
        k = logic.dev_gd_cost(s, seat)
        s.reserve[seat] -= k
        s.docks[seat] += k
        how = f"{plural(k, 'grave-digger')} to the docks"
    else:
        discard_resource(s, seat, pay, out)
        how = f"discarding {data.RESOURCES[pay].name}"
    dn = data.DEV_NAMES[dev]
    art = "an" if dn[0] in "AEIOU" else "a"
    out.append(Event(f"{name(s, seat)} builds {art} {dn} ({how}).", reveal=pay != "gd"))


def send_to_agrus(s: PestisState, seat: int, out: Out) -> None:
    s.reserve[seat] -= 1
    s.agrus[seat] += 1
    out.append(
        Event(f"{name(s, seat)} sends a grave-digger to work in Agrus ({s.agrus[seat]} there).")
    )


def take_subject(s: PestisState, seat: int, key: str, out: Out) -> None:
    cost = logic.subject_cost(s, seat, key)
    s.burgus.remove(key)
    s.subjects[seat][key] = False
    s.budget -= cost
    out.append(
        Event(
            f"{name(s, seat)} takes the {data.SUBJECTS[key].name} (infected) for "
            f"{plural(cost, 'point')}; {plural(s.budget, 'point')} left."
        )
    )


def set_victim(s: PestisState, q: int, out: Out) -> bool:
    """The active player robs `q`; False when there is nothing they can take."""
    s.victim = q
    decide(s, "rob", s.active)
    out.append(
        Event(
            f"{name(s, s.active)} robs {name(s, q)} (least invested in Suburbium) "
            f"with {plural(s.budget, 'point')}."
        )
    )
    if has_options(s):
        return True
    out.append(Event(f"{name(s, q)} has nothing {name(s, s.active)} can take."))
    return False


def steal(s: PestisState, what: str, arg: int, out: Out) -> None:
    seat, q = s.active, s.victim
    if what == "gd":
        s.reserve[q] -= 1
        s.docks[q] += 1
        logic.hire(s, seat, 1)
        s.budget -= data.ROB_GRAVE_DIGGER
        out.append(Event(f"{name(s, seat)} robs a grave-digger from {name(s, q)}."))
    elif what == "res":
        i = chance.draw_index(s, len(s.res_hand[q]))
        card = s.res_hand[q].pop(i)
        s.res_hand[seat].append(card)
        s.res_known[q] = []  # the others do not know which card went
        s.budget -= data.ROB_RESOURCE
        rn = data.RESOURCES[card].name
        public = f"{name(s, seat)} robs a resource card from {name(s, q)}."
        text = f"{name(s, seat)} robs {rn} from {name(s, q)}."
        out.append(Event(text, seat=seat, public=public, reveal=True))
        out.append(Event(f"{name(s, q)} loses {rn}.", seat=q, reveal=True))
    else:
        logic.transfer(s, q, seat, arg)
        s.budget -= arg * data.ROB_COIN
        out.append(Event(f"{name(s, seat)} robs {plural(arg, 'coin')} from {name(s, q)}."))


# =============================================================================================
# 3.2 Action stage: the moves
# =============================================================================================
def build_moves(s: PestisState, seat: int) -> list[Move]:
    """Developments `seat` can build now, each with each way to pay."""
    r = s.reserve[seat]
    if r < 1:
        return []
    k = logic.dev_gd_cost(s, seat)
    kinds = _distinct(sorted(s.res_hand[seat]))
    out = []
    for dev in data.DEVELOPMENTS:
        if dev in s.devs[seat]:
            continue
        dn = data.DEV_NAMES[dev]
        dn = ("an " if dn[0] in "AEIOU" else "a ") + dn
        if r >= 1 + k:
            out.append(
                Move(
                    f"build:{dev}:gd",
                    f"Build {dn}, paying {k} grave-diggers",
                    f"reserve {r} → {r - 1 - k}; {data.DEV_TEXT[dev]}",
                )
            )
        for res in kinds:
            out.append(
                Move(
                    f"build:{dev}:{res}",
                    f"Build {dn}, discarding {data.RESOURCES[res].name}",
                    f"reserve {r} → {r - 1}; {data.DEV_TEXT[dev]}",
                )
            )
    return out


def _buy_move(s: PestisState, seat: int, area: int) -> Move | None:
    if not s.res_deck:
        return None
    price = logic.resource_price(s, seat, area)
    if s.coins[seat] < price:
        return None
    top = data.RESOURCES[s.res_deck[-1]].name
    return Move(
        "buy",
        f"Buy the top resource card ({top})",
        f"coins {s.coins[seat]} → {s.coins[seat] - price}; + {top}",
    )


def _agrus_move(s: PestisState, seat: int) -> Move:
    return Move(
        "agrus",
        "Send a grave-digger from your reserve to Agrus",
        f"Agrus {s.agrus[seat]} → {s.agrus[seat] + 1}: +income every upkeep",
    )


def schola_moves(s: PestisState, seat: int) -> list[Move]:
    """Schola Medica: build, buy a resource card or send to Agrus (one of them)."""
    moves: list[Move] = []
    if "build" not in s.acts:
        moves += build_moves(s, seat)
    if "buy" not in s.acts:
        m = _buy_move(s, seat, data.SCHOLA)
        if m:
            moves.append(m)
    if "agrus" not in s.acts and s.reserve[seat] > 0:
        moves.append(_agrus_move(s, seat))
    moves.append(Move("pass", "Done" if s.acts else "Pass", ""))
    return moves


def burgus_moves(s: PestisState, seat: int) -> list[Move]:
    """Burgus: subjects for the points left."""
    moves = []
    for key in _distinct(s.burgus):
        if key in s.subjects[seat]:
            continue
        c = logic.subject_cost(s, seat, key)
        if c <= s.budget:
            sub = data.SUBJECTS[key]
            moves.append(
                Move(
                    f"take:{key}",
                    f"Take the {sub.name} (cost {c})",
                    f"points {s.budget} → {s.budget - c}; healed: token "
                    f"{sub.token}, upkeep {sub.upkeep}, {sub.ability}",
                )
            )
    moves.append(Move("done", "Done" if s.acts else "Take nothing", ""))
    return moves


def mercatus_moves(s: PestisState, seat: int) -> list[Move]:
    """Mercatus: buy resource cards (sell them on Last market)."""
    moves = []
    limit = data.MARKET_DAY_BUYS if logic.ev(s, seat) == "market_day" else 1
    if s.buys < limit:
        m = _buy_move(s, seat, data.MERCATUS)
        if m:
            moves.append(m)
    if logic.ev(s, seat) == "last_market":
        for key in _distinct(sorted(s.res_hand[seat])):
            moves.append(
                Move(
                    f"sell:{key}",
                    f"Sell {data.RESOURCES[key].name}",
                    f"+{data.LAST_MARKET_SELL} coins",
                )
            )
    moves.append(Move("done", "Done" if s.acts else "Pass", ""))
    return moves


def agrus_moves(s: PestisState, seat: int) -> list[Move]:
    moves = [_agrus_move(s, seat)] if s.reserve[seat] > 0 else []
    moves.append(Move("pass", "Pass", ""))
    return moves


def portus_moves(s: PestisState, seat: int) -> list[Move]:
    return [*build_moves(s, seat), Move("done", "Done" if s.acts else "Build nothing", "")]


def victim_moves(s: PestisState, seat: int) -> list[Move]:
    """Suburbium: the least invested players the active player chooses from."""
    a = s.area
    cands = [q for q in range(s.n) if q != seat and not logic.healed(s, q, "guard")]
    low = min(logic.total(s, a, q) for q in cands)
    return [
        Move(
            f"victim:{q}",
            f"Rob {s.names[q]}",
            f"coins {s.coins[q]}, grave-diggers {s.reserve[q]}, "
            f"{plural(len(s.res_hand[q]), 'resource card')}",
        )
        for q in logic.order_from(s, s.first)
        if q in cands and logic.total(s, a, q) == low
    ]


def rob_moves(s: PestisState, seat: int) -> list[Move]:
    """Suburbium: what the points left take from the victim."""
    moves = []
    q, b = s.victim, s.budget
    if b >= data.ROB_GRAVE_DIGGER and s.reserve[q] > 0 and s.docks[seat] > 0:
        moves.append(
            Move(
                "steal:gd",
                f"Rob a grave-digger ({data.ROB_GRAVE_DIGGER} points)",
                f"points {b} → {b - data.ROB_GRAVE_DIGGER}; {s.names[q]} reserve "
                f"{s.reserve[q]} → {s.reserve[q] - 1}",
            )
        )
    if b >= data.ROB_RESOURCE and s.res_hand[q]:
        moves.append(
            Move(
                "steal:res",
                f"Rob a resource card at random ({data.ROB_RESOURCE} points)",
                f"points {b} → {b - data.ROB_RESOURCE}; {s.names[q]} has "
                f"{plural(len(s.res_hand[q]), 'card')}",
            )
        )
    for k in range(1, min(b // data.ROB_COIN, s.coins[q]) + 1):
        moves.append(
            Move(
                f"steal:coins:{k}",
                f"Rob {plural(k, 'coin')}",
                f"points {b} → {b - k * data.ROB_COIN}; coins {s.coins[seat]} → "
                f"{s.coins[seat] + k}",
            )
        )
    moves.append(Move("done", "Done" if s.acts else "Rob nothing", ""))
    return moves


# =============================================================================================
# 3.2 Action stage: prompts and plays
# =============================================================================================
DECISION_TEXT = {
    "schola": "{n}: your action in Schola Medica",
    "burgus": "{n}: take subjects in Burgus ({b} points left)",
    "mercatus": "{n}: trade in Mercatus",
    "agrus": "{n}: your action in Agrus",
    "portus": "{n}: build developments in Portus",
    "victim": "{n}: several players are least invested in Suburbium — whom do you rob?",
    "rob": "{n}: rob {v} in Suburbium ({b} points left)",
    "convert": "{n}: convert your unused token in {a}",
    "heal": "{n}: heal infected subjects (Upkeep)",
    "keep": "{n}: you cannot pay every upkeep — which subject do you keep?",
    "wave": "{n}: Wave of deaths — discard one infected subject",
}
PRIVATE_DECISIONS = frozenset({"schola", "mercatus", "portus", "heal"})
# Decisions made of several moves by the same seat (Esc takes back the last one).
STEPPED_DECISIONS = frozenset({"schola", "burgus", "mercatus", "portus", "rob", "heal"})


def _stage_prompt(s: PestisState, d: PestisDecision, moves: list[Move]) -> Prompt:
    """The prompt of a decision of the Action, Upkeep or Event stage."""
    seat, kind = d.seat, d.kind
    text = DECISION_TEXT[kind].format(
        n=s.names[seat],
        b=s.budget,
        v=s.names[s.victim] if s.victim >= 0 else "",
        a=area_name(s.area) if s.area < 6 else "",
    )
    step = len(s.acts) if kind in STEPPED_DECISIONS else 0
    private = kind in PRIVATE_DECISIONS and bool(s.res_hand[seat])
    return Prompt(
        seat, text, tuple(moves), private=private, step=step, phase=PHASES.get(s.phase, s.phase)
    )


def _stop(game: TheGame, s: PestisState, d: PestisDecision, out: Out) -> None:
    """The active player passes or is done: the action is over."""
    if not s.acts:
        out.append(Event(f"{name(s, d.seat)} does nothing in {area_name(s.area)}."))
    hand_back(s, "finish_action")


def _stops(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> bool:
    """Whether `mid` passes or is done (the action is then over); else it is an action."""
    if mid.partition(":")[0] not in ("pass", "done"):
        return False
    _stop(game, s, d, out)
    return True


def _go_on(game: TheGame, s: PestisState, out: Out) -> None:
    """The action goes on while the active player could still do something."""
    if not has_options(s):
        hand_back(s, "finish_action")


def _did(game: TheGame, s: PestisState, act: str, out: Out) -> None:
    """The active player did `act`; the action goes on while they could still do something."""
    s.acts.append(act)
    _go_on(game, s, out)


def prompt_schola(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, schola_moves(s, d.seat))


def play_schola(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    seat = d.seat
    if _stops(game, s, d, mid, out):
        return
    head, _, arg = mid.partition(":")
    if head == "build":
        dev, _, pay = arg.partition(":")
        build(s, seat, dev, pay, out)
        s.acts.append("build")
    elif head == "buy":
        buy_resource(s, seat, data.SCHOLA, out)
        s.acts.append("buy")
    else:
        send_to_agrus(s, seat, out)
        s.acts.append("agrus")
    limit = 2 if logic.ev(s, seat) == "procession" else 1
    if len(s.acts) >= limit:
        hand_back(s, "finish_action")
    else:
        _go_on(game, s, out)


def prompt_burgus(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, burgus_moves(s, d.seat))


def play_burgus(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    arg = _arg(mid)
    take_subject(s, d.seat, arg, out)
    _did(game, s, arg, out)


def prompt_mercatus(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, mercatus_moves(s, d.seat))


def play_mercatus(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    head, _, arg = mid.partition(":")
    if head == "buy":
        buy_resource(s, d.seat, data.MERCATUS, out)
        s.buys += 1
    else:
        sell_resource(s, d.seat, arg, out)
    _did(game, s, mid, out)


def prompt_agrus(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, agrus_moves(s, d.seat))


def play_agrus(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    send_to_agrus(s, d.seat, out)
    s.acts.append("agrus")
    hand_back(s, "finish_action")


def prompt_portus(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, portus_moves(s, d.seat))


def play_portus(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    dev, _, pay = _arg(mid).partition(":")
    build(s, d.seat, dev, pay, out)
    _did(game, s, dev, out)


def prompt_victim(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, victim_moves(s, d.seat))


def play_victim(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    if not set_victim(s, int(_arg(mid)), out):
        hand_back(s, "finish_action")


def prompt_rob(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, rob_moves(s, d.seat))


def play_rob(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if _stops(game, s, d, mid, out):
        return
    what, _, k = _arg(mid).partition(":")
    steal(s, what, int(k) if k else 0, out)
    _did(game, s, mid, out)


# =============================================================================================
# 3.2 Conversions: a loser's unused token becomes coins or grave-diggers
# =============================================================================================
def convert_to_coins(s: PestisState, seat: int, v: int, coins: int, out: Out) -> None:
    logic.gain(s, seat, coins)
    out.append(
        Event(f"{name(s, seat)} converts an unused {v}-point token into {plural(coins, 'coin')}.")
    )


def convert_to_gd(s: PestisState, seat: int, v: int, gds: int, out: Out) -> None:
    got = logic.hire(s, seat, gds)
    out.append(
        Event(
            f"{name(s, seat)} converts an unused {v}-point token into "
            f"{plural(got, 'grave-digger')}."
        )
    )


def convert_moves(s: PestisState, seat: int) -> list[Move]:
    _, v, g = s.conv[0]
    coins = logic.convert_coins(s, seat, v)
    gds = logic.convert_gd(s, seat)
    what = "grave-digger token" if g else f"{v}-point token"
    return [
        Move(
            "convert:coins",
            f"{plural(coins or 0, 'coin')} for your {what}",
            f"coins {s.coins[seat]} → {s.coins[seat] + (coins or 0)}",
        ),
        Move(
            "convert:gd",
            f"{plural(gds, 'grave-digger')} for your {what}",
            f"reserve {s.reserve[seat]} → {s.reserve[seat] + gds}; docks {s.docks[seat]} → "
            f"{s.docks[seat] - gds}",
        ),
    ]


def prompt_convert(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, convert_moves(s, d.seat))


def play_convert(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    seat = d.seat
    _, v, _g = s.conv.pop(0)
    if _arg(mid) == "coins":
        convert_to_coins(s, seat, v, logic.convert_coins(s, seat, v) or 0, out)
    else:
        convert_to_gd(s, seat, v, logic.convert_gd(s, seat), out)
    hand_back(s, "after_conversion")


# =============================================================================================
# 3.3 Upkeep: heal infected subjects, keep the subjects whose upkeep can be paid
# =============================================================================================
def heal_moves(s: PestisState, seat: int) -> list[Move]:
    """The ways to heal each infected subject now, then `done`."""
    done = Move("done", "Done healing" if s.acts else "Heal nobody", "")
    infected = [k for k, h in s.subjects[seat].items() if not h]
    if not infected:
        return [done]
    kinds = _distinct(sorted(s.res_hand[seat]))
    c = s.coins[seat]
    cheap = []
    if "lazaretum" in s.devs[seat] and "lazaretum" not in s.heal_used:
        cheap.append(("lazaretum", "Lazaretum"))
    # its ability is for the rounds after its healing (seed), unless the game says not
    at_once = s.options.get("apothecary") == data.APOTHECARY_AT_ONCE
    if (
        logic.healed(s, seat, "apothecary")
        and "apothecary" not in s.heal_used
        and (at_once or "apothecary" not in s.acts)
    ):
        cheap.append(("apothecary", "Apothecary"))
    guild = logic.ev(s, seat) == "doctors_guild"
    relic = s.relic[seat] and "relic" not in s.heal_used
    out = []
    for key in infected:
        sub = data.SUBJECTS[key]
        gain = f"+{sub.token}-point token, then upkeep {sub.upkeep}"
        if relic:
            out.append(Move(f"heal:{key}:relic", f"Heal the {sub.name} (Holy relic)", gain))
        for res in kinds:
            # a Holy relic card in hand is a resource like any other; "relic" alone is the
            # free heal of the relic played this round
            how = "relic-card" if res == "relic" else res
            out.append(
                Move(
                    f"heal:{key}:{how}",
                    f"Heal the {sub.name}, discarding {data.RESOURCES[res].name}",
                    gain,
                )
            )
        if c >= data.HEAL_COINS_CHEAP:
            for how, label in cheap:
                out.append(
                    Move(
                        f"heal:{key}:{how}",
                        f"Heal the {sub.name} for {data.HEAL_COINS_CHEAP} coins ({label})",
                        f"coins {c} → {c - data.HEAL_COINS_CHEAP}; {gain}",
                    )
                )
        if guild and c >= data.HEAL_COINS_GUILD:
            out.append(
                Move(
                    f"heal:{key}:guild",
                    f"Heal the {sub.name} for {data.HEAL_COINS_GUILD} coins (Doctors' guild)",
                    f"coins {c} → {c - data.HEAL_COINS_GUILD}; {gain}",
                )
            )
    out.append(done)
    return out


def heal_in_upkeep(s: PestisState, seat: int, key: str, how: str, out: Out) -> None:
    sub = data.SUBJECTS[key]
    reveal = False
    if how == "lazaretum" or how == "apothecary":
        logic.pay(s, seat, data.HEAL_COINS_CHEAP)
        s.heal_used.append(how)
        label = "Lazaretum" if how == "lazaretum" else "Apothecary"
        paid = f"{data.HEAL_COINS_CHEAP} coins ({label})"
    elif how == "relic":
        s.heal_used.append(how)
        paid = "Holy relic"
    elif how == "guild":
        logic.pay(s, seat, data.HEAL_COINS_GUILD)
        paid = f"{data.HEAL_COINS_GUILD} coins (Doctors' guild)"
    else:
        card = "relic" if how == "relic-card" else how
        discard_resource(s, seat, card, out)
        paid = f"discarding {data.RESOURCES[card].name}"
        reveal = True
    logic.heal(s, seat, key)
    s.acts.append(key)
    out.append(
        Event(
            f"{name(s, seat)} heals the {sub.name} ({paid}): +{sub.token}-point token.",
            reveal=reveal,
        )
    )


def prompt_heal(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, heal_moves(s, d.seat))


def play_heal(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    if mid == "done":
        hand_back(s, "upkeep_pay")
        return
    _, key, how = mid.split(":")
    heal_in_upkeep(s, d.seat, key, how, out)
    if not has_options(s):
        hand_back(s, "upkeep_pay")


def keep_moves(s: PestisState, seat: int) -> list[Move]:
    """The healed subjects whose upkeep is still to pay and that the seat can afford."""
    moves = []
    for key, h in s.subjects[seat].items():
        if h and key not in s.paid:
            c = logic.upkeep_cost(s, seat, key)
            if 0 < c <= s.coins[seat]:
                moves.append(
                    Move(
                        f"keep:{key}",
                        f"Pay {plural(c, 'coin')} for the {data.SUBJECTS[key].name}",
                        f"coins {s.coins[seat]} → {s.coins[seat] - c}",
                    )
                )
    return moves


def prompt_keep(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, keep_moves(s, d.seat))


def play_keep(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    seat, key = d.seat, _arg(mid)
    c = logic.upkeep_cost(s, seat, key)
    logic.pay(s, seat, c)
    s.paid.append(key)
    out.append(
        Event(
            f"{name(s, seat)} pays {plural(c, 'coin')} of upkeep for the {data.SUBJECTS[key].name}."
        )
    )
    hand_back(s, "upkeep_pay")


# =============================================================================================
# 3.4 Event: Wave of deaths
# =============================================================================================
def discard_subject(s: PestisState, seat: int, key: str, out: Out) -> None:
    """Wave of deaths: an infected subject leaves the game's holdings."""
    del s.subjects[seat][key]
    s.subj_discard.append(key)
    out.append(
        Event(f"Wave of deaths: {name(s, seat)} loses the infected {data.SUBJECTS[key].name}.")
    )


def wave_moves(s: PestisState, seat: int) -> list[Move]:
    return [
        Move(f"discard:{key}", f"Discard the infected {data.SUBJECTS[key].name}", "")
        for key, h in s.subjects[seat].items()
        if not h
    ]


def prompt_wave(game: TheGame, s: PestisState, d: PestisDecision) -> Prompt:
    return _stage_prompt(s, d, wave_moves(s, d.seat))


def play_wave(game: TheGame, s: PestisState, d: PestisDecision, mid: str, out: Out) -> None:
    discard_subject(s, d.seat, _arg(mid), out)
    hand_back(s, "after_wave")


# =============================================================================================
# The table
# =============================================================================================
# The move lists of the stages' decisions, for "can the seat still do something?".
STAGE_MOVES: dict[str, Callable[[PestisState, int], list[Move]]] = {
    "schola": schola_moves,
    "burgus": burgus_moves,
    "mercatus": mercatus_moves,
    "agrus": agrus_moves,
    "portus": portus_moves,
    "victim": victim_moves,
    "rob": rob_moves,
    "convert": convert_moves,
    "heal": heal_moves,
    "keep": keep_moves,
    "wave": wave_moves,
}


def has_options(s: PestisState) -> bool:
    """Whether the pending decision of a stage offers more than passing."""
    d = s.pending[0]
    return any(m.id not in ("pass", "done") for m in STAGE_MOVES[d.kind](s, d.seat))


# the kinds a seat decides; rules.py adds the automatic HAND_BACKS and makes the table
CHOICES: dict[str, Kind[TheGame, PestisState, PestisDecision]] = {
    "invest": choice(prompt_invest, play_invest),
    "token": choice(prompt_token, play_token),
    "reinforce": choice(prompt_reinforce, play_reinforce),
    "law": choice(prompt_law, play_law),
    "spreader": choice(prompt_spreader, play_spreader),
    "spreader_area": choice(prompt_spreader_area, play_spreader_area),
    "seal": choice(prompt_seal, play_seal),
    "seal_area": choice(prompt_seal_area, play_seal_area),
    "leeches": choice(prompt_leeches, play_leeches),
    "quarantine": choice(prompt_quarantine, play_quarantine),
    "informer": choice(prompt_informer, play_informer),
    "theriac": choice(prompt_theriac, play_theriac),
    "schola": choice(prompt_schola, play_schola),
    "burgus": choice(prompt_burgus, play_burgus),
    "mercatus": choice(prompt_mercatus, play_mercatus),
    "agrus": choice(prompt_agrus, play_agrus),
    "portus": choice(prompt_portus, play_portus),
    "victim": choice(prompt_victim, play_victim),
    "rob": choice(prompt_rob, play_rob),
    "convert": choice(prompt_convert, play_convert),
    "heal": choice(prompt_heal, play_heal),
    "keep": choice(prompt_keep, play_keep),
    "wave": choice(prompt_wave, play_wave),
}
