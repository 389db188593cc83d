"""The Cathedral of Orléans: one scenario per rule, action, reward, event, order and round-end step.

Scenario states are built with `new_state` and then arranged with helpers that keep every
token conserved, so `invariants` is checked after each scenario too.
"""

from __future__ import annotations

import pytest

from boardgames_tui.engine.cathedral import GAME
from boardgames_tui.engine.cathedral import data as D
from boardgames_tui.engine.cathedral.state import CathedralState, empty_items, pack_size
from boardgames_tui.engine.core.protocol import IllegalMove

# ---- helpers ---------------------------------------------------------------------------------


def fresh(players: int = 2, seed: int = 1, **options: str) -> CathedralState:
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    options.setdefault("map", "full")  # the scenarios lay goods on two-space roads
    s = GAME.new_state(names, GAME.check_options(options), seed)
    s.opening = []  # the setup's log lines (tested in test_opening_log) would open every log
    return s


def ids(s: CathedralState) -> list[str]:
    p = GAME.prompt(s)
    assert p is not None
    return p.ids()


def play(s: CathedralState, mid: str) -> list[str]:
    """Play a legal move in place (IllegalMove if it is not offered); return the log."""
    p = GAME.prompt(s)
    assert p is not None, "game over"
    events = GAME.play(s, p.move(mid))
    assert GAME.invariants(s) == [], GAME.invariants(s)
    return [e.text for e in events]


def set_pack(s: CathedralState, b: int, **items: int) -> None:
    """Give builder b exactly these items, drawing them from the black bag / glass supply."""
    me = s.builders[b]
    for k, n in me.pack.items():
        if k == "glass":
            s.glass_supply += n
        else:
            s.black[k] += n
    me.pack = empty_items()
    for k, n in items.items():
        if k == "glass":
            assert s.glass_supply >= n
            s.glass_supply -= n
        else:
            for _ in range(n):
                take_good(s, k)
        me.pack[k] = n


def at_workshop(s: CathedralState, i: int, key: str, filled: dict[str, int], **pack: int) -> None:
    """Builder 0 stands at workshop `i` (tile `key`) with `pack`, of which `filled` is already
    delivered onto the tile."""
    set_workshop(s, i, key)
    w = s.workshops[i]
    s.builders[0].city = w.city
    set_pack(s, 0, **pack)
    for k, n in filled.items():
        s.builders[0].pack[k] -= n
        w.filled[k] += n


def cart_past_a_stone(**pack: int) -> CathedralState:
    """Builder 0, carrying `pack`, sets off by cart from Orléans to Châteaudun, the road empty
    but for a stone (the step that asks about it is next)."""
    s = fresh()
    clear_roads(s)
    set_pack(s, 0, **pack)
    put_good(s, "orleans", "chateaudun", 0, "stone")
    place_on(s, "knight", "r-cart1")
    play(s, "go:chateaudun")
    return s


def take_good(s: CathedralState, good: str) -> None:
    """Remove one `good` from the black bag (or, if it has none, from a goods space)."""
    if s.black[good]:
        s.black[good] -= 1
        return
    for road in s.roads:
        for k, g in enumerate(road):
            if g == good:
                road[k] = ""
                return
    raise AssertionError(f"no {good} left to take")


def clear_roads(s: CathedralState) -> None:
    """Every goods space empty (the goods go back to the black bag); glass space too."""
    for road in s.roads:
        for k, g in enumerate(road):
            if g:
                s.black[g] += 1
                road[k] = ""
    if s.glass_space:
        s.glass_space = 0
        s.glass_supply += 1


def put_good(s: CathedralState, a: str, b: str, slot: int, good: str) -> None:
    ci = next(i for i, c in enumerate(D.CONNECTIONS) if {c.a, c.b} == {a, b})
    old = s.roads[ci][slot]
    if old:
        s.black[old] += 1
    s.roads[ci][slot] = ""
    take_good(s, good)
    s.roads[ci][slot] = good


def hand(s: CathedralState, subject: str, bag: str = "red") -> None:
    """The current builder has just drawn `subject` from `bag` (stage: place)."""
    assert s.stage == "bag"
    s.bags[bag][subject] -= 1
    s.drawn = subject
    s.drawn_bag = bag
    s.stage = "place"


def set_workshop(s: CathedralState, i: int, key: str) -> None:
    """Workshop space i shows tile `key` (swapped with the box)."""
    old = s.workshops[i].key
    if key == old:
        return
    if key in s.workshop_box:
        s.workshop_box.remove(key)
        s.workshop_box.append(old)
        s.workshop_box.sort()
    else:
        j = next(j for j, w in enumerate(s.workshops) if w.key == key)
        s.workshops[j].key = old
    s.workshops[i].key = key


def set_hourglass(s: CathedralState, key: str) -> None:
    pool = [s.hourglass, *s.hourglass_stack, *s.hourglass_box]
    pool.remove(key)
    s.hourglass = key
    s.hourglass_stack = pool[: len(s.hourglass_stack)]
    s.hourglass_box = sorted(pool[len(s.hourglass_stack) :])


def top_event(s: CathedralState, key: str) -> None:
    s.events.remove(key)
    s.events.append(key)


def reveal(s: CathedralState, key: str) -> list[str]:
    """A knight placed on the red fair reveals the event `key`; return the log."""
    top_event(s, key)
    return place_on(s, "knight", "r-fair")


def top_blueprints(s: CathedralState, *kinds: str) -> None:
    """The next blueprints flipped will be `kinds` in this order."""
    for k in reversed(kinds):
        s.blueprints.remove(k)
        s.blueprints.append(k)


def place_on(s: CathedralState, subject: str, space: str, bag: str = "red") -> list[str]:
    hand(s, subject, bag)
    return play(s, f"place:{space}")


# ---- setup -----------------------------------------------------------------------------------


def test_setup_components() -> None:
    """Seed: Setup 1-10 — workshops, events, goods on every space, glass, blueprints, bags."""
    s = fresh(3)
    assert len(s.workshops) == 3
    assert [w.city for w in s.workshops] == list(D.WORKSHOP_CITIES)
    assert len(s.workshop_box) == 5
    assert len(s.events) == 10
    assert all(all(g in D.GOODS for g in road) for road in s.roads)
    assert sum(len(r) for r in s.roads) == sum(c.goods for c in D.CONNECTIONS)
    assert s.glass_space == 1 and s.glass_supply == 9
    assert len(s.blueprints) == 12
    assert s.hourglass and len(s.hourglass_stack) == 2 and len(s.hourglass_box) == 3
    assert s.bags["red"] == {"knight": 6, "fisherman": 0, "farmer": 3, "merchant": 3, "monk": 2}
    assert s.bags["blue"] == {"knight": 0, "fisherman": 6, "farmer": 3, "merchant": 3, "monk": 2}
    assert s.monk_supply == 6
    assert len(s.builders) == 3
    for b in s.builders:
        assert b.city == "orleans" and pack_size(b) == 1
    assert sum(s.black.values()) == 37 - 18 - 3
    assert GAME.invariants(s) == []
    assert s.sections == 0 and s.round == 1 and s.turn == 0


def test_the_scaled_map_gives_two_master_builders_fewer_goods_spaces() -> None:
    """[design] balance: with two master builders (solo, 2 players) the default map has one
    goods space on the roads from Orléans to Chartres, Montargis and Vierzon; the full map
    and 3-4 players have the table's 18."""
    scaled = {frozenset(("orleans", c)) for c in ("chartres", "montargis", "vierzon")}
    for players in (1, 2):
        s = fresh(players, map="scaled")
        assert sum(len(r) for r in s.roads) == 15
        for c, road in zip(D.CONNECTIONS, s.roads, strict=True):
            assert len(road) == (1 if frozenset((c.a, c.b)) in scaled else c.goods)
        assert sum(s.black.values()) == 37 - 15 - 2
        assert GAME.invariants(s) == []
    assert sum(len(r) for r in fresh(2, map="full").roads) == 18
    for players in (3, 4):
        assert [len(r) for r in fresh(players, map="scaled").roads] == [
            c.goods for c in D.CONNECTIONS
        ]
    assert GAME.check_options({})["map"] == "scaled"


def test_a_one_space_road_is_travelled_and_refilled() -> None:
    """On the scaled map the Cart to Chartres offers the road's one good, then arrives; the
    round end refills that one space."""
    s = fresh(2, map="scaled")
    clear_roads(s)
    set_pack(s, 0)
    put_good(s, "orleans", "chartres", 0, "stone")
    ci = next(i for i, c in enumerate(D.CONNECTIONS) if {c.a, c.b} == {"orleans", "chartres"})
    assert GAME.view(s, 0)["connections"][ci]["goods"] == ["stone"]
    place_on(s, "knight", "r-cart1")
    play(s, "go:chartres")
    assert ids(s) == ["take", "leave"]
    play(s, "take")
    assert s.builders[0].city == "chartres" and s.builders[0].pack["stone"] == 1
    assert s.roads[ci] == [""] and s.turn == 1
    assert GAME.invariants(s) == []
    place_on(s, "knight", "bell")  # the round ends: every goods space is refilled
    assert [len(r) for r in s.roads] == [len(r) for r in fresh(2, map="scaled").roads]
    assert all(all(road) for road in s.roads) and s.roads[ci][0] in D.GOODS


def test_harder_variant_one_monk_per_bag() -> None:
    """Seed: Harder variant — only one monk in each of the red and blue bags."""
    s = fresh(2, variant="harder")
    assert s.bags["red"]["monk"] == 1 and s.bags["blue"]["monk"] == 1
    assert s.monk_supply == 8
    assert GAME.invariants(s) == []


def test_solo_two_builders() -> None:
    """Spec: Players — solo, one person plays two master builders taking turns alternately."""
    s = fresh(1)
    assert len(s.builders) == 2
    assert GAME.prompt(s).seat == 0
    assert GAME.label(s, 0) == "Ann (1)" and GAME.label(s, 1) == "Ann (2)"
    hand(s, "knight")
    play(s, "place:r-cart1")
    play(s, "decline")
    assert s.turn == 1 and GAME.prompt(s).seat == 0


def test_bad_player_count() -> None:
    """Spec: 1-4 players."""
    from boardgames_tui.engine.core.protocol import SetupError

    with pytest.raises(SetupError):
        GAME.new_state(["a", "b", "c", "d", "e"], GAME.check_options({}), 1)


# ---- the turn ----------------------------------------------------------------------------------


def test_draw_from_chosen_bag() -> None:
    """Seed: Course of the Game — draw 1 token from the red or blue bag of your choice."""
    s = fresh()
    assert ids(s) == ["draw:red", "draw:blue"]
    before = sum(s.bags["blue"].values())
    p = GAME.prompt(s)
    ev = GAME.play(s, p.move("draw:blue"))
    assert ev[0].reveal
    assert sum(s.bags["blue"].values()) == before - 1
    assert s.drawn in ("fisherman", "farmer", "merchant", "monk")
    assert s.stage == "place"


def test_place_only_on_matching_free_space() -> None:
    """Seed: a subject goes only on a free space showing it; 2 subjects: either; any: all."""
    s = fresh()
    hand(s, "merchant")
    got = ids(s)
    assert "place:r-cart4" in got  # knight or merchant
    assert "place:r-cart1" not in got  # knight only
    assert "place:r-market1" in got and "place:r-market2" in got
    assert "place:b-ship4" in got and "place:b-ship1" not in got
    assert "place:r-fair" in got and "place:b-fair" in got
    assert "place:r-glassworks" not in got
    assert "place:bell" in got


def test_monk_fits_any_space() -> None:
    """Seed: monks are not bound by the subject rule: they can go on any space."""
    s = fresh()
    hand(s, "monk")
    got = set(ids(s))
    # identical spaces are offered once (the first free one)
    assert got == {
        "place:r-cart1",
        "place:r-cart3",
        "place:r-cart4",
        "place:r-market1",
        "place:r-market2",
        "place:r-glassworks",
        "place:r-fair",
        "place:b-ship1",
        "place:b-ship3",
        "place:b-ship4",
        "place:b-market1",
        "place:b-market2",
        "place:b-glassshop",
        "place:b-fair",
        "place:bell",
    }


def test_occupied_space_not_offered_and_identical_spaces_once() -> None:
    """Seed: an occupied space cannot take another token; [design] identical free spaces once."""
    s = fresh()
    place_on(s, "knight", "r-cart1")
    play(s, "decline")
    hand(s, "knight")
    got = ids(s)
    assert "place:r-cart1" not in got and "place:r-cart2" in got


def test_colour_of_zone_does_not_matter() -> None:
    """Seed: tokens from the blue bag can be placed in the red zone and vice versa."""
    s = fresh()
    hand(s, "merchant", "blue")
    assert "place:r-market1" in ids(s)


def test_bell_tower_chosen_any_time() -> None:
    """Seed: Bell Tower — any subject may be sent there; the round ends immediately."""
    s = fresh()
    hand(s, "knight")
    log = play(s, "place:bell")
    assert s.round == 2
    assert s.removed == ["knight"]
    assert any("round 1 ends" in line for line in log)
    assert s.turn == 1  # next round starts left of the builder who ended it


def test_bell_tower_forced_when_nothing_fits() -> None:
    """Seed: if the token fits nowhere but the bell tower, place it there and end the round."""
    s = fresh()
    # fill every knight space with subjects taken from the bags
    fill = {
        "r-cart1": "knight",
        "r-cart2": "knight",
        "r-cart3": "farmer",
        "r-cart4": "merchant",
        "r-fair": "farmer",
        "b-fair": "farmer",
    }
    for sp, subj in fill.items():
        bag = "red" if s.bags["red"][subj] else "blue"
        s.bags[bag][subj] -= 1
        s.spaces[sp] = subj
    hand(s, "knight")
    p = GAME.prompt(s)
    assert p.ids() == ["place:bell"]
    assert "fits nowhere" in p.text
    play(s, "place:bell")
    assert s.round == 2 and s.removed == ["knight"]


def test_decline_action() -> None:
    """Seed: Declining an Action — the subject occupies the space, no action is carried out."""
    s = fresh()
    city = s.builders[0].city
    place_on(s, "knight", "r-cart1")
    assert "decline" in ids(s)
    play(s, "decline")
    assert s.builders[0].city == city
    assert s.spaces["r-cart1"] == "knight"
    assert s.turn == 1


def test_fair_square_cannot_be_declined() -> None:
    """Seed: Declining — exception: the fair square and the bell tower cannot be declined."""
    s = fresh()
    reveal(s, "monk-red")
    assert s.event_discard == ["monk-red"]
    assert s.turn == 1  # resolved at once, no decline offered


def test_illegal_moves_rejected() -> None:
    """Core: a move not in the prompt raises IllegalMove and leaves the state unchanged."""
    s = fresh()
    digest = GAME.digest(s)
    for bad in ("place:r-cart1", "draw:black", "go:tours", "rest", ""):
        with pytest.raises(IllegalMove):
            GAME.apply(s, bad)
    assert GAME.digest(s) == digest
    hand(s, "knight")
    digest = GAME.digest(s)
    for bad in ("place:r-market1", "place:b-ship1", "place:r-glassworks", "draw:red"):
        with pytest.raises(IllegalMove):
            GAME.apply(s, bad)
    assert GAME.digest(s) == digest


# ---- Cart and Ship -----------------------------------------------------------------------------


def test_cart_moves_along_a_road_and_picks_up() -> None:
    """Seed: Cart — move along a road to a neighbouring city, taking goods on the path."""
    s = fresh()
    clear_roads(s)
    set_pack(s, 0)
    put_good(s, "orleans", "chartres", 0, "wood")
    put_good(s, "orleans", "chartres", 1, "stone")
    place_on(s, "knight", "r-cart1")
    got = ids(s)
    assert set(got) == {"go:chartres", "go:chateaudun", "go:montargis", "go:vierzon", "decline"}
    play(s, "go:chartres")
    assert ids(s) == ["take", "leave"]
    play(s, "take")
    play(s, "leave")
    assert s.builders[0].city == "chartres"
    assert s.builders[0].pack["wood"] == 1 and s.builders[0].pack["stone"] == 0
    ci = next(i for i, c in enumerate(D.CONNECTIONS) if {c.a, c.b} == {"orleans", "chartres"})
    assert s.roads[ci] == ["", "stone"]
    assert s.turn == 1


def test_ship_moves_along_a_river_and_takes_stained_glass() -> None:
    """Seed: Ship — river movement; a stained glass on the path may be taken too."""
    s = fresh()
    clear_roads(s)
    set_pack(s, 0)
    s.builders[0].city = "tours"
    s.glass_supply -= 1
    s.glass_space = 1
    place_on(s, "fisherman", "b-ship1", "blue")
    assert set(ids(s)) == {"go:blois", "go:bourges", "decline"}
    play(s, "go:bourges")
    play(s, "take")
    assert s.builders[0].pack["glass"] == 1 and s.glass_space == 0
    assert s.builders[0].city == "bourges"


def test_cart_without_a_road_is_declined_automatically() -> None:
    """[design] A Cart in Tours (rivers only) cannot be carried out: declined automatically."""
    s = fresh()
    s.builders[0].city = "tours"
    log = place_on(s, "knight", "r-cart1")
    assert any("declined" in line for line in log)
    assert s.turn == 1 and s.builders[0].city == "tours"


def test_full_backpack_on_a_path_with_goods() -> None:
    """Seed: full backpack — pass the token by, or send one back to take it."""
    s = fresh()
    clear_roads(s)
    set_pack(s, 0, wood=3, stone=1, glass=1)
    put_good(s, "orleans", "vierzon", 0, "bread")
    put_good(s, "orleans", "vierzon", 1, "stone")
    place_on(s, "knight", "r-cart1")
    play(s, "go:vierzon")
    got = ids(s)
    assert got == ["leave", "swap:wood", "swap:stone", "swap:glass", "rest"]
    black_wood = s.black["wood"]
    play(s, "swap:wood")
    me = s.builders[0]
    assert me.pack == {"wood": 2, "stone": 1, "bread": 1, "glass": 1}
    assert s.black["wood"] == black_wood + 1
    # the second token (stone): a swap of the same kind is not offered
    got = ids(s)
    assert "swap:stone" not in got and "swap:glass" in got
    supply = s.glass_supply
    play(s, "swap:glass")
    assert s.glass_supply == supply + 1
    assert me.pack == {"wood": 2, "stone": 2, "bread": 1, "glass": 0}
    assert me.city == "vierzon"


def test_full_backpack_pass_by() -> None:
    """Seed: with a full backpack the player may pass the token by."""
    s = cart_past_a_stone(wood=5)
    play(s, "leave")
    assert s.builders[0].pack["wood"] == 5
    ci = next(i for i, c in enumerate(D.CONNECTIONS) if {c.a, c.b} == {"orleans", "chateaudun"})
    assert s.roads[ci] == ["stone"]
    # the builder ends the turn with a full backpack: a rest stop is offered
    assert ids(s) == ["rest", "end"]
    play(s, "end")
    assert s.turn == 1


def test_rest_stop_on_the_path_then_take() -> None:
    """Seed: Rest stop 'at any time on your turn' — declared on the path, then take the good."""
    s = cart_past_a_stone(wood=2, stone=2, bread=1)
    top_blueprints(s, "monk_red")
    play(s, "rest")
    assert pack_size(s.builders[0]) == 0
    assert s.bags["red"]["monk"] == 3
    assert ids(s) == ["take", "leave"]
    play(s, "take")
    assert s.builders[0].pack["stone"] == 1


# ---- Rest stop ---------------------------------------------------------------------------------


def test_rest_stop_at_start_of_turn() -> None:
    """Seed: Rest stop — full backpack: all goods to the black bag, glass to supply, +1 blueprint."""
    s = fresh()
    set_pack(s, 0, wood=2, bread=2, glass=1)
    assert "rest" in ids(s)
    top_blueprints(s, "section")
    black = dict(s.black)
    supply = s.glass_supply
    log = play(s, "rest")
    assert pack_size(s.builders[0]) == 0
    assert s.black["wood"] == black["wood"] + 2 and s.black["bread"] == black["bread"] + 2
    assert s.glass_supply == supply + 1
    assert s.sections == 1
    assert any("rest stop" in line for line in log)
    # an additional action: the turn goes on (draw), and no second rest stop
    assert ids(s) == ["draw:red", "draw:blue"]


def test_rest_stop_needs_full_backpack() -> None:
    """Seed: only when all backpack spaces are occupied."""
    s = fresh()
    set_pack(s, 0, wood=4)
    assert "rest" not in ids(s)


def test_rest_stop_at_end_of_turn() -> None:
    """[design] A builder whose backpack is full after the action may rest before the turn ends."""
    s = cart_past_a_stone(wood=4)
    play(s, "take")
    assert ids(s) == ["rest", "end"]
    top_blueprints(s, "section")
    play(s, "rest")
    assert s.sections == 1 and pack_size(s.builders[0]) == 0
    assert s.turn == 1


# ---- Market ------------------------------------------------------------------------------------


def test_market_delivers_to_players() -> None:
    """Seed: Market — deliver up to 2 tokens, e.g. to other players."""
    s = fresh(3)
    set_pack(s, 0, wood=2, glass=1)
    set_pack(s, 1)
    set_pack(s, 2)
    s.hourglass_filled = empty_items()
    place_on(s, "merchant", "r-market1")
    got = ids(s)
    assert "give:1:wood" in got and "give:2:glass" in got and "done" in got
    play(s, "give:1:glass")
    play(s, "give:2:wood")
    assert s.builders[1].pack["glass"] == 1 and s.builders[2].pack["wood"] == 1
    assert s.builders[0].pack == {"wood": 1, "stone": 0, "bread": 0, "glass": 0}
    assert s.turn == 1  # two deliveries: the market is over


def test_market_workshop_needs_builder_there() -> None:
    """Seed: to deliver to a workshop your master builder must be in it."""
    s = fresh()
    set_workshop(s, 0, "mason")  # Chartres
    set_pack(s, 0, stone=2, wood=1)
    place_on(s, "merchant", "r-market1")
    assert not any(i.startswith("ws:") for i in ids(s))
    play(s, "done")
    # in Chartres the Mason workshop takes stone and wood
    s2 = fresh()
    set_workshop(s2, 0, "mason")
    set_pack(s2, 0, stone=2, wood=1, bread=1)
    s2.builders[0].city = "chartres"
    place_on(s2, "merchant", "r-market1")
    got = ids(s2)
    assert "ws:0:stone" in got and "ws:0:wood" in got and "ws:0:bread" not in got
    play(s2, "ws:0:stone")
    play(s2, "ws:0:stone")
    assert s2.workshops[0].filled["stone"] == 2


def test_workshop_fulfilled_gives_reward_and_returns_goods() -> None:
    """Seed: Workshops — all spaces filled: reward, goods to the black bag, tile face down."""
    s = fresh()
    set_workshop(s, 0, "mason")
    w = s.workshops[0]
    set_pack(s, 0, stone=1, wood=1)
    # one stone already on the tile
    take_good(s, "stone")
    w.filled["stone"] = 1
    s.builders[0].city = "chartres"
    black = dict(s.black)
    place_on(s, "merchant", "r-market1")
    play(s, "ws:0:stone")
    log = play(s, "ws:0:wood")
    assert w.done and w.filled == empty_items()
    assert s.sections == 1 and s.section_log == ["Mason workshop"]
    assert s.black["stone"] == black["stone"] + 2 and s.black["wood"] == black["wood"] + 1
    assert any("fulfilled" in line for line in log)
    # a fulfilled workshop takes nothing more
    s.turn = 0
    s.stage = "bag"
    set_pack(s, 0, stone=1)
    place_on(s, "merchant", "b-market1", "blue")
    assert s.stage != "market" or not any(i.startswith("ws:") for i in ids(s))


def test_market_hourglass_from_anywhere_and_completion() -> None:
    """Seed: Hourglass tiles — deliver from anywhere; when filled: reward, tile leaves the game."""
    s = fresh()
    set_hourglass(s, "1")  # 2 wood, 1 bread → section
    set_pack(s, 0, wood=2, bread=1)
    s.builders[0].city = "tours"
    place_on(s, "merchant", "r-market1")
    assert "hg:wood" in ids(s) and "hg:bread" in ids(s)
    play(s, "hg:wood")
    play(s, "hg:wood")
    assert s.hourglass_filled["wood"] == 2
    # the second market delivers the bread and completes it
    s.turn = 0
    s.stage = "bag"
    place_on(s, "merchant", "b-market1", "blue")
    play(s, "hg:bread")
    assert s.hourglass == "" and s.hourglass_done == ["1"]
    assert s.sections == 1
    assert s.hourglass_filled == empty_items()


def test_hourglass_with_glass_reward() -> None:
    """Spec: Hourglass 4 — section + stained glass (to a chosen backpack)."""
    s = fresh()
    set_hourglass(s, "4")  # 2 bread, 1 glass
    set_pack(s, 0, bread=2, glass=1)
    s.hourglass_filled = empty_items()
    place_on(s, "merchant", "r-market1")
    play(s, "hg:bread")
    play(s, "hg:bread")
    s.turn, s.stage = 0, "bag"
    place_on(s, "merchant", "b-market1", "blue")
    play(s, "hg:glass")
    assert s.sections == 1
    # two backpacks have room: Ann chooses who receives the glass
    p = GAME.prompt(s)
    assert p.ids() == ["glass:0", "glass:1"]
    play(s, "glass:1")
    assert s.builders[1].pack["glass"] == 1


def test_market_up_to_two_and_decline() -> None:
    """Seed: Market — up to 2 tokens; stopping early is allowed; declining too."""
    s = fresh()
    set_pack(s, 0, wood=3)
    place_on(s, "merchant", "r-market1")
    assert GAME.prompt(s).moves[-1].label == "Decline the market"
    play(s, "give:1:wood")
    assert GAME.prompt(s).moves[-1].label == "End the market"
    play(s, "done")
    assert s.builders[1].pack["wood"] >= 1 and s.builders[0].pack["wood"] == 2
    assert s.turn == 1


def test_market_with_nothing_to_deliver_is_declined() -> None:
    """[design] A market with nothing deliverable is declined automatically."""
    s = fresh()
    set_pack(s, 0)
    log = place_on(s, "merchant", "r-market1")
    assert any("declined" in line for line in log)
    assert s.turn == 1


# ---- Glassworks and stained glass workshop ------------------------------------------------------


def test_glassworks_monk_only_takes_glass() -> None:
    """Seed: Glassworks — only a monk; receive 1 stained glass from the supply."""
    s = fresh()
    hand(s, "farmer")
    assert "place:r-glassworks" not in ids(s)
    s.drawn, s.stage = "", "bag"
    s.bags["red"]["farmer"] += 1
    supply = s.glass_supply
    place_on(s, "monk", "r-glassworks")
    assert ids(s) == ["take", "decline"]
    play(s, "take")
    assert s.builders[0].pack["glass"] == 1 and s.glass_supply == supply - 1


def test_glassworks_full_backpack_rest_then_take() -> None:
    """Seed: rest stop at any time — at the Glassworks a full backpack may rest, then take."""
    s = fresh()
    set_pack(s, 0, wood=5)
    top_blueprints(s, "monk_blue")
    place_on(s, "monk", "r-glassworks")
    assert ids(s) == ["rest", "decline"]
    play(s, "rest")
    assert ids(s) == ["take", "decline"]
    play(s, "take")
    assert s.builders[0].pack == {"wood": 0, "stone": 0, "bread": 0, "glass": 1}


def test_glassworks_full_backpack_after_rest_declined() -> None:
    """[design] Glassworks with a full backpack after this turn's rest stop: declined."""
    s = fresh()
    set_pack(s, 0, wood=5)
    s.rested = True
    log = place_on(s, "monk", "r-glassworks")
    assert any("backpack is full" in line for line in log)
    assert s.builders[0].pack["glass"] == 0
    assert s.turn == 1


def test_stained_glass_workshop_trades_glass_for_blueprint() -> None:
    """Seed: Stained glass workshop — monk only; 1 stained glass to the supply for a blueprint."""
    s = fresh()
    set_pack(s, 0, glass=1)
    top_blueprints(s, "section")
    place_on(s, "monk", "b-glassshop", "blue")
    assert ids(s) == ["trade", "decline"]
    supply = s.glass_supply
    play(s, "trade")
    assert s.builders[0].pack["glass"] == 0 and s.glass_supply == supply + 1
    assert s.sections == 1 and s.blueprints_flipped == ["section"]


def test_stained_glass_workshop_without_glass() -> None:
    """[design] Without stained glass the workshop is declined automatically."""
    s = fresh()
    set_pack(s, 0, wood=1)
    log = place_on(s, "monk", "b-glassshop", "blue")
    assert any("declined" in line for line in log)


# ---- Fair square: events -----------------------------------------------------------------------


def test_event_stained_glass() -> None:
    """Seed: Fair square — a stained glass event: into your backpack or another player's."""
    s = fresh()
    reveal(s, "glass-a")
    p = GAME.prompt(s)
    assert p.ids() == ["glass:0", "glass:1"] and p.phase == "Reward"
    play(s, "glass:0")
    assert s.builders[0].pack["glass"] == 1
    assert "glass-a" in s.event_discard


def test_event_stained_glass_only_one_backpack_has_room() -> None:
    """[design] The glass goes straight to the only backpack with room (the player whose turn
    it is has already rested this turn: no rest stop could make more room)."""
    s = fresh()
    set_pack(s, 0, wood=5)
    s.rested = True
    reveal(s, "glass-b")
    assert s.builders[1].pack["glass"] == 1


def test_event_stained_glass_full_backpack_may_rest_first() -> None:
    """Seed: "If all your backpack spaces are occupied, you may at any time on your turn declare
    a rest stop"; the event's stained glass "must be put into your backpack or given to another
    player". Ann's 5 spaces are full: she may rest first and keep the glass herself."""
    s = fresh()
    set_pack(s, 0, wood=5)
    reveal(s, "glass-b")
    assert ids(s) == ["glass:1", "rest"]
    flipped = len(s.blueprints_flipped)
    log = play(s, "rest")
    assert "Ann takes a rest stop: returns 5 wood, earns a blueprint" in log
    assert ids(s) == ["glass:0", "glass:1"]  # the offer stands, now with room in her backpack
    play(s, "glass:0")
    assert s.builders[0].pack == {"wood": 0, "stone": 0, "bread": 0, "glass": 1}
    assert len(s.blueprints_flipped) == flipped + 1


def glass_event_with_no_room(s: CathedralState) -> int:
    """Every backpack full, the event Stained glass is revealed; return the supply before it."""
    set_pack(s, 0, wood=5)
    set_pack(s, 1, stone=5)
    top_event(s, "glass-c")
    supply = s.glass_supply
    place_on(s, "knight", "r-fair")
    return supply


def test_event_stained_glass_no_room_anywhere_with_a_rest_stop() -> None:
    """Seed: every backpack full — the rest stop empties Ann's 5 spaces for a blueprint, and the
    stained glass then fits into her backpack (the only one with room: no question asked)."""
    s = fresh()
    supply = glass_event_with_no_room(s)
    p = GAME.prompt(s)
    assert p.ids() == ["rest", "lose"] and "no backpack has room" in p.text
    log = play(s, "rest")
    assert "Ann receives a stained glass (event Stained glass)" in log
    assert s.builders[0].pack["glass"] == 1 and pack_size(s.builders[0]) == 1
    assert s.glass_supply == supply - 1


def test_event_stained_glass_no_room_anywhere_without_a_rest_stop() -> None:
    """Seed: a rest stop is optional ("you may"): declining it, the stained glass is not
    received and stays in the supply."""
    s = fresh()
    supply = glass_event_with_no_room(s)
    log = play(s, "lose")
    assert s.glass_supply == supply
    assert any("No backpack takes the stained glass" in line for line in log)
    assert pack_size(s.builders[0]) == 5 and pack_size(s.builders[1]) == 5


def test_rest_stop_offered_at_any_time_on_a_full_turn() -> None:
    """Seed: "at any time on your turn": with a full backpack the rest stop is offered when
    placing the drawn subject and before choosing a Cart's destination; once per turn."""
    s = fresh()
    set_pack(s, 0, wood=5)
    hand(s, "knight", "red")
    assert "rest" in ids(s)  # placing the subject
    play(s, "place:r-cart1")
    assert s.stage == "move" and "rest" in ids(s)  # before the Cart sets off
    play(s, "rest")
    assert s.stage == "move" and "rest" not in ids(s) and pack_size(s.builders[0]) == 0


@pytest.mark.parametrize(("key", "bag"), [("monk-red", "red"), ("monk-blue", "blue")])
def test_event_monk(key: str, bag: str) -> None:
    """Seed: a monk event puts a supply monk into the bag shown."""
    s = fresh()
    top_event(s, key)
    monks = s.bags[bag]["monk"]
    place_on(s, "knight", "r-fair")
    assert s.bags[bag]["monk"] == monks + 1
    assert s.monk_supply == 5


def test_event_monk_with_empty_supply() -> None:
    """[design] No monk left in the supply: the monk event gives nothing."""
    s = fresh()
    s.removed.extend(["monk"] * s.monk_supply)
    s.monk_supply = 0
    log = reveal(s, "monk-blue")
    assert s.bags["blue"]["monk"] == 2
    assert any("No monk" in line for line in log)


def test_fair_square_with_no_event_left() -> None:
    """[design] With the event stack empty the fair square reveals nothing."""
    s = fresh()
    s.event_discard.extend(s.events)
    s.events = []
    log = place_on(s, "knight", "r-fair")
    assert any("no event" in line for line in log)


def test_order_event_becomes_active_and_replaces_old() -> None:
    """Seed: only one active order; a new one discards the previous even if unfulfilled."""
    s = fresh()
    reveal(s, "tours")
    assert s.order == "tours"
    top_event(s, "montargis")
    place_on(s, "farmer", "b-fair", "blue")
    assert s.order == "montargis"
    assert "tours" in s.event_discard


@pytest.mark.parametrize("city", ["chartres", "montargis", "tours"])
def test_city_order_met_later(city: str) -> None:
    """Seed: Orders — a blueprint as soon as a master builder is in the city shown."""
    s = fresh()
    clear_roads(s)
    reveal(s, city)
    assert s.order == city
    top_blueprints(s, "section")
    s.turn = 0
    s.stage = "bag"
    # move builder 0 next to the city, then one Cart / Ship step into it
    start, action, space, bag = {
        "chartres": ("orleans", "cart", "r-cart1", "red"),
        "montargis": ("orleans", "cart", "r-cart1", "red"),
        "tours": ("blois", "ship", "b-ship1", "blue"),
    }[city]
    s.builders[0].city = start
    s.builders[1].city = "bourges" if city != "montargis" else "chartres"
    subject = "knight" if action == "cart" else "fisherman"
    place_on(s, subject, space, bag)
    log = play(s, f"go:{city}")
    assert s.order == "" and city in s.event_discard
    assert s.sections == 1
    assert any("is met" in line for line in log)


def test_meeting_order_met_at_reveal() -> None:
    """Seed: an order met when it is revealed gives a blueprint at once (all start in Orléans)."""
    s = fresh()
    top_event(s, "meeting")
    top_blueprints(s, "section")
    log = place_on(s, "knight", "r-fair")
    assert s.order == "" and "meeting" in s.event_discard
    assert s.sections == 1
    assert any("is met" in line for line in log)


def test_meeting_order_met_later() -> None:
    """Seed: a blueprint as soon as two master builders are in the same place."""
    s = fresh()
    clear_roads(s)
    s.builders[1].city = "chartres"
    reveal(s, "meeting")
    assert s.order == "meeting"
    top_blueprints(s, "monk_blue")
    # Bob (builder 1) moves from Chartres to Orléans, where Ann is
    place_on(s, "knight", "r-cart1")
    play(s, "go:orleans")
    assert s.order == "" and s.bags["blue"]["monk"] == 3


def test_glass_order_met_by_reward_and_chooser() -> None:
    """Seed: a player with 2+ stained glass meets the Glass order; the player on turn chooses."""
    s = fresh()
    set_pack(s, 1, glass=1)
    reveal(s, "glass2")
    assert s.order == "glass2"
    # Bob takes a glass at the glassworks: 2 glass → blueprint (a stained glass blueprint)
    top_blueprints(s, "glass")
    place_on(s, "monk", "r-glassworks")
    play(s, "take")
    assert s.order == ""
    p = GAME.prompt(s)
    assert p.seat == 1 and p.ids() == ["glass:0", "glass:1"]
    play(s, "glass:0")
    assert s.builders[0].pack["glass"] == 1 and s.builders[1].pack["glass"] == 2


def test_glass_order_met_at_reveal() -> None:
    """Seed: 'you are lucky' — the Glass order is met when revealed."""
    s = fresh()
    set_pack(s, 1, glass=2)
    top_event(s, "glass2")
    top_blueprints(s, "section")
    place_on(s, "knight", "r-fair")
    assert s.sections == 1 and s.order == ""


# ---- rewards -----------------------------------------------------------------------------------


def test_blueprint_reward_flips_top_token() -> None:
    """Seed: Rewards — Blueprint: flip 1 blueprint token and receive its reward."""
    s = fresh()
    top_blueprints(s, "monk_blue", "section")
    set_pack(s, 0, glass=1)
    place_on(s, "monk", "b-glassshop", "blue")
    play(s, "trade")
    assert s.blueprints_flipped == ["monk_blue"]
    assert s.bags["blue"]["monk"] == 2  # one drawn, one added
    assert len(s.blueprints) == 11


def test_blueprint_glass_goes_to_chosen_player() -> None:
    """Seed: Rewards — Stained glass: into your backpack or give it to another player."""
    s = fresh()
    top_blueprints(s, "glass")
    set_pack(s, 0, glass=1)
    place_on(s, "monk", "b-glassshop", "blue")
    play(s, "trade")
    assert ids(s) == ["glass:0", "glass:1"]
    play(s, "glass:1")
    assert s.builders[1].pack["glass"] == 1


def test_no_blueprint_left() -> None:
    """[design] With the blueprint pile empty the reward is lost."""
    s = fresh()
    s.blueprints_flipped.extend(s.blueprints)
    s.blueprints = []
    set_pack(s, 0, glass=1)
    log = place_on(s, "monk", "b-glassshop", "blue")
    log += play(s, "trade")
    assert any("No blueprint" in line for line in log)
    assert s.sections == 0


def test_sections_in_number_order_and_win_at_eight() -> None:
    """Seed: sections attach in number order; attaching section 8 wins at once."""
    s = fresh()
    s.sections = 6
    s.section_log = ["x"] * 6
    at_workshop(s, 0, "chapter", {"wood": 1, "stone": 1}, wood=1, stone=1, bread=1, glass=1)
    top_blueprints(s, "section")
    place_on(s, "merchant", "r-market1")
    log = play(s, "ws:0:bread")
    assert s.sections == 6
    log = play(s, "ws:0:glass")
    assert s.sections == 8 and s.won and s.over
    assert GAME.prompt(s) is None
    assert any("section 8" in line for line in log)
    res = GAME.result(s)
    assert res.winners == [0, 1] and res.cooperative
    assert res.lines[0].score == 8


def test_smithy_reward_monk_into_red_bag() -> None:
    """Spec: Smithy — cathedral section + monk into the red bag."""
    s = fresh()
    at_workshop(s, 2, "smithy", {"stone": 2}, stone=2, bread=1)  # Bourges
    place_on(s, "merchant", "r-market1")
    play(s, "ws:2:bread")
    assert s.sections == 1 and s.bags["red"]["monk"] == 3 and s.monk_supply == 5


def test_roofer_reward_two_blueprints() -> None:
    """Spec: Roofer — 2 blueprints."""
    s = fresh()
    at_workshop(s, 1, "roofer", {"wood": 2}, wood=2, glass=1)  # Blois
    top_blueprints(s, "section", "monk_red")
    place_on(s, "merchant", "r-market1")
    play(s, "ws:1:glass")
    assert s.blueprints_flipped == ["section", "monk_red"]
    assert s.sections == 1 and s.bags["red"]["monk"] == 3


# ---- empty bags --------------------------------------------------------------------------------


def test_empty_bag_cannot_be_chosen() -> None:
    """Spec: if the chosen bag is empty the player must draw from the other."""
    s = fresh()
    s.removed.extend(k for k, n in s.bags["red"].items() for _ in range(n))
    s.bags["red"] = dict.fromkeys(s.bags["red"], 0)
    assert ids(s) == ["draw:blue"]
    assert GAME.invariants(s) == []


def test_both_bags_empty_end_round() -> None:
    """Spec: both bags empty — the round ends as if the bell tower had been taken."""
    s = fresh()
    for bag in ("red", "blue"):
        s.removed.extend(k for k, n in s.bags[bag].items() for _ in range(n))
        s.bags[bag] = dict.fromkeys(s.bags[bag], 0)
    s.bags["red"]["knight"] = 1
    s.removed.remove("knight")
    place_on(s, "knight", "r-cart1")
    log = play(s, "decline")
    assert any("Both bags are empty" in line for line in log)
    assert s.round == 2
    assert s.bags["red"]["knight"] == 1  # the knight returned from the red zone
    assert s.turn == 0  # the round ended on Bob's turn: Ann (to his left) starts


# ---- round end ---------------------------------------------------------------------------------


def _round_end_setup() -> CathedralState:
    s = fresh(3)
    place_on(s, "knight", "r-cart1")
    play(s, "decline")
    place_on(s, "fisherman", "b-ship1", "blue")
    play(s, "decline")
    return s


def test_round_end_bell_token_leaves_game() -> None:
    """Seed: End of round — the bell tower subject is removed from the game."""
    s = _round_end_setup()
    place_on(s, "merchant", "bell", "blue")
    assert s.removed == ["merchant"] and s.bell == ""
    assert s.bags["blue"]["merchant"] == 2


def test_round_end_subjects_return_by_zone() -> None:
    """Seed: subjects in the red zone go to the red bag, the blue zone to the blue bag."""
    s = fresh()
    # a fisherman in the red zone's fair square returns to the red bag
    top_event(s, "monk-red")
    top_event(s, "monk-blue")
    place_on(s, "fisherman", "r-fair", "blue")
    place_on(s, "knight", "b-fair", "red")
    place_on(s, "knight", "bell")
    assert s.bags["red"]["fisherman"] == 1 and s.bags["blue"]["knight"] == 1
    assert all(not v for v in s.spaces.values())


def test_round_end_unfulfilled_hourglass_discarded() -> None:
    """Seed: an unfulfilled hourglass is removed; its goods return; no reward; a new one."""
    s = fresh()
    set_hourglass(s, "2")  # 2 stone, 1 wood
    take_good(s, "stone")
    s.hourglass_filled["stone"] = 1
    stone = s.black["stone"]
    clear_roads(s)
    stone = s.black["stone"]
    place_on(s, "knight", "bell")
    assert s.hourglass_lost == ["2"]
    assert s.hourglass and s.hourglass != "2"
    assert s.hourglass_filled == empty_items()
    assert s.sections == 0
    # the stone went back into the black bag before the refill
    assert stone + 1 == s.black["stone"] + sum(g == "stone" for r in s.roads for g in r)


def test_round_end_no_new_hourglass_after_fulfilled() -> None:
    """Seed: a new hourglass is revealed at the end of the round (not when fulfilled)."""
    s = fresh()
    set_hourglass(s, "1")
    set_pack(s, 0, wood=2, bread=1)
    place_on(s, "merchant", "r-market1")
    play(s, "hg:wood")
    play(s, "hg:wood")
    place_on(s, "merchant", "b-market1", "blue")
    assert s.stage == "market"  # Bob has nothing to deliver? (he has his starting good)
    play(s, "done")
    s.turn = 0
    place_on(s, "farmer", "r-market2")
    play(s, "hg:bread")
    assert s.hourglass == ""
    n_stack = len(s.hourglass_stack)
    place_on(s, "knight", "bell")
    assert s.hourglass and len(s.hourglass_stack) == n_stack - 1
    assert s.hourglass_lost == []


def test_round_end_refills_goods_and_glass_space() -> None:
    """Seed: fill all empty goods spaces from the black bag; stained glass on its space."""
    s = fresh()
    clear_roads(s)
    place_on(s, "knight", "bell")
    assert all(all(road) for road in s.roads)
    assert s.glass_space == 1


def test_round_end_refill_runs_out() -> None:
    """Seed: if there are not enough tokens in the bag, some spaces remain empty."""
    s = fresh()
    clear_roads(s)
    set_hourglass(s, "1")
    s.hourglass_filled = empty_items()
    # (a scenario, not a reachable count: only 3 goods are left in the black bag)
    s.black = {"wood": 2, "stone": 1, "bread": 0}
    hand(s, "knight")
    GAME.play(s, GAME.prompt(s).move("place:bell"))
    on_map = [g for r in s.roads for g in r if g]
    assert sorted(on_map) == ["stone", "wood", "wood"]
    assert s.black == {"wood": 0, "stone": 0, "bread": 0}
    # spaces are filled in map order: the first three spaces hold the goods
    flat = [g for r in s.roads for g in r]
    assert all(flat[:3]) and not any(flat[3:])


def test_next_round_starts_left_of_ender() -> None:
    """Spec: the next round starts with the player to the left of the one who ended it."""
    s = fresh(3)
    place_on(s, "knight", "r-cart1")
    play(s, "decline")
    assert s.turn == 1
    place_on(s, "knight", "bell")
    assert s.turn == 2 and s.round == 2


def test_loss_after_round_three() -> None:
    """Seed: End of the Game — not finished by the end of round 3: everybody loses."""
    s = fresh()
    place_on(s, "knight", "bell")
    place_on(s, "knight", "bell")
    assert s.round == 3 and not s.over
    p = GAME.prompt(s)
    assert p is not None
    hand(s, "knight")
    bell = next(m for m in GAME.prompt(s).moves if m.id == "place:bell")
    assert "lost" in bell.preview
    play(s, "place:bell")
    assert s.over and not s.won and s.round == 3
    assert GAME.prompt(s) is None
    res = GAME.result(s)
    assert res.winners == [] and "loses" in res.summary
    assert any("Missing" in d for d in res.details)


def test_active_order_survives_round_end() -> None:
    """[design] The active order stays on the board across the round end."""
    s = fresh()
    reveal(s, "tours")
    place_on(s, "knight", "bell")
    assert s.order == "tours"


def test_order_met_at_reveal_revealer_chooses() -> None:
    """Seed: an order met when revealed — the revealing player decides what its blueprint gives."""
    s = fresh(3)
    s.turn = 1  # Bob reveals
    top_event(s, "meeting")
    top_blueprints(s, "glass")
    place_on(s, "knight", "r-fair")
    p = GAME.prompt(s)
    assert p.seat == 1 and p.phase == "Reward"
    assert p.ids() == ["glass:0", "glass:1", "glass:2"]
    play(s, "glass:2")
    assert s.builders[2].pack["glass"] == 1
    assert s.turn == 2  # then the turn passes on
