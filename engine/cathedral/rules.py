"""The Cathedral of Orléans: setup, the turn (bag, draw, place, action), rewards, round end.

Named as the rulebook names them: Cart, Ship, Rest stop, Market, Glassworks, Stained glass
workshop, Fair square, Bell tower. One master builder plays at a time; every decision is a
prompt of the current builder's seat (solo: one seat plays two builders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import chance
from ..core.protocol import Event, Game, Move, Option, Prompt, Result, ScoreLine
from . import data as D
from .state import Builder, CathedralState, WorkshopSlot, empty_items
from .tables import HOURGLASS_NEED, NEIGHBOURS, WORKSHOP_NEED, pack_size
from .title import TITLE

# ---- derived tables (computed once from data) ----------------------------------------------
# identical free spaces (same zone, action, subjects) are offered once
_SPACE_KEY = {sp.id: (sp.zone, sp.action, sp.accepts) for sp in D.SPACES}
ITEM_NAMES = D.ITEM_NAMES


def _items_text(counts: Mapping[str, int]) -> str:
    parts = [f"{n} {ITEM_NAMES[k]}" for k, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _reward_text(reward: Sequence[str]) -> str:
    return " + ".join(D.REWARD_NAMES[r] for r in reward)


class CathedralGame(Game[CathedralState]):
    """The co-operative game: build all 8 cathedral sections within 3 rounds."""

    meta = TITLE
    cooperative = True
    has_private_info = False
    summary = (
        "Co-operative: draw subjects from the red and blue bags, place them on the city's "
        "action spaces, carry goods across the map and build all 8 cathedral sections in 3 "
        "rounds. Solo: one person plays two master builders."
    )
    options = (
        Option(
            "variant",
            "Variant",
            (("normal", "Normal (2 monks per bag)"), ("harder", "Harder (1 monk per bag)")),
            "normal",
            "The harder variant puts only one monk into each of the red and blue bags.",
        ),
        Option(
            "bag_memory",
            "Bag memory",
            (("off", "Off (counts only)"), ("on", "On (show what each bag holds)")),
            "off",
            "The rulebook asks players to remember what went into the bags; 'on' shows it.",
        ),
    )

    # ---- names ------------------------------------------------------------------------
    @staticmethod
    def builders_for(players: int) -> int:
        """Master builders in play: one per player, two in the solo game."""
        return max(2, players)

    @staticmethod
    def seat_of(s: CathedralState, b: int) -> int:
        return b % len(s.names)

    @staticmethod
    def label(s: CathedralState, b: int) -> str:
        """A master builder as people read it: the player's name (solo: name (1) / (2))."""
        if len(s.names) == 1:
            return f"{s.names[0]} ({b + 1})"
        return s.names[b]

    # ---- setup ------------------------------------------------------------------------
    def new_state(
        self, names: Sequence[str], options: Mapping[str, str], seed: int
    ) -> CathedralState:
        self.check_players(len(names))
        opts = self.check_options(options)
        s = CathedralState(names=list(names), seed=seed, options=opts)
        nb = self.builders_for(len(names))
        # 2. workshops: shuffle, 3 face up on the workshop spaces, the rest to the box
        tiles = [t.key for t in D.WORKSHOPS]
        chance.shuffle(s, tiles)
        s.workshops = [WorkshopSlot(key=tiles[i], city=c) for i, c in enumerate(D.WORKSHOP_CITIES)]
        s.workshop_box = sorted(tiles[D.WORKSHOPS_IN_PLAY :])
        # 3. events: a face-down stack
        s.events = [e.key for e in D.EVENTS]
        chance.shuffle(s, s.events)
        # 4. goods: all into the black bag, then onto every goods space
        s.black = dict(D.GOODS_COUNT)
        s.roads = [[""] * c.goods for c in D.CONNECTIONS]
        for ci, c in enumerate(D.CONNECTIONS):
            for k in range(c.goods):
                s.roads[ci][k] = self._draw_good(s)
        # 5. stained glass: one on its space, the rest a supply
        s.glass_space = D.GLASS_ON_MAP
        s.glass_supply = D.GLASS_TOTAL - D.GLASS_ON_MAP
        # 6. blueprints: shuffled face down
        s.blueprints = list(D.BLUEPRINTS)
        chance.shuffle(s, s.blueprints)
        # 8. hourglass: 3 random tiles face down, reveal the top one
        hg = [t.key for t in D.HOURGLASSES]
        chance.shuffle(s, hg)
        s.hourglass_stack = hg[: D.HOURGLASSES_IN_PLAY]
        s.hourglass_box = sorted(hg[D.HOURGLASSES_IN_PLAY :])
        s.hourglass = s.hourglass_stack.pop()
        s.hourglass_filled = empty_items()
        # 9. subject bags and the monk supply
        setup = D.BAG_SETUP[opts["variant"]]
        s.bags = {bag: {subj: setup[bag].get(subj, 0) for subj in D.SUBJECTS} for bag in D.BAGS}
        s.monk_supply = D.SUBJECT_COUNT["monk"] - sum(setup[b]["monk"] for b in D.BAGS)
        s.spaces = {sp.id: "" for sp in D.SPACES}
        # 10. backpacks: each master builder draws one good; everybody starts in Orléans
        s.builders = [Builder(city=D.START_CITY) for _ in range(nb)]
        for b in s.builders:
            g = self._draw_good(s)
            if g:
                b.pack[g] += 1
        s.turn = 0
        s.stage = "bag"
        tile = D.HOURGLASS_BY_KEY[s.hourglass]
        s.opening = [
            "Workshops: "
            + ", ".join(
                f"{D.WORKSHOP_BY_KEY[w.key].name} in {D.CITIES[w.city]}" for w in s.workshops
            ),
            f"Hourglass: {tile.name} wants {_items_text(HOURGLASS_NEED[tile.key])}",
            f"Round 1 begins with {self.label(s, 0)}",
        ]
        return s

    # ---- small helpers ----------------------------------------------------------------
    def _draw_good(self, s: CathedralState) -> str:
        """A random good from the black bag ("" when it is empty)."""
        bag = s.black
        total = bag["wood"] + bag["stone"] + bag["bread"]
        if total == 0:
            return ""
        i = chance.draw_index(s, total)
        for g in D.GOODS:
            i -= bag[g]
            if i < 0:
                bag[g] -= 1
                return g
        raise AssertionError("unreachable")

    def _draw_subject(self, s: CathedralState, bag_name: str) -> str:
        bag = s.bags[bag_name]
        i = chance.draw_index(s, sum(bag.values()))
        for subj in D.SUBJECTS:
            i -= bag[subj]
            if i < 0:
                bag[subj] -= 1
                return subj
        raise AssertionError("unreachable")

    def _return_item(self, s: CathedralState, item: str, n: int = 1) -> None:
        """Goods go back to the black bag, stained glass to the supply."""
        if item == "glass":
            s.glass_supply += n
        else:
            s.black[item] += n

    def _room(self, s: CathedralState, b: int) -> bool:
        return pack_size(s.builders[b]) < D.BACKPACK_SIZE

    def _full(self, s: CathedralState, b: int) -> bool:
        return pack_size(s.builders[b]) >= D.BACKPACK_SIZE

    def _path_token(self, s: CathedralState, ci: int, slot: int) -> str | None:
        """The token on slot `slot` of connection `ci` ("" empty), None past the end."""
        c = D.CONNECTIONS[ci]
        if slot < c.goods:
            return s.roads[ci][slot]
        if c.glass and slot == c.goods:
            return "glass" if s.glass_space else ""
        return None

    def _take_path_token(self, s: CathedralState, ci: int, slot: int) -> None:
        c = D.CONNECTIONS[ci]
        if slot < c.goods:
            s.roads[ci][slot] = ""
        else:
            s.glass_space = 0

    # ---- prompts ----------------------------------------------------------------------
    def prompt(self, s: CathedralState) -> Prompt | None:
        if s.over:
            return None
        b = s.turn
        seat = self.seat_of(s, b)
        who = self.label(s, b)
        if s.glass_offer:
            offers = self._glass_moves(s)
            text = f"{who}: who receives the stained glass ({s.glass_offer})?"
            if not any(m.id.startswith("glass:") for m in offers):
                text = f"{who}: no backpack has room for the stained glass ({s.glass_offer})"
            return Prompt(seat, text, offers, step=s.step, phase="Reward")
        st = s.stage
        if st == "bag":
            moves = []
            for bag in D.BAGS:
                n = sum(s.bags[bag].values())
                if n:
                    moves.append(
                        Move(
                            f"draw:{bag}",
                            f"Draw from the {bag} bag",
                            f"{n} token{'' if n == 1 else 's'} inside",
                        )
                    )
            if self._may_rest(s):
                moves.append(self._rest_move())
            return Prompt(seat, f"{who}: choose a bag to draw from", tuple(moves), phase="Draw")
        if st == "place":
            moves = self._place_moves(s)
            text = f"{who}: place the {s.drawn}"
            if len(moves) == 1:
                text = f"{who}: the {s.drawn} fits nowhere else: the bell tower ends the round"
            if self._may_rest(s):
                moves.append(self._rest_move())
            return Prompt(seat, text, tuple(moves), step=s.step, phase="Place")
        if st == "move":
            action = D.SPACE_BY_ID[s.space].action
            kind = D.ACTION_KIND[action]
            here = s.builders[b].city
            moves = []
            for ci, other in NEIGHBOURS[kind][here]:
                toks = [
                    t
                    for k in range(D.CONNECTIONS[ci].goods + 1)
                    if (t := self._path_token(s, ci, k))
                ]
                pv = ("path: " + ", ".join(ITEM_NAMES[t] for t in toks)) if toks else "path empty"
                moves.append(
                    Move(f"go:{other}", f"{D.ACTION_NAMES[action]} to {D.CITIES[other]}", pv)
                )
            moves.append(
                Move("decline", "Decline the action", "the subject just occupies the space")
            )
            if self._may_rest(s):
                moves.append(self._rest_move())
            return Prompt(
                seat,
                f"{who}: {D.ACTION_NAMES[action]} from {D.CITIES[here]} — where to?",
                tuple(moves),
                step=s.step,
                phase=D.ACTION_NAMES[action],
            )
        if st == "pickup":
            return self._pickup_prompt(s, seat, who)
        if st == "market":
            moves = self._market_moves(s)
            done_label = "Decline the market" if s.market_left == 2 else "End the market"
            moves.append(
                Move(
                    "done",
                    done_label,
                    f"{s.market_left} {'delivery' if s.market_left == 1 else 'deliveries'} left",
                )
            )
            if self._may_rest(s):
                moves.append(self._rest_move())
            return Prompt(
                seat,
                f"{who}: Market — deliver a token ({s.market_left} of 2 left)",
                tuple(moves),
                step=s.step,
                phase="Market",
            )
        if st == "glassworks":
            n = s.builders[b].pack["glass"]
            if self._full(s, b):  # a rest stop first makes room (the only other way)
                gw = (self._rest_move(), Move("decline", "Decline the action"))
                text = f"{who}: Glassworks — your backpack is full"
            else:
                gw = (
                    Move("take", "Take 1 stained glass", f"→ {n + 1} stained glass"),
                    Move("decline", "Decline the action"),
                )
                text = f"{who}: Glassworks"
            return Prompt(seat, text, gw, step=s.step, phase="Glassworks")
        if st == "glassshop":
            left = len(s.blueprints)
            shop = [
                Move(
                    "trade",
                    "Send 1 stained glass to the supply for a blueprint",
                    f"→ flip a blueprint ({left} face down)" if left else "→ no blueprint left",
                ),
                Move("decline", "Decline the action"),
            ]
            if self._may_rest(s):
                shop.append(self._rest_move())
            return Prompt(
                seat,
                f"{who}: Stained glass workshop",
                tuple(shop),
                step=s.step,
                phase="Stained glass workshop",
            )
        if st == "end_turn":
            return Prompt(
                seat,
                f"{who}: your backpack is full — rest stop?",
                (self._rest_move(), Move("end", "End the turn", "keep the backpack")),
                step=s.step,
                phase="Rest stop",
            )
        raise AssertionError(f"no prompt for stage {st!r}")

    def _may_rest(self, s: CathedralState) -> bool:
        """Seed: with every backpack space occupied you may declare a rest stop at any time on
        your turn (this edition: once per turn)."""
        return self._full(s, s.turn) and not s.rested

    def _rest_move(self) -> Move:
        return Move(
            "rest",
            "Rest stop: empty the backpack for a blueprint",
            "goods → black bag, glass → supply, +1 blueprint",
        )

    def _glass_moves(self, s: CathedralState) -> tuple[Move, ...]:
        """Who receives the stained glass; with the player's own backpack full, a rest stop
        first; with no backpack free, letting it go."""
        out = []
        for j, bj in enumerate(s.builders):
            if pack_size(bj) < D.BACKPACK_SIZE:
                who = self.label(s, j)
                out.append(
                    Move(
                        f"glass:{j}",
                        f"Into {who}'s backpack" if j == s.turn else f"Give it to {who}",
                        f"→ {who}: {bj.pack['glass'] + 1} stained glass, "
                        f"backpack {pack_size(bj) + 1}/{D.BACKPACK_SIZE}",
                    )
                )
        if self._may_rest(s):
            rest = self._rest_move()
            out.append(Move("rest", rest.label + ", then place the stained glass", rest.preview))
        if not any(m.id.startswith("glass:") for m in out):
            out.append(Move("lose", "Let the stained glass go", "no backpack has room for it"))
        return tuple(out)

    def _place_moves(self, s: CathedralState) -> list[Move]:
        subj = s.drawn
        seen = set()
        moves = []
        here = s.builders[s.turn].city
        for sp in D.SPACES:
            if s.spaces[sp.id] or (subj != "monk" and subj not in sp.accepts):
                continue
            key = _SPACE_KEY[sp.id]
            if key in seen:
                continue
            seen.add(key)
            act = sp.action
            if act in D.ACTION_KIND:
                dests = [D.CITIES[o] for _, o in NEIGHBOURS[D.ACTION_KIND[act]][here]]
                pv = ("to " + " / ".join(dests)) if dests else "no way from here"
            elif act == "market":
                pv = "deliver up to 2 tokens"
            elif act == "glassworks":
                pv = "+1 stained glass" if s.glass_supply else "supply empty"
            elif act == "glassshop":
                pv = "stained glass → blueprint"
            else:  # fair
                pv = f"reveal an event ({len(s.events)} left)" if s.events else "no event left"
            shows = "any" if len(sp.accepts) == len(D.SUBJECTS) else "/".join(sp.accepts)
            moves.append(
                Move(
                    f"place:{sp.id}",
                    f"{D.ACTION_NAMES[act]} ({sp.zone}, {shows})",
                    pv,
                )
            )
        last = s.round >= D.ROUNDS
        moves.append(
            Move(
                "place:bell",
                "Bell tower: end the round",
                "ends the game (lost)"
                if last and s.sections < D.SECTIONS
                else f"ends round {s.round}",
            )
        )
        return moves

    def _pickup_prompt(self, s: CathedralState, seat: int, who: str) -> Prompt:
        b = s.turn
        tok = self._path_token(s, s.path, s.path_slot) or ""
        name = ITEM_NAMES[tok]
        pack = s.builders[b].pack
        size = pack_size(s.builders[b])
        if size < D.BACKPACK_SIZE:
            moves = [
                Move("take", f"Take the {name}", f"→ backpack {size + 1}/{D.BACKPACK_SIZE}"),
                Move("leave", f"Leave the {name}", "pass it by"),
            ]
        else:
            moves = [Move("leave", f"Pass the {name} by", "backpack stays full")]
            for it in D.ITEMS:
                if pack[it] and it != tok:
                    dest = "the supply" if it == "glass" else "the black bag"
                    moves.append(
                        Move(
                            f"swap:{it}",
                            f"Send 1 {ITEM_NAMES[it]} to {dest}, take the {name}",
                            f"{ITEM_NAMES[it]} {pack[it]}→{pack[it] - 1}, {name} +1",
                        )
                    )
            if not s.rested:
                moves.append(self._rest_move())
        return Prompt(
            seat,
            f"{who}: on the way to {D.CITIES[s.path_dest]} lies a {name}",
            tuple(moves),
            step=s.step,
            phase=D.ACTION_NAMES[D.SPACE_BY_ID[s.space].action],
        )

    def _market_moves(self, s: CathedralState) -> list[Move]:
        b = s.turn
        me = s.builders[b]
        moves = []
        for it in D.ITEMS:
            if not me.pack[it]:
                continue
            name = ITEM_NAMES[it]
            for i, w in enumerate(s.workshops):
                if w.done or w.city != me.city:
                    continue
                need = WORKSHOP_NEED[w.key]
                if w.filled[it] < need[it]:
                    tile = D.WORKSHOP_BY_KEY[w.key]
                    moves.append(
                        Move(
                            f"ws:{i}:{it}",
                            f"Deliver {name} to the {tile.name} workshop",
                            self._fill_preview(need, w.filled, it, tile.reward),
                        )
                    )
            if s.hourglass:
                need = HOURGLASS_NEED[s.hourglass]
                if s.hourglass_filled[it] < need[it]:
                    tile = D.HOURGLASS_BY_KEY[s.hourglass]
                    moves.append(
                        Move(
                            f"hg:{it}",
                            f"Deliver {name} to {tile.name}",
                            self._fill_preview(need, s.hourglass_filled, it, tile.reward),
                        )
                    )
            for j, bj in enumerate(s.builders):
                if j != b and pack_size(bj) < D.BACKPACK_SIZE:
                    moves.append(
                        Move(
                            f"give:{j}:{it}",
                            f"Give {name} to {self.label(s, j)}",
                            f"→ backpack {pack_size(bj) + 1}/{D.BACKPACK_SIZE}",
                        )
                    )
        return moves

    @staticmethod
    def _fill_preview(
        need: Mapping[str, int], filled: Mapping[str, int], item: str, reward: Sequence[str]
    ) -> str:
        total = sum(need.values())
        have = sum(filled.values()) + 1
        if have >= total:
            return f"completes the order → {_reward_text(reward)}"
        return f"order {have}/{total}"

    # ---- playing ----------------------------------------------------------------------
    def play(self, s: CathedralState, move: Move) -> list[Event]:
        ev = [Event(line) for line in s.opening]  # round 1 opens the first move's log
        s.opening = []
        mid = move.id
        b = s.turn
        who = self.label(s, b)
        me = s.builders[b]
        st = s.stage
        s.step += 1
        if s.glass_offer:
            if mid == "rest":  # room first: the offer stands
                self._rest(s, b, ev)
                self._offer_glass(s, s.glass_offer, ev)
            elif mid == "lose":
                ev.append(Event(f"No backpack takes the stained glass ({s.glass_offer})"))
                s.glass_offer = ""
            else:
                j = int(mid.split(":")[1])
                s.glass_supply -= 1
                s.builders[j].pack["glass"] += 1
                ev.append(Event(f"{self.label(s, j)} receives a stained glass ({s.glass_offer})"))
                s.glass_offer = ""
        elif mid == "rest":
            self._rest(s, b, ev)
            if st == "end_turn":
                s.stage = "done"
        elif st == "bag":
            bag = mid.split(":")[1]
            s.drawn = self._draw_subject(s, bag)
            s.drawn_bag = bag
            s.stage = "place"
            ev.append(Event(f"{who} draws a {s.drawn} from the {bag} bag", reveal=True))
        elif st == "place":
            self._place(s, mid.split(":")[1], ev)
        elif st == "move":
            if mid == "decline":
                ev.append(Event(f"{who} declines the action"))
                s.stage = "done"
            else:
                dest = mid.split(":")[1]
                kind = D.ACTION_KIND[D.SPACE_BY_ID[s.space].action]
                ci = next(i for i, o in NEIGHBOURS[kind][me.city] if o == dest)
                s.path, s.path_dest, s.path_slot = ci, dest, 0
                s.stage = "pickup"
                ev.append(
                    Event(f"{who} sets off by {kind} from {D.CITIES[me.city]} to {D.CITIES[dest]}")
                )
        elif st == "pickup":
            tok = self._path_token(s, s.path, s.path_slot) or ""
            if mid == "leave":
                ev.append(Event(f"{who} passes the {ITEM_NAMES[tok]} by"))
            else:
                if mid.startswith("swap:"):
                    out = mid.split(":")[1]
                    me.pack[out] -= 1
                    self._return_item(s, out)
                    dest = "the supply" if out == "glass" else "the black bag"
                    ev.append(Event(f"{who} sends 1 {ITEM_NAMES[out]} to {dest}"))
                self._take_path_token(s, s.path, s.path_slot)
                me.pack[tok] += 1
                ev.append(Event(f"{who} picks up the {ITEM_NAMES[tok]}"))
            s.path_slot += 1
        elif st == "market":
            if mid == "done":
                s.stage = "done"
            else:
                self._deliver(s, mid, ev)
                s.market_left -= 1
                if s.market_left <= 0:
                    s.stage = "done"
        elif st == "glassworks":
            if mid == "take":
                s.glass_supply -= 1
                me.pack["glass"] += 1
                ev.append(Event(f"{who} takes a stained glass at the Glassworks"))
            else:
                ev.append(Event(f"{who} declines the action"))
            s.stage = "done"
        elif st == "glassshop":
            if mid == "trade":
                me.pack["glass"] -= 1
                s.glass_supply += 1
                ev.append(Event(f"{who} sends a stained glass to the supply for a blueprint"))
                self._queue(s, ("blueprint",), "the stained glass workshop")
            else:
                ev.append(Event(f"{who} declines the action"))
            s.stage = "done"
        elif st == "end_turn":  # "end"
            self._next_turn(s)
        self._settle(s, ev)
        return ev

    def _place(self, s: CathedralState, space: str, ev: list[Event]) -> None:
        b = s.turn
        who = self.label(s, b)
        subj = s.drawn
        s.drawn = ""
        if space == D.BELL:
            s.bell = subj
            s.ender = b
            s.stage = "round_end"
            ev.append(Event(f"{who} sends the {subj} to the bell tower: round {s.round} ends"))
            return
        sp = D.SPACE_BY_ID[space]
        s.spaces[space] = subj
        s.space = space
        act = sp.action
        ev.append(Event(f"{who} places the {subj} on the {D.ACTION_NAMES[act]} ({sp.zone})"))
        if act in D.ACTION_KIND:
            s.stage = "move"
        elif act == "market":
            s.stage = "market"
            s.market_left = 2
        elif act == "glassworks":
            s.stage = "glassworks"
        elif act == "glassshop":
            s.stage = "glassshop"
        else:
            self._fair(s, ev)
            s.stage = "done"

    def _fair(self, s: CathedralState, ev: list[Event]) -> None:
        """Fair square: reveal the top event tile (cannot be declined)."""
        who = self.label(s, s.turn)
        if not s.events:
            ev.append(Event(f"{who}: no event tile is left to reveal"))
            return
        key = s.events.pop()
        e = D.EVENT_BY_KEY[key]
        ev.append(Event(f"{who} reveals the event {e.name}: {e.text}", reveal=True))
        if e.kind == "glass":
            s.event_discard.append(key)
            self._queue(s, ("glass",), f"event {e.name}")
        elif e.kind == "monk":
            s.event_discard.append(key)
            self._queue(s, (f"monk_{e.param}",), f"event {e.name}")
        else:
            if s.order:
                old = D.EVENT_BY_KEY[s.order]
                ev.append(Event(f"The unfulfilled {old.name} is discarded"))
                s.event_discard.append(s.order)
            s.order = key

    def _deliver(self, s: CathedralState, mid: str, ev: list[Event]) -> None:
        b = s.turn
        who = self.label(s, b)
        me = s.builders[b]
        parts = mid.split(":")
        it = parts[-1]
        me.pack[it] -= 1
        name = ITEM_NAMES[it]
        if parts[0] == "give":
            j = int(parts[1])
            s.builders[j].pack[it] += 1
            ev.append(Event(f"{who} gives 1 {name} to {self.label(s, j)}"))
            return
        if parts[0] == "ws":
            w = s.workshops[int(parts[1])]
            tile = D.WORKSHOP_BY_KEY[w.key]
            w.filled[it] += 1
            ev.append(Event(f"{who} delivers 1 {name} to the {tile.name} workshop"))
            if w.filled == WORKSHOP_NEED[w.key]:
                for k, n in w.filled.items():
                    if n:
                        self._return_item(s, k, n)
                w.filled = empty_items()
                w.done = True
                ev.append(Event(f"The {tile.name} order is fulfilled: {_reward_text(tile.reward)}"))
                self._queue(s, tile.reward, f"{tile.name} workshop")
            return
        tile = D.HOURGLASS_BY_KEY[s.hourglass]
        s.hourglass_filled[it] += 1
        ev.append(Event(f"{who} delivers 1 {name} to {tile.name}"))
        if s.hourglass_filled == HOURGLASS_NEED[s.hourglass]:
            for k, n in s.hourglass_filled.items():
                if n:
                    self._return_item(s, k, n)
            s.hourglass_filled = empty_items()
            s.hourglass_done.append(s.hourglass)
            s.hourglass = ""
            ev.append(Event(f"The {tile.name} order is fulfilled: {_reward_text(tile.reward)}"))
            self._queue(s, tile.reward, tile.name)

    def _rest(self, s: CathedralState, b: int, ev: list[Event]) -> None:
        """Rest stop: the whole backpack back (goods to the black bag, glass to the supply)."""
        me = s.builders[b]
        text = _items_text(me.pack)
        for k, n in me.pack.items():
            if n:
                self._return_item(s, k, n)
        me.pack = empty_items()
        s.rested = True
        ev.append(Event(f"{self.label(s, b)} takes a rest stop: returns {text}, earns a blueprint"))
        self._queue(s, ("blueprint",), "a rest stop")

    def _queue(self, s: CathedralState, rewards: Sequence[str], source: str) -> None:
        s.pending.extend(rewards)
        s.pending_source.extend([source] * len(rewards))

    # ---- automatic flow ---------------------------------------------------------------
    def _settle(self, s: CathedralState, ev: list[Event]) -> None:
        """Carry out everything that needs no decision, up to the next decision."""
        while not s.over:
            if s.glass_offer:
                return
            if s.pending:
                reward = s.pending.pop(0)
                source = s.pending_source.pop(0)
                self._reward(s, reward, source, ev)
                continue
            if s.order and self._order_met(s):
                e = D.EVENT_BY_KEY[s.order]
                ev.append(Event(f"{e.name} is met ({e.text}): a blueprint"))
                s.event_discard.append(s.order)
                s.order = ""
                self._queue(s, ("blueprint",), e.name)
                continue
            st = s.stage
            b = s.turn
            if st == "done":
                if not s.rested and self._full(s, b):
                    s.stage = "end_turn"
                    return
                self._next_turn(s)
                continue
            if st == "round_end":
                self._end_round(s, ev)
                continue
            if st == "bag":
                if not sum(s.bags["red"].values()) and not sum(s.bags["blue"].values()):
                    ev.append(Event("Both bags are empty: the round ends"))
                    s.ender = b
                    s.stage = "round_end"
                    continue
                return
            if st == "pickup":
                tok = self._path_token(s, s.path, s.path_slot)
                while tok == "":
                    s.path_slot += 1
                    tok = self._path_token(s, s.path, s.path_slot)
                if tok is None:
                    s.builders[b].city = s.path_dest
                    ev.append(Event(f"{self.label(s, b)} arrives in {D.CITIES[s.path_dest]}"))
                    s.path = -1
                    s.stage = "done"
                    continue
                return
            me = s.builders[b]
            if st == "move":
                kind = D.ACTION_KIND[D.SPACE_BY_ID[s.space].action]
                if not NEIGHBOURS[kind][me.city]:
                    ev.append(
                        Event(f"No {kind} leaves {D.CITIES[me.city]}: the action is declined")
                    )
                    s.stage = "done"
                    continue
                return
            if st == "market":
                if not self._market_moves(s):
                    if s.market_left == 2:
                        ev.append(Event("Nothing can be delivered: the action is declined"))
                    s.stage = "done"
                    continue
                return
            if st == "glassworks":
                if not s.glass_supply or (self._full(s, b) and s.rested):
                    why = "the supply is empty" if not s.glass_supply else "the backpack is full"
                    ev.append(Event(f"Glassworks: {why}, the action is declined"))
                    s.stage = "done"
                    continue
                return
            if st == "glassshop":
                if not me.pack["glass"]:
                    ev.append(Event("No stained glass to send: the action is declined"))
                    s.stage = "done"
                    continue
                return
            return

    def _order_met(self, s: CathedralState) -> bool:
        param = D.EVENT_BY_KEY[s.order].param
        if param == "meeting":
            cities = [b.city for b in s.builders]
            return len(set(cities)) < len(cities)
        if param == "glass":
            return any(b.pack["glass"] >= 2 for b in s.builders)
        return any(b.city == param for b in s.builders)

    def _reward(self, s: CathedralState, reward: str, source: str, ev: list[Event]) -> None:
        if reward == "section":
            s.sections += 1
            s.section_log.append(source)
            ev.append(Event(f"Cathedral section {s.sections} is attached ({source})"))
            if s.sections >= D.SECTIONS:
                s.won = True
                s.over = True
                s.stage = "over"
                ev.append(Event("The roof is on: the Cathedral of Orléans is built — all win!"))
        elif reward == "blueprint":
            if not s.blueprints:
                ev.append(Event(f"No blueprint is left to flip ({source})"))
                return
            bp = s.blueprints.pop()
            s.blueprints_flipped.append(bp)
            ev.append(Event(f"Blueprint flipped ({source}): {D.REWARD_NAMES[bp]}", reveal=True))
            s.pending.insert(0, bp)
            s.pending_source.insert(0, "blueprint")
        elif reward == "glass":
            if not s.glass_supply:
                ev.append(Event(f"No stained glass is left in the supply ({source})"))
                return
            self._offer_glass(s, source, ev)
        else:  # monk_red / monk_blue
            bag = reward.split("_")[1]
            if not s.monk_supply:
                ev.append(Event(f"No monk is left in the supply ({source})"))
                return
            s.monk_supply -= 1
            s.bags[bag]["monk"] += 1
            ev.append(Event(f"A monk goes into the {bag} bag ({source})"))

    def _offer_glass(self, s: CathedralState, source: str, ev: list[Event]) -> None:
        """A stained glass to place: the player whose turn it is decides where it goes, unless
        only one backpack has room and no rest stop could make more."""
        room = [j for j in range(len(s.builders)) if self._room(s, j)]
        s.glass_offer = ""
        if self._may_rest(s) or len(room) > 1:
            s.glass_offer = source
        elif not room:
            ev.append(Event(f"No backpack has room for the stained glass ({source})"))
        else:
            s.glass_supply -= 1
            s.builders[room[0]].pack["glass"] += 1
            ev.append(Event(f"{self.label(s, room[0])} receives a stained glass ({source})"))

    def _next_turn(self, s: CathedralState) -> None:
        s.turn = (s.turn + 1) % len(s.builders)
        s.stage = "bag"
        s.step = 0
        s.rested = False
        s.space = ""

    def _end_round(self, s: CathedralState, ev: list[Event]) -> None:
        """Bell tower: the round ends (after round 3 the game is lost)."""
        if s.round >= D.ROUNDS:
            s.over = True
            s.stage = "over"
            ev.append(
                Event(
                    f"Round {s.round} is over with {s.sections} of {D.SECTIONS} sections: "
                    "the cathedral is not finished — all lose"
                )
            )
            return
        # the bell tower subject leaves the game
        if s.bell:
            s.removed.append(s.bell)
            ev.append(Event(f"The {s.bell} on the bell tower leaves the game"))
            s.bell = ""
        # subjects return to the bag of their zone
        back = {"red": 0, "blue": 0}
        for sp in D.SPACES:
            subj = s.spaces[sp.id]
            if subj:
                s.bags[sp.zone][subj] += 1
                s.spaces[sp.id] = ""
                back[sp.zone] += 1
        ev.append(
            Event(f"{back['red']} subjects return to the red bag, {back['blue']} to the blue")
        )
        # the current hourglass leaves the game
        if s.hourglass:
            tile = D.HOURGLASS_BY_KEY[s.hourglass]
            for k, n in s.hourglass_filled.items():
                if n:
                    self._return_item(s, k, n)
            s.hourglass_filled = empty_items()
            s.hourglass_lost.append(s.hourglass)
            s.hourglass = ""
            ev.append(Event(f"{tile.name} was not fulfilled and is discarded"))
        s.round += 1
        if s.hourglass_stack:
            s.hourglass = s.hourglass_stack.pop()
            tile = D.HOURGLASS_BY_KEY[s.hourglass]
            ev.append(
                Event(
                    f"New hourglass: {tile.name} wants {_items_text(HOURGLASS_NEED[tile.key])}",
                    reveal=True,
                )
            )
        # refill the goods spaces from the black bag, the glass space from the supply
        drawn = empty_items()
        for ci, c in enumerate(D.CONNECTIONS):
            for slot in range(c.goods):
                if not s.roads[ci][slot]:
                    g = self._draw_good(s)
                    if g:
                        s.roads[ci][slot] = g
                        drawn[g] += 1
        ev.append(Event(f"Goods spaces refilled: {_items_text(drawn)}", reveal=True))
        if not s.glass_space and s.glass_supply:
            s.glass_supply -= 1
            s.glass_space = 1
            ev.append(Event("A stained glass is placed between Tours and Bourges"))
        s.turn = (s.ender + 1) % len(s.builders)
        s.stage = "bag"
        s.step = 0
        s.rested = False
        s.space = ""
        ev.append(Event(f"Round {s.round} begins with {self.label(s, s.turn)}"))

    # ---- results, views, reference ----------------------------------------------------
    def result(self, s: CathedralState) -> Result:
        sources: dict[str, int] = {}
        for src in s.section_log:
            sources[src] = sources.get(src, 0) + 1
        breakdown: list[tuple[str, float | str]] = [(k, float(n)) for k, n in sources.items()]
        lines = [
            ScoreLine(seat=i, score=float(s.sections), breakdown=list(breakdown), rank=1)
            for i in range(len(s.names))
        ]
        details = [f"Cathedral sections built: {s.sections} of {D.SECTIONS}"]
        details += [f"Section {i + 1}: {src}" for i, src in enumerate(s.section_log)]
        if s.sections == D.SECTIONS - 1:
            details.append(f"Missing: section {D.SECTIONS}")
        elif s.sections < D.SECTIONS:
            details.append(f"Missing: sections {s.sections + 1}-{D.SECTIONS}")
        done = [D.WORKSHOP_BY_KEY[w.key].name for w in s.workshops if w.done]
        open_ = [D.WORKSHOP_BY_KEY[w.key].name for w in s.workshops if not w.done]
        details.append(f"Workshops fulfilled: {', '.join(done) or 'none'}")
        if open_:
            details.append(f"Workshops unfinished: {', '.join(open_)}")
        details.append(
            "Hourglass tiles fulfilled: "
            + (", ".join(D.HOURGLASS_BY_KEY[h].name for h in s.hourglass_done) or "none")
        )
        details.append(f"Blueprints flipped: {len(s.blueprints_flipped)}")
        if s.won:
            summary = f"The cathedral is built in round {s.round}: everybody wins!"
            winners = list(range(len(s.names)))
        elif s.over:
            summary = f"Only {s.sections} of {D.SECTIONS} sections after round {D.ROUNDS}: everybody loses."
            winners = []
        else:
            summary = f"Round {s.round}: {s.sections} of {D.SECTIONS} sections built so far."
            winners = []
        return Result(winners, lines, summary, cooperative=True, details=details)

    def view(self, s: CathedralState, seat: int | None) -> dict[str, Any]:
        memory = seat is None or s.options.get("bag_memory") == "on"
        bags: dict[str, Any] = {}
        for bag in D.BAGS:
            bags[bag] = {"count": sum(s.bags[bag].values())}
            if memory:
                bags[bag]["contents"] = {k: n for k, n in s.bags[bag].items() if n}
        bags["black"] = {"count": sum(s.black.values())}
        if memory:
            bags["black"]["contents"] = {k: n for k, n in s.black.items() if n}
        conns = []
        for ci, c in enumerate(D.CONNECTIONS):
            conns.append(
                {
                    "a": c.a,
                    "b": c.b,
                    "kind": c.kind,
                    "goods": list(s.roads[ci]),
                    "glass_space": c.glass,
                    "glass": bool(c.glass and s.glass_space),
                }
            )
        zones: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
        for sp in D.SPACES:
            zones[sp.zone].append(
                {
                    "id": sp.id,
                    "action": D.ACTION_NAMES[sp.action],
                    "accepts": list(sp.accepts),
                    "subject": s.spaces[sp.id],
                }
            )
        workshops = []
        for w in s.workshops:
            tile = D.WORKSHOP_BY_KEY[w.key]
            workshops.append(
                {
                    "key": w.key,
                    "name": tile.name,
                    "city": w.city,
                    "order": dict(WORKSHOP_NEED[w.key]),
                    "filled": dict(w.filled),
                    "reward": list(tile.reward),
                    "done": w.done,
                }
            )
        hg = None
        if s.hourglass:
            tile = D.HOURGLASS_BY_KEY[s.hourglass]
            hg = {
                "key": tile.key,
                "name": tile.name,
                "order": dict(HOURGLASS_NEED[tile.key]),
                "filled": dict(s.hourglass_filled),
                "reward": list(tile.reward),
            }
        order = None
        if s.order:
            e = D.EVENT_BY_KEY[s.order]
            order = {"key": e.key, "name": e.name, "text": e.text}
        v: dict[str, Any] = {
            "game": self.id,
            "names": list(s.names),
            "round": s.round,
            "rounds": D.ROUNDS,
            "phase": self._phase(s),
            "turn": s.turn,
            "to_move": None if s.over else self.seat_of(s, s.turn),
            "builders": [
                {
                    "name": self.label(s, i),
                    "seat": self.seat_of(s, i),
                    "city": b.city,
                    "pack": dict(b.pack),
                    "size": pack_size(b),
                }
                for i, b in enumerate(s.builders)
            ],
            "backpack_size": D.BACKPACK_SIZE,
            "cities": dict(D.CITIES),
            "connections": conns,
            "zones": zones,
            "bell": s.bell,
            "drawn": s.drawn,
            "drawn_bag": s.drawn_bag if s.drawn else "",
            "bags": bags,
            "bag_memory": memory,
            "supply": {"monks": s.monk_supply, "glass": s.glass_supply},
            "removed": list(s.removed),
            "workshops": workshops,
            "hourglass": hg,
            "hourglass_left": len(s.hourglass_stack),
            "hourglass_done": list(s.hourglass_done),
            "hourglass_lost": list(s.hourglass_lost),
            "order": order,
            "events_left": len(s.events),
            "event_discard": [D.EVENT_BY_KEY[k].name for k in s.event_discard],
            "blueprints_left": len(s.blueprints),
            "blueprints_flipped": [D.REWARD_NAMES[k] for k in s.blueprints_flipped],
            "sections": s.sections,
            "sections_total": D.SECTIONS,
            "section_log": list(s.section_log),
            "won": s.won,
            "over": s.over,
        }
        if seat is None:
            v["hidden"] = {
                "events": list(s.events),
                "blueprints": list(s.blueprints),
                "hourglass_stack": list(s.hourglass_stack),
                "hourglass_box": list(s.hourglass_box),
                "workshop_box": list(s.workshop_box),
            }
        return v

    def _phase(self, s: CathedralState) -> str:
        if s.over:
            return "Won" if s.won else "Lost"
        if s.glass_offer:
            return "Reward"
        return {
            "bag": "Draw",
            "place": "Place",
            "move": "Move",
            "pickup": "Move",
            "market": "Market",
            "glassworks": "Glassworks",
            "glassshop": "Stained glass workshop",
            "end_turn": "Rest stop",
        }.get(s.stage, s.stage)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        from .reference import rules_reference

        return rules_reference(options)

    # ---- for computer players and tests ------------------------------------------------
    def determinize(self, s: CathedralState, seat: int, rng: Any) -> CathedralState:
        """Resample the face-down tiles; bag contents are public (only their order is not)."""
        new = self.clone(s)
        events = sorted(new.events)
        rng.shuffle(events)
        new.events = events
        bps = sorted(new.blueprints)
        rng.shuffle(bps)
        new.blueprints = bps
        unseen_hg = sorted(new.hourglass_stack + new.hourglass_box)
        rng.shuffle(unseen_hg)
        k = len(new.hourglass_stack)
        new.hourglass_stack = unseen_hg[:k]
        new.hourglass_box = sorted(unseen_hg[k:])
        new.seed = rng.randrange(2**31)
        return new

    def evaluate(self, s: CathedralState, seat: int) -> float:
        """Team progress: sections, filled order spaces, useful carried tokens, time left.

        Time left counts the free action spaces of this round and the rounds to come, so
        ringing the bell tower early costs what it throws away; an action under way counts
        what the rule player expects it to bring.
        """
        if s.won:
            return 100.0 + 10.0 * (D.ROUNDS - s.round)
        from .policy import action_potential

        v = 10.0 * s.sections
        demand = empty_items()
        for w in s.workshops:
            if not w.done:
                need = WORKSHOP_NEED[w.key]
                v += 2.0 * sum(w.filled.values())
                for k, n in need.items():
                    demand[k] += n - w.filled[k]
        if s.hourglass:
            need = HOURGLASS_NEED[s.hourglass]
            v += 2.2 * sum(s.hourglass_filled.values())
            for k, n in need.items():
                demand[k] += n - s.hourglass_filled[k]
        carried = empty_items()
        for b in s.builders:
            for k, n in b.pack.items():
                carried[k] += n
        for k in D.GOODS:
            v += 1.0 * min(carried[k], demand[k]) + 0.15 * max(0, carried[k] - demand[k])
        v += 0.9 * carried["glass"]
        if s.over:
            return v - 50.0
        free = sum(1 for x in s.spaces.values() if not x)
        v += 0.5 * (free + len(D.SPACES) * (D.ROUNDS - s.round))
        v += action_potential(s)
        return v

    def invariants(self, s: CathedralState) -> list[str]:
        errs: list[str] = []
        # subjects
        count = dict.fromkeys(D.SUBJECTS, 0)
        for bag in D.BAGS:
            for k, n in s.bags[bag].items():
                if n < 0:
                    errs.append(f"{bag} bag has {n} {k}")
                count[k] += n
        for subj in s.spaces.values():
            if subj:
                count[subj] += 1
        for subj in (s.bell, s.drawn, *s.removed):
            if subj:
                count[subj] += 1
        count["monk"] += s.monk_supply
        if s.monk_supply < 0:
            errs.append("monk supply negative")
        if count != D.SUBJECT_COUNT:
            errs.append(f"subjects {count} != {D.SUBJECT_COUNT}")
        # goods and glass
        items = empty_items()
        for g in D.GOODS:
            if s.black[g] < 0:
                errs.append(f"black bag has {s.black[g]} {g}")
            items[g] += s.black[g]
        for road in s.roads:
            for g in road:
                if g:
                    items[g] += 1
        for i, b in enumerate(s.builders):
            n = pack_size(b)
            if n > D.BACKPACK_SIZE or min(b.pack.values()) < 0:
                errs.append(f"backpack {i} holds {b.pack}")
            for k, c in b.pack.items():
                items[k] += c
        for w in s.workshops:
            for k, c in w.filled.items():
                items[k] += c
                if c > WORKSHOP_NEED[w.key][k]:
                    errs.append(f"workshop {w.key} overfilled")
        for k, c in s.hourglass_filled.items():
            items[k] += c
        items["glass"] += s.glass_supply + s.glass_space
        if s.glass_supply < 0:
            errs.append("glass supply negative")
        want = dict(D.GOODS_COUNT, glass=D.GLASS_TOTAL)
        if items != want:
            errs.append(f"items {items} != {want}")
        # tiles
        if len(s.blueprints) + len(s.blueprints_flipped) != D.BLUEPRINT_COUNT:
            errs.append("blueprints not conserved")
        if len(s.events) + len(s.event_discard) + (1 if s.order else 0) != len(D.EVENTS):
            errs.append("events not conserved")
        hg = (
            len(s.hourglass_stack)
            + len(s.hourglass_box)
            + len(s.hourglass_done)
            + len(s.hourglass_lost)
            + (1 if s.hourglass else 0)
        )
        if hg != len(D.HOURGLASSES):
            errs.append("hourglass tiles not conserved")
        if not 0 <= s.sections <= D.SECTIONS:
            errs.append(f"sections {s.sections}")
        if s.sections == D.SECTIONS and not s.won:
            errs.append("8 sections but not won")
        if not 1 <= s.round <= D.ROUNDS:
            errs.append(f"round {s.round}")
        if s.over and not s.won and s.round != D.ROUNDS:
            errs.append("lost before round 3 ended")
        return errs


GAME = CathedralGame()
