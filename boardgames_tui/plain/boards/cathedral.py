"""The Cathedral of Orléans in sentences: map, city zones, builders, bags, orders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_tui.engine.cathedral.data import REWARD_NAMES
from boardgames_tui.plain.boards import Sections, counted, listed

GOODS = ("wood", "stone", "bread", "glass")
GOOD_NAMES = {"wood": "wood", "stone": "stone", "bread": "bread", "glass": "stained glass"}


def goods(counts: Mapping[str, int], empty: str = "nothing") -> str:
    return listed([f"{counts[g]} {GOOD_NAMES.get(g, g)}" for g in GOODS if counts.get(g)], empty)


def order_text(tile: Mapping[str, Any]) -> str:
    wants = [
        f"{tile['filled'].get(g, 0)} of {n} {GOOD_NAMES.get(g, g)}"
        for g, n in tile["order"].items()
        if n
    ]
    reward = listed([REWARD_NAMES.get(r, r) for r in tile["reward"]], "nothing")
    return f"{tile['name']}: {listed(wants)} delivered; reward {reward}"


class CathedralBoard:
    def heading(self, view: Mapping[str, Any]) -> str:
        # the turn's steps (draw, place, move) are in each question: the round is the heading
        if view["over"]:
            return f"Game over: {view['phase']}"
        return (
            f"Round {view['round']} of {view['rounds']}, "
            f"cathedral {view['sections']} of {view['sections_total']} sections"
        )

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        cities = view["cities"]
        out: Sections = []
        roads = []
        for c in view["connections"]:
            on = listed([GOOD_NAMES.get(g, g) for g in c["goods"] if g], "no goods")
            glass = ", a stained glass on its glass space" if c["glass"] else ""
            roads.append(
                f"{c['kind'].capitalize()} {cities[c['a']]} to {cities[c['b']]}: {on}{glass}."
            )
        roads.append(
            f"Cathedral: {view['sections']} of {view['sections_total']} sections built. Face down: "
            f"{counted(view['events_left'], 'event')}, {counted(view['blueprints_left'], 'blueprint')}, "
            f"{counted(view['hourglass_left'], 'hourglass tile')}."
        )
        out.append(("map", roads))
        city = []
        for zone in ("red", "blue"):
            spaces = []
            for sp in view["zones"][zone]:
                who = sp["subject"] or "free"
                spaces.append(f"{sp['action']} ({'/'.join(sp['accepts'])}): {who}")
            city.append(f"{zone.capitalize()} zone: {'; '.join(spaces)}.")
        if view["drawn"]:
            city.append(f"Drawn: a {view['drawn']} from the {view['drawn_bag']} bag.")
        if view["bell"]:
            city.append(f"Bell: {view['bell']}.")
        out.append(("city", city))
        builders = []
        for b in view["builders"]:
            builders.append(
                f"{b['name']} in {cities.get(b['city'], b['city'])}, backpack {b['size']} of "
                f"{view['backpack_size']}: {goods(b['pack'], 'empty')}."
            )
        out.append(("builders", builders))
        bags = []
        for bag in ("red", "blue", "black"):
            info = view["bags"][bag]
            inside = ""
            if "contents" in info:
                inside = ": " + listed([f"{n} {k}" for k, n in info["contents"].items()])
            bags.append(f"{bag.capitalize()} bag {counted(info['count'], 'token')}{inside}.")
        bags.append(
            f"Supply: {counted(view['supply']['monks'], 'monk')}, "
            f"{view['supply']['glass']} stained glass."
        )
        if view["removed"]:
            bags.append(f"Out of the game: {listed(view['removed'])}.")
        out.append(("bags", bags))
        orders = []
        for w in view["workshops"]:
            state = "done" if w["done"] else order_text(w)
            orders.append(f"Workshop in {cities.get(w['city'], w['city'])}, {state}.")
        if view["hourglass"]:
            orders.append(f"Hourglass order {order_text(view['hourglass'])}.")
        orders.append(
            f"Hourglass tiles: {counted(len(view['hourglass_done']), 'fulfilled', 'fulfilled')}, "
            f"{len(view['hourglass_lost'])} lost, {view['hourglass_left']} to come."
        )
        if view["order"]:
            order = view["order"]
            orders.append(f"Order event: {order['name']}, a blueprint when {order['text']}.")
        if view["blueprints_flipped"]:
            orders.append(f"Blueprints turned up: {listed(view['blueprints_flipped'])}.")
        out.append(("orders", orders))
        return out

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        left = view["sections_total"] - view["sections"]
        return [
            f"The team has built {view['sections']} of {view['sections_total']} cathedral "
            f"sections; {left} to go by the end of round {view['rounds']}."
        ]


BOARD = CathedralBoard()
