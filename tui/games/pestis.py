"""1347 board: the six areas in activation order, the Burgus, the event, players' reserves.

Pure rendering of `GAME.view(state, viewer)`: nothing here reads the state, so nothing can
show what the viewer may not see (face-down values and resource hands of the others are not
in the view).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from boardgames_tui.session.words import tally
from boardgames_tui.tui.games.base import SEAT_LETTERS, SEAT_STYLES, GameUI, Panel
from boardgames_tui.tui.games.elements import Column, Fit, Packed, first, player_table

if TYPE_CHECKING:
    from boardgames_tui.engine.pestis.view import PestisView, PlayerView, RevealView, StackView


ROMAN = {1: "I", 2: "II", 3: "III"}
# what the player who acts in each area does, in a few words (the rules reference says it all;
# the engine's own sentence is shown where a whole column is free for it)
AREA_SHORT = {
    1: "build, buy a resource or send to Agrus",
    2: "take subjects ≤ your points",
    3: "buy the top resource",
    4: "one more grave-digger to Agrus",
    5: "build developments",
    6: "rob the least invested player",
}


def tag(seat: int, name: str | None = None) -> Text:
    """A seat's letter in its colour (and its name)."""
    t = Text(SEAT_LETTERS[seat % len(SEAT_LETTERS)], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    if name:
        t.append(f" {name}")
    return t


def _stack(st: StackView, seat: int, compact: bool) -> Text:
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


def _result_cell(res: RevealView, seat: int, compact: bool) -> Text:
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
        if res["extra"][seat]:
            t.append(f"+{res['extra'][seat]}b", style="cyan")
    t.append(f"={res['totals'][seat]}", style="" if not compact else style)
    if res["active"] == seat:
        t.append("★", style="bold yellow")
    return t


def _legend(view: PestisView, short: bool = False) -> Text:
    """What the marks in the town areas mean: only the marks on the board now (`short`: the
    revealed areas show totals only)."""
    seen = set()
    for area in view["areas"]:
        for st in area["stacks"]:
            if st["tokens"] and st.get("values") is None:
                seen.add("■")
            for count, mark in (
                (st["gd_tokens"], "G"),
                (st["reinforcements"], "g"),
                (st["base"], "b"),
            ):
                if count:
                    seen.add(mark)
            if st["leeches"]:
                seen.add("L")
        res = area["result"]
        if res is not None:
            seen.update("=★")
            if not short and any(res["extra"][seat] for seat in res["investors"]):
                seen.add("+b")
    words = [
        ("■", "■ face-down token"),
        ("G", "G grave-digger token"),
        ("g", "+2g reinforcing grave-diggers"),
        ("b", "b3 base points"),
        ("+b", "+1b base and bonus points"),
        ("L", "L1 leeches"),
        ("=", "=9 the points in all"),
        ("★", "★ acts"),
    ]
    return Text(" · ".join(w for k, w in words if k in seen) or " ", style="dim")


class PestisUI:
    """The GameUI of 1347: De Nigrae Pestis Ludo."""

    game_id = "1347"

    def status(self, view: PestisView) -> str:
        first = view["names"][view["first_player"]]
        head = f"Period {ROMAN[view['period']]} · Round {view['round']}/{view['rounds']}"
        phase = view["phase"]
        if view["over"]:  # the first player and the event no longer matter
            return f"{head} · {phase}"
        if phase == "Actions" and view["area_active"] is not None:
            phase += f" ({view['areas'][view['area_active']]['name']})"
        # the last part goes first where the line is short (the event is on the board too)
        return f"{head} · {phase} · first player {first} · event: {view['event']['name']}"

    def panels(self, view: PestisView, viewer: int | None, compact: bool) -> list[Panel]:
        out = [
            Panel(
                "areas",
                "Town areas in activation order · what the one who acts there does",
                self._areas(view, compact),
            ),
            Panel(
                "players",
                "Players · grave-diggers in reserve, in Agrus and at the docks",
                self._players(view, compact),
            ),
        ]
        if compact:
            out.insert(
                1,
                Panel(
                    "acts", "Actions · what the one who acts in each area does", self._acts(view)
                ),
            )
        you = view.get("you")
        if you is not None:
            me = view["players"][you]
            out.append(
                Panel("hand", f"Your reserve ({me['name']})", self._own(view, me), area="side")
            )
        left = view["events_left"]
        out.append(
            Panel(
                "event",
                f"Event · to come: I {left[0]}, II {left[1]}, III {left[2]}",
                self._event(view),
                area="side",
            )
        )
        out.append(Panel("burgus", "Burgus & decks", self._burgus(view), area="side"))
        if compact and view["over"]:  # the wealth points decide: open there
            return first(out, "players")
        return out

    # ---- board ---------------------------------------------------------------------------
    def _areas(self, view: PestisView, compact: bool) -> RenderableType:
        notes: list[Text] = []
        for area in view["areas"]:
            res = area["result"]
            line = Text(f"{area['number']} {area['name']}: ", style="bold")
            if area["closed"]:
                line.append("closed this round ", style="bold red")
            elif res is not None and res["active"] is None:
                line.append("nobody acts ", style="dim")
            if area["quarantined"]:
                line.append("no reinforcements ", style="yellow")
            for seat in area["blocked_for"]:
                line.append("closed to ", style="red")
                line.append_text(tag(seat, view["names"][seat]))
                line.append(" ")
            for seen in area["informer"]:
                line.append("informer sees ")
                line.append_text(tag(seen["owner"], view["names"][seen["owner"]]))
                line.append(": " + "+".join(map(str, seen["values"])) + " ")
            line.rstrip()
            if not line.plain.endswith(":"):
                notes.append(line)
        acts = []
        for area in view["areas"]:
            act = Text(f"{area['number']} ", style="bold")
            act.append(AREA_SHORT.get(area["number"], area["action"]))
            acts.append(act)
        effects = Packed(acts, sep="  ")

        def build(names: bool, short: bool, column: bool) -> RenderableType:
            players = view["players"]
            table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
            table.add_column("Area", no_wrap=True)
            for pl in players:
                label = tag(pl["seat"], pl["name"] if names else None)
                table.add_column(label, no_wrap=True)
            if column:
                table.add_column("what the player who acts does", no_wrap=True, style="dim")
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
                        row.append(_result_cell(res, seat, short))
                    else:
                        row.append(_stack(area["stacks"][seat], seat, short))
                if column:
                    row.append(area["action"])
                table.add_row(*row)
            parts: list[RenderableType] = [table]
            if notes:
                parts.append(Packed(notes))
            if not column and not compact:  # at 80x24 they are a tab of their own
                parts.append(effects)
            parts.append(_legend(view, short))
            return Group(*parts)

        forms = [
            build(True, False, True),
            build(False, False, True),
            build(True, False, False),
            build(True, True, False),
            build(False, False, False),
            build(False, True, False),
        ]
        return Fit(*forms)

    def _acts(self, view: PestisView) -> RenderableType:
        """Each area's action in the rulebook's words (a tab of its own at 80x24)."""
        lines = []
        for area in view["areas"]:
            line = Text(f"{area['number']} {area['name']}: ", style="bold")
            line.append(area["action"])
            lines.append(line)
        return Group(*lines)

    def _players(self, view: PestisView, compact: bool) -> RenderableType:
        def who(pl: PlayerView) -> Text:
            t = tag(pl["seat"], pl["name"])
            if pl["first"]:
                t.append(" first", style="bold yellow")
            return t

        def subjects(pl: PlayerView) -> str:
            return f"{pl['healed']}/{pl['infected']}"

        columns = [
            Column("coins", "$", "coins", lambda p: p["coins"]),
            Column("reserve", "gd", "grave-diggers in reserve", lambda p: p["reserve"]),
            Column("Agrus", "Ag", "in Agrus", lambda p: p["agrus"]),
            Column("docks", "dk", "at the docks", lambda p: p["docks"]),
            Column("tokens", "tk", "tokens in hand", lambda p: p["tokens_in_hand"]),
            Column("cards", "rs", "resource cards", lambda p: p["resource_count"]),
            Column("wealth", "WP", "wealth points", lambda p: p["wealth"]),
            Column("healed/ill", "healed/ill", "", subjects),
        ]
        details: list[Text] = []
        for pl in view["players"]:
            if not (pl["subjects"] or pl["developments"]):
                continue
            line = Text()
            line.append_text(tag(pl["seat"]))
            line.append(" ")
            for i, sub in enumerate(pl["subjects"]):
                if i:
                    line.append(", ")
                line.append(sub["name"], style="green" if sub["healed"] else "red")
                line.append(" healed" if sub["healed"] else " ill", style="dim")
            if pl["developments"]:
                if pl["subjects"]:
                    line.append(", ")
                line.append("built " + ", ".join(pl["developments"]), style="cyan")
            details.append(line)
        # every player's subjects stay on the board: the table takes shorter headers first
        table = player_table(view["players"], who, columns, who_short=lambda pl: tag(pl["seat"]))
        if not details:
            return table
        packed = Packed(details)
        return Fit(*(Group(form, packed) for form in table.forms))

    # ---- side ------------------------------------------------------------------------------
    def _event(self, view: PestisView) -> RenderableType:
        ev = view["event"]
        track = Text("Rounds ")
        for r in range(1, view["rounds"] + 1):
            style = "bold reverse" if r == view["round"] else ("" if r > view["round"] else "dim")
            track.append(f"{r}", style=style)
            track.append(" | " if r % 3 == 0 and r < view["rounds"] else " ")
        return Group(
            Text.assemble(
                (f"{ev['name']}", "bold magenta"), f" ({ROMAN[ev['period']]}): {ev['text']}"
            ),
            track,
        )

    def _burgus(self, view: PestisView) -> RenderableType:
        def listed() -> RenderableType:
            """Each subject's numbers and what it does when healed, wrapped under each other."""
            lines = [Text("Subject cost/token/upkeep: when healed", style="dim")]
            for sub in view["burgus"]:
                lines.append(
                    Text.assemble(
                        (sub["name"], "bold"),
                        f" {sub['cost']}/{sub['token']}/{sub['upkeep']}: ",
                        (sub["ability"], "dim"),
                    )
                )
            if not view["burgus"]:
                lines.append(Text("no subjects", style="dim"))
            return Group(*lines)

        def abilities_grid() -> RenderableType:
            g = Table.grid(padding=(0, 1))
            g.add_column(no_wrap=True, style="bold")
            g.add_column(justify="right", no_wrap=True)
            g.add_column(justify="right", no_wrap=True)
            g.add_column(justify="right", no_wrap=True)
            g.add_column(style="dim", no_wrap=True)  # one line each, or the other form
            g.add_row("Burgus subject", "cost", "token", "upkeep", "when healed")
            for sub in view["burgus"]:
                g.add_row(
                    sub["name"], str(sub["cost"]), str(sub["token"]), str(sub["upkeep"]),
                    sub["ability"],
                )  # fmt: skip
            return g

        top = view["resource_top"]
        res = Text("Resource deck ", style="bold")
        if top:
            res.append(f"top: {top['name']}", style="green")
            res.append(f" — {top['text']}")
        else:
            res.append("empty", style="dim")
        res.append(
            f" ({view['resource_deck']} left, {len(view['resource_discard'])} discarded)",
            style="dim",
        )
        gone = view["subject_discard"]  # face up: every card by name
        decks = Text(
            f"Subject deck {view['subject_deck']} · discards {len(gone)}"
            + (f": {tally(gone, space='')}" if gone else ""),
            style="dim",
        )
        # what each subject does when healed is always there: on its row, or on the next line
        return Fit(Group(abilities_grid(), res, decks), Group(listed(), res, decks))

    def _own(self, view: PestisView, me: PlayerView) -> RenderableType:
        lines: list[RenderableType] = []
        hand = me["hand"] or []
        out = list(me["token_values"])
        for v in hand:
            out.remove(v)
        lines.append(
            Text.assemble(
                ("Tokens in hand ", "bold"),
                " ".join(str(v) for v in hand) if hand else "none",
                (f" · played {' '.join(map(str, out))}" if out else "", "dim"),
            )
        )
        lines.append(
            Text.assemble(("Resources: ", "bold"), ", ".join(me["resources"] or []) or "none")
        )
        if me["relic"]:
            lines.append(Text("Holy relic: one free heal in this Upkeep", style="magenta"))
        if me["remedy"]:
            lines.append(Text("Herbal remedy: no upkeep this round", style="magenta"))
        return Group(*lines)


UI: GameUI[PestisView] = PestisUI()  # its entry point in `boardgames_tui.boards`
