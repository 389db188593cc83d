"""1347 board: the six areas in activation order, the Burgus, the event, players' reserves.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see (face-down values and resource hands of the others are not
in the view).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .base import SEAT_LETTERS, SEAT_STYLES, Panel

ROMAN = {1: "I", 2: "II", 3: "III"}


def tag(seat: int, name: str | None = None) -> Text:
    """A seat's letter in its colour (and its name)."""
    t = Text(SEAT_LETTERS[seat % len(SEAT_LETTERS)], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    if name:
        t.append(f" {name}")
    return t


def _stack(st: dict[str, Any], seat: int, compact: bool) -> Text:
    """One player's stack in an area: face-down tokens (■ each) or values, extras."""
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    sep = "" if compact else " "
    t = Text()
    values = st.get("values")
    n = st["tokens"]
    if n:
        if values is not None:
            t.append("+".join(str(v) for v in values), style=style)
        elif compact and n > 2:
            t.append(f"{n}■", style=style)
        else:
            t.append("■" * n, style=style)
    if st["gd_tokens"]:
        t.append(("+" if t.plain else "") + "G", style=style)
    if st["reinforcements"]:
        t.append(f"{sep}+{st['reinforcements']}g", style="dim")
    if st["base"]:
        t.append(f"{sep}b{st['base']}", style="cyan")
    if st["leeches"]:
        t.append(f"{sep}L{st['leeches']}", style="magenta")
    if not t.plain:
        return Text("·", style="dim")
    return t


def _result_cell(res: dict[str, Any], seat: int, compact: bool) -> Text:
    """A revealed area: what the player had and the total; ★ marks the active player."""
    if seat not in res["investors"]:
        return Text("·", style="dim")
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    parts = [str(v) for v in res["tokens"][seat]]
    if res["gd_tokens"][seat]:
        parts.append("G")
    t = Text()
    if not compact:
        t.append("+".join(parts) or "–", style=style)
        if res["reinforcements"][seat]:
            t.append(f"+{res['reinforcements'][seat]}g", style="dim")
    t.append(f"={res['totals'][seat]}", style="" if not compact else style)
    if res["active"] == seat:
        t.append("★", style="bold yellow")
    return t


class PestisUI:
    """The GameUI of 1347: De Nigrae Pestis Ludo."""

    game_id = "1347"

    def status(self, view: dict[str, Any]) -> str:
        first = view["names"][view["first_player"]]
        head = f"Period {ROMAN[view['period']]} · Round {view['round']}/{view['rounds']}"
        phase = view["phase"]
        if phase == "Actions" and view["area_active"] is not None:
            phase += f" ({view['areas'][view['area_active']]['name']})"
        return f"{head} · {phase} · First Player {first} · Event: {view['event']['name']}"

    def panels(self, view: dict[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        out = [
            Panel(
                "areas",
                "Town areas (activated 1 → 6)",
                self._areas(view, compact),
            ),
            Panel(
                "burgus",
                f"Burgus, event & round · Period {ROMAN[view['period']]}",
                self._burgus(view, compact),
            ),
        ]
        you = view.get("you")
        if you is not None:
            me = view["players"][you]
            out.append(
                Panel("hand", f"Your reserve ({me['name']})", self._own(view, me), area="side")
            )
        out.append(Panel("players", "Players", self._players(view, compact), area="side"))
        return out

    # ---- board ---------------------------------------------------------------------------
    def _areas(self, view: dict[str, Any], compact: bool) -> RenderableType:
        players = view["players"]
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("Area", no_wrap=True)
        width = 7 if compact else 11
        for pl in players:
            label = tag(pl["seat"], None if compact and len(players) > 3 else pl["name"][:7])
            table.add_column(label, no_wrap=True, max_width=width)
        table.add_column("", no_wrap=True, overflow="ellipsis", max_width=22 if compact else 30)
        for area in view["areas"]:
            name = Text(f"{area['number']} {area['name']}", style="bold")
            if area["current"]:
                name = Text(f"▶{area['number']} {area['name']}", style="bold reverse")
            row: list[RenderableType] = [name]
            res = area["result"]
            for pl in players:
                seat = pl["seat"]
                if area["closed"]:
                    row.append(Text("–", style="dim"))
                elif res is not None:
                    row.append(_result_cell(res, seat, compact))
                else:
                    row.append(_stack(area["stacks"][seat], seat, compact))
            notes = Text()
            if area["closed"]:
                notes.append("closed this round", style="bold red")
            elif res is not None and res["active"] is None:
                notes.append("nobody acts", style="dim")
            if area["quarantined"]:
                notes.append("no reinforcements ", style="yellow")
            for seat in area["blocked_for"]:
                notes.append("no ", style="red")
                notes.append_text(tag(seat))
                notes.append(" ")
            for seen in area["informer"]:
                notes.append("informer: ")
                notes.append_text(tag(seen["owner"]))
                notes.append(" " + "+".join(map(str, seen["values"])) + " ")
            if not notes.plain and not compact:
                notes.append(area["action"], style="dim")
            row.append(notes)
            table.add_row(*row)
        legend = Text(
            "■ face-down token · G grave-digger token · +2g reinforcements · b base points · "
            "L leeches · =total ★ active",
            style="dim",
        )
        return Group(table, legend) if not compact else table

    def _burgus(self, view: dict[str, Any], compact: bool) -> RenderableType:
        lines: list[RenderableType] = []
        ev = view["event"]
        lines.append(
            Text.assemble(
                ("Event ", "bold"),
                (f"{ev['name']}", "bold magenta"),
                f" ({ROMAN[ev['period']]}): {ev['text']}",
            )
        )
        track = Text("Rounds ")
        for r in range(1, view["rounds"] + 1):
            style = "bold reverse" if r == view["round"] else ("" if r > view["round"] else "dim")
            track.append(f"{r}", style=style)
            track.append(" | " if r % 3 == 0 and r < view["rounds"] else " ")
        left = view["events_left"]
        track.append(f" events to come I:{left[0]} II:{left[1]} III:{left[2]}", style="dim")
        lines.append(track)
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("Burgus subject", no_wrap=True)
        table.add_column("cost", justify="right")
        table.add_column("tok", justify="right")
        table.add_column("upk", justify="right")
        table.add_column(
            "ability when healed",
            overflow="ellipsis",
            no_wrap=True,
            max_width=40 if compact else 56,
        )
        for sub in view["burgus"]:
            table.add_row(
                sub["name"], str(sub["cost"]), str(sub["token"]), str(sub["upkeep"]), sub["ability"]
            )
        if not view["burgus"]:
            table.add_row(Text("no subjects", style="dim"), "", "", "", "")
        lines.append(table)
        top = view["resource_top"]
        res = Text("Resource deck ", style="bold")
        if top:
            res.append(f"top: {top['name']}", style="green")
            if not compact:
                res.append(f" — {top['text']}", style="dim")
        else:
            res.append("empty", style="dim")
        res.append(
            f" ({view['resource_deck']} left, {len(view['resource_discard'])} discarded)",
            style="dim",
        )
        lines.append(res)
        lines.append(
            Text(
                f"Subject deck {view['subject_deck']} · discards {view['subject_discard']}",
                style="dim",
            )
        )
        return Group(*lines)

    # ---- side ------------------------------------------------------------------------------
    def _own(self, view: dict[str, Any], me: dict[str, Any]) -> RenderableType:
        lines: list[RenderableType] = []
        hand = me["hand"] or []
        lines.append(
            Text.assemble(
                ("Tokens in hand: ", "bold"),
                ", ".join(str(v) for v in hand) if hand else "none",
                (f"  (all: {'-'.join(map(str, me['token_values']))})", "dim"),
            )
        )
        lines.append(
            Text.assemble(("Resources: ", "bold"), ", ".join(me["resources"] or []) or "none")
        )
        flags = []
        if me["relic"]:
            flags.append("Holy relic: one free heal in this Upkeep")
        if me["remedy"]:
            flags.append("Herbal remedy: no upkeep this round")
        for f in flags:
            lines.append(Text(f, style="magenta"))
        return Group(*lines)

    def _players(self, view: dict[str, Any], compact: bool) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("$", justify="right")
        table.add_column("gd", justify="right")
        table.add_column("Ag", justify="right")
        table.add_column("dk", justify="right")
        table.add_column("tk", justify="right")
        table.add_column("rs", justify="right")
        table.add_column("WP", justify="right")
        details: list[RenderableType] = []
        for pl in view["players"]:
            name = tag(pl["seat"], pl["name"][:9])
            if pl["first"]:
                name.append(" 1st", style="bold yellow")
            table.add_row(
                name,
                str(pl["coins"]),
                str(pl["reserve"]),
                str(pl["agrus"]),
                str(pl["docks"]),
                str(pl["tokens_in_hand"]),
                str(pl["resource_count"]),
                str(pl["wealth"]),
            )
            line = Text()
            line.append_text(tag(pl["seat"]))
            subs = pl["subjects"]
            line.append(f" healed {pl['healed']} ill {pl['infected']}: ")
            if subs:
                for i, sub in enumerate(subs):
                    if i:
                        line.append(", ")
                    line.append(sub["name"], style="green" if sub["healed"] else "red")
                    line.append("+" if sub["healed"] else "~", style="dim")
            else:
                line.append("–", style="dim")
            if pl["developments"]:
                line.append(" · " + ", ".join(pl["developments"]), style="cyan")
            if pl["played"]:
                line.append(f" · played {len(pl['played'])}", style="dim")
            details.append(line)
        legend = Text(
            "$ coins · gd reserve · Ag Agrus · dk docks · tk tokens in hand · rs resource "
            "cards · WP wealth · + healed ~ ill",
            style="dim",
        )
        parts: list[RenderableType] = [table, *details]
        if not compact:
            parts.append(legend)
        return Group(*parts)


UI = PestisUI()
