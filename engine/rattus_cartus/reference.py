"""The in-app rules reference (Markdown), built from the data tables."""

from __future__ import annotations

from collections.abc import Mapping

from .data import (
    BUILDING_INDEX,
    BUILDING_METHODS,
    BUILDINGS,
    BUILDINGS_PER_ROUND,
    CARDS_PER_CLASS,
    CLASS_NAMES,
    CLASSES,
    DESIGN_NOTES,
    GOLD_PAYOUT,
    HAND_AT_START,
    HAND_MAJORITY_VP,
    LEFT_OUT_WITH_TWO,
    NUN_ROW_SIZE,
    NUNS_IN_CLASS,
    PLURALS,
    RATS_AT_START,
    RECOMMENDED_SET,
    REPLACEMENT_DECK,
    ROUNDS,
    SUPPLIES,
    SUPPLY_TOTALS,
    TRACK_PAYOUT,
    VP_TOKEN_VALUE,
)


def _by_players(table: Mapping[int, int]) -> str:
    return ", ".join(f"{n} players: {v}" for n, v in table.items())


def rules_reference(options: Mapping[str, str] | None = None) -> str:
    """Markdown: the rules in short, the building and card tables, the table rules."""
    method = (options or {}).get("buildings", "recommended")
    method_name = dict(BUILDING_METHODS).get(method, method)
    if "," in method:  # a set chosen by the players: its buildings' keys
        chosen = ", ".join(BUILDINGS[BUILDING_INDEX[k]].name for k in method.split(","))
        method_name = f"chosen by the players: {chosen}"
    lines = _setup(method_name) + _round() + _buildings() + _cards_and_end()
    lines += [f"- *({source})* {note}" for source, note in DESIGN_NOTES]
    return "\n".join(lines) + "\n"


def _setup(method_name: str) -> list[str]:
    """The introduction and the setup (with this game's building method)."""
    recommended = ", ".join(BUILDINGS[BUILDING_INDEX[k]].name for k in RECOMMENDED_SET)
    return [
        "# Rattus Cartus",
        "",
        "The plague is coming. Enter the town's buildings with population cards to gain "
        "influence with the six classes and the buildings' actions - but population cards of "
        "the wrong class bring rats. At the end, whoever has more rats than the Nun-row shows "
        "nuns dies; the most victory points among the survivors wins.",
        "",
        "## Setup",
        f"- Every player: a disc on the start space of each of the six class tracks, "
        f"{RATS_AT_START} rats (kept secret), {HAND_AT_START} population cards.",
        f"- Nun-row: {NUN_ROW_SIZE} population cards face down. Nobody knows them until they look.",
        "- 30 building cards, 5 per class. Methods: "
        + "; ".join(name for _, name in BUILDING_METHODS)
        + f" (this game: **{method_name}**). Recommended set: {recommended}. "
        f"With 2 players, random sets leave out: "
        + ", ".join(BUILDINGS[BUILDING_INDEX[k]].name for k in LEFT_OUT_WITH_TWO)
        + ".",
        f"- Replacement deck taken from the building deck: {_by_players(REPLACEMENT_DECK)}.",
        f"- Rounds: {_by_players(ROUNDS)}. Buildings per round: "
        f"{_by_players(BUILDINGS_PER_ROUND)}.",
        "",
    ]


def _round() -> list[str]:
    """Phases A-E of a round."""
    return [
        "## A round",
        "- **A. Draw buildings** into a row (the row order is the order of resolution). If all "
        "show the same building, the last is replaced from the replacement deck (the replaced "
        "card goes under it) until one differs.",
        "- **B. Supplies**: from the start player in turn order, each player performs the "
        "supply action printed on one revealed building card (draw cards, discard rats, look "
        "at Nun-row cards).",
        "- **C. Enter**: from the start player in turn order, each player puts a disc on the "
        "lowest free space of one building and places any number of hand cards face down "
        "(population cards, Jokers, Swords, Flutes). The number is public, the cards are not. "
        "Instead of entering you may play a Pass: you enter after everybody else (passers in "
        "the order they passed).",
        "- **D. Resolve** the buildings in row order, players in disc order:",
        "  - a. Reveal: +1 influence on the building's class track per population card or "
        "Joker; +1 rat per population card of another class (Jokers bring no rats). Swords and "
        "Flutes act, in disc order.",
        "  - b. Actions: the most population cards + Jokers played takes the premium action "
        "(tie: lowest disc); everyone else who entered takes the standard action.",
        "  - c. Population cards go to the discard pile, Jokers and special cards back to "
        "their supplies.",
        "- **E. End of round**: building cards are discarded, discs return, the start player "
        "card passes to the left.",
        "",
    ]


def _buildings() -> list[str]:
    """The table of the twelve buildings and the supply actions of their copies."""
    lines = [
        "## Buildings",
        "| Class | Building | Premium | Standard |",
        "|---|---|---|---|",
    ]
    for b in BUILDINGS:
        lines.append(f"| {CLASS_NAMES[b.cls]} | {b.name} | {b.premium_text} | {b.standard_text} |")
    lines += [
        "",
        "Supply actions: the five copies of each building show: "
        + "; ".join(f"copy {i + 1}: {s.text()}" for i, s in enumerate(SUPPLIES))
        + ".",
        "",
    ]
    return lines


def _cards_and_end() -> list[str]:
    """Cards and tokens, the end of the game, and the heading of the table rules."""
    nun_counts: dict[int, int] = {}
    for v in NUNS_IN_CLASS:
        nun_counts[v] = nun_counts.get(v, 0) + 1
    nuns = ", ".join(
        f"{c} cards with {v} nun{'' if v == 1 else 's'}"
        for v, c in sorted(nun_counts.items(), reverse=True)
    )
    return [
        "## Cards and tokens",
        f"- Population cards: {CARDS_PER_CLASS} per class ("
        + ", ".join(CLASS_NAMES[c] for c in CLASSES)
        + f"); per class {nuns}.",
        "- Joker: counts as a population card of the building's class, never brings a rat.",
        "- Sword (committed): take half (rounded down) of the hand of one other player in the "
        "same building, at random.",
        "- Flute (committed): give up to 2 of your rats to one other player in the same building.",
        "- Pass (held): in phase C, enter after every other player instead of on your turn.",
        "- Gold: kept face up; majority at the end. VP token: kept face up.",
        "- Supplies: " + ", ".join(f"{PLURALS[k]} {v}" for k, v in SUPPLY_TOTALS.items()) + ".",
        "",
        "## End of the game",
        "- The Nun-row is revealed and its nuns totalled. A player with more rats than that "
        "dies and cannot win; if everyone dies, the plague wins.",
        "- Each class track pays "
        + " / ".join(str(v) for v in TRACK_PAYOUT)
        + " VP to its 1st / 2nd / 3rd player.",
        f"- VP token: {VP_TOKEN_VALUE} VP each. Most population + Joker cards in hand: "
        f"{HAND_MAJORITY_VP} VP. Gold: most {GOLD_PAYOUT[0]} VP, second {GOLD_PAYOUT[1]} VP.",
        "- Most VP among the survivors wins; tie: fewest rats.",
        "",
        "## Table rules of this edition",
        "How this edition plays where a reading or a choice is needed, each rule labelled by "
        "its source: *seed* (the rulebook text this edition follows), *published rulebook* "
        "(the printed rules, beyond the seed), *this edition* (our decision where the rulebook "
        "we have is silent or unreadable; an entry mixing sources takes this label).",
        "",
    ]
