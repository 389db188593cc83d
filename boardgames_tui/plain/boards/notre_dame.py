"""Notre Dame in sentences: persons, boroughs, market places, cards, players, rat track."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_tui.engine.notre_dame.data import CARD_NAMES, SOURCE_LABELS
from boardgames_tui.plain.boards import Sections, counted, listed

PHASES = {
    "draft": "draft",
    "actions": "actions",
    "hire": "hire a person",
    "plague": "plague",
    "over": "game over",
}
SECTORS = (
    "cloister",
    "bank",
    "residence",
    "carriage",
    "hotel",
    "park",
    "hospital",
)


def cards(keys: list[str]) -> str:
    return listed([CARD_NAMES.get(k, k) for k in keys])


class NotreDameBoard:
    def heading(self, view: Mapping[str, Any]) -> str:
        head = f"Period {view['period']}, round {view['round']} of {view['rounds']}"
        if view["over"]:
            return f"{head}: game over"
        phase = PHASES.get(view["phase"], view["phase"])
        if view["phase"] == "actions":
            phase += ", first card" if view["lap"] == 0 else ", second card"
        return f"{head}: {phase}"

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        names = view["names"]
        out: Sections = []
        persons = [
            f"{p['name']} ({counted(p['rats'], 'rat') if p['rats'] else 'no rat'}): {p['text']}."
            for p in view["persons"]
        ]
        decks = f"Brown deck {view['brown_left']}, gray deck {view['gray_left']}"
        if view["gray_next"]:
            decks += f" (next from period {view['gray_next']})"
        out.append(("persons", [f"Plague value {view['plague_value']}.", *persons, decks + "."]))
        nd = view["notre_dame"]
        share = nd["pool"] // nd["total"] if nd["total"] else nd["pool"]
        boroughs = []
        for pl in view["players"]:
            parts = []
            for key in SECTORS:
                n = pl["sectors"][key]
                friend = pl["friend"] == key
                if n or friend:
                    parts.append(f"{CARD_NAMES[key]} {n}{' and the friend' if friend else ''}")
            n = pl["notre_dame"]
            if n or pl["friend"] == "notredame":
                friend = " and the friend" if pl["friend"] == "notredame" else ""
                parts.append(f"Notre Dame {n}{friend}")
            boroughs.append(f"{pl['name']}: {listed(parts, 'no markers placed')}.")
        boroughs.append(
            f"Notre Dame pool {nd['pool']} prestige: {share} per marker at the period's end."
        )
        out.append(("boroughs", boroughs))
        market = []
        by_borough: dict[int, list[Any]] = {}
        for node in view["market"]:
            by_borough.setdefault(node["borough"], []).append(node)
        for b in view["boroughs"]:
            owner = f"{names[b['seat']]}'s borough" if b["seat"] is not None else "Empty borough"
            places = []
            for node in by_borough.get(b["index"], []):
                where = "centre" if node["place"] == "C" else f"place {node['place'][1:]}"
                things = []
                if node["message"]:
                    reward = f" (reward {node['reward']})" if node.get("reward") else ""
                    things.append(f"{node['message']} message{reward}")
                things += [f"{names[s]}'s carriage" for s in node["carriages"]]
                if things:
                    places.append(f"{where}: {listed(things)}")
            market.append(f"{owner} ({b['colour']}): {'; '.join(places) or 'nothing left'}.")
        market.append(
            "Roads: a centre links to its own places 1 to 4, to the next borough's 1 and "
            "the previous one's 4."
        )
        out.append(("market", market))
        you = view.get("you")
        if you is not None:
            out.append(("hand", self._hand(view, you)))
        elif view.get("hands"):
            out.append(
                (
                    "hand",
                    [
                        f"{names[h['seat']]}: {cards(h['choose'] + h['hand'])}."
                        for h in view["hands"]
                    ],
                )
            )
        players = []
        for pl in view["players"]:
            bits = [
                f"{pl['gold']} gold",
                f"{pl['supply']} markers in supply, {pl['general']} in general",
            ]
            msgs = [f"{n} {c}" for c, n in pl["messages"].items()]
            bits.append(f"messages {listed(msgs)}")
            prestige = "hidden" if pl["prestige"] is None else str(pl["prestige"])
            bits.append(f"prestige {prestige}")
            if pl["park_bonus"]:
                bits.append(f"park bonus +{pl['park_bonus']}")
            if pl["hired"]:
                person = next(
                    (p["name"] for p in view["persons"] if p["key"] == pl["hired"]), pl["hired"]
                )
                bits.append(f"hired {person}")
            bell = ", bell-ringer" if pl["bell_ringer"] else ""
            players.append(f"{pl['name']}{bell}: {', '.join(bits)}.")
        players.append(f"Bank {view['bank']} gold.")
        out.append(("players", players))
        plague = []
        for pl in view["players"]:
            line = f"{pl['name']}: rat at {pl['rat']}, after this plague {pl['rat_after_plague']}"
            if pl["overflow_threat"]:
                line += ", overflow: loses 2 prestige and a marker"
            if pl["doctor"]:
                line += ", protected by the doctor"
            plague.append(line + ".")
        out.append(("plague", plague))
        return out

    def _hand(self, view: Mapping[str, Any], you: Mapping[str, Any]) -> list[str]:
        names = view["names"]
        lines = [f"Your cards ({names[you['seat']]}): {cards(you['hand'])}."]
        if you["choose"]:
            lines.append(f"To choose from: {cards(you['choose'])}.")
        if you["passed"]:
            left = names[(you["seat"] + 1) % len(names)]
            text = f"Passed to {left}: {cards(you['passed'])}"
            if you["passed_on"]:
                text += f"; then {cards(you['passed_on'])}"
            lines.append(text + ".")
        if you["thirds"]:
            lines.append(f"Not played this period: {cards(you['thirds'])}.")
        return lines

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        out = []
        for pl in view["players"]:
            if pl["prestige"] is None:
                out.append(f"{pl['name']}: prestige hidden until the end.")
                continue
            sources = pl["prestige_sources"] or {}
            parts = [f"{SOURCE_LABELS.get(k, k)} {v}" for k, v in sources.items() if v]
            out.append(f"{pl['name']}: {pl['prestige']} prestige ({listed(parts, 'none yet')}).")
        return out


BOARD = NotreDameBoard()
