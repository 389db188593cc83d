"""1347 in sentences: town areas, players, your reserve, the event, Burgus and decks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_tui.plain.boards import Sections, counted, listed, tally

ROMAN = {1: "I", 2: "II", 3: "III"}


class PestisBoard:
    def heading(self, view: Mapping[str, Any]) -> str:
        head = f"Period {ROMAN.get(view['period'], view['period'])}, round {view['round']} of {view['rounds']}"
        phase = view["phase"]
        if view["over"]:
            return f"{head}: {phase}"
        if phase == "Actions" and view["area_active"] is not None:
            phase += f" in {view['areas'][view['area_active']]['name']}"
        return f"{head}: {phase}"

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        names = view["names"]
        out: Sections = []
        areas = []
        for a in view["areas"]:
            marks = [
                "closed" if a["closed"] else "",
                "quarantined" if a["quarantined"] else "",
                "acting now" if a["current"] else "",
                "revealed" if a["revealed"] else "",
            ]
            state = listed([m for m in marks if m], "")
            head = f"{a['number']} {a['name']}{f' ({state})' if state else ''}: {a['action']}."
            stacks = []
            for st in a["stacks"]:
                if not (st["tokens"] or st["reinforcements"] or st["gd_tokens"]):
                    continue
                what = counted(st["tokens"], "token")
                if "values" in st:
                    what += f" worth {listed([str(v) for v in st['values']])}, total {st['total']}"
                if st["reinforcements"]:
                    what += f", {counted(st['reinforcements'], 'reinforcement')}"
                if st["gd_tokens"]:
                    what += f", {counted(st['gd_tokens'], 'grave-digger token')}"
                stacks.append(f"{names[st['seat']]} {what}")
            for seen in a["informer"]:
                stacks.append(
                    f"your informer saw {names[seen['owner']]}'s "
                    f"{listed([str(v) for v in seen['values']])}"
                )
            if a["result"]:
                totals = [
                    f"{names[i]} {t}"
                    for i, t in enumerate(a["result"]["totals"])
                    if i in a["result"]["investors"]
                ]
                stacks.append(f"revealed totals {listed(totals)}")
            areas.append(
                head + (f" Invested: {'; '.join(stacks)}." if stacks else " Nobody invested.")
            )
        out.append(("areas", areas))
        players = []
        for pl in view["players"]:
            first = ", first player" if pl["first"] else ""
            bits = [
                f"{pl['coins']} coins",
                f"grave-diggers {pl['reserve']} in reserve, {pl['agrus']} in Agrus, {pl['docks']} at the docks",
                counted(pl["tokens_in_hand"], "token") + " in hand",
                counted(pl["resource_count"], "resource card"),
                f"{pl['wealth']} wealth points",
                f"{pl['healed']} healed of {pl['infected'] + pl['healed']} subjects"
                if pl["subjects"]
                else "no subjects",
            ]
            line = f"{pl['name']}{first}: {', '.join(bits)}."
            if pl["subjects"]:
                subs = [f"{s['name']} {'healed' if s['healed'] else 'ill'}" for s in pl["subjects"]]
                line += f" Subjects: {listed(subs)}."
            if pl["developments"]:
                line += f" Built: {listed(pl['developments'])}."
            players.append(line)
        out.append(("players", players))
        me = next((p for p in view["players"] if p["hand"] is not None), None)
        if me is not None and view["you"] is not None:
            hand = me["hand"] or []
            played = list(me["token_values"])
            for v in hand:
                if v in played:
                    played.remove(v)
            lines = [
                f"Your tokens in hand ({me['name']}): {listed([str(v) for v in hand])}; "
                f"played {listed([str(v) for v in played])}.",
                f"Your resources: {listed(list(me['resources'] or []))}.",
            ]
            if me["relic"]:
                lines.append("Holy relic: one free heal in this upkeep.")
            if me["remedy"]:
                lines.append("Herbal remedy: no upkeep this round.")
            out.append(("hand", lines))
        ev = view["event"]
        left = view["events_left"]
        out.append(
            (
                "event",
                [
                    f"Event {ev['name']}: {ev['text']}.",
                    f"Events to come: period I {left[0]}, II {left[1]}, III {left[2]}.",
                ],
            )
        )
        burgus = [
            f"{b['name']}: cost {b['cost']}, token {b['token']}, upkeep {b['upkeep']}; {b['ability']}."
            for b in view["burgus"]
        ]
        top = view["resource_top"]
        burgus.append(
            f"Subject deck {view['subject_deck']}, {discarded(view['subject_discard'])}. "
            "Resource deck "
            f"{view['resource_deck']}" + (f", on top {top['name']}: {top['text']}." if top else ".")
        )
        out.append(("burgus", burgus))
        return out

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        ranked = sorted(view["players"], key=lambda p: -p["wealth"])
        return [f"{p['name']}: {p['wealth']} wealth points, {p['coins']} coins." for p in ranked]


BOARD = PestisBoard()


def discarded(names: list[str]) -> str:
    """The face-up discards: how many, and which."""
    return f"discard {len(names)} ({tally(names)})" if names else "discard 0"
