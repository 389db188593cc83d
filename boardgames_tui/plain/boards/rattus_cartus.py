"""Rattus Cartus in sentences: buildings, your cards, influence, players, Nun-row, supplies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_tui.plain.boards import Sections, counted, listed

PHASES = {
    "supply": "supplies",
    "enter": "enter buildings",
    "resolve": "resolve buildings",
    "over": "game over",
}
SUPPLY = (
    ("joker", "jokers"),
    ("sword", "swords"),
    ("flute", "flutes"),
    ("pass", "passes"),
    ("gold", "gold"),
    ("vp", "VP tokens"),
)


def kinds(view: Mapping[str, Any], counts: Mapping[str, int]) -> str:
    names = view["kind_names"]
    return listed([f"{n} {names.get(k, k)}" for k, n in counts.items() if n], "nothing")


class RattusCartusBoard:
    def heading(self, view: Mapping[str, Any]) -> str:
        if view["phase"] == "over":
            return "Game over"
        phase = PHASES.get(view["phase"], view["phase"])
        start = view["names"][view["start"]]
        return f"Round {view['round']} of {view['rounds']}: {phase}, {start} starts"

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        names = view["names"]
        classes = dict((k, n) for k, n in view["classes"])
        out: Sections = []
        row = []
        for b in view["row"]:
            draw, rats, look = b["supply_parts"]
            supply = listed(
                [
                    f"draw {draw}" if draw else "",
                    f"discard {counted(rats, 'rat')}" if rats else "",
                    f"look at {look} Nun-row" if look else "",
                ],
                "nothing",
            )
            discs = []
            for d in b["discs"]:
                what = (
                    kinds(view, d["revealed"])
                    if d["revealed"] is not None
                    else counted(d["cards"], "card")
                )
                discs.append(f"space {d['space']} {names[d['seat']]} with {what}")
            row.append(
                f"{b['pos']} {b['name']} ({classes.get(b['class'], b['class'])}): "
                f"in it {listed(discs, 'nobody yet')}. Supply {supply}; "
                f"premium: {b['premium']}; standard: {b['standard']}."
            )
        out.append(("buildings", row or ["No buildings in the row."]))
        you = view.get("you")
        if you is not None:
            out.append(("hand", self._hand(view, you)))
        influence = []
        for ci, (_key, cname) in enumerate(view["classes"]):
            values = [(p["track"][ci], p["name"]) for p in view["players"] if p["track"][ci]]
            values.sort(reverse=True)
            influence.append(f"{cname}: {listed([f'{n} {v}' for v, n in values], 'nobody')}.")
        out.append(("influence", influence))
        players = []
        for p in view["players"]:
            rats = f"{p['rats']} rats" if "rats" in p else counted(p["rat_tokens"], "rat token")
            if p["entered"]:
                where = f"in building {p['entered']}"
            else:
                where = "passed" if p["passed"] else "no building yet"
            start = ", start player" if p["start_player"] and view["phase"] != "over" else ""
            players.append(
                f"{p['name']}{start}: {counted(p['hand'], 'card')} in hand, {rats}, "
                f"{p['gold']} gold, {p['vp_tokens']} VP tokens, {where}."
            )
        out.append(("players", players))
        nuns = []
        for n in view["nun_row"]:
            c = n["card"]
            card = (
                "unknown"
                if c is None
                else f"{counted(c['nuns'], 'nun')}, {classes.get(c['class'], c['class'])}"
            )
            seen = listed([names[s] for s in n["seen_by"]], "nobody")
            nuns.append(f"{n['pos']}: {card}; seen by {seen}.")
        if you is not None:
            nuns.append(
                f"You know {you['nun_cards_seen']} of 5 with {counted(you['nuns_seen'], 'nun')}; "
                f"your rats: {you['rats']}."
            )
        out.append(("nuns", nuns))
        final = view.get("final")
        if final:
            end = [f"The Nun-row holds {counted(final['nuns'], 'nun')}."]
            for p in view["players"]:
                i = p["seat"]
                fate = "dead" if final["dead"][i] else "alive"
                end.append(
                    f"{p['name']}: {final['rats'][i]} rats, {fate}, {final['scores'][i]} VP."
                )
            out.append(("end", end))
        else:
            sup = view["supply"]
            out.append(
                (
                    "supply",
                    [
                        "Supply: " + listed([f"{sup[k]} {label}" for k, label in SUPPLY]) + ".",
                        f"Population deck {view['deck']}, discard {view['discard']}.",
                        f"Building deck {view['building_deck']}, replacement {view['replacement_deck']}.",
                    ],
                )
            )
        return out

    def _hand(self, view: Mapping[str, Any], you: Mapping[str, Any]) -> list[str]:
        classes = dict((k, n) for k, n in view["classes"])
        # a card's nuns count only in the Nun-row: in a hand they never matter
        by_class: dict[str, int] = {}
        for c in you["cards"]:
            by_class[c["class"]] = by_class.get(c["class"], 0) + 1
        parts = [f"{n} {classes.get(key, key)}" for key, n in by_class.items()]
        for k in ("joker", "sword", "flute", "pass"):
            if you["hand"].get(k):
                parts.append(f"{you['hand'][k]} {view['kind_names'].get(k, k)}")
        lines = [f"Your cards ({view['names'][you['seat']]}): {listed(parts, 'none')}."]
        tokens = listed([str(v) for v in you["rat_token_values"]], "none")
        lines.append(f"Your rats: {you['rats']} (tokens {tokens}).")
        if you["committed"]:
            lines.append(f"Face down in your building: {kinds(view, you['committed'])}.")
        return lines

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        out = []
        for p in view["players"]:
            out.append(
                f"{p['name']}: {p['vp_tokens']} VP tokens, influence "
                f"{sum(p['track'])}; the rest is scored at the end."
            )
        return out


BOARD = RattusCartusBoard()
