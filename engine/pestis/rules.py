"""The Game object of 1347: setup, prompts, moves, views, scoring, invariants."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.protocol import PUBLIC, Event, Game, IllegalMove, Move, Prompt, Result, ScoreLine

from . import data as D
from . import flow as F
from . import logic as L
from .moves import AREA_INDEX, PHASES, action_moves, decision_prompt, invest_prompt
from .reference import rules_reference
from .state import PestisState
from .title import TITLE


class PestisGame(Game[PestisState]):
    """1347: De Nigrae Pestis Ludo — plague doctors invest influence in six town areas."""

    meta = TITLE
    summary = (
        "Plague doctors invest influence tokens face down in six town areas, win actions, "
        "gather and heal subjects over 9 rounds of plague."
    )
    options = ()

    # ---- lifecycle -------------------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> Any:
        self.check_players(len(names))
        opts = self.check_options(options)
        s = PestisState(names=list(names), seed=seed, options=opts, n=len(names))
        out: list[Event] = []
        F.setup(s, out)
        s.opening = [e.text for e in out]  # all public
        return s

    def prompt(self, state: Any) -> Prompt | None:
        s: PestisState = state
        if s.phase == "over":
            return None
        if s.dec == "invest":
            return invest_prompt(s)
        return decision_prompt(s)

    def play(self, state: Any, move: Move) -> list[Event]:
        s: PestisState = state
        out = [Event(line) for line in s.opening]  # the setup's lines open the first move's log
        s.opening = []
        mid = move.id
        kind = s.dec
        if kind == "invest":
            _play_invest(s, mid, out)
        elif kind in ("convert", "keep", "wave"):
            _play_other(s, kind, mid, out)
        elif kind == "heal":
            _play_heal(s, mid, out)
        else:
            _play_action(s, kind, mid, out)
        return out

    # ---- results ---------------------------------------------------------------------------
    def result(self, state: Any) -> Result:
        s: PestisState = state
        lines = []
        for p in range(s.n):
            rows = L.score(s, p)
            lines.append(ScoreLine(p, float(sum(v for _, v in rows)), list(rows)))
        best = max(line.score for line in lines)
        winners = [line.seat for line in lines if line.score == best]
        order = sorted({line.score for line in lines}, reverse=True)
        for line in lines:
            line.rank = order.index(line.score) + 1
        names = " and ".join(s.names[w] for w in winners)
        verb = "share the victory" if len(winners) > 1 else "wins"
        over = s.phase == "over"
        summary = (
            f"{names} {verb} with {int(best)} wealth points."
            if over
            else f"Provisional: {names} lead with {int(best)} wealth points."
        )
        return Result(winners, lines, summary)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return rules_reference()

    # ---- views -----------------------------------------------------------------------------
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        s: PestisState = state
        omni = seat is None
        n = s.n
        areas = []
        for a, key in enumerate(D.AREAS):
            stacks = []
            for p in range(n):
                toks = s.invest[a][p]
                st: dict[str, Any] = {
                    "seat": p,
                    "tokens": len(toks),
                    "reinforcements": s.reinf[a][p],
                    "gd_tokens": s.gdtok[a][p],
                    "base": L.base_points(s, p, a),
                    "leeches": s.leeches[a][p],
                }
                if omni or p == seat or s.revealed[a]:
                    st["values"] = sorted(toks, reverse=True)
                    st["total"] = L.total(s, a, p)
                stacks.append(st)
            seen = []
            if seat not in (None, PUBLIC):
                seen = [
                    {"owner": q, "values": list(vals)}
                    for ar, q, vals in s.informed[seat]
                    if ar == a
                ]
            res = s.results[a]
            areas.append(
                {
                    "key": key,
                    "name": D.AREA_NAMES[key],
                    "number": a + 1,
                    "action": D.AREA_ACTIONS[key],
                    "closed": L.closed(s, a),
                    "quarantined": s.quarantined[a],
                    "blocked_for": [p for p in range(n) if a in s.blocked[p]],
                    "revealed": s.revealed[a],
                    "current": s.phase == "action" and s.area == a,
                    "stacks": stacks,
                    "informer": seen,
                    "result": None
                    if res is None
                    else {
                        "tokens": [list(t) for t in res["tokens"]],
                        "reinforcements": list(res["reinf"]),
                        "gd_tokens": list(res["gdtok"]),
                        "totals": list(res["totals"]),
                        "investors": list(res["who"]),
                        "active": res["active"],
                    },
                }
            )
        players = []
        for p in range(n):
            own = omni or p == seat
            players.append(
                {
                    "seat": p,
                    "name": s.names[p],
                    "first": p == s.first,
                    "coins": s.coins[p],
                    "reserve": s.reserve[p],
                    "agrus": s.agrus[p],
                    "docks": s.docks[p],
                    "tokens_in_hand": len(s.hand[p]),
                    "hand": list(s.hand[p]) if own else None,
                    "token_values": sorted(L.tokens_owned(s, p), reverse=True),
                    "subjects": [
                        {
                            "key": k,
                            "name": D.SUBJECTS[k].name,
                            "healed": h,
                            "token": D.SUBJECTS[k].token,
                            "upkeep": D.SUBJECTS[k].upkeep,
                            "ability": D.SUBJECTS[k].ability,
                        }
                        for k, h in s.subjects[p].items()
                    ],
                    "infected": sum(1 for h in s.subjects[p].values() if not h),
                    "healed": sum(1 for h in s.subjects[p].values() if h),
                    "developments": [D.DEV_NAMES[d] for d in s.devs[p]],
                    "resources": [D.RESOURCES[r].name for r in sorted(s.res_hand[p])]
                    if own
                    else None,
                    "resource_count": len(s.res_hand[p]),
                    "played": [D.RESOURCES[r].name for r in s.res_played[p]],
                    "relic": s.relic[p],
                    "remedy": s.remedy[p],
                    "gd_token_used": s.gd_used[p],
                    "wealth": sum(v for _, v in L.score(s, p)),
                }
            )
        ev = D.EVENTS[s.event]
        top = s.res_deck[-1] if s.res_deck else None
        pr = self.prompt(s)
        return {
            "game": self.id,
            "you": None if seat == PUBLIC else seat,
            "names": list(s.names),
            "round": s.round,
            "rounds": D.ROUNDS,
            "period": L.period_of(s.round),
            "phase": PHASES.get(s.phase, "Game over" if s.phase == "over" else s.phase),
            "first_player": s.first,
            "to_move": pr.seat if pr else None,
            "area_active": s.area if s.phase == "action" else None,
            "event": {"key": ev.key, "name": ev.name, "text": ev.text, "period": ev.period},
            "events_seen": [D.EVENTS[e].name for e in s.events_seen],
            "events_left": [len(d) for d in s.event_decks],
            "areas": areas,
            "burgus": [
                {
                    "key": k,
                    "name": D.SUBJECTS[k].name,
                    "cost": D.SUBJECTS[k].cost,
                    "token": D.SUBJECTS[k].token,
                    "upkeep": D.SUBJECTS[k].upkeep,
                    "ability": D.SUBJECTS[k].ability,
                }
                for k in s.burgus
            ],
            "subject_deck": len(s.subj_deck),
            "subject_discard": len(s.subj_discard),
            "resource_top": None
            if top is None
            else {"key": top, "name": D.RESOURCES[top].name, "text": D.RESOURCES[top].text},
            "resource_deck": len(s.res_deck),
            "resource_discard": [D.RESOURCES[r].name for r in s.res_discard],
            "players": players,
        }

    # ---- computer players ------------------------------------------------------------------
    def determinize(self, state: Any, seat: int, rng: Any) -> Any:
        """Resample what `seat` cannot see: others' face-down tokens and hands, the decks."""
        s: PestisState = self.clone(state)
        n = s.n
        if s.dec == "invest" and s.dec_seat != seat:
            # Another seat's half-made investment is hidden: it starts its turn afresh.
            F.clear_pending(s)
        for q in range(n):
            if q == seat:
                continue
            # Tokens known: those back from revealed areas and those seen with an Informer.
            known = Counter(s.returned[q])
            seen_at: dict[int, Counter] = {}
            for ar, owner, vals in s.informed[seat]:
                if owner == q and not s.revealed[ar]:
                    seen_at.setdefault(ar, Counter()).update(vals)
            pool: list[int] = []
            hand_known: list[int] = []
            rest = Counter(s.hand[q])
            for v, c in known.items():
                k = min(c, rest[v])
                hand_known += [v] * k
                rest[v] -= k
            pool += list(rest.elements())
            hand_slots = len(s.hand[q]) - len(hand_known)
            area_slots: dict[int, tuple[list[int], int]] = {}
            for a in range(6):
                if s.revealed[a]:
                    continue
                toks = Counter(s.invest[a][q])
                fixed: list[int] = []
                for v, c in seen_at.get(a, Counter()).items():
                    k = min(c, toks[v])
                    fixed += [v] * k
                    toks[v] -= k
                pool += list(toks.elements())
                area_slots[a] = (fixed, len(s.invest[a][q]) - len(fixed))
            pool.sort()
            rng.shuffle(pool)
            hand = hand_known + pool[:hand_slots]
            pool = pool[hand_slots:]
            s.hand[q] = sorted(hand, reverse=True)
            for a, (fixed, k) in area_slots.items():
                s.invest[a][q] = fixed + pool[:k]
                pool = pool[k:]
        # Informer sightings of the others concern tokens `seat` may not know: use the
        # resampled values.
        for q in range(n):
            if q != seat:
                s.informed[q] = [
                    [ar, owner, vals if owner in (seat, q) else sorted(s.invest[ar][owner])]
                    for ar, owner, vals in s.informed[q]
                ]
        # Resource cards: others' unknown hand cards and the deck below the face-up top card.
        pool_r: list[str] = []
        for q in range(n):
            if q != seat:
                unknown = list(s.res_hand[q])
                for card in s.res_known[q]:
                    unknown.remove(card)
                pool_r += unknown
        pool_r += s.res_deck[:-1]
        pool_r.sort()
        rng.shuffle(pool_r)
        for q in range(n):
            if q != seat:
                k = len(s.res_hand[q]) - len(s.res_known[q])
                s.res_hand[q] = list(s.res_known[q]) + pool_r[:k]
                pool_r = pool_r[k:]
        if s.res_deck:
            s.res_deck = pool_r + s.res_deck[-1:]
        # Subject deck order, and which event cards are still to come.
        s.subj_deck.sort()
        rng.shuffle(s.subj_deck)
        for i, deck in enumerate(s.event_decks):
            unseen = sorted(e for e in D.PERIOD_EVENTS[i] if e not in s.events_seen)
            rng.shuffle(unseen)
            s.event_decks[i] = unseen[: len(deck)]
        s.seed = rng.randrange(2**31)
        s.draws = 0
        return s

    def evaluate(self, state: Any, seat: int) -> float:
        """Wealth points now, plus the value of cards in hand and subjects to heal."""
        s: PestisState = state
        p = seat
        v = float(sum(pts for _, pts in L.score(s, p)))
        v += 0.6 * len(s.res_hand[p])
        v += 0.1 * (s.coins[p] % D.WP_COINS)
        v += 0.3 * ((s.reserve[p] + s.agrus[p]) % D.WP_GRAVE_DIGGERS)
        v += 0.2 * s.agrus[p] * max(0, D.ROUNDS - s.round)
        for k, h in s.subjects[p].items():
            if not h:
                v += 0.4 * D.SUBJECTS[k].token
        return v

    # ---- invariants ------------------------------------------------------------------------
    def invariants(self, state: Any) -> list[str]:
        """Conservation and bounds; written to be cheap (checked after every playout move).

        Tokens: each seat holds (in hand or invested) exactly the starting five plus one
        per healed subject — checked by count and total value. Cards: the exact
        multisets of the decks. Grave-diggers: 15 per colour wherever they are.
        """
        s: PestisState = state
        bad: list[str] = []
        n = s.n
        coins = s.coins
        if sum(coins) != D.START_COINS * n + s.bank_net:
            bad.append(f"coins not conserved: {sum(coins)} vs {D.START_COINS * n + s.bank_net}")
        if min(coins) < 0 or min(s.reserve) < 0 or min(s.agrus) < 0 or min(s.docks) < 0:
            bad.append("negative coins or grave-diggers")
        reinf_by_seat = [sum(col) for col in zip(*s.reinf, strict=True)]
        law_by_seat = [sum(col) for col in zip(*s.gdtok, strict=True)]
        if min(map(min, s.reinf)) < 0 or min(map(min, s.gdtok)) < 0:
            bad.append("negative investment")
        for p, invested in enumerate(zip(*s.invest, strict=True)):
            hand = s.hand[p]
            held = (len(hand) + sum(map(len, invested)), sum(hand) + sum(map(sum, invested)))
            gd = s.reserve[p] + s.agrus[p] + len(s.devs[p]) + s.docks[p]
            gd += reinf_by_seat[p] + law_by_seat[p]
            if gd != D.GRAVE_DIGGERS_PER_COLOUR:
                bad.append(f"grave-diggers of colour {p}: {gd}")
            if law_by_seat[p] > 1:
                bad.append(f"seat {p} invested more than one law grave-digger")
            ecnt, etot = _START_TOKENS
            for key, healed in s.subjects[p].items():
                if healed:
                    ecnt += 1
                    etot += _TOKEN[key]
            if held != (ecnt, etot):
                bad.append(f"tokens of seat {p} not conserved")
            if len(set(s.devs[p])) != len(s.devs[p]):
                bad.append(f"seat {p} has two developments of a kind")
        res = s.res_deck + s.res_discard
        subs = s.subj_deck + s.subj_discard + s.burgus
        for p in range(n):
            res += s.res_hand[p]
            res += s.res_played[p]
            subs += s.subjects[p].keys()
        res.sort()
        subs.sort()
        if res != _RESOURCES_SORTED:
            bad.append("resource cards not conserved")
        if subs != _SUBJECTS_SORTED:
            bad.append("subject cards not conserved")
        seen = s.events_seen
        evs = len(seen) + sum(len(d) for d in s.event_decks)
        if evs != D.EVENTS_PER_PERIOD * 3 or len(set(seen)) != len(seen):
            bad.append("event cards not conserved")
        if not 1 <= s.round <= D.ROUNDS:
            bad.append(f"round {s.round} out of range")
        if len(seen) != s.round + (1 if s.phase == "event" else 0):
            bad.append(f"{len(seen)} events revealed in round {s.round}")
        if s.phase == "over" and s.round != D.ROUNDS:
            bad.append("game over before the last round")
        return bad


_START_TOKENS = (len(D.START_TOKENS), sum(D.START_TOKENS))
_TOKEN = {k: sub.token for k, sub in D.SUBJECTS.items()}
_RESOURCES_SORTED = sorted(D.RESOURCE_DECK)
_SUBJECTS_SORTED = sorted(D.SUBJECT_DECK)


# =============================================================================================
# move dispatch
# =============================================================================================
def _play_invest(s: PestisState, mid: str, out: list[Event]) -> None:
    p = s.dec_seat
    head, _, arg = mid.partition(":")
    pend = s.pend
    if pend == "":
        if head == "token":
            if arg == "gd":
                s.pend = "gd"
            else:
                s.pend = "tok"
                s.pend_val = int(arg)
        elif head == "play":
            if D.RESOURCES[arg].target:
                s.pend = arg
            else:
                F.resolve_simple_resource(s, p, arg, out)
        elif head == "pass":
            s.gd_passed[p] = True
            out.append(Event(f"{s.names[p]} stops investing."))
            F.end_turn(s, out)
        else:
            raise IllegalMove(mid)
        return
    if pend == "tok":
        if s.pend_area < 0:
            a = AREA_INDEX[arg]
            if s.reserve[p] > 0 and not s.quarantined[a]:
                s.pend_area = a
            else:
                F.place_token(s, p, s.pend_val, a, 0, out)
        else:
            F.place_token(s, p, s.pend_val, s.pend_area, int(arg), out)
    elif pend == "gd":
        F.place_gd_token(s, p, AREA_INDEX[arg], out)
    elif pend == "spreader":
        if s.pend_target < 0:
            s.pend_target = int(arg)
        else:
            F.resolve_area_resource(s, p, pend, AREA_INDEX[arg], out)
    elif pend in ("leeches", "quarantine", "informer"):
        F.resolve_area_resource(s, p, pend, AREA_INDEX[arg], out)
    elif pend == "theriac":
        F.play_theriac(s, p, arg, out)
    elif pend == "seal":
        if s.pend_from < 0:
            area, _, v = arg.partition(":")
            s.pend_from = AREA_INDEX[area]
            s.pend_val = int(v)
        else:
            F.resolve_area_resource(s, p, pend, AREA_INDEX[arg], out)
    else:
        raise IllegalMove(mid)


def _still_possible(s: PestisState) -> bool:
    return any(m.id not in ("pass", "done") for m in action_moves(s))


def _play_action(s: PestisState, kind: str, mid: str, out: list[Event]) -> None:
    p = s.dec_seat
    head, _, arg = mid.partition(":")
    if head in ("pass", "done"):
        if not s.acts:
            out.append(Event(f"{s.names[p]} does nothing in {F.area_name(s.area)}."))
        F.finish_action(s, out)
        return
    if kind == "schola":
        if head == "build":
            dev, _, pay = arg.partition(":")
            F.build(s, p, dev, pay, out)
            s.acts.append("build")
        elif head == "buy":
            F.buy_resource(s, p, D.SCHOLA, out)
            s.acts.append("buy")
        else:
            F.send_to_agrus(s, p, out)
            s.acts.append("agrus")
        limit = 2 if L.ev(s, p) == "procession" else 1
        if len(s.acts) >= limit or not _still_possible(s):
            F.finish_action(s, out)
        return
    if kind == "burgus":
        F.take_subject(s, p, arg, out)
        s.acts.append(arg)
    elif kind == "mercatus":
        if head == "buy":
            F.buy_resource(s, p, D.MERCATUS, out)
            s.buys += 1
        else:
            F.sell_resource(s, p, arg, out)
        s.acts.append(mid)
    elif kind == "agrus":
        F.send_to_agrus(s, p, out)
        s.acts.append("agrus")
        F.finish_action(s, out)
        return
    elif kind == "portus":
        dev, _, pay = arg.partition(":")
        F.build(s, p, dev, pay, out)
        s.acts.append(dev)
    elif kind == "victim":
        if not F.set_victim(s, int(arg), out):
            F.finish_action(s, out)
        return
    elif kind == "rob":
        what, _, k = arg.partition(":")
        F.steal(s, what, int(k) if k else 0, out)
        s.acts.append(mid)
    else:
        raise IllegalMove(mid)
    if not _still_possible(s):
        F.finish_action(s, out)


def _play_heal(s: PestisState, mid: str, out: list[Event]) -> None:
    p = s.dec_seat
    if mid == "done":
        F.upkeep_pay(s, out)
        return
    _, key, how = mid.split(":")
    F.heal_in_upkeep(s, p, key, how, out)
    if not _still_possible(s):
        F.upkeep_pay(s, out)


def _play_other(s: PestisState, kind: str, mid: str, out: list[Event]) -> None:
    p = s.dec_seat
    _head, _, arg = mid.partition(":")
    if kind == "convert":
        _, v, _g = s.conv.pop(0)
        if arg == "coins":
            coins = L.convert_coins(s, p, v)
            F.convert_to_coins(s, p, v, coins or 0, out)
        else:
            F.convert_to_gd(s, p, v, L.convert_gd(s, p), out)
        F.after_conversion(s, out)
    elif kind == "keep":
        F.keep_subject(s, p, arg, out)
    else:
        F.discard_subject(s, p, arg, out)
        F.after_wave(s, out)


GAME = PestisGame()
