"""The in-app rules reference of The Cathedral of Orléans, built from the data tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from . import data


def _items(order: tuple[str, ...]) -> str:
    c = Counter(order)
    return ", ".join(f"{n} {data.ITEM_NAMES[k]}" for k, n in c.items())


def _rewards(reward: tuple[str, ...]) -> str:
    return " + ".join(data.REWARD_NAMES[r] for r in reward)


def rules_reference(options: Mapping[str, str] | None = None) -> str:
    """Markdown: the rules in short, every table, and the table rules of this edition."""
    opts = dict(options or {})
    variant = opts.get("variant", "normal")
    out = _overview(variant) + _play() + _tables(opts.get("map")) + _edition()
    return "\n".join(out) + "\n"


def _overview(variant: str) -> list[str]:
    """The goal, the components and the setup (`variant`: this game's bags)."""
    out: list[str] = []
    add = out.append
    add("# The Cathedral of Orléans\n")
    add(
        f"Co-operative, 1-4 players, {data.ROUNDS} rounds. Build all {data.SECTIONS} cathedral "
        f"sections before the end of round {data.ROUNDS} and everybody wins; otherwise everybody "
        "loses. The game is won the moment section 8 (the roof) is attached.\n"
    )
    add("## Components\n")
    subj = ", ".join(f"{n} {data.SUBJECT_PLURAL[k]}" for k, n in data.SUBJECT_COUNT.items())
    goods = ", ".join(f"{n} {k}" for k, n in data.GOODS_COUNT.items())
    add(f"- {sum(data.SUBJECT_COUNT.values())} subject tokens: {subj}.")
    add(f"- {sum(data.GOODS_COUNT.values())} goods: {goods}. {data.GLASS_TOTAL} stained glass.")
    add(
        f"- {len(data.WORKSHOPS)} workshops ({data.WORKSHOPS_IN_PLAY} in play), "
        f"{len(data.HOURGLASSES)} hourglass tiles ({data.HOURGLASSES_IN_PLAY} in play), "
        f"{len(data.EVENTS)} events, {data.BLUEPRINT_COUNT} blueprints, {data.SECTIONS} sections.\n"
    )
    add("## Setup\n")
    add(
        "1. Shuffle the workshops; 3 go face up onto the workshop spaces "
        f"({', '.join(data.CITIES[c] for c in data.WORKSHOP_CITIES)}), the rest to the box."
    )
    add("2. Shuffle the events into a face-down stack.")
    add("3. All goods into the black bag; fill every goods space on roads and rivers from it.")
    add("4. One stained glass on the stained glass space (Tours-Bourges); the rest is the supply.")
    add("5. Shuffle the blueprints face down. The cathedral sections lie ready.")
    add("6. 3 random hourglass tiles face down as a stack; reveal the top one.")
    add("7. Fill the red and blue bags; the remaining monks form the supply:")
    for name, setup in data.BAG_SETUP.items():
        bags = "; ".join(
            f"{bag}: "
            + ", ".join(
                f"{n} {data.SUBJECT_PLURAL[k] if n != 1 else k}" for k, n in setup[bag].items()
            )
            for bag in data.BAGS
        )
        supply = data.SUBJECT_COUNT["monk"] - sum(setup[b]["monk"] for b in data.BAGS)
        mark = " (this game)" if name == variant else ""
        add(f"   - {name}{mark}: {bags}. Monk supply: {supply}.")
    add(
        "8. Every master builder draws 1 good from the black bag into the backpack "
        f"({data.BACKPACK_SIZE} places) and starts in {data.CITIES[data.START_CITY]}.\n"
    )
    return out


def _play() -> list[str]:
    """A turn, the actions, the rewards and the end of a round."""
    out: list[str] = []
    add = out.append
    add("## A turn\n")
    add(
        "Draw a token from the red or the blue bag (your choice), place it on a free action "
        "space that shows its subject (a monk fits any space; zone colour does not matter), "
        "and carry out the action. You may decline the action (the subject just occupies the "
        "space) except at the fair square and the bell tower. You may send any token to the "
        "bell tower; you must when it fits nowhere else. The bell tower ends the round at once.\n"
    )
    add("## Actions\n")
    add(
        "- **Cart** (road) / **Ship** (river): move your master builder to a neighbouring "
        "city. Take any goods or stained glass lying on the path; with a full backpack pass "
        "it by or send back a token (good → black bag, glass → supply) to take it."
    )
    add(
        "- **Rest stop** (extra action, backpack full): all goods back to the black bag, "
        "stained glass to the supply; flip a blueprint."
    )
    add(
        "- **Market**: deliver up to 2 tokens: to another player's backpack, to the workshop "
        "in your builder's city, or to the current hourglass tile (from anywhere)."
    )
    add("- **Glassworks** (monk only): take 1 stained glass from the supply.")
    add(
        "- **Stained glass workshop** (monk only): send 1 stained glass to the supply and "
        "flip a blueprint."
    )
    add(
        "- **Fair square** (any subject): reveal the top event. Stained glass / monk events "
        "give their token; an order becomes the single active order (the previous one is "
        "discarded) and gives a blueprint as soon as it is met — at once if it already is."
    )
    add("- **Bell tower** (any subject): ends the round.\n")
    add("## Rewards\n")
    add("- Blueprint: flip one; receive what it shows.")
    add("- Cathedral section: attach the next section in number order.")
    add("- Stained glass: into your backpack or another player's.")
    add("- Monk: from the supply into the bag shown.\n")
    add("## End of rounds 1 and 2\n")
    add("1. The subject on the bell tower leaves the game.")
    add("2. Subjects in the red zone go to the red bag, in the blue zone to the blue bag.")
    add("3. An unfulfilled hourglass is discarded (its tokens go back, no reward).")
    add("4. Reveal the next hourglass tile.")
    add(
        "5. Refill empty goods spaces from the black bag (as far as it goes); put a stained "
        "glass on its space if it is empty.\n"
    )
    return out


def _tables(game_map: str | None) -> list[str]:
    """The map (`game_map`: the one this game is played on, if known), the action spaces and
    every tile."""
    out: list[str] = []
    add = out.append
    add("## The map\n")
    add("| connection | kind | goods spaces | scaled map, 1-2 players |")
    add("|---|---|---|---|")
    few = data.goods_spaces(data.MAP_SCALED_BUILDERS, scaled=True)
    for c, n in zip(data.CONNECTIONS, few, strict=True):
        extra = " + stained glass space" if c.glass else ""
        add(f"| {data.CITIES[c.a]} - {data.CITIES[c.b]} | {c.kind} | {c.goods}{extra} | {n} |")
    total = sum(c.goods for c in data.CONNECTIONS)
    add(
        f"\n{total} goods spaces. The Map option's default, the scaled map, has {sum(few)} "
        "with two master builders (solo and 2 players) and all of them with 3 or 4; the full "
        f"map has {total} at every count. Workshops stand in "
        f"{', '.join(data.CITIES[c] for c in data.WORKSHOP_CITIES)}.\n"
    )
    if game_map:
        add(f"**This game is played on the {game_map} map.**\n")
    else:  # the reference for every set-up (`rules` without --option): the one a new game gets
        add(
            "**A new game is played on the scaled map** (the Map option's default; "
            "`--option map=full`, or Map in the setup screen, for the full one).\n"
        )
    add("## Action spaces\n")
    add("| zone | action | accepts |")
    add("|---|---|---|")
    for sp in data.SPACES:
        acc = "any" if sp.accepts == data.ANY else " or ".join(sp.accepts)
        if sp.accepts == ("monk",):
            acc = "monk only"
        add(f"| {sp.zone} | {data.ACTION_NAMES[sp.action]} | {acc} |")
    add("| — | Bell tower | any (ends the round) |\n")
    add("## Workshops\n")
    add("| workshop | order | reward |")
    add("|---|---|---|")
    for t in data.WORKSHOPS:
        add(f"| {t.name} | {_items(t.order)} | {_rewards(t.reward)} |")
    add("\n## Hourglass tiles\n")
    add("| hourglass | order | reward |")
    add("|---|---|---|")
    for t in data.HOURGLASSES:
        add(f"| {t.key} | {_items(t.order)} | {_rewards(t.reward)} |")
    add("\n## Blueprints\n")
    for k, n in Counter(data.BLUEPRINTS).items():
        add(f"- {n} × {data.REWARD_NAMES[k]}")
    add("\n## Events\n")
    add("| event | kind | effect |")
    add("|---|---|---|")
    for e in data.EVENTS:
        eff = f"blueprint as soon as {e.text}" if e.kind == "order" else e.text
        add(f"| {e.name} | {e.kind} | {eff} |")
    return out


def _edition() -> list[str]:
    """The table rules of this edition and the measured balance."""
    out: list[str] = []
    add = out.append
    add("\n## Table rules of this edition\n")
    add(
        "Everything above beyond the rulebook (the map, the action spaces and all tiles) is "
        "this edition's choice. How this edition plays the rules, each labelled by its source: "
        "*seed* (the rulebook text this edition follows), *this edition* (our decision where "
        "the rulebook is silent; an entry mixing sources takes this label):\n"
    )
    for source, rule in data.TABLE_RULES:
        add(f"- *({source})* {rule}")
    add("")
    add("### Balance (measured)\n")
    if data.BALANCE_TABLE:
        add("| players | variant | rule player wins | random moves win |")
        add("|---|---|---|---|")
        for row in data.BALANCE_TABLE:
            add(f"| {' | '.join(row)} |")
        add("")
        add(data.BALANCE_NOTE)
        if data.STRONG_BALANCE:
            add("")
            add(
                "The strong computer player on every seat (0.6 s a decision, normal setup; "
                "a game takes one to two minutes):\n"
            )
            add("| players | team wins | games |")
            add("|---|---|---|")
            for strong in data.STRONG_BALANCE:
                add(f"| {' | '.join(strong)} |")
            add("")
            add(data.STRONG_NOTE)
    else:
        add("Not measured yet.")
    return out
