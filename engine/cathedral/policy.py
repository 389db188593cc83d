"""A simple rule-following player for The Cathedral of Orléans (the balance baseline).

`choose(state, prompt, rng) -> move id` reads only public information: the map, the zones,
the tiles in play, backpacks and what each bag holds (public knowledge: every token that went
in or came out was seen). It never reads the face-down stacks (events, blueprints, hourglass).

The rules of thumb: never ring the bell tower unless forced; choose the bag whose draw most
likely fits a useful free space; value every action by what it brings the team now (goods
the orders still need, deliveries that fill or complete an order, getting a loaded master
builder to its workshop, meeting the active order); fill the most restrictive space.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from ..core.protocol import Prompt
from . import data
from .state import CathedralState, pack_size
from .title import TITLE

# ---- weights (policy only; not rules) ------------------------------------------------------
W_SECTION = 10.0
W_NEEDED = 1.0  # a needed good picked up
W_GLASS = 0.9  # a stained glass picked up (orders, the stained glass workshop)
W_SPARE = 0.15  # an unneeded good picked up (rest-stop fodder)
W_FILL = 2.0  # a delivery that fills an order space
W_COMPLETE = 2.5  # extra for the delivery that completes an order
W_BLUEPRINT = 4.5  # a blueprint (half the pile are sections)
W_FAIR = 1.0  # revealing an event
W_APPROACH = 0.8  # per step closer to the workshop a loaded builder serves
W_ORDER = W_BLUEPRINT  # meeting the active order
FORCED_BELL = -6.0
STICKY = 2.0
W_GIVE = 1.0  # handing a good to the builder whose workshop needs it
GIVE_REACH = 1  # preference of builder b for workshop b mod 3  # ending the round because the token fits nowhere

# shortest number of moves between cities (roads and rivers together)
_ADJ: dict[str, list[str]] = {c: [] for c in data.CITIES}
for _c in data.CONNECTIONS:
    _ADJ[_c.a].append(_c.b)
    _ADJ[_c.b].append(_c.a)


def _bfs(src: str) -> dict[str, int]:
    dist = {src: 0}
    q = deque([src])
    while q:
        x = q.popleft()
        for y in _ADJ[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                q.append(y)
    return dist


DIST: dict[str, dict[str, int]] = {c: _bfs(c) for c in data.CITIES}


class _Ctx:
    """What the team needs now, computed once per decision."""

    def __init__(self, s: CathedralState) -> None:
        self.s = s
        self.ws_need: list[dict[str, int]] = []
        demand = {"wood": 0, "stone": 0, "bread": 0, "glass": 0}
        for w in s.workshops:
            if w.done:
                self.ws_need.append({})
                continue
            need = {
                k: n - w.filled[k] for k, n in data.WORKSHOP_NEED[w.key].items() if n > w.filled[k]
            }
            self.ws_need.append(need)
            for k, n in need.items():
                demand[k] += n
        self.hg_need: dict[str, int] = {}
        if s.hourglass:
            need = data.HOURGLASS_NEED[s.hourglass]
            self.hg_need = {
                k: n - s.hourglass_filled[k] for k, n in need.items() if n > s.hourglass_filled[k]
            }
            for k, n in self.hg_need.items():
                demand[k] += n
        self.demand = demand
        carried = {"wood": 0, "stone": 0, "bread": 0, "glass": 0}
        for b in s.builders:
            for k, n in b.pack.items():
                carried[k] += n
        self.carried = carried
        self.unmet = {k: max(0, demand[k] - carried[k]) for k in demand}

        self._assign()

    def _assign(self) -> None:
        """Give every builder a distinct open workshop to serve (best match, then nearest)."""
        s = self.s
        pairs = []
        for b, me in enumerate(s.builders):
            for i, w in enumerate(s.workshops):
                need = self.ws_need[i]
                if not need:
                    continue
                m = sum(min(me.pack[k], n) for k, n in need.items())
                # a standing preference (builder b serves workshop b mod 3) keeps plans stable
                home = STICKY if i == b % len(s.workshops) else 0.0
                pairs.append((3 * m - DIST[me.city][w.city] + home, b, i))
        pairs.sort(key=lambda x: (-x[0], x[1], x[2]))
        self.assigned = [-1] * len(s.builders)
        taken: set[int] = set()
        for _v, b, i in pairs:
            if self.assigned[b] < 0 and i not in taken:
                self.assigned[b] = i
                taken.add(i)
        # what each builder still has to fetch for its workshop; what the hourglass lacks
        allocated = {"wood": 0, "stone": 0, "bread": 0, "glass": 0}
        self.personal: list[dict[str, int]] = []
        for b, me in enumerate(s.builders):
            i = self.assigned[b]
            need = self.ws_need[i] if i >= 0 else {}
            self.personal.append({k: max(0, n - me.pack[k]) for k, n in need.items()})
            for k, n in need.items():
                allocated[k] += min(n, me.pack[k])
        self.hg_unmet = {
            k: max(0, n - (self.carried[k] - allocated[k])) for k, n in self.hg_need.items()
        }

    def target_city(self, b: int) -> tuple[str, int]:
        """The workshop city builder `b` should head for and how many of its tokens fit."""
        s = self.s
        me = s.builders[b]
        best, best_m, best_d = "", 0, 99
        for i, w in enumerate(s.workshops):
            need = self.ws_need[i]
            if not need:
                continue
            m = sum(min(me.pack[k], n) for k, n in need.items())
            if i == self.assigned[b]:
                m += 1 if m else 0
            d = DIST[me.city][w.city]
            if m > best_m or (m == best_m and m and d < best_d):
                best, best_m, best_d = w.city, m, d
        if not best and self.assigned[b] >= 0:
            return s.workshops[self.assigned[b]].city, 0
        return best, best_m


def _pickup_value(ctx: _Ctx, b: int, tokens: list[str]) -> float:
    s = ctx.s
    room = data.BACKPACK_SIZE - pack_size(s.builders[b])
    personal = dict(ctx.personal[b])
    hg = dict(ctx.hg_unmet)
    unmet = dict(ctx.unmet)
    vals = []
    for t in tokens:
        v = W_SPARE
        if personal.get(t, 0) > 0:
            v = W_NEEDED * 1.3
            personal[t] -= 1
        elif hg.get(t, 0) > 0:
            v = W_NEEDED * 1.2
            hg[t] -= 1
        elif unmet[t] > 0:
            v = W_NEEDED * 0.6
            unmet[t] -= 1
        if t == "glass":
            v = max(v, W_GLASS)
        vals.append(v)
    vals.sort(reverse=True)
    return sum(vals[: max(0, room)])


def _path_tokens(s: CathedralState, ci: int) -> list[str]:
    c = data.CONNECTIONS[ci]
    out = [g for g in s.roads[ci] if g]
    if c.glass and s.glass_space:
        out.append("glass")
    return out


def _order_bonus(s: CathedralState, b: int, city: str) -> float:
    if not s.order:
        return 0.0
    param = data.EVENT_BY_KEY[s.order].param
    if param == city:
        return W_ORDER
    if param == "meeting":
        for j, o in enumerate(s.builders):
            if j != b and o.city == city:
                return W_ORDER
    return 0.0


def _move_value(ctx: _Ctx, b: int, ci: int, dest: str) -> float:
    s = ctx.s
    me = s.builders[b]
    v = _pickup_value(ctx, b, _path_tokens(s, ci))
    city, m = ctx.target_city(b)
    if city and m:
        v += W_APPROACH * min(m, 3) * (DIST[me.city][city] - DIST[dest][city])
    elif city:
        v += 0.2 * (DIST[me.city][city] - DIST[dest][city])
    if not m:
        # empty-handed: head where the needed goods lie (next to the destination)
        best = 0.0
        for kind in ("road", "river"):
            for cj, _o in data.NEIGHBOURS[kind][dest]:
                if cj != ci:
                    best = max(best, _pickup_value(ctx, b, _path_tokens(s, cj)))
        v += 0.3 * best
    v += _order_bonus(s, b, dest)
    return v


def _best_move(ctx: _Ctx, b: int, kind: str) -> tuple[float, str]:
    s = ctx.s
    best, best_id = 0.0, "decline"
    for ci, dest in data.NEIGHBOURS[kind][s.builders[b].city]:
        v = _move_value(ctx, b, ci, dest)
        if v > best:
            best, best_id = v, f"go:{dest}"
    return best, best_id


def _deliveries(ctx: _Ctx, b: int) -> list[tuple[float, str]]:
    """Possible single deliveries with their value, best first."""
    s = ctx.s
    me = s.builders[b]
    out: list[tuple[float, str]] = []
    for it in data.ITEMS:
        if not me.pack[it]:
            continue
        for i, w in enumerate(s.workshops):
            need = ctx.ws_need[i]
            if need.get(it) and w.city == me.city:
                done = sum(need.values()) == 1
                out.append((W_FILL + (W_COMPLETE if done else 0.0), f"ws:{i}:{it}"))
        if ctx.hg_need.get(it):
            done = sum(ctx.hg_need.values()) == 1
            # an hourglass leaves at the round end: fill it early
            out.append((W_FILL + 0.3 + (W_COMPLETE if done else 0.0), f"hg:{it}"))
        for j, o in enumerate(s.builders):
            # hand a good to the builder who serves a workshop needing it, if I do not
            if (
                j != b
                and ctx.personal[j].get(it, 0) > 0
                and ctx.personal[b].get(it, 0) == 0
                and not ctx.hg_need.get(it)
                and pack_size(o) < data.BACKPACK_SIZE
                and DIST[o.city][s.workshops[ctx.assigned[j]].city] <= GIVE_REACH
            ):
                out.append((W_GIVE, f"give:{j}:{it}"))
        if it == "glass" and s.order and data.EVENT_BY_KEY[s.order].param == "glass":
            for j, o in enumerate(s.builders):
                if j != b and o.pack["glass"] == 1 and pack_size(o) < data.BACKPACK_SIZE:
                    out.append((W_ORDER, f"give:{j}:{it}"))
    out.sort(key=lambda x: -x[0])
    return out


def _market_value(ctx: _Ctx, b: int) -> float:
    d = _deliveries(ctx, b)
    # two deliveries at most; the same item may not be available twice, roughly fine
    return sum(v for v, _ in d[:2])


def _glass_use(ctx: _Ctx) -> bool:
    """Whether the team's stained glass is spoken for by the orders in play."""
    return ctx.demand["glass"] >= ctx.carried["glass"]


def _action_values(ctx: _Ctx, b: int) -> dict[str, float]:
    """Value of each action for builder `b` now."""
    s = ctx.s
    me = s.builders[b]
    vals: dict[str, float] = {}
    vals["cart"] = _best_move(ctx, b, "road")[0]
    vals["ship"] = _best_move(ctx, b, "river")[0]
    vals["market"] = _market_value(ctx, b)
    room = pack_size(me) < data.BACKPACK_SIZE
    gv = 0.0
    if room and s.glass_supply:
        gv = W_GLASS + 0.6
        if s.order and data.EVENT_BY_KEY[s.order].param == "glass" and me.pack["glass"] + 1 >= 2:
            gv += W_ORDER
    vals["glassworks"] = gv
    sv = 0.0
    if me.pack["glass"] and s.blueprints:
        sv = W_BLUEPRINT - (1.5 if _glass_use(ctx) else 0.3)
    vals["glassshop"] = sv
    vals["fair"] = W_FAIR if s.events else 0.0
    return vals


def _space_cost(subject: str, accepts: tuple[str, ...]) -> float:
    """Flexibility given up by filling a space (fill the most restrictive one)."""
    if subject == "monk":
        return 0.0 if accepts == ("monk",) else 0.25
    return 0.05 * len(accepts)


def _placements(s: CathedralState, vals: dict[str, float], subject: str) -> tuple[float, str]:
    best, best_id = FORCED_BELL, "place:bell"
    for sp in data.SPACES:
        if s.spaces[sp.id] or (subject != "monk" and subject not in sp.accepts):
            continue
        v = vals[sp.action] - _space_cost(subject, sp.accepts)
        if v > best:
            best, best_id = v, f"place:{sp.id}"
    return best, best_id


def _pack_worth(ctx: _Ctx, b: int) -> float:
    me = ctx.s.builders[b]
    worth = 0.0
    for k, n in me.pack.items():
        if k == "glass":
            worth += n * W_GLASS
        else:
            worth += min(n, ctx.demand[k]) * W_NEEDED * 1.4 + max(0, n - ctx.demand[k]) * W_SPARE
    return worth


def action_potential(s: CathedralState) -> float:
    """Position terms the rule player sees: builders' distance to their workshops and what the
    action under way is expected to bring (for the evaluation of a position)."""
    if s.over or s.pending[0].kind == "glass":
        return 0.0
    step = s.pending[0].kind
    ctx = _Ctx(s)
    b = s.turn
    # loaded master builders close to the workshop they serve
    v = 0.0
    for j, o in enumerate(s.builders):
        city, m = ctx.target_city(j)
        if city and m:
            v -= W_APPROACH * min(m, 3) * DIST[o.city][city]
    if step == "pickup":
        c = data.CONNECTIONS[s.path]
        rest = [g for g in s.roads[s.path][s.path_slot :] if g]
        if c.glass and s.glass_space:
            rest.append("glass")
        return v + 0.8 * _pickup_value(ctx, b, rest)
    if step not in ("place", "move", "market", "glassworks", "glassshop"):
        return v
    if step == "place":
        return v + 0.5 * _placements(s, _action_values(ctx, b), s.drawn)[0]
    if step == "move":
        kind = data.ACTION_KIND[data.SPACE_BY_ID[s.space].action]
        return v + 0.5 * _best_move(ctx, b, kind)[0]
    if step == "market":
        d = _deliveries(ctx, b)
        return v + 0.5 * sum(x for x, _ in d[: s.market_left])
    return v + 0.5 * _action_values(ctx, b)[step]


def choose(state: CathedralState, prompt: Prompt, rng: random.Random) -> str:
    """The rule-following player's move for `prompt` (ids from the prompt only)."""
    ids = prompt.ids()
    if len(ids) == 1:
        return ids[0]
    chooser = _CHOOSERS.get(state.pending[0].kind)
    return chooser(_Ctx(state), ids, rng) if chooser else ids[0]


def _choose_reward_glass(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    return _choose_glass(ctx.s, ids, _pack_worth(ctx, ctx.s.turn))


def _choose_bag(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    """Rest when the backpack is worth less than a blueprint; else the bag whose draw is
    expected to fit the best free space."""
    s, b = ctx.s, ctx.s.turn
    if "rest" in ids and _pack_worth(ctx, b) < W_BLUEPRINT:
        return "rest"
    vals = _action_values(ctx, b)
    best, best_id = -1e9, ids[0]
    for mid in ids:
        if not mid.startswith("draw:"):
            continue
        bag = s.bags[mid.split(":")[1]]
        total = sum(bag.values())
        ev = 0.0
        for subj, n in bag.items():
            if n:
                ev += n * _placements(s, vals, subj)[0]
        ev /= total
        if ev > best + 1e-9:
            best, best_id = ev, mid
    return best_id


def _choose_place(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    s = ctx.s
    vals = _action_values(ctx, s.turn)
    mid = _placements(s, vals, s.drawn)[1]
    if mid in ids:
        return mid
    # an identical space listed under another id (the first free one is offered)
    sp = data.SPACE_BY_ID.get(mid.split(":")[1])
    for other in ids:
        o = data.SPACE_BY_ID.get(other.split(":")[1])
        if sp and o and (o.zone, o.action, o.accepts) == (sp.zone, sp.action, sp.accepts):
            return other
    return next((i for i in ids if i.startswith("place:") and i != "place:bell"), ids[0])


def _choose_move(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    s = ctx.s
    kind = data.ACTION_KIND[data.SPACE_BY_ID[s.space].action]
    v, mid = _best_move(ctx, s.turn, kind)
    if mid == "decline" and v <= 0.0:
        # moving is never harmful in itself: go where the most goods lie
        options = [i for i in ids if i.startswith("go:")]
        return options[rng.randrange(len(options))] if options else "decline"
    return mid if mid in ids else "decline"


def _choose_pickup(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    s = ctx.s
    me = s.builders[s.turn]
    tok = s.roads[s.path][s.path_slot] if s.path_slot < len(s.roads[s.path]) else "glass"
    needed = tok == "glass" or ctx.unmet[tok] > 0
    if "take" in ids:
        room = data.BACKPACK_SIZE - pack_size(me)
        if needed or room >= 2:
            return "take"
        return "leave"
    if needed:
        # full: send back an unneeded good (the most surplus kind)
        surplus = [
            (me.pack[k] - ctx.demand[k], k)
            for k in data.GOODS
            if me.pack[k] and k != tok and me.pack[k] > ctx.demand[k]
        ]
        if surplus:
            surplus.sort(reverse=True)
            return f"swap:{surplus[0][1]}"
    return "leave"


def _choose_market(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    d = [x for x in _deliveries(ctx, ctx.s.turn) if x[1] in ids]
    return d[0][1] if d else "done"


def _choose_glassworks(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    if "take" in ids:
        return "take"
    return "rest" if _pack_worth(ctx, ctx.s.turn) < W_BLUEPRINT else "decline"


def _choose_glassshop(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    return "trade" if _action_values(ctx, ctx.s.turn)["glassshop"] > 0.5 else "decline"


def _choose_end_turn(ctx: _Ctx, ids: list[str], rng: random.Random) -> str:
    return "rest" if _pack_worth(ctx, ctx.s.turn) < W_BLUEPRINT else "end"


# the rule player's choice per kind of decision (see decisions.DECISIONS)
_CHOOSERS: dict[str, Callable[[_Ctx, list[str], random.Random], str]] = {
    "glass": _choose_reward_glass,
    "bag": _choose_bag,
    "place": _choose_place,
    "move": _choose_move,
    "pickup": _choose_pickup,
    "market": _choose_market,
    "glassworks": _choose_glassworks,
    "glassshop": _choose_glassshop,
    "end_turn": _choose_end_turn,
}


def _choose_glass(s: CathedralState, all_ids: list[str], pack_worth: float) -> str:
    """Give reward glass where it meets the Glass order, else to the one with most room; with
    no room anywhere, rest first when the backpack is worth less than a blueprint and a glass."""
    ids = [m for m in all_ids if m.startswith("glass:")]
    if not ids:
        return "rest" if "rest" in all_ids and pack_worth < W_BLUEPRINT + W_GLASS else "lose"
    if s.order and data.EVENT_BY_KEY[s.order].param == "glass":
        for mid in ids:
            j = int(mid.split(":")[1])
            if s.builders[j].pack["glass"] >= 1:
                return mid
    best = max(ids, key=lambda m: -pack_size(s.builders[int(m.split(":")[1])]))
    mine = f"glass:{s.turn}"
    if mine in ids and pack_size(s.builders[s.turn]) <= pack_size(
        s.builders[int(best.split(":")[1])]
    ):
        return mine
    return best


def win_rate(
    players: int, games: int, variant: str = "normal", seed: int = 0, use_random: bool = False
) -> float:
    """Fraction of `games` seeded games won by this player (or by random moves)."""
    from ..core.playout import random_playout
    from ..core.registry import get_game

    game = get_game(TITLE.id)  # through the registry: this module is below the rules

    wins = 0
    for i in range(games):
        r = random_playout(
            game,
            players,
            seed + i,
            {"variant": variant},
            choose=None if use_random else choose,
        )
        wins += bool(r.winners)
    return wins / games


def _main(argv: list[str] | None = None) -> None:
    """python -m boardgames_tui.engine.cathedral.policy [games]: the balance table."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else 500
    for players in (1, 2, 3, 4):
        for variant in ("normal", "harder"):
            w = win_rate(players, n, variant)
            r = win_rate(players, n, variant, use_random=True)
            print(f"{players} {variant:6} rule {w:6.1%}  random {r:6.1%}", flush=True)


if __name__ == "__main__":
    _main()
