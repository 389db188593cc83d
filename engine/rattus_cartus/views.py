"""What each seat may see (views), hidden-information resampling, invariants and evaluation."""

from __future__ import annotations

import math
from typing import Any

from ..core.protocol import PUBLIC, Game
from . import scoring
from .data import (
    BUILDING_CARDS_IN_GAME,
    CARD_CLASS,
    CARD_NUNS,
    CLASS_NAMES,
    CLASSES,
    COMMIT_KINDS,
    HAND_KINDS,
    KIND_NAMES,
    NUN_ROW_SIZE,
    POPULATION_CARDS,
    SUPPLY_TOTALS,
    building_of,
    rat_tokens,
    supply_of,
)
from .state import Player, RattusState, hand_counts

HAND_FIELDS = {"pass": "passes", "joker": "jokers", "sword": "swords", "flute": "flutes"}
AVERAGE_NUNS = sum(CARD_NUNS) / POPULATION_CARDS  # 2.0 with this edition's cards


def _card(card: int) -> dict[str, Any]:
    return {"class": CLASSES[CARD_CLASS[card]], "nuns": CARD_NUNS[card]}


def _committed(p: Player) -> dict[str, int]:
    out = {k: 0 for k in COMMIT_KINDS}
    for c in p.c_pop:
        out[CLASSES[CARD_CLASS[c]]] += 1
    out["joker"] = p.c_jokers
    out["sword"] = p.c_swords
    out["flute"] = p.c_flutes
    return {k: v for k, v in out.items() if v}


def _shown(kinds: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in kinds:
        out[k] = out.get(k, 0) + 1
    return out


def view(s: RattusState, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may see (None: everything). Nothing of other seats' hidden things.

    Hidden from other seats: hand contents, committed cards until revealed, rat totals
    (only the number of rat tokens shows), and the Nun-row cards the seat has not looked at.
    At the end the Nun-row and all rat totals are revealed.
    """
    over = s.phase == "over"
    omni = seat is None
    n = len(s.players)
    queue_head = s.queue[0] if s.queue else None
    players = []
    for i, p in enumerate(s.players):
        cards_here = len(p.shown) if p.revealed else p.committed()
        d: dict[str, Any] = {
            "seat": i,
            "name": s.names[i],
            "hand": p.hand_size(),
            "rat_tokens": len(rat_tokens(p.rats)),
            "gold": p.gold,
            "vp_tokens": p.vp,
            "track": list(p.track),
            "entered": p.entered + 1,  # row position, 0 = not yet
            "cards_in_building": cards_here,
            "revealed": _shown(p.shown) if p.revealed else None,
            "passed": p.passed,
            "seen": [pos + 1 for pos in p.seen],
            "influence_this_round": p.gained,
            "start_player": i == s.start,
        }
        if omni or over or i == seat:
            d["rats"] = p.rats
        if omni or i == seat:
            d["hand_cards"] = {k: c for k, c in zip(HAND_KINDS, hand_counts(p), strict=True) if c}
            d["committed_cards"] = _committed(p)
        players.append(d)
    row = []
    for i, card in enumerate(s.row):
        b = building_of(card)
        discs = []
        for space, o in enumerate(s.discs[i]):
            q = s.players[o]
            discs.append(
                {
                    "seat": o,
                    "space": space + 1,
                    "cards": len(q.shown) if q.revealed else q.committed(),
                    "revealed": _shown(q.shown) if q.revealed else None,
                }
            )
        row.append(
            {
                "pos": i + 1,
                "key": b.key,
                "name": b.name,
                "class": b.cls,
                "supply": supply_of(card).text(),
                "supply_parts": [supply_of(card).draw, supply_of(card).rats, supply_of(card).look],
                "premium": b.premium_text,
                "standard": b.standard_text,
                "discs": discs,
            }
        )
    nun_row = []
    for pos, card in enumerate(s.nun_row):
        known = omni or over or (seat not in (None, PUBLIC) and pos in s.players[seat].seen)
        nun_row.append(
            {
                "pos": pos + 1,
                "seen_by": [i for i, p in enumerate(s.players) if pos in p.seen],
                "card": _card(card) if known else None,
            }
        )
    disc_classes = {c: 0 for c in CLASSES}
    disc_nuns = [0] * 5
    for c in s.discard:
        disc_classes[CLASSES[CARD_CLASS[c]]] += 1
        disc_nuns[CARD_NUNS[c]] += 1
    out: dict[str, Any] = {
        "game": "rattus-cartus",
        "viewer": seat,
        "names": list(s.names),
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "start": s.start,
        "to_move": queue_head.seat if queue_head is not None else None,
        "classes": [[c, CLASS_NAMES[c]] for c in CLASSES],
        "players": players,
        "row": row,
        "nun_row": nun_row,
        "supply": dict(s.supply),
        "deck": len(s.deck),
        "discard": len(s.discard),
        "discard_by_class": disc_classes,
        "discard_by_nuns": disc_nuns,
        "building_deck": len(s.bdeck),
        "replacement_deck": len(s.replacement),
        "buildings_in_game": list(s.buildings),
        "options": dict(s.options),
    }
    if seat not in (None, PUBLIC):
        p = s.players[seat]
        nuns_seen = [CARD_NUNS[s.nun_row[pos]] for pos in p.seen]
        out["you"] = {
            "seat": seat,
            "hand": {k: c for k, c in zip(HAND_KINDS, hand_counts(p), strict=True) if c},
            "cards": sorted((_card(c) for c in p.pop), key=lambda d: (d["class"], -d["nuns"])),
            "rats": p.rats,
            "rat_token_values": rat_tokens(p.rats),
            "committed": _committed(p),
            "nuns_seen": sum(nuns_seen),
            "nun_cards_seen": len(nuns_seen),
        }
    if over:
        sc = scoring.compute(s, True)
        out["final"] = {
            "nuns": sc.nuns,
            "rats": [p.rats for p in s.players],
            "dead": sc.dead,
            "scores": sc.totals,
        }
    else:
        out["final"] = None
    out["kind_names"] = dict(KIND_NAMES)
    out["n"] = n
    return out


def invariants(s: RattusState) -> list[str]:
    """Conservation and non-negativity: 84 population cards, supplies, buildings, discs."""
    bad: list[str] = []
    cards = list(s.deck) + list(s.discard) + list(s.nun_row)
    for p in s.players:
        cards += p.pop
        cards += p.c_pop
    if sorted(cards) != list(range(POPULATION_CARDS)):
        bad.append(
            f"population cards not conserved: {len(cards)} cards, {len(set(cards))} distinct"
        )
    if len(s.nun_row) != NUN_ROW_SIZE:
        bad.append(f"Nun-row has {len(s.nun_row)} cards")
    held = {
        "joker": sum(p.jokers + p.c_jokers for p in s.players),
        "sword": sum(p.swords + p.c_swords for p in s.players),
        "flute": sum(p.flutes + p.c_flutes for p in s.players),
        "pass": sum(p.passes for p in s.players),
        "gold": sum(p.gold for p in s.players),
        "vp": sum(p.vp for p in s.players),
    }
    for kind, total in SUPPLY_TOTALS.items():
        if s.supply.get(kind, -1) < 0:
            bad.append(f"negative {kind} supply")
        if s.supply.get(kind, 0) + held[kind] != total:
            bad.append(f"{kind}: supply {s.supply.get(kind)} + held {held[kind]} != {total}")
    for i, p in enumerate(s.players):
        for fld in ("jokers", "swords", "flutes", "passes", "gold", "vp", "rats",
                    "c_jokers", "c_swords", "c_flutes", "gained"):  # fmt: skip
            if getattr(p, fld) < 0:
                bad.append(f"seat {i}: negative {fld}")
        if any(v < 0 for v in p.track) or len(p.track) != len(CLASSES):
            bad.append(f"seat {i}: bad track {p.track}")
        if len(set(p.seen)) != len(p.seen) or any(not 0 <= x < NUN_ROW_SIZE for x in p.seen):
            bad.append(f"seat {i}: bad seen list {p.seen}")
        if p.committed() and p.entered < 0:
            bad.append(f"seat {i}: cards committed without entering")
    buildings = len(s.bdeck) + len(s.replacement) + len(s.row) + len(s.bout)
    if buildings != BUILDING_CARDS_IN_GAME:
        bad.append(f"{buildings} building cards instead of {BUILDING_CARDS_IN_GAME}")
    entered = [o for d in s.discs for o in d]
    if len(entered) != len(set(entered)):
        bad.append(f"a seat entered twice: {s.discs}")
    for i, d in enumerate(s.discs):
        for o in d:
            if s.players[o].entered != i:
                bad.append(f"seat {o}: disc in row {i} but entered {s.players[o].entered}")
    if not 1 <= s.round <= s.rounds:
        bad.append(f"round {s.round} of {s.rounds}")
    if s.phase == "over" and s.queue:
        bad.append("game over with pending tasks")
    if s.phase != "over" and not s.queue:
        bad.append("no pending task while playing")
    return bad


def determinize(game: Game, s: RattusState, seat: int, rng: Any) -> RattusState:
    """A copy whose hidden parts (for `seat`) are resampled with `rng`.

    Reads only what `seat` sees: its own hand, commits and rats, the Nun-row cards it looked
    at, the public counts (hand sizes, committed counts, supplies, rat tokens) and revealed
    cards. All unseen population cards and the others' unseen special cards are pooled,
    sorted, shuffled with `rng` and dealt back into slots of the public sizes.
    """
    new: RattusState = game.clone(s)
    me = new.players[seat]
    others = [i for i in range(len(new.players)) if i != seat]
    hidden_commits = [o for o in others if not new.players[o].revealed]
    unseen = [pos for pos in range(NUN_ROW_SIZE) if pos not in me.seen]
    pop_pool = list(new.deck) + [new.nun_row[pos] for pos in unseen]
    specials: list[str] = []
    slots: list[tuple[int, int]] = []  # (owner, 0 = hand / 1 = commit), one per hidden card
    for o in others:
        p = new.players[o]
        pop_pool += p.pop
        specials += ["pass"] * p.passes + ["joker"] * p.jokers
        specials += ["sword"] * p.swords + ["flute"] * p.flutes
        slots += [(o, 0)] * p.hand_size()
        p.pop, p.passes, p.jokers, p.swords, p.flutes = [], 0, 0, 0, 0
    for o in hidden_commits:
        p = new.players[o]
        pop_pool += p.c_pop
        specials += ["joker"] * p.c_jokers + ["sword"] * p.c_swords + ["flute"] * p.c_flutes
        slots += [(o, 1)] * p.committed()
        p.c_pop, p.c_jokers, p.c_swords, p.c_flutes = [], 0, 0, 0
    pop_pool.sort()
    specials.sort()
    rng.shuffle(pop_pool)
    rng.shuffle(specials)
    order = list(range(len(slots)))
    rng.shuffle(order)
    # Passes can only be in hands: place them first, then the other special cards anywhere.
    passes = [x for x in specials if x == "pass"]
    rest = [x for x in specials if x != "pass"]
    filled: dict[int, str] = {}
    free = [j for j in order if slots[j][1] == 0]
    for token in passes:
        filled[free.pop()] = token
    remaining = [j for j in order if j not in filled]
    for token in rest:
        filled[remaining.pop()] = token
    for j, (o, where) in enumerate(slots):
        p = new.players[o]
        item = filled.get(j)
        if item is None:
            card = pop_pool.pop()
            (p.pop if where == 0 else p.c_pop).append(card)
        elif where == 0:
            fld = HAND_FIELDS[item]
            setattr(p, fld, getattr(p, fld) + 1)
        elif item == "joker":
            p.c_jokers += 1
        elif item == "sword":
            p.c_swords += 1
        else:
            p.c_flutes += 1
    for pos in unseen:
        new.nun_row[pos] = pop_pool.pop()
    new.deck = pop_pool
    # Rat totals of the others: only the token count is visible; pick a total that makes
    # as many tokens.
    for o in others:
        tokens = len(rat_tokens(new.players[o].rats))
        candidates = [r for r in range(5 * tokens + 5) if len(rat_tokens(r)) == tokens]
        new.players[o].rats = candidates[rng.randrange(len(candidates))]
    new.seed = rng.randrange(2**31)
    return new


def evaluate(s: RattusState, seat: int) -> float:
    """Heuristic value for `seat`: public points now, plus hand value, minus the plague risk."""
    over = s.phase == "over"
    sc = scoring.compute(s, over)
    value = float(sc.totals[seat])
    if over:
        if sc.dead[seat]:
            return value - 100.0
        best_other = max((t for i, t in enumerate(sc.totals) if i != seat), default=0)
        return value + (0.5 if value > best_other else 0.0)
    p = s.players[seat]
    value += 0.4 * (len(p.pop) + p.jokers) + 0.3 * (p.swords + p.flutes + p.passes)
    # Influence not (yet) in a paying place still counts a little.
    value += 0.2 * sum(p.track)
    rats = p.rats
    if not p.revealed and p.entered >= 0 and p.entered < len(s.row):
        # Cards face down: the influence (and rats) they will bring when revealed.
        own = CLASSES.index(building_of(s.row[p.entered]).cls)
        value += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
        rats += sum(1 for c in p.c_pop if CARD_CLASS[c] != own)
    seen = sum(CARD_NUNS[s.nun_row[pos]] for pos in p.seen)
    expected = seen + AVERAGE_NUNS * (NUN_ROW_SIZE - len(p.seen))
    margin = expected - rats
    value -= 25.0 / (1.0 + math.exp(margin))
    return value
