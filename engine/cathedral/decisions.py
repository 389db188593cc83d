"""The Cathedral of Orléans: one prompt and one play per step of a turn, the automatic steps,
and `DECISIONS` (the table from a task's kind to them).

Named as the rulebook names them: Cart, Ship, Rest stop, Market, Glassworks, Stained glass
workshop, Fair square, Bell tower. Every handler takes the game, the state and the task at the
head of `CathedralState.pending`; a step that hands the turn on replaces the task with the
next one (`go_on`). A step with nothing to choose is resolved by its `settle_<kind>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core import chance
from ..core.decisions import DecisionTable, Kind, automatic, choice
from ..core.protocol import Event, Game, Move, Prompt
from . import data
from .state import CathedralState, Task, empty_items, label, pack_size, seat_of

# The game object (a Cathedral) goes to every handler, as the shared pattern has it; these
# handlers need only the state.
TheGame = Game[CathedralState]


# ---- small helpers ---------------------------------------------------------------------------
def items_text(counts: Mapping[str, int]) -> str:
    """Counts of items as a log reads them ("2 wood, 1 stained glass", or "nothing")."""
    parts = [f"{n} {data.ITEM_NAMES[k]}" for k, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def reward_text(reward: Sequence[str]) -> str:
    return " + ".join(data.REWARD_NAMES[r] for r in reward)


def go_on(s: CathedralState, kind: str) -> None:
    """The turn goes on with the step `kind` (the task under way becomes it)."""
    d = s.pending[-1]
    d.kind = kind
    d.seat = seat_of(s, s.turn) if kind in DECISIONS.choices else -1


def _draw(s: CathedralState, bag: dict[str, int], keys: Sequence[str], total: int) -> str:
    """One of `keys` taken at random from `bag`, which holds `total` tokens."""
    i = chance.draw_index(s, total)
    for k in keys:
        i -= bag[k]
        if i < 0:
            bag[k] -= 1
            return k
    raise AssertionError("unreachable")


def draw_good(s: CathedralState) -> str:
    """A random good from the black bag ("" when it is empty)."""
    bag = s.black
    total = bag["wood"] + bag["stone"] + bag["bread"]
    if total == 0:
        return ""
    return _draw(s, bag, data.GOODS, total)


def draw_subject(s: CathedralState, bag_name: str) -> str:
    bag = s.bags[bag_name]
    return _draw(s, bag, data.SUBJECTS, sum(bag.values()))


def return_item(s: CathedralState, item: str, n: int = 1) -> None:
    """Goods go back to the black bag, stained glass to the supply."""
    if item == "glass":
        s.glass_supply += n
    else:
        s.black[item] += n


def has_room(s: CathedralState, b: int) -> bool:
    return pack_size(s.builders[b]) < data.BACKPACK_SIZE


def is_full(s: CathedralState, b: int) -> bool:
    return pack_size(s.builders[b]) >= data.BACKPACK_SIZE


def path_token(s: CathedralState, ci: int, slot: int) -> str | None:
    """The token on slot `slot` of connection `ci` ("" empty), None past the end."""
    road = s.roads[ci]  # its goods spaces (fewer on the scaled map with two builders)
    if slot < len(road):
        return road[slot]
    if data.CONNECTIONS[ci].glass and slot == len(road):
        return "glass" if s.glass_space else ""
    return None


def take_path_token(s: CathedralState, ci: int, slot: int) -> None:
    if slot < len(s.roads[ci]):
        s.roads[ci][slot] = ""
    else:
        s.glass_space = 0


def queue_rewards(s: CathedralState, rewards: Sequence[str], source: str) -> None:
    """Rewards to be received (in order, after those already waiting): automatic tasks
    before the step of the turn under way (the last task)."""
    s.pending[-1:-1] = [Task("reward", source=source, reward=r) for r in rewards]


# ---- rewards: received one at a time, before the turn goes on ----------------------------------
def run_reward(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> None:
    """A cathedral section, a blueprint (flipped: its reward comes first), a stained glass
    (offered) or a monk into a bag."""
    s.pending.pop(0)
    reward, source = d.reward, d.source
    if reward == "section":
        s.sections += 1
        s.section_log.append(source)
        ev.append(Event(f"Cathedral section {s.sections} is attached ({source})"))
        if s.sections >= data.SECTIONS:
            s.won = True
            s.over = True
            s.unreceived = [t for t in s.pending if t.kind == "reward"]
            s.pending = []
            ev.append(Event("The roof is on: the Cathedral of Orléans is built — all win!"))
    elif reward == "blueprint":
        if not s.blueprints:
            ev.append(Event(f"No blueprint is left to flip ({source})"))
            return
        bp = s.blueprints.pop()
        s.blueprints_flipped.append(bp)
        ev.append(Event(f"Blueprint flipped ({source}): {data.REWARD_NAMES[bp]}", reveal=True))
        s.pending.insert(0, Task("reward", source="blueprint", reward=bp))
    elif reward == "glass":
        if not s.glass_supply:
            ev.append(Event(f"No stained glass is left in the supply ({source})"))
            return
        offer_glass(s, source, ev)
    else:  # monk_red / monk_blue
        bag = reward.split("_")[1]
        if not s.monk_supply:
            ev.append(Event(f"No monk is left in the supply ({source})"))
            return
        s.monk_supply -= 1
        s.bags[bag]["monk"] += 1
        ev.append(Event(f"A monk goes into the {bag} bag ({source})"))


# ---- the rest stop (on offer at most steps of a turn) -----------------------------------------
def may_rest(s: CathedralState) -> bool:
    """Seed: with every backpack space occupied you may declare a rest stop at any time on
    your turn (this edition: once per turn)."""
    return is_full(s, s.turn) and not s.rested


def rest_move() -> Move:
    return Move(
        "rest",
        "Rest stop: empty the backpack for a blueprint",
        "goods → black bag, glass → supply, +1 blueprint",
    )


def rest(s: CathedralState, b: int, ev: list[Event]) -> None:
    """Rest stop: the whole backpack back (goods to the black bag, glass to the supply)."""
    me = s.builders[b]
    text = items_text(me.pack)
    for k, n in me.pack.items():
        if n:
            return_item(s, k, n)
    me.pack = empty_items()
    s.rested = True
    ev.append(Event(f"{label(s, b)} takes a rest stop: returns {text}, earns a blueprint"))
    queue_rewards(s, ("blueprint",), "a rest stop")


def _rests(s: CathedralState, mid: str, ev: list[Event]) -> bool:
    """Whether `mid` is the rest stop on offer at a step (taken then: the step waits on)."""
    if mid != "rest":
        return False
    rest(s, s.turn, ev)
    return True


def _ask(s: CathedralState, d: Task, text: str, moves: list[Move], phase: str) -> Prompt:
    """The prompt of a step of the turn, with the rest stop when it is on offer."""
    if may_rest(s):
        moves.append(rest_move())
    return Prompt(d.seat, text, tuple(moves), step=s.step, phase=phase)


def _decline(s: CathedralState, ev: list[Event]) -> None:
    """The player declines the action: the turn's action is over."""
    ev.append(Event(f"{label(s, s.turn)} declines the action"))
    go_on(s, "done")


# ---- glass: who receives a stained glass reward ----------------------------------------------
def offer_glass(s: CathedralState, source: str, ev: list[Event]) -> None:
    """A stained glass to place: the player whose turn it is decides where it goes, unless
    only one backpack has room and no rest stop could make more."""
    room = [j for j in range(len(s.builders)) if has_room(s, j)]
    if s.pending[0].kind == "glass":
        s.pending.pop(0)
    if may_rest(s) or len(room) > 1:
        s.pending.insert(0, Task("glass", seat_of(s, s.turn), source=source))
    elif not room:
        ev.append(Event(f"No backpack has room for the stained glass ({source})"))
    else:
        s.glass_supply -= 1
        s.builders[room[0]].pack["glass"] += 1
        ev.append(Event(f"{label(s, room[0])} receives a stained glass ({source})"))


def glass_moves(s: CathedralState) -> tuple[Move, ...]:
    """Who receives the stained glass; with the player's own backpack full, a rest stop
    first; with no backpack free, letting it go."""
    out = []
    for j, bj in enumerate(s.builders):
        if pack_size(bj) < data.BACKPACK_SIZE:
            who = label(s, j)
            out.append(
                Move(
                    f"glass:{j}",
                    f"Into {who}'s backpack" if j == s.turn else f"Give it to {who}",
                    f"→ {who}: {bj.pack['glass'] + 1} stained glass, "
                    f"backpack {pack_size(bj) + 1}/{data.BACKPACK_SIZE}",
                )
            )
    if may_rest(s):
        rest_ = rest_move()
        out.append(Move("rest", rest_.label + ", then place the stained glass", rest_.preview))
    if not any(m.id.startswith("glass:") for m in out):
        out.append(Move("lose", "Let the stained glass go", "no backpack has room for it"))
    return tuple(out)


def prompt_glass(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    who = label(s, s.turn)
    offers = glass_moves(s)
    text = f"{who}: who receives the stained glass ({d.source})?"
    if not any(m.id.startswith("glass:") for m in offers):
        text = f"{who}: no backpack has room for the stained glass ({d.source})"
    return Prompt(d.seat, text, offers, step=s.step, phase="Reward")


def play_glass(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if mid == "rest":  # room first: the offer stands
        rest(s, s.turn, ev)
        offer_glass(s, d.source, ev)
        return
    s.pending.pop(0)
    if mid == "lose":
        ev.append(Event(f"No backpack takes the stained glass ({d.source})"))
    else:
        j = int(mid.split(":")[1])
        s.glass_supply -= 1
        s.builders[j].pack["glass"] += 1
        ev.append(Event(f"{label(s, j)} receives a stained glass ({d.source})"))


# ---- bag: draw a subject ---------------------------------------------------------------------
def prompt_bag(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    moves = []
    for bag in data.BAGS:
        n = sum(s.bags[bag].values())
        if n:
            moves.append(
                Move(
                    f"draw:{bag}",
                    f"Draw from the {bag} bag",
                    f"{n} token{'' if n == 1 else 's'} inside",
                )
            )
    if may_rest(s):
        moves.append(rest_move())
    who = label(s, s.turn)
    return Prompt(d.seat, f"{who}: choose a bag to draw from", tuple(moves), phase="Draw")


def play_bag(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    bag = mid.split(":")[1]
    s.drawn = draw_subject(s, bag)
    s.drawn_bag = bag
    go_on(s, "place")
    ev.append(Event(f"{label(s, s.turn)} draws a {s.drawn} from the {bag} bag", reveal=True))


def settle_bag(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """Both bags empty: the round ends."""
    if sum(s.bags["red"].values()) or sum(s.bags["blue"].values()):
        return False
    ev.append(Event("Both bags are empty: the round ends"))
    s.ender = s.turn
    go_on(s, "round_end")
    return True


# ---- place: the drawn subject on an action space (or the bell tower) -------------------------
def place_moves(s: CathedralState) -> list[Move]:
    subj = s.drawn
    seen = set()
    moves = []
    here = s.builders[s.turn].city
    for sp in data.SPACES:
        if s.spaces[sp.id] or (subj != "monk" and subj not in sp.accepts):
            continue
        key = data.SPACE_KEY[sp.id]
        if key in seen:
            continue
        seen.add(key)
        act = sp.action
        if act in data.ACTION_KIND:
            dests = [data.CITIES[o] for _, o in data.NEIGHBOURS[data.ACTION_KIND[act]][here]]
            pv = ("to " + " / ".join(dests)) if dests else "no way from here"
        elif act == "market":
            pv = "deliver up to 2 tokens"
        elif act == "glassworks":
            pv = "+1 stained glass" if s.glass_supply else "supply empty"
        elif act == "glassshop":
            pv = "stained glass → blueprint"
        else:  # fair
            pv = f"reveal an event ({len(s.events)} left)" if s.events else "no event left"
        shows = "any" if len(sp.accepts) == len(data.SUBJECTS) else "/".join(sp.accepts)
        moves.append(Move(f"place:{sp.id}", f"{data.ACTION_NAMES[act]} ({sp.zone}, {shows})", pv))
    last = s.round >= data.ROUNDS
    moves.append(
        Move(
            "place:bell",
            "Bell tower: end the round",
            "ends the game (lost)"
            if last and s.sections < data.SECTIONS
            else f"ends round {s.round}",
        )
    )
    return moves


def prompt_place(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    who = label(s, s.turn)
    moves = place_moves(s)
    text = f"{who}: place the {s.drawn}"
    if len(moves) == 1:
        text = f"{who}: the {s.drawn} fits nowhere else: the bell tower ends the round"
    return _ask(s, d, text, moves, "Place")


def play_place(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    space = mid.split(":")[1]
    b = s.turn
    who = label(s, b)
    subj = s.drawn
    s.drawn = ""
    if space == data.BELL:
        s.bell = subj
        s.ender = b
        go_on(s, "round_end")
        ev.append(Event(f"{who} sends the {subj} to the bell tower: round {s.round} ends"))
        return
    sp = data.SPACE_BY_ID[space]
    s.spaces[space] = subj
    s.space = space
    act = sp.action
    ev.append(Event(f"{who} places the {subj} on the {data.ACTION_NAMES[act]} ({sp.zone})"))
    if act in data.ACTION_KIND:
        go_on(s, "move")
    elif act == "market":
        go_on(s, "market")
        s.market_left = 2
    elif act == "glassworks":
        go_on(s, "glassworks")
    elif act == "glassshop":
        go_on(s, "glassshop")
    else:
        fair(s, ev)
        go_on(s, "done")


def fair(s: CathedralState, ev: list[Event]) -> None:
    """Fair square: reveal the top event tile (cannot be declined)."""
    who = label(s, s.turn)
    if not s.events:
        ev.append(Event(f"{who}: no event tile is left to reveal"))
        return
    key = s.events.pop()
    e = data.EVENT_BY_KEY[key]
    what = f"a blueprint when {e.text}" if e.kind == "order" else e.text
    ev.append(Event(f"{who} reveals the event {e.name}: {what}", reveal=True))
    if e.kind == "glass":
        s.event_discard.append(key)
        queue_rewards(s, ("glass",), f"event {e.name}")
    elif e.kind == "monk":
        s.event_discard.append(key)
        queue_rewards(s, (f"monk_{e.param}",), f"event {e.name}")
    else:
        if s.order:
            old = data.EVENT_BY_KEY[s.order]
            ev.append(Event(f"The unfulfilled {old.name} is discarded"))
            s.event_discard.append(s.order)
        s.order = key


# ---- move: Cart (road) or Ship (river), choose the destination -------------------------------
def prompt_move(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    who = label(s, s.turn)
    action = data.SPACE_BY_ID[s.space].action
    kind = data.ACTION_KIND[action]
    here = s.builders[s.turn].city
    moves = []
    for ci, other in data.NEIGHBOURS[kind][here]:
        toks = [t for k in range(len(s.roads[ci]) + 1) if (t := path_token(s, ci, k))]
        pv = ("path: " + ", ".join(data.ITEM_NAMES[t] for t in toks)) if toks else "path empty"
        moves.append(
            Move(f"go:{other}", f"{data.ACTION_NAMES[action]} to {data.CITIES[other]}", pv)
        )
    moves.append(Move("decline", "Decline the action", "the subject just occupies the space"))
    text = f"{who}: {data.ACTION_NAMES[action]} from {data.CITIES[here]} — where to?"
    return _ask(s, d, text, moves, data.ACTION_NAMES[action])


def play_move(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    if mid == "decline":
        _decline(s, ev)
        return
    who = label(s, s.turn)
    me = s.builders[s.turn]
    dest = mid.split(":")[1]
    kind = data.ACTION_KIND[data.SPACE_BY_ID[s.space].action]
    ci = next(i for i, o in data.NEIGHBOURS[kind][me.city] if o == dest)
    s.path, s.path_dest, s.path_slot = ci, dest, 0
    go_on(s, "pickup")
    ev.append(Event(f"{who} sets off by {kind} from {data.CITIES[me.city]} to {data.CITIES[dest]}"))


def settle_move(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """No road (river) leaves the city: the action is declined."""
    me = s.builders[s.turn]
    kind = data.ACTION_KIND[data.SPACE_BY_ID[s.space].action]
    if data.NEIGHBOURS[kind][me.city]:
        return False
    ev.append(Event(f"No {kind} leaves {data.CITIES[me.city]}: the action is declined"))
    go_on(s, "done")
    return True


# ---- pickup: take or leave each token on the path --------------------------------------------
def prompt_pickup(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    b = s.turn
    who = label(s, b)
    tok = path_token(s, s.path, s.path_slot) or ""
    name = data.ITEM_NAMES[tok]
    pack = s.builders[b].pack
    size = pack_size(s.builders[b])
    if size < data.BACKPACK_SIZE:
        moves = [
            Move("take", f"Take the {name}", f"→ backpack {size + 1}/{data.BACKPACK_SIZE}"),
            Move("leave", f"Leave the {name}", "pass it by"),
        ]
    else:
        moves = [Move("leave", f"Pass the {name} by", "backpack stays full")]
        for it in data.ITEMS:
            if pack[it] and it != tok:
                dest = "the supply" if it == "glass" else "the black bag"
                moves.append(
                    Move(
                        f"swap:{it}",
                        f"Send 1 {data.ITEM_NAMES[it]} to {dest}, take the {name}",
                        f"{data.ITEM_NAMES[it]} {pack[it]}→{pack[it] - 1}, {name} +1",
                    )
                )
        if not s.rested:
            moves.append(rest_move())
    return Prompt(
        d.seat,
        f"{who}: on the way to {data.CITIES[s.path_dest]} lies a {name}",
        tuple(moves),
        step=s.step,
        phase=data.ACTION_NAMES[data.SPACE_BY_ID[s.space].action],
    )


def play_pickup(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    who = label(s, s.turn)
    me = s.builders[s.turn]
    tok = path_token(s, s.path, s.path_slot) or ""
    if mid == "leave":
        ev.append(Event(f"{who} passes the {data.ITEM_NAMES[tok]} by"))
    else:
        if mid.startswith("swap:"):
            out = mid.split(":")[1]
            me.pack[out] -= 1
            return_item(s, out)
            dest = "the supply" if out == "glass" else "the black bag"
            ev.append(Event(f"{who} sends 1 {data.ITEM_NAMES[out]} to {dest}"))
        take_path_token(s, s.path, s.path_slot)
        me.pack[tok] += 1
        ev.append(Event(f"{who} picks up the {data.ITEM_NAMES[tok]}"))
    s.path_slot += 1


def settle_pickup(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """Empty spaces are passed by; past the last one the master builder arrives."""
    tok = path_token(s, s.path, s.path_slot)
    while tok == "":
        s.path_slot += 1
        tok = path_token(s, s.path, s.path_slot)
    if tok is not None:
        return False
    b = s.turn
    s.builders[b].city = s.path_dest
    ev.append(Event(f"{label(s, b)} arrives in {data.CITIES[s.path_dest]}"))
    s.path = -1
    go_on(s, "done")
    return True


# ---- market: deliver up to 2 tokens ----------------------------------------------------------
def _fill_preview(
    need: Mapping[str, int], filled: Mapping[str, int], item: str, reward: Sequence[str]
) -> str:
    total = sum(need.values())
    have = sum(filled.values()) + 1
    if have >= total:
        return f"completes the order → {reward_text(reward)}"
    return f"order {have}/{total}"


# An order open to deliveries: (move id head, where, what it needs, what it holds, its tile).
Order = tuple[str, str, Mapping[str, int], Mapping[str, int], data.OrderTile]


def _open_orders(s: CathedralState) -> list[Order]:
    """The orders the player can deliver to here (workshops in their city, the hourglass)."""
    me = s.builders[s.turn]
    orders: list[Order] = []
    for i, w in enumerate(s.workshops):
        if not w.done and w.city == me.city:
            tile = data.WORKSHOP_BY_KEY[w.key]
            need = data.WORKSHOP_NEED[w.key]
            orders.append((f"ws:{i}", f"the {tile.name} workshop", need, w.filled, tile))
    if s.hourglass:
        tile = data.HOURGLASS_BY_KEY[s.hourglass]
        need = data.HOURGLASS_NEED[s.hourglass]
        orders.append(("hg", tile.name, need, s.hourglass_filled, tile))
    return orders


def market_moves(s: CathedralState) -> list[Move]:
    b = s.turn
    me = s.builders[b]
    orders = _open_orders(s)
    moves = []
    for it in data.ITEMS:
        if not me.pack[it]:
            continue
        name = data.ITEM_NAMES[it]
        for head, where, need, filled, tile in orders:
            if filled[it] < need[it]:
                preview = _fill_preview(need, filled, it, tile.reward)
                moves.append(Move(f"{head}:{it}", f"Deliver {name} to {where}", preview))
        for j, bj in enumerate(s.builders):
            if j != b and pack_size(bj) < data.BACKPACK_SIZE:
                moves.append(
                    Move(
                        f"give:{j}:{it}",
                        f"Give {name} to {label(s, j)}",
                        f"→ backpack {pack_size(bj) + 1}/{data.BACKPACK_SIZE}",
                    )
                )
    return moves


def prompt_market(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    moves = market_moves(s)
    done_label = "Decline the market" if s.market_left == 2 else "End the market"
    moves.append(
        Move(
            "done",
            done_label,
            f"{s.market_left} {'delivery' if s.market_left == 1 else 'deliveries'} left",
        )
    )
    text = f"{label(s, s.turn)}: Market — deliver a token ({s.market_left} of 2 left)"
    return _ask(s, d, text, moves, "Market")


def play_market(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if mid == "rest":
        rest(s, s.turn, ev)
    elif mid == "done":
        go_on(s, "done")
    else:
        deliver(s, mid, ev)
        s.market_left -= 1
        if s.market_left <= 0:
            go_on(s, "done")


def deliver(s: CathedralState, mid: str, ev: list[Event]) -> None:
    """One market delivery: to a workshop here, to the hourglass, or to another backpack."""
    b = s.turn
    who = label(s, b)
    me = s.builders[b]
    parts = mid.split(":")
    it = parts[-1]
    me.pack[it] -= 1
    name = data.ITEM_NAMES[it]
    if parts[0] == "give":
        j = int(parts[1])
        s.builders[j].pack[it] += 1
        ev.append(Event(f"{who} gives 1 {name} to {label(s, j)}"))
        return
    if parts[0] == "ws":
        w = s.workshops[int(parts[1])]
        tile = data.WORKSHOP_BY_KEY[w.key]
        w.filled[it] += 1
        ev.append(Event(f"{who} delivers 1 {name} to the {tile.name} workshop"))
        if w.filled == data.WORKSHOP_NEED[w.key]:
            _fulfil(s, tile, w.filled, f"{tile.name} workshop", ev)
            w.filled = empty_items()
            w.done = True
        return
    tile = data.HOURGLASS_BY_KEY[s.hourglass]
    s.hourglass_filled[it] += 1
    ev.append(Event(f"{who} delivers 1 {name} to {tile.name}"))
    if s.hourglass_filled == data.HOURGLASS_NEED[s.hourglass]:
        _fulfil(s, tile, s.hourglass_filled, tile.name, ev)
        s.hourglass_filled = empty_items()
        s.hourglass_done.append(s.hourglass)
        s.hourglass = ""


def _fulfil(
    s: CathedralState, tile: data.OrderTile, filled: Mapping[str, int], source: str, ev: list[Event]
) -> None:
    """An order is filled: what it holds goes back, its reward is due (from `source`)."""
    for k, n in filled.items():
        if n:
            return_item(s, k, n)
    ev.append(Event(f"The {tile.name} order is fulfilled: {reward_text(tile.reward)}"))
    queue_rewards(s, tile.reward, source)


def settle_market(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """Nothing (more) to deliver: the market ends (declined when nothing was delivered)."""
    if market_moves(s):
        return False
    if s.market_left == 2:
        ev.append(Event("Nothing can be delivered: the action is declined"))
    go_on(s, "done")
    return True


# ---- glassworks: take a stained glass --------------------------------------------------------
def prompt_glassworks(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    b = s.turn
    who = label(s, b)
    n = s.builders[b].pack["glass"]
    if is_full(s, b):  # a rest stop first makes room (the only other way)
        moves = (rest_move(), Move("decline", "Decline the action"))
        text = f"{who}: Glassworks — your backpack is full"
    else:
        moves = (
            Move("take", "Take 1 stained glass", f"→ {n + 1} stained glass"),
            Move("decline", "Decline the action"),
        )
        text = f"{who}: Glassworks"
    return Prompt(d.seat, text, moves, step=s.step, phase="Glassworks")


def play_glassworks(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    if mid != "take":
        _decline(s, ev)
        return
    s.glass_supply -= 1
    s.builders[s.turn].pack["glass"] += 1
    ev.append(Event(f"{label(s, s.turn)} takes a stained glass at the Glassworks"))
    go_on(s, "done")


def settle_glassworks(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """An empty supply, or a full backpack after the turn's rest stop: declined."""
    if s.glass_supply and not (is_full(s, s.turn) and s.rested):
        return False
    why = "the supply is empty" if not s.glass_supply else "the backpack is full"
    ev.append(Event(f"Glassworks: {why}, the action is declined"))
    go_on(s, "done")
    return True


# ---- glassshop: the stained glass workshop (a stained glass for a blueprint) -----------------
def prompt_glassshop(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    left = len(s.blueprints)
    moves = [
        Move(
            "trade",
            "Send 1 stained glass to the supply for a blueprint",
            f"→ flip a blueprint ({left} face down)" if left else "→ no blueprint left",
        ),
        Move("decline", "Decline the action"),
    ]
    return _ask(
        s, d, f"{label(s, s.turn)}: Stained glass workshop", moves, "Stained glass workshop"
    )


def play_glassshop(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if _rests(s, mid, ev):
        return
    if mid != "trade":
        _decline(s, ev)
        return
    s.builders[s.turn].pack["glass"] -= 1
    s.glass_supply += 1
    ev.append(Event(f"{label(s, s.turn)} sends a stained glass to the supply for a blueprint"))
    queue_rewards(s, ("blueprint",), "the stained glass workshop")
    go_on(s, "done")


def settle_glassshop(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> bool:
    """No stained glass to send: declined."""
    if s.builders[s.turn].pack["glass"]:
        return False
    ev.append(Event("No stained glass to send: the action is declined"))
    go_on(s, "done")
    return True


# ---- the end of a turn -----------------------------------------------------------------------
def run_done(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> None:
    """The action is over: a full backpack may still rest, else the turn passes on."""
    if not s.rested and is_full(s, s.turn):
        go_on(s, "end_turn")
    else:
        next_turn(s)


def prompt_end_turn(game: TheGame, s: CathedralState, d: Task) -> Prompt:
    return Prompt(
        d.seat,
        f"{label(s, s.turn)}: your backpack is full — rest stop?",
        (rest_move(), Move("end", "End the turn", "keep the backpack")),
        step=s.step,
        phase="Rest stop",
    )


def play_end_turn(game: TheGame, s: CathedralState, d: Task, mid: str, ev: list[Event]) -> None:
    if mid == "rest":
        rest(s, s.turn, ev)
        go_on(s, "done")
    else:  # "end"
        next_turn(s)


def next_turn(s: CathedralState) -> None:
    s.turn = (s.turn + 1) % len(s.builders)
    go_on(s, "bag")
    s.step = 0
    s.rested = False
    s.space = ""


# ---- the end of a round ----------------------------------------------------------------------
def run_round_end(game: TheGame, s: CathedralState, d: Task, ev: list[Event]) -> None:
    """Bell tower: the round ends (after round 3 the game is lost)."""
    if s.round >= data.ROUNDS:
        s.over = True
        s.pending = []
        ev.append(
            Event(
                f"Round {s.round} is over with {s.sections} of {data.SECTIONS} sections: "
                "the cathedral is not finished — all lose"
            )
        )
        return
    _clear_city(s, ev)
    s.round += 1
    if s.hourglass_stack:
        s.hourglass = s.hourglass_stack.pop()
        tile = data.HOURGLASS_BY_KEY[s.hourglass]
        ev.append(
            Event(
                f"New hourglass: {tile.name} wants {items_text(data.HOURGLASS_NEED[tile.key])}",
                reveal=True,
            )
        )
    _refill(s, ev)
    s.turn = (s.ender + 1) % len(s.builders)
    go_on(s, "bag")
    s.step = 0
    s.rested = False
    s.space = ""
    ev.append(Event(f"Round {s.round} begins with {label(s, s.turn)}"))


def _clear_city(s: CathedralState, ev: list[Event]) -> None:
    """The bell tower subject leaves, the subjects go back to their bags, and the current
    hourglass (unfulfilled) leaves the game."""
    if s.bell:
        s.removed.append(s.bell)
        ev.append(Event(f"The {s.bell} on the bell tower leaves the game"))
        s.bell = ""
    back = {"red": 0, "blue": 0}
    for sp in data.SPACES:
        subj = s.spaces[sp.id]
        if subj:
            s.bags[sp.zone][subj] += 1
            s.spaces[sp.id] = ""
            back[sp.zone] += 1
    ev.append(Event(f"{back['red']} subjects return to the red bag, {back['blue']} to the blue"))
    if s.hourglass:
        tile = data.HOURGLASS_BY_KEY[s.hourglass]
        for k, n in s.hourglass_filled.items():
            if n:
                return_item(s, k, n)
        s.hourglass_filled = empty_items()
        s.hourglass_lost.append(s.hourglass)
        s.hourglass = ""
        ev.append(Event(f"{tile.name} was not fulfilled and is discarded"))


def _refill(s: CathedralState, ev: list[Event]) -> None:
    """The goods spaces from the black bag, the glass space from the supply."""
    drawn = empty_items()
    for road in s.roads:
        for slot, token in enumerate(road):
            if not token:
                g = draw_good(s)
                if g:
                    road[slot] = g
                    drawn[g] += 1
    ev.append(Event(f"Goods spaces refilled: {items_text(drawn)}", reveal=True))
    if not s.glass_space and s.glass_supply:
        s.glass_supply -= 1
        s.glass_space = 1
        ev.append(Event("A stained glass is placed between Tours and Bourges"))


# ---- the table -------------------------------------------------------------------------------
_KINDS: dict[str, Kind[TheGame, CathedralState, Task]] = {
    "glass": choice(prompt_glass, play_glass),
    "bag": choice(prompt_bag, play_bag, settle_bag),
    "place": choice(prompt_place, play_place),
    "move": choice(prompt_move, play_move, settle_move),
    "pickup": choice(prompt_pickup, play_pickup, settle_pickup),
    "market": choice(prompt_market, play_market, settle_market),
    "glassworks": choice(prompt_glassworks, play_glassworks, settle_glassworks),
    "glassshop": choice(prompt_glassshop, play_glassshop, settle_glassshop),
    "end_turn": choice(prompt_end_turn, play_end_turn),
    "done": automatic(run_done),
    "round_end": automatic(run_round_end),
    "reward": automatic(run_reward),
}
DECISIONS: DecisionTable[TheGame, CathedralState, Task] = DecisionTable(_KINDS)
