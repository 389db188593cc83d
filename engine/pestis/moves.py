"""The legal moves of every decision, with labels and engine-computed previews.

Move ids are stable strings: `token:3`, `token:gd`, `play:leeches`, `area:burgus`, `reinf:2`,
`target:1`, `seal:burgus:3`, `heal:hangman` (Theriac), `build:apotheca:gd`,
`build:apotheca:leeches`, `buy`, `agrus`, `take:hangman`, `sell:leeches`, `victim:2`,
`steal:gd`, `steal:res`, `steal:coins:3`, `convert:coins`, `convert:gd`,
`heal:hangman:leeches` (upkeep), `keep:hangman`, `discard:hangman`, `pass`, `done`.
"""

from __future__ import annotations

from engine.core.protocol import Move, Prompt

from . import data as D
from . import logic as L
from .logic import law_option
from .state import PestisState

AREA_INDEX = {k: i for i, k in enumerate(D.AREAS)}
PHASES = {"invest": "Investments", "action": "Actions", "upkeep": "Upkeep", "event": "Event"}


def _an(a: int) -> str:
    return D.AREA_NAMES[D.AREAS[a]]


def _pl(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _distinct(items: list) -> list:
    seen: list = []
    for x in items:
        if x not in seen:
            seen.append(x)
    return seen


# =============================================================================================
# Investments
# =============================================================================================
def resource_playable(s: PestisState, p: int, key: str) -> bool:
    """Cards that need something to act on are offered only when they can act."""
    if key == "theriac":
        return any(not h for h in s.subjects[p].values())
    if key == "seal":
        return any(
            s.invest[a][p] and any(L.can_invest_in(s, p, b) for b in range(6) if b != a)
            for a in range(6)
        )
    if key == "quarantine":
        return any(not L.closed(s, a) and not s.quarantined[a] for a in range(6))
    return True


def can_reinforce(s: PestisState, p: int, a: int) -> bool:
    return s.reserve[p] > 0 and not s.quarantined[a]


# Moves are immutable: the frequent ones are built once and reused (prompt() stays cheap).
_AREA_MOVES: dict[tuple[int, int, int], Move] = {}
_TOKEN_MOVES: dict[int, Move] = {}
_REINF_MOVES: dict[tuple[int, int, int], tuple[Move, ...]] = {}
_PLAY_MOVES: dict[str, Move] = {}


def _area_move(a: int, now: int, then: int) -> Move:
    m = _AREA_MOVES.get((a, now, then))
    if m is None:
        key = D.AREAS[a]
        m = Move(f"area:{key}", D.AREA_NAMES[key], f"your total here {now} → {then}")
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
        r = D.RESOURCES[key]
        m = Move(f"play:{key}", f"Play {r.name}", r.text + " (+1 wealth point)")
        _PLAY_MOVES[key] = m
    return m


def _reinf_moves(a: int, base: int, r: int) -> tuple[Move, ...]:
    ms = _REINF_MOVES.get((a, base, r))
    if ms is None:
        out = [Move("reinf:0", "No reinforcement", f"your total in {_an(a)} {base}")]
        for k in range(1, r + 1):
            out.append(
                Move(
                    f"reinf:{k}",
                    f"Reinforce with {_pl(k, 'grave-digger')}",
                    f"total {base} → {base + k}; reserve {r} → {r - k}; they go to the docks",
                )
            )
        ms = _REINF_MOVES[(a, base, r)] = tuple(out)
    return ms


def _area_moves(s: PestisState, p: int, add: int, exclude: int = -1) -> list[Move]:
    """Areas where `p` may invest, previewing its total there before and after `add`."""
    out = []
    shut = D.CLOSES.get(s.event, -1)
    blocked = s.blocked[p]
    for a in range(6):
        if a in (exclude, shut) or a in blocked:
            continue
        if s.invest[a][p] or s.gdtok[a][p]:
            now = L.total(s, a, p)
            then = now + add
        else:
            now = L.base_points(s, p, a) if s.devs[p] else 0
            then = now + add + L.bonus_points(s, p, a) if add else now
        out.append(_area_move(a, now, then))
    return out


def invest_prompt(s: PestisState) -> Prompt:
    p = s.dec_seat
    nm = s.names[p]
    pend = s.pend
    if pend == "":
        moves = [_token_move(v) for v in _distinct(s.hand[p])]
        law = law_option(s, p)
        if law:
            r = s.reserve[p]
            moves.append(
                Move(
                    "token:gd",
                    "Invest a grave-digger as a 1-point token (agrarian law)",
                    f"reserve {r} → {r - 1}; it comes back after its area",
                )
            )
        for key in _distinct(s.res_hand[p]):
            if resource_playable(s, p, key):
                moves.append(_play_move(key))
        if not s.hand[p] and law:
            moves.append(Move("pass", "Stop investing (keep your grave-diggers)", ""))
        text = f"{nm}: invest a token or play a resource card"
        return Prompt(p, text, tuple(moves), private=True, step=0, phase="Investments")
    if pend == "tok":
        v = s.pend_val
        if s.pend_area < 0:
            return Prompt(
                p,
                f"{nm}: where do you invest your {v}-point token?",
                tuple(_area_moves(s, p, v)),
                private=True,
                step=1,
                phase="Investments",
            )
        a = s.pend_area
        base = (
            L.total(s, a, p) + v
            if L.has_tokens(s, a, p)
            else (L.base_points(s, p, a) + v + L.bonus_points(s, p, a))
        )
        return Prompt(
            p,
            f"{nm}: reinforce your {v}-point token in {_an(a)}?",
            _reinf_moves(a, base, s.reserve[p]),
            private=True,
            step=2,
            phase="Investments",
        )
    if pend == "gd":
        return Prompt(
            p,
            f"{nm}: where do you invest the grave-digger token?",
            tuple(_area_moves(s, p, 1)),
            private=True,
            step=1,
            phase="Investments",
        )
    rname = D.RESOURCES[pend].name
    if pend == "spreader":
        if s.pend_target < 0:
            moves = [
                Move(f"target:{q}", f"Name {s.names[q]}", "then choose the area closed to them")
                for q in L.order_from(s, (p + 1) % s.n)
                if q != p
            ]
            return Prompt(
                p,
                f"{nm}: {rname} — which player?",
                tuple(moves),
                private=True,
                step=1,
                phase="Investments",
            )
        q = s.pend_target
        moves = [
            Move(f"area:{k}", _an(a), f"{s.names[q]} may not invest here this round")
            for a, k in enumerate(D.AREAS)
            if not L.closed(s, a) and a not in s.blocked[q]
        ]
        return Prompt(
            p,
            f"{nm}: {rname} — which area is closed to {s.names[q]}?",
            tuple(moves),
            private=True,
            step=2,
            phase="Investments",
        )
    if pend == "leeches":
        moves = [
            Move(f"area:{k}", _an(a), f"+{D.LEECHES_BONUS} to your total here (with a token)")
            for a, k in enumerate(D.AREAS)
            if not L.closed(s, a)
        ]
    elif pend == "quarantine":
        moves = [
            Move(f"area:{k}", _an(a), "no more reinforcements here this round")
            for a, k in enumerate(D.AREAS)
            if not L.closed(s, a) and not s.quarantined[a]
        ]
    elif pend == "informer":
        moves = [
            Move(f"area:{k}", _an(a), f"{_pl(_others_tokens(s, a, p), 'token')} of others here")
            for a, k in enumerate(D.AREAS)
            if not L.closed(s, a)
        ]
    elif pend == "theriac":
        moves = [
            Move(
                f"heal:{k}",
                f"Heal the {D.SUBJECTS[k].name}",
                f"+{D.SUBJECTS[k].token}-point token now; upkeep {D.SUBJECTS[k].upkeep}",
            )
            for k, h in s.subjects[p].items()
            if not h
        ]
    else:  # seal
        if s.pend_from < 0:
            moves = []
            for a, k in enumerate(D.AREAS):
                for v in _distinct(sorted(s.invest[a][p], reverse=True)):
                    moves.append(
                        Move(
                            f"seal:{k}:{v}",
                            f"Your {v}-point token in {_an(a)}",
                            "then choose where it goes",
                        )
                    )
            return Prompt(
                p,
                f"{nm}: {rname} — which token?",
                tuple(moves),
                private=True,
                step=1,
                phase="Investments",
            )
        moves = _area_moves(s, p, s.pend_val, exclude=s.pend_from)
        return Prompt(
            p,
            f"{nm}: {rname} — move it to which area?",
            tuple(moves),
            private=True,
            step=2,
            phase="Investments",
        )
    question = _RESOURCE_QUESTIONS.get(pend, "choose")
    return Prompt(
        p, f"{nm}: {rname} — {question}", tuple(moves), private=True, step=1, phase="Investments"
    )


_RESOURCE_QUESTIONS = {
    "leeches": f"which area gets +{D.LEECHES_BONUS}?",
    "quarantine": "which area gets no more reinforcements?",
    "informer": "look at the tokens of which area?",
    "theriac": "heal which subject?",
}


def _others_tokens(s: PestisState, a: int, p: int) -> int:
    return sum(len(s.invest[a][q]) for q in range(s.n) if q != p)


# =============================================================================================
# Actions, upkeep, event
# =============================================================================================
def build_moves(s: PestisState, p: int) -> list[Move]:
    """Developments `p` can build now, each with each way to pay."""
    r = s.reserve[p]
    if r < 1:
        return []
    k = L.dev_gd_cost(s, p)
    kinds = _distinct(sorted(s.res_hand[p]))
    out = []
    for dev in D.DEVELOPMENTS:
        if dev in s.devs[p]:
            continue
        dn = D.DEV_NAMES[dev]
        dn = ("an " if dn[0] in "AEIOU" else "a ") + dn
        if r >= 1 + k:
            out.append(
                Move(
                    f"build:{dev}:gd",
                    f"Build {dn}, paying {k} grave-diggers",
                    f"reserve {r} → {r - 1 - k}; {D.DEV_TEXT[dev]}",
                )
            )
        for res in kinds:
            out.append(
                Move(
                    f"build:{dev}:{res}",
                    f"Build {dn}, discarding {D.RESOURCES[res].name}",
                    f"reserve {r} → {r - 1}; {D.DEV_TEXT[dev]}",
                )
            )
    return out


def _buy_move(s: PestisState, p: int, area: int) -> Move | None:
    if not s.res_deck:
        return None
    price = L.resource_price(s, p, area)
    if s.coins[p] < price:
        return None
    top = D.RESOURCES[s.res_deck[-1]].name
    return Move(
        "buy",
        f"Buy the top resource card ({top})",
        f"coins {s.coins[p]} → {s.coins[p] - price}; + {top}",
    )


def _convert_moves(s: PestisState) -> list[Move]:
    p, v, g = s.conv[0]
    coins = L.convert_coins(s, p, v)
    gds = L.convert_gd(s, p)
    what = "grave-digger token" if g else f"{v}-point token"
    return [
        Move(
            "convert:coins",
            f"{_pl(coins or 0, 'coin')} for your {what}",
            f"coins {s.coins[p]} → {s.coins[p] + (coins or 0)}",
        ),
        Move(
            "convert:gd",
            f"{_pl(gds, 'grave-digger')} for your {what}",
            f"reserve {s.reserve[p]} → {s.reserve[p] + gds}; docks {s.docks[p]} → "
            f"{s.docks[p] - gds}",
        ),
    ]


def action_moves(s: PestisState) -> list[Move]:
    """Moves of the pending action / upkeep / event decision."""
    kind = s.dec
    p = s.dec_seat
    moves: list[Move] = []
    if kind == "schola":
        if "build" not in s.acts:
            moves += build_moves(s, p)
        if "buy" not in s.acts:
            m = _buy_move(s, p, D.SCHOLA)
            if m:
                moves.append(m)
        if "agrus" not in s.acts and s.reserve[p] > 0:
            moves.append(
                Move(
                    "agrus",
                    "Send a grave-digger from your reserve to Agrus",
                    f"Agrus {s.agrus[p]} → {s.agrus[p] + 1}: +income every upkeep",
                )
            )
        moves.append(Move("pass", "Done" if s.acts else "Pass", ""))
    elif kind == "burgus":
        for key in _distinct(s.burgus):
            if key in s.subjects[p]:
                continue
            c = L.subject_cost(s, p, key)
            if c <= s.budget:
                sub = D.SUBJECTS[key]
                moves.append(
                    Move(
                        f"take:{key}",
                        f"Take the {sub.name} (cost {c})",
                        f"points {s.budget} → {s.budget - c}; healed: token "
                        f"{sub.token}, upkeep {sub.upkeep}, {sub.ability}",
                    )
                )
        moves.append(Move("done", "Done" if s.acts else "Take nothing", ""))
    elif kind == "mercatus":
        limit = D.MARKET_DAY_BUYS if L.ev(s, p) == "market_day" else 1
        if s.buys < limit:
            m = _buy_move(s, p, D.MERCATUS)
            if m:
                moves.append(m)
        if L.ev(s, p) == "last_market":
            for key in _distinct(sorted(s.res_hand[p])):
                moves.append(
                    Move(
                        f"sell:{key}",
                        f"Sell {D.RESOURCES[key].name}",
                        f"+{D.LAST_MARKET_SELL} coins",
                    )
                )
        moves.append(Move("done", "Done" if s.acts else "Pass", ""))
    elif kind == "agrus":
        if s.reserve[p] > 0:
            moves.append(
                Move(
                    "agrus",
                    "Send a grave-digger from your reserve to Agrus",
                    f"Agrus {s.agrus[p]} → {s.agrus[p] + 1}: +income every upkeep",
                )
            )
        moves.append(Move("pass", "Pass", ""))
    elif kind == "portus":
        moves += build_moves(s, p)
        moves.append(Move("done", "Done" if s.acts else "Build nothing", ""))
    elif kind == "victim":
        a = s.area
        cands = [q for q in range(s.n) if q != p and not L.healed(s, q, "guard")]
        low = min(L.total(s, a, q) for q in cands)
        for q in L.order_from(s, s.first):
            if q in cands and L.total(s, a, q) == low:
                moves.append(
                    Move(
                        f"victim:{q}",
                        f"Rob {s.names[q]}",
                        f"coins {s.coins[q]}, grave-diggers {s.reserve[q]}, "
                        f"{_pl(len(s.res_hand[q]), 'resource card')}",
                    )
                )
    elif kind == "rob":
        q, b = s.victim, s.budget
        if b >= D.ROB_GRAVE_DIGGER and s.reserve[q] > 0 and s.docks[p] > 0:
            moves.append(
                Move(
                    "steal:gd",
                    f"Rob a grave-digger ({D.ROB_GRAVE_DIGGER} points)",
                    f"points {b} → {b - D.ROB_GRAVE_DIGGER}; {s.names[q]} reserve "
                    f"{s.reserve[q]} → {s.reserve[q] - 1}",
                )
            )
        if b >= D.ROB_RESOURCE and s.res_hand[q]:
            moves.append(
                Move(
                    "steal:res",
                    f"Rob a resource card at random ({D.ROB_RESOURCE} points)",
                    f"points {b} → {b - D.ROB_RESOURCE}; {s.names[q]} has "
                    f"{_pl(len(s.res_hand[q]), 'card')}",
                )
            )
        for k in range(1, min(b // D.ROB_COIN, s.coins[q]) + 1):
            moves.append(
                Move(
                    f"steal:coins:{k}",
                    f"Rob {_pl(k, 'coin')}",
                    f"points {b} → {b - k * D.ROB_COIN}; coins {s.coins[p]} → {s.coins[p] + k}",
                )
            )
        moves.append(Move("done", "Done" if s.acts else "Rob nothing", ""))
    elif kind == "convert":
        moves = _convert_moves(s)
    elif kind == "heal":
        moves = _heal_moves(s, p)
        moves.append(Move("done", "Done healing" if s.acts else "Heal nobody", ""))
    elif kind == "keep":
        for key, h in s.subjects[p].items():
            if h and key not in s.paid:
                c = L.upkeep_cost(s, p, key)
                if 0 < c <= s.coins[p]:
                    moves.append(
                        Move(
                            f"keep:{key}",
                            f"Pay {_pl(c, 'coin')} for the {D.SUBJECTS[key].name}",
                            f"coins {s.coins[p]} → {s.coins[p] - c}",
                        )
                    )
    elif kind == "wave":
        for key, h in s.subjects[p].items():
            if not h:
                moves.append(
                    Move(f"discard:{key}", f"Discard the infected {D.SUBJECTS[key].name}", "")
                )
    return moves


def _heal_moves(s: PestisState, p: int) -> list[Move]:
    infected = [k for k, h in s.subjects[p].items() if not h]
    if not infected:
        return []
    kinds = _distinct(sorted(s.res_hand[p]))
    c = s.coins[p]
    cheap = []
    if "lazaretum" in s.devs[p] and "lazaretum" not in s.heal_used:
        cheap.append(("lazaretum", "Lazaretum"))
    if L.healed(s, p, "apothecary") and "apothecary" not in s.heal_used:
        cheap.append(("apothecary", "Apothecary"))
    guild = L.ev(s, p) == "doctors_guild"
    relic = s.relic[p] and "relic" not in s.heal_used
    out = []
    for key in infected:
        sub = D.SUBJECTS[key]
        gain = f"+{sub.token}-point token, then upkeep {sub.upkeep}"
        if relic:
            out.append(Move(f"heal:{key}:relic", f"Heal the {sub.name} (Holy relic)", gain))
        for res in kinds:
            out.append(
                Move(
                    f"heal:{key}:{res}",
                    f"Heal the {sub.name}, discarding {D.RESOURCES[res].name}",
                    gain,
                )
            )
        if c >= D.HEAL_COINS_CHEAP:
            for how, label in cheap:
                out.append(
                    Move(
                        f"heal:{key}:{how}",
                        f"Heal the {sub.name} for {D.HEAL_COINS_CHEAP} coins ({label})",
                        f"coins {c} → {c - D.HEAL_COINS_CHEAP}; {gain}",
                    )
                )
        if guild and c >= D.HEAL_COINS_GUILD:
            out.append(
                Move(
                    f"heal:{key}:guild",
                    f"Heal the {sub.name} for {D.HEAL_COINS_GUILD} coins (Doctors' guild)",
                    f"coins {c} → {c - D.HEAL_COINS_GUILD}; {gain}",
                )
            )
    return out


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


def decision_prompt(s: PestisState) -> Prompt:
    p = s.dec_seat
    kind = s.dec
    moves = action_moves(s)
    text = DECISION_TEXT[kind].format(
        n=s.names[p],
        b=s.budget,
        v=s.names[s.victim] if s.victim >= 0 else "",
        a=_an(s.area) if s.area < 6 else "",
    )
    step = len(s.acts) if kind in STEPPED_DECISIONS else 0
    private = kind in PRIVATE_DECISIONS and bool(s.res_hand[p])
    return Prompt(
        p, text, tuple(moves), private=private, step=step, phase=PHASES.get(s.phase, s.phase)
    )
