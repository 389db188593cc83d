"""The in-app rules reference, built from the data tables (values are never retyped here)."""

from __future__ import annotations

from collections.abc import Mapping

from . import data


def _hotel(rules: str) -> str:
    two = data.HOTEL_TWO_BONUSES[rules]
    return f"1-{two - 1} markers: one bonus; {two} or more: two (the same twice is allowed)"


def rules_reference(options: Mapping[str, str]) -> str:
    """Markdown: the rules in short, every table, and the table rules of this edition."""
    published = options.get("rules") == "published"
    scores = options.get("scores", "hidden")
    lines: list[str] = []
    _intro(lines, published, scores)
    _setup(lines)
    _round(lines)
    _actions(lines, published)
    _messages(lines, published)
    _persons(lines)
    _table_rules(lines)
    return "\n".join(lines)


def _intro(lines: list[str], published: bool, scores: str) -> None:
    """The title, what the game is about and the rules in force."""
    add = lines.append
    add("# Notre Dame")
    add("")
    add(
        "2-5 players, 9 rounds in 3 periods (A, B, C). Gain the most prestige by placing "
        "influence markers in the 7 sectors of your borough and in Notre Dame, while keeping "
        "the rats of the plague away."
    )
    add("")
    in_force = "the published 2007 rulebook" if published else "the standard rules of this edition"
    add(
        f"**Rules in force: {in_force}.** Prestige: {'open' if scores == 'open' else 'hidden until the end'}."
    )
    add("")


def _setup(lines: list[str]) -> None:
    """Setup."""
    add = lines.append
    add("## Setup")
    add(
        f"- Each colour: {data.MARKERS_PER_COLOUR} influence markers ({data.START_SUPPLY} in the "
        f"personal supply, {data.MARKERS_PER_COLOUR - data.START_SUPPLY} in the general supply, kept "
        f"per colour), the trusted friend, a carriage on the centre market place, "
        f"{data.MESSAGES_PER_COLOUR} messages on the edge market places, {data.CARDS_PER_COLOUR} "
        f"action cards, {data.START_GOLD} gold, the rat on 0."
    )
    add(
        f"- {data.GOLD_COINS} gold coins in all: the players' starting gold comes from them, the "
        "rest is the bank. Prestige is unlimited."
    )
    add(
        "- Brown persons shuffled; gray persons shuffled per letter and stacked A on top, then "
        "B, then C. The first player is the bell-ringer (start player)."
    )
    add(
        "- **2 players**: the 4-borough layout, players opposite; the empty boroughs hold the "
        "messages of two unused colours (no carriage there)."
    )
    add("")


def _round(lines: list[str]) -> None:
    """The five phases of a round."""
    add = lines.append
    add("## A round: 5 phases")
    add(
        f"1. **Persons**: {data.BROWN_PER_ROUND} brown and {data.GRAY_PER_ROUND} gray person card "
        "face up. Their rat icons add up to the plague value."
    )
    add(
        "2. **Draft**: draw 3 of your own cards, keep 1, pass 2 left; of the 2 received keep 1 "
        "and pass 1 left; take the last card received. 2 players: pass 2 to the opponent, who "
        "returns 1 of them. You never see received cards before passing your own."
    )
    add(
        "3. **Actions**: from the bell-ringer clockwise each plays a card, then a second lap. "
        "The third card is discarded unplayed and unseen. Any card may be played without effect."
    )
    add(
        f"4. **Hire**: from the bell-ringer clockwise each may pay {data.HIRE_COST} gold to hire "
        "one face-up person (several may hire the same one) and use it once."
    )
    add(
        "5. **Plague**: each rat moves forward by the plague value minus the player's hospital "
        "markers (friend included); a negative result moves it back, never below 0. The Doctor "
        f"makes the plague value 0. **Overflow**: a rat that would pass {data.PLAGUE_MAX} stops "
        f"on {data.PLAGUE_MAX}; the player returns {data.OVERFLOW_PRESTIGE} prestige (not below 0) "
        "and removes 1 marker from the sector with the most markers (the friend counts but is "
        "never removed; the player picks on a tie)."
    )
    add(
        f"- After rounds {', '.join(map(str, data.SCORING_ROUNDS))}: Notre Dame scoring, brown "
        "persons reshuffled, everyone takes back and reshuffles their 9 action cards. The "
        "bell-ringer passes left after every round."
    )
    add("")


def _actions(lines: list[str], published: bool) -> None:
    """The action cards, the park bonus and the donation."""
    add = lines.append
    rules = "published" if published else "seed"  # the data's keys: seed text or rulebook
    add("## Actions")
    add(
        "Every action but the trusted friend places a marker from the personal supply in its "
        "sector; *n* = your markers there now (friend included). With an **empty supply** you "
        "may move one of your markers (never the friend) from another sector or Notre Dame "
        "instead."
    )
    add("")
    add("| card | effect |")
    add("|---|---|")
    for key in data.CARDS:
        text = data.CARD_TEXT[key]
        if key == "hotel":
            text += f" ({_hotel(rules)})"
        if key == "carriage" and published:
            text += " (or leave it)"
        if key == "friend":
            text += (
                " (one of the 7 borough sectors)"
                if published
                else " (any sector but the harbor, Notre Dame included)"
            )
        add(f"| {data.CARD_NAMES[key]} | {text} |")
    add("")
    add(
        "- **Park bonus**: every prestige gain from any other source earns +1 per "
        f"{data.PARK_MARKERS_PER_BONUS} park markers; a gain of 0 earns nothing."
    )
    add(
        "- **Notre Dame**: donate "
        + ", ".join(f"{g} gold → {p}" for g, p in data.DONATION.items())
        + " prestige. No donation, no marker."
    )
    add("")


def _messages(lines: list[str], published: bool) -> None:
    """Messages and the Notre Dame scoring."""
    add = lines.append
    add("## Messages and the carriage")
    rewards = "; ".join(f"({r.key}) {r.text}" for r in data.REWARDS)
    add(f"- Rewards: {rewards}.")
    if published:
        add(
            "- Each message shows a fixed reward (face up on its market place); taking it is optional."
        )
    else:
        add(
            "- The carriage stopping on a message takes it (set rule permitting), and the player "
            "chooses one of the four rewards."
        )
    add(
        "- Set rule: no second message of any colour until you hold one of every colour still "
        "on the board; no third until two full sets; and so on. Messages are never refilled."
    )
    add("")
    add("## Notre Dame scoring")
    pools = ", ".join(f"{n} players {p}" for n, p in data.ND_POOL.items())
    add(
        f"Pool ({pools}) ÷ markers in Notre Dame, rounded down, per marker (park bonus "
        "applies); then the markers go back to the general supply"
        + ("." if published else " and a friend there back to its owner.")
    )
    add("")


def _persons(lines: list[str]) -> None:
    """The persons, the end, and where the two rule sets differ."""
    add = lines.append
    add("## Persons")
    add("| deck | person | rats | ability (hire for 1 gold) |")
    add("|---|---|---|---|")
    for p in data.PERSONS:
        deck = "brown" if p.deck == "brown" else f"gray {p.deck}"
        add(f"| {deck} | {p.name} | {p.rats} | {p.text} |")
    add("")
    add("## End")
    add(
        "After round 9 and the last Notre Dame scoring, the most prestige wins; tie: most gold "
        "+ personal supply markers; still tied: a shared win."
    )
    add("")
    add("## Standard and published rules")
    add("| rule | standard (default) | published 2007 rulebook |")
    add("|---|---|---|")
    add(f"| Hotel | {_hotel('seed')} | {_hotel('published')} |")
    add(
        "| Message | taken where the carriage stops; the taker chooses one of the four rewards "
        "| may be taken or left; fixed reward on each message |"
    )
    add(
        "| Trusted friend | any sector but the harbor, Notre Dame included | the 7 borough sectors |"
    )
    add("")


def _table_rules(lines: list[str]) -> None:
    """The table rules of this edition."""
    add = lines.append
    add("## Table rules of this edition")
    add(
        "How this edition plays where a reading or a choice is needed, each rule labelled by "
        "its source: *seed* (the rulebook text this edition follows), *published rulebook* "
        "(the printed rules, beyond the seed), *this edition* (our decision where the rules we "
        "have are silent; an entry mixing sources takes this label)."
    )
    add("")
    for source, title, text in data.TABLE_RULES:
        add(f"- *({source})* **{title}**: {text}")
    add("")
