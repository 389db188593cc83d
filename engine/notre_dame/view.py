"""What each seat may see, the score, the invariants and the resampling of hidden cards."""

from __future__ import annotations

import random
from typing import Any

from ..core.protocol import PUBLIC, Game, Result, ScoreLine
from . import data
from .queries import count, park_bonus, plague_value, rat_after_plague
from .state import DRAFT, OVER, NotreDameState

_CPC = data.CARDS_PER_COLOUR


def _card(code: int) -> str:
    return data.CARDS[code % _CPC]


def _period(s: NotreDameState) -> str:
    return data.PERIOD_LETTERS[(s.round - 1) // data.ROUNDS_PER_PERIOD]


# ---- view ---------------------------------------------------------------------------------
def view(game: Game, s: NotreDameState, viewer: int | None) -> dict[str, Any]:
    """Everything `viewer` may see (None: an omniscient observer) as plain data."""
    over = s.phase == OVER
    scores_visible = viewer is None or over or s.open_scores
    prompt = game.prompt(s)
    players = []
    for seat in range(s.n):
        f = s.friend[seat]
        sees_prestige = scores_visible or viewer == seat
        after, overflow = rat_after_plague(s, seat)
        players.append(
            {
                "seat": seat,
                "name": s.names[seat],
                "colour": data.COLOURS[seat],
                "borough": s.home[seat],
                "bell_ringer": seat == s.start,
                "gold": s.gold[seat],
                "supply": s.supply[seat],
                "general": s.general[seat],
                "sectors": {data.SECTORS[k]: s.sectors[seat][k] for k in range(len(data.SECTORS))},
                "friend": data.LOCATIONS[f] if f >= 0 else None,
                "notre_dame": s.nd[seat],
                "rat": s.rat[seat],
                "rat_after_plague": after,
                "overflow_threat": overflow,
                "hospital": count(s, seat, data.HOSPITAL),
                "park_bonus": park_bonus(s, seat),
                "carriage": data.node_key(s.carriage[seat]),
                "messages": {
                    data.COLOURS[c]: s.msgs[seat][c]
                    for c in range(len(data.COLOURS))
                    if s.msgs[seat][c]
                },
                "messages_total": sum(s.msgs[seat]),
                "prestige": s.prestige[seat] if sees_prestige else None,
                "prestige_sources": dict(s.sources[seat]) if sees_prestige else None,
                "cards_held": len(s.hands[seat]) + len(s.drawn[seat]) + len(s.incoming[seat]),
                "deck": len(s.decks[seat]),
                "played": [_card(c) for c in s.played[seat]],
                "hired": s.hired[seat] or None,
                "doctor": s.doctor[seat],
            }
        )
    market = []
    for node, code in enumerate(s.board_msg):
        b, k = divmod(node, data.NODES_PER_BOROUGH)
        entry: dict[str, Any] = {
            "key": data.node_key(node),
            "borough": b,
            "place": data.NODE_LABELS[k],
            "message": data.COLOURS[code // 4] if code >= 0 else None,
            "carriages": [seat for seat in range(s.n) if s.carriage[seat] == node],
        }
        if s.published and code >= 0:
            entry["reward"] = data.REWARDS[code % 4].text
        market.append(entry)
    nd_counts = [count(s, seat, data.NOTRE_DAME) for seat in range(s.n)]
    gray_next = data.PERSON_BY_KEY[s.gray_deck[-1]].deck if s.gray_deck else None
    out: dict[str, Any] = {
        "game": "notre-dame",
        "names": list(s.names),
        "players_count": s.n,
        "rules": "published" if s.published else "standard",
        "scores": "open" if s.open_scores else "hidden",
        "round": s.round,
        "rounds": data.ROUNDS,
        "period": _period(s),
        "phase": s.phase,
        "draft_step": s.draft_step,
        "lap": s.lap,
        "over": over,
        "bell_ringer": s.start,
        "to_move": prompt.seat if prompt else None,
        "decision": prompt.text if prompt else None,
        "viewer": viewer,
        "bank": s.bank,
        "persons": [
            {
                "key": k,
                "name": data.PERSON_BY_KEY[k].name,
                "deck": data.PERSON_BY_KEY[k].deck,
                "rats": data.PERSON_BY_KEY[k].rats,
                "text": data.PERSON_BY_KEY[k].text,
            }
            for k in s.persons
        ],
        "plague_value": plague_value(s),
        "brown_left": len(s.brown_deck),
        "gray_left": len(s.gray_deck),
        "gray_next": gray_next,
        "boroughs": [
            {
                "index": b,
                "seat": s.boroughs[b] if s.boroughs[b] >= 0 else None,
                "colour": data.COLOURS[s.borough_colour[b]],
            }
            for b in range(len(s.boroughs))
        ],
        "market": market,
        "notre_dame": {
            "pool": data.ND_POOL[s.n],
            "markers": nd_counts,
            "total": sum(nd_counts),
            "friends": [seat for seat in range(s.n) if s.friend[seat] == data.NOTRE_DAME],
        },
        "players": players,
        "played_this_period": [_card(c) for c in s.discard],
    }
    if viewer is None:
        out["hands"] = [_private(s, seat) for seat in range(s.n)]
    elif viewer != PUBLIC:
        out["you"] = _private(s, viewer)
    return out


def _private(s: NotreDameState, seat: int) -> dict[str, Any]:
    """What seat `s` alone knows: its cards, the cards it passed left this round (the two of
    the first draft step, then the one of the second), its unplayed third cards."""
    return {
        "seat": seat,
        "hand": [_card(c) for c in s.hands[seat]],
        "choose": [_card(c) for c in s.drawn[seat]] if s.phase == DRAFT else [],
        "passed": [_card(c) for c in s.passed1[seat]],
        "passed_on": [_card(c) for c in s.passed2[seat]],
        "thirds": [_card(c) for c in s.thirds[seat]],
    }


# ---- result ------------------------------------------------------------------------------
def tiebreak(s: NotreDameState, seat: int) -> int:
    """Gold + personal supply markers: the first tie-break."""
    return s.gold[seat] + s.supply[seat]


def result(s: NotreDameState) -> Result:
    """Most prestige; tie: most gold + supply markers; still tied: a shared win."""
    keys = [(s.prestige[seat], tiebreak(s, seat)) for seat in range(s.n)]
    best = max(keys)
    winners = [seat for seat in range(s.n) if keys[seat] == best]
    lines = []
    for seat in range(s.n):
        breakdown: list[tuple[str, float | str]] = [
            (label, float(s.sources[seat][key]))
            for key, label in data.SOURCE_LABELS.items()
            if s.sources[seat].get(key)
        ]
        breakdown.append(("Tie-break: gold + supply markers", str(tiebreak(s, seat))))
        rank = 1 + sum(1 for k in keys if k > keys[seat])
        note = "tie-break" if any(k[0] == keys[seat][0] and k != keys[seat] for k in keys) else ""
        lines.append(ScoreLine(seat, float(s.prestige[seat]), breakdown, rank, note))
    names = [s.names[seat] for seat in winners]
    if len(winners) == 1:
        w = winners[0]
        summary = f"{names[0]} wins with {s.prestige[w]} prestige"
        if sum(1 for k in keys if k[0] == best[0]) > 1:
            summary += f" (tie-break: {tiebreak(s, w)} gold + supply)"
    else:
        summary = f"{' and '.join(names)} share the win with {best[0]} prestige"
    if s.phase != OVER:
        summary = "Provisional: " + summary
    return Result(winners, lines, summary)


# ---- invariants --------------------------------------------------------------------------
def invariants(s: NotreDameState) -> list[str]:
    """Conservation and range checks: markers, gold, cards, messages, prestige."""
    errs: list[str] = []
    n = s.n
    for seat in range(n):
        who = s.names[seat]
        for label, v in (
            ("gold", s.gold[seat]),
            ("prestige", s.prestige[seat]),
            ("supply", s.supply[seat]),
            ("general supply", s.general[seat]),
            ("Notre Dame markers", s.nd[seat]),
            ("rat", s.rat[seat]),
        ):
            if v < 0:
                errs.append(f"{who}: negative {label} {v}")
        if min(s.sectors[seat]) < 0:
            errs.append(f"{who}: negative sector count {s.sectors[seat]}")
        if s.rat[seat] > data.PLAGUE_MAX:
            errs.append(f"{who}: rat beyond {data.PLAGUE_MAX}")
        markers = s.supply[seat] + s.general[seat] + sum(s.sectors[seat]) + s.nd[seat]
        if markers != data.MARKERS_PER_COLOUR:
            errs.append(f"{who}: {markers} markers, not {data.MARKERS_PER_COLOUR}")
        if not data.PLAY_AREA <= s.friend[seat] <= data.NOTRE_DAME:
            errs.append(f"{who}: friend at {s.friend[seat]}")
        if s.published and s.friend[seat] == data.NOTRE_DAME:
            errs.append(f"{who}: friend in Notre Dame under the published rules")
        if s.prestige[seat] != sum(s.sources[seat].values()):
            errs.append(f"{who}: prestige {s.prestige[seat]} != sources {s.sources[seat]}")
        if min(s.msgs[seat]) < 0:
            errs.append(f"{who}: negative messages")
    if s.bank < 0:
        errs.append(f"bank negative {s.bank}")
    gold = s.bank + sum(s.gold)
    if gold != data.GOLD_COINS:
        errs.append(f"gold {gold} != {data.GOLD_COINS}")
    for colour in set(s.borough_colour):
        total = sum(1 for m in s.board_msg if m >= 0 and m // 4 == colour)
        total += sum(s.msgs[seat][colour] for seat in range(n))
        if total != data.MESSAGES_PER_COLOUR:
            errs.append(f"{data.COLOURS[colour]}: {total} messages")
    cards: list[int] = list(s.discard)
    for seat in range(n):
        cards += s.decks[seat] + s.drawn[seat] + s.hands[seat] + s.incoming[seat] + s.thirds[seat]
    if sorted(cards) != list(range(n * _CPC)):
        errs.append("action cards lost or duplicated")
    for seat in range(n):
        if any(c // _CPC != seat for c in s.decks[seat]):
            errs.append(f"{s.names[seat]}'s deck holds another colour")
    if not 1 <= s.round <= data.ROUNDS:
        errs.append(f"round {s.round}")
    if s.phase != OVER and len(s.persons) != data.BROWN_PER_ROUND + data.GRAY_PER_ROUND:
        errs.append(f"{len(s.persons)} persons face up")
    return errs


# ---- determinize -------------------------------------------------------------------------
def determinize(game: Game, s: NotreDameState, seat: int, rng: random.Random) -> NotreDameState:
    """A clone whose cards unseen by `seat` (and the person decks) are resampled with `rng`.

    Card backs show their owner, so unseen cards are pooled per owner. What `seat` passed is
    kept consistent: the card passed on in the second draft step stays where it is; the two
    passed in the first step are only swapped between the places they can be.
    """
    new = game.clone(s)
    fixed = set(s.passed2[seat])
    pair = set(s.passed1[seat])
    groups: dict[tuple[str, int], list[tuple[list[int], int]]] = {}

    def put(key: tuple[str, int], cont: list[int], i: int) -> None:
        groups.setdefault(key, []).append((cont, i))

    for o in range(new.n):
        conts = [new.incoming[o]]
        if o != seat:
            conts += [new.drawn[o], new.hands[o], new.thirds[o]]
        for cont in conts:
            for i, c in enumerate(cont):
                if c in fixed:
                    continue
                put(("pair", 0) if c in pair else ("owner", c // _CPC), cont, i)
        deck_key = ("deck", seat) if o == seat else ("owner", o)
        for i in range(len(new.decks[o])):
            put(deck_key, new.decks[o], i)
    for key in sorted(groups):
        places = groups[key]
        codes = sorted(cont[i] for cont, i in places)
        rng.shuffle(codes)
        for (cont, i), c in zip(places, codes, strict=True):
            cont[i] = c
    brown = sorted(new.brown_deck)
    rng.shuffle(brown)
    new.brown_deck = brown
    for letter in data.PERIOD_LETTERS:
        idx = [i for i, k in enumerate(new.gray_deck) if data.PERSON_BY_KEY[k].deck == letter]
        keys = sorted(new.gray_deck[i] for i in idx)
        rng.shuffle(keys)
        for i, k in zip(idx, keys, strict=True):
            new.gray_deck[i] = k
    new.seed = rng.randrange(2**31)
    return new


# ---- evaluate ----------------------------------------------------------------------------
def evaluate(game: Game, s: NotreDameState, seat: int, depth: int = 0) -> float:
    """Prestige plus a rough value of resources, position and threats (for the greedy bot).

    When `seat` is in the middle of a multi-part action (a donation, a carriage destination,
    a hotel bonus...), the value is that of its best way to finish it, so that starting the
    action is not worth the same as playing the card without effect.
    """
    if s.pending and s.pending[-1]["s"] == seat and depth < 4:
        prompt = game.prompt(s)
        if prompt is not None:
            best = float("-inf")
            for move in prompt.moves:
                after = game.clone(s)
                game.play(after, move)
                best = max(best, evaluate(game, after, seat, depth + 1))
            return best
    left = 0 if s.phase == OVER else data.ROUNDS - s.round + 1
    value = float(s.prestige[seat])
    value += 0.5 * s.gold[seat] + 0.6 * s.supply[seat] + 0.1 * s.general[seat]
    # markers keep paying: the park on every gain, the hospital against every plague
    value += 0.15 * left * (count(s, seat, data.PARK) // data.PARK_MARKERS_PER_BONUS)
    value += 0.3 * left * min(count(s, seat, data.HOSPITAL), 4)
    value += 0.1 * left * sum(s.sectors[seat])
    value += 0.3 * sum(s.msgs[seat])
    # cards in hand: two of three get played, so each counts for two thirds of its worth
    value += sum(_card_value(s, seat, c % _CPC, left) for c in s.hands[seat]) * 2 / 3
    total = sum(count(s, o, data.NOTRE_DAME) for o in range(s.n))
    if total:
        value += data.ND_POOL[s.n] // total * count(s, seat, data.NOTRE_DAME)
    if s.phase != OVER:
        after, over = rat_after_plague(s, seat)
        value -= 0.5 * after * min(left, 3) / 3 + (3.0 if over else 0.0)
    return value


def _card_value(s: NotreDameState, seat: int, t: int, left: int) -> float:
    """A rough worth of playing action card `t` now (for `evaluate`)."""
    if t == data.FRIEND:
        return 1.5
    if t != data.NOTRE_DAME and not s.supply[seat]:
        return 0.3
    n = count(s, seat, t) + 1 if t != data.NOTRE_DAME else 0
    if t == data.CLOISTER:
        return 0.6 * min(n, s.general[seat])
    if t == data.BANK:
        return 0.5 * n
    if t == data.RESIDENCE:
        return n + park_bonus(s, seat)
    if t == data.HOTEL:
        return 0.7 * (
            2 if n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"] else 1
        )
    if t == data.PARK:
        return 0.5 + 0.15 * left * (n % 2 == 0)
    if t == data.HOSPITAL:
        return 0.5 + 0.3 * left
    if t == data.NOTRE_DAME:
        return 1.5 if s.gold[seat] else 0.0
    return 1.5  # carriage: a message is worth a few prestige
