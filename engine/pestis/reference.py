"""The in-app rules reference of 1347, built from the data tables (never retyped)."""

from __future__ import annotations

from collections.abc import Mapping

from . import data


def _subjects_table() -> str:
    rows = [
        "| Subject | copies | cost | token | upkeep | ability while healed |",
        "|---|---|---|---|---|---|",
    ]
    for s in data.SUBJECTS.values():
        rows.append(f"| {s.name} | {s.copies} | {s.cost} | {s.token} | {s.upkeep} | {s.ability} |")
    return "\n".join(rows)


def _resources_table() -> str:
    rows = ["| Resource card | effect when played |", "|---|---|"]
    for r in data.RESOURCES.values():
        rows.append(f"| {r.name} | {r.text} |")
    return "\n".join(rows)


def _events_table() -> str:
    rows = ["| Period | Event | effect for the round |", "|---|---|---|"]
    for e in data.EVENTS.values():
        rows.append(f"| {'I' * e.period} | {e.name} | {e.text} |")
    return "\n".join(rows)


def _devs_table() -> str:
    rows = ["| Development | area | benefit |", "|---|---|---|"]
    for d in data.DEVELOPMENTS:
        area = data.AREA_NAMES[data.AREAS[data.DEV_AREA[d]]]
        rows.append(f"| {data.DEV_NAMES[d]} | {area} | {data.DEV_TEXT[d]} |")
    return "\n".join(rows)


def rules_reference(options: Mapping[str, str] | None = None) -> str:
    """Markdown: the rules in short, every card table, and the table rules of this edition
    (a game on the Apothecary's earlier reading says so)."""
    table_rules = "\n".join(f"- *({src})* {text}" for src, text in data.TABLE_RULES)
    # when a healed subject's ability may first be used, as the game's Apothecary option says
    healed = (
        "its ability is for use in the following rounds: an Apothecary healed now heals from "
        "the next Upkeep on"
    )
    if (options or {}).get("apothecary") == data.APOTHECARY_AT_ONCE:
        table_rules += (
            "\n\n**This game** keeps the earlier reading: an Apothecary healed in an Upkeep heals "
            "for coins in that same Upkeep."
        )
        healed = (
            "its ability is for use in the following rounds, but an Apothecary heals already "
            "in this Upkeep (this game's reading)"
        )
    tokens = "-".join(map(str, data.START_TOKENS))
    return f"""# {data.TITLE}

Become the greatest plague doctor of the town: the most **wealth points** after {data.ROUNDS}
rounds wins (ties share the victory).

## Setup
Each player: influence tokens {tokens}, {data.START_GRAVE_DIGGERS} grave-diggers in the reserve
({data.GRAVE_DIGGERS_PER_COLOUR} per colour, the rest wait at the docks), {data.START_COINS} coins.
{data.BURGUS_SUBJECTS} subjects are laid out in the Burgus (infected side up). {data.EVENTS_PER_PERIOD}
event cards are drawn for each period; the first Period I card is revealed and governs round 1.
The resource deck lies with its top card face up.

## A round
1. **Investments.** From the First Player clockwise, one action per turn: invest one
   influence token face down in an area (optionally reinforced by any number of grave-diggers
   from your reserve, +1 each), or play a resource card instead (saving the token for later).
   Turns go round until every token is invested; players with more tokens go on alone.
2. **Actions.** The six areas are activated one after the other, in the order below. In each:
   reveal the tokens. The highest total (tokens + reinforcements + development base points +
   bonuses) is the active player, if it is at least 1. Ties: the First Player, else the nearest
   to the First Player's left (6 players, Period III: the most subject cards and developments
   first). The active player takes the area's action first (below); their points are used up.
   Then the losers convert their unused points: each token its value in coins, or 1
   grave-digger from the docks of their colour (a 0-point token: a grave-digger only; nothing
   if the docks are empty); each of their reinforcements converts into 1 coin. Last, every
   invested grave-digger goes back to the docks and the tokens go back to their owners. The
   areas' actions:
   1. **Schola Medica**: build one development, or buy the top resource for {data.SCHOLA_PRICE} coins,
     or send a grave-digger from your reserve to Agrus.
   2. **Burgus**: take face-up subjects whose total cost is at most your points (taken infected; at
     most one card of each type).
   3. **Mercatus**: buy the top resource card for {data.MERCATUS_PRICE} coins.
   4. **Agrus**: send one more grave-digger from your reserve to Agrus.
   5. **Portus**: build any number of developments: each takes 1 grave-digger from your reserve
     onto it, plus 1 resource card or {data.DEVELOPMENT_GD_COST} grave-diggers from your reserve
     to the docks.
   6. **Suburbium**: rob the player with the least influence invested there (non-investors count 0;
     on a tie you choose) of goods worth up to your points: 1 coin = {data.ROB_COIN} point, 1
     grave-digger = {data.ROB_GRAVE_DIGGER} points, 1 resource card = {data.ROB_RESOURCE} points.
3. **Upkeep.** The Burgus subjects are discarded and {data.BURGUS_SUBJECTS} new ones laid out.
   Then each player in turn: {data.AGRUS_INCOME} coins per grave-digger in Agrus; heal infected
   subjects by discarding a resource card each (flip it, take its influence token; {healed});
   pay the upkeep of healed subjects or flip them back to infected (their
   token and ability are lost until healed again).
4. **Event.** Reveal the next event card (it governs the next round); the First Player token
   passes left. Where an event and a card disagree, the event wins.

## End of the game
After round {data.ROUNDS}: 1 wealth point per influence point of the tokens you hold (a subject's
token only while it is healed), per {data.WP_COINS} coins, per subject card, per resource card
played, per development, per {data.WP_GRAVE_DIGGERS} grave-diggers (reserve + Agrus); a healed
Nobleman gives +{data.NOBLEMAN_WP}.

## Developments
{_devs_table()}

Development base points never become unused points.

## Subjects ({len(data.SUBJECT_DECK)} cards)
{_subjects_table()}

## Resources ({len(data.RESOURCE_DECK)} cards, {data.RESOURCE_COPIES} of each)
Played in the Investments stage instead of investing: the effect lasts this round and the card
scores 1 wealth point. Or discarded to heal a subject or pay for a development (no point).

{_resources_table()}

## Events ({len(data.EVENTS)} cards, 10 per period)
Closed areas take no investments and do not activate.

{_events_table()}

## Table rules of this edition
The printed card texts could not be established: the subject, resource and event tables
above are this edition's. Beyond them, how this edition reads the rules, each rule labelled by
its source: *seed* (the rulebook text this edition follows, with its appendix and FAQ),
*this edition* (our decision where the rules are silent or the printed content is unknown).

{table_rules}
"""
