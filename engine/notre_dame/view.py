"""What each seat may see, the score, the invariants and the resampling of hidden cards."""

from __future__ import annotations

import random
from typing import Any

from ..core.protocol import PUBLIC, Game, Result, ScoreLine
from . import data as D
from .queries import count, park_bonus, plague_value, rat_after_plague
from .state import DRAFT, OVER, NotreDameState

_CPC = D.CARDS_PER_COLOUR


def _card(code: int) -> str:
    return D.CARDS[code % _CPC]


def _period(st: NotreDameState) -> str:
    return D.PERIOD_LETTERS[(st.round - 1) // D.ROUNDS_PER_PERIOD]


# ---- view ---------------------------------------------------------------------------------
def view(game: Game, st: NotreDameState, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may see (None: an omniscient observer) as plain data."""
    over = st.phase == OVER
    scores_visible = seat is None or over or st.open_scores
    prompt = game.prompt(st)
    players = []
    for s in range(st.n):
        f = st.friend[s]
        sees_prestige = scores_visible or seat == s
        after, overflow = rat_after_plague(st, s)
        players.append(
            {
                "seat": s,
                "name": st.names[s],
                "colour": D.COLOURS[s],
                "borough": st.home[s],
                "bell_ringer": s == st.start,
                "gold": st.gold[s],
                "supply": st.supply[s],
                "general": st.general[s],
                "sectors": {D.SECTORS[k]: st.sectors[s][k] for k in range(len(D.SECTORS))},
                "friend": D.LOCATIONS[f] if f >= 0 else None,
                "notre_dame": st.nd[s],
                "rat": st.rat[s],
                "rat_after_plague": after,
                "overflow_threat": overflow,
                "hospital": count(st, s, D.HOSPITAL),
                "park_bonus": park_bonus(st, s),
                "carriage": D.node_key(st.carriage[s]),
                "messages": {
                    D.COLOURS[c]: st.msgs[s][c] for c in range(len(D.COLOURS)) if st.msgs[s][c]
                },
                "messages_total": sum(st.msgs[s]),
                "prestige": st.prestige[s] if sees_prestige else None,
                "prestige_sources": dict(st.sources[s]) if sees_prestige else None,
                "cards_held": len(st.hands[s]) + len(st.drawn[s]) + len(st.incoming[s]),
                "deck": len(st.decks[s]),
                "played": [_card(c) for c in st.played[s]],
                "hired": st.hired[s] or None,
                "doctor": st.doctor[s],
            }
        )
    market = []
    for node, code in enumerate(st.board_msg):
        b, k = divmod(node, D.NODES_PER_BOROUGH)
        entry: dict[str, Any] = {
            "key": D.node_key(node),
            "borough": b,
            "place": D.NODE_LABELS[k],
            "message": D.COLOURS[code // 4] if code >= 0 else None,
            "carriages": [s for s in range(st.n) if st.carriage[s] == node],
        }
        if st.published and code >= 0:
            entry["reward"] = D.REWARDS[code % 4].text
        market.append(entry)
    nd_counts = [count(st, s, D.NOTRE_DAME) for s in range(st.n)]
    gray_next = D.PERSON_BY_KEY[st.gray_deck[-1]].deck if st.gray_deck else None
    out: dict[str, Any] = {
        "game": "notre-dame",
        "names": list(st.names),
        "players_count": st.n,
        "rules": "published" if st.published else "standard",
        "scores": "open" if st.open_scores else "hidden",
        "round": st.round,
        "rounds": D.ROUNDS,
        "period": _period(st),
        "phase": st.phase,
        "draft_step": st.draft_step,
        "lap": st.lap,
        "over": over,
        "bell_ringer": st.start,
        "to_move": prompt.seat if prompt else None,
        "decision": prompt.text if prompt else None,
        "viewer": seat,
        "bank": st.bank,
        "persons": [
            {
                "key": k,
                "name": D.PERSON_BY_KEY[k].name,
                "deck": D.PERSON_BY_KEY[k].deck,
                "rats": D.PERSON_BY_KEY[k].rats,
                "text": D.PERSON_BY_KEY[k].text,
            }
            for k in st.persons
        ],
        "plague_value": plague_value(st),
        "brown_left": len(st.brown_deck),
        "gray_left": len(st.gray_deck),
        "gray_next": gray_next,
        "boroughs": [
            {
                "index": b,
                "seat": st.boroughs[b] if st.boroughs[b] >= 0 else None,
                "colour": D.COLOURS[st.borough_colour[b]],
            }
            for b in range(len(st.boroughs))
        ],
        "market": market,
        "notre_dame": {
            "pool": D.ND_POOL[st.n],
            "markers": nd_counts,
            "total": sum(nd_counts),
            "friends": [s for s in range(st.n) if st.friend[s] == D.NOTRE_DAME],
        },
        "players": players,
        "played_this_period": [_card(c) for c in st.discard],
    }
    if seat is None:
        out["hands"] = [_private(st, s) for s in range(st.n)]
    elif seat != PUBLIC:
        out["you"] = _private(st, seat)
    return out


def _private(st: NotreDameState, s: int) -> dict[str, Any]:
    """What seat `s` alone knows: its cards, the cards it passed left this round (the two of
    the first draft step, then the one of the second), its unplayed third cards."""
    return {
        "seat": s,
        "hand": [_card(c) for c in st.hands[s]],
        "choose": [_card(c) for c in st.drawn[s]] if st.phase == DRAFT else [],
        "passed": [_card(c) for c in st.passed1[s]],
        "passed_on": [_card(c) for c in st.passed2[s]],
        "thirds": [_card(c) for c in st.thirds[s]],
    }


# ---- result ------------------------------------------------------------------------------
def tiebreak(st: NotreDameState, s: int) -> int:
    """Gold + personal supply markers: the first tie-break."""
    return st.gold[s] + st.supply[s]


def result(st: NotreDameState) -> Result:
    """Most prestige; tie: most gold + supply markers; still tied: a shared win."""
    keys = [(st.prestige[s], tiebreak(st, s)) for s in range(st.n)]
    best = max(keys)
    winners = [s for s in range(st.n) if keys[s] == best]
    lines = []
    for s in range(st.n):
        breakdown: list[tuple[str, float | str]] = [
            (label, float(st.sources[s][key]))
            for key, label in D.SOURCE_LABELS.items()
            if st.sources[s].get(key)
        ]
        breakdown.append(("Tie-break: gold + supply markers", str(tiebreak(st, s))))
        rank = 1 + sum(1 for k in keys if k > keys[s])
        note = "tie-break" if any(k[0] == keys[s][0] and k != keys[s] for k in keys) else ""
        lines.append(ScoreLine(s, float(st.prestige[s]), breakdown, rank, note))
    names = [st.names[s] for s in winners]
    if len(winners) == 1:
        w = winners[0]
        summary = f"{names[0]} wins with {st.prestige[w]} prestige"
        if sum(1 for k in keys if k[0] == best[0]) > 1:
            summary += f" (tie-break: {tiebreak(st, w)} gold + supply)"
    else:
        summary = f"{' and '.join(names)} share the win with {best[0]} prestige"
    if st.phase != OVER:
        summary = "Provisional: " + summary
    return Result(winners, lines, summary)


# ---- invariants --------------------------------------------------------------------------
def invariants(st: NotreDameState) -> list[str]:
    """Conservation and range checks: markers, gold, cards, messages, prestige."""
    errs: list[str] = []
    n = st.n
    for s in range(n):
        who = st.names[s]
        for label, v in (
            ("gold", st.gold[s]),
            ("prestige", st.prestige[s]),
            ("supply", st.supply[s]),
            ("general supply", st.general[s]),
            ("Notre Dame markers", st.nd[s]),
            ("rat", st.rat[s]),
        ):
            if v < 0:
                errs.append(f"{who}: negative {label} {v}")
        if min(st.sectors[s]) < 0:
            errs.append(f"{who}: negative sector count {st.sectors[s]}")
        if st.rat[s] > D.PLAGUE_MAX:
            errs.append(f"{who}: rat beyond {D.PLAGUE_MAX}")
        markers = st.supply[s] + st.general[s] + sum(st.sectors[s]) + st.nd[s]
        if markers != D.MARKERS_PER_COLOUR:
            errs.append(f"{who}: {markers} markers, not {D.MARKERS_PER_COLOUR}")
        if not D.PLAY_AREA <= st.friend[s] <= D.NOTRE_DAME:
            errs.append(f"{who}: friend at {st.friend[s]}")
        if st.published and st.friend[s] == D.NOTRE_DAME:
            errs.append(f"{who}: friend in Notre Dame under the published rules")
        if st.prestige[s] != sum(st.sources[s].values()):
            errs.append(f"{who}: prestige {st.prestige[s]} != sources {st.sources[s]}")
        if min(st.msgs[s]) < 0:
            errs.append(f"{who}: negative messages")
    if st.bank < 0:
        errs.append(f"bank negative {st.bank}")
    gold = st.bank + sum(st.gold)
    if gold != D.GOLD_COINS:
        errs.append(f"gold {gold} != {D.GOLD_COINS}")
    for colour in set(st.borough_colour):
        total = sum(1 for m in st.board_msg if m >= 0 and m // 4 == colour)
        total += sum(st.msgs[s][colour] for s in range(n))
        if total != D.MESSAGES_PER_COLOUR:
            errs.append(f"{D.COLOURS[colour]}: {total} messages")
    cards: list[int] = list(st.discard)
    for s in range(n):
        cards += st.decks[s] + st.drawn[s] + st.hands[s] + st.incoming[s] + st.thirds[s]
    if sorted(cards) != list(range(n * _CPC)):
        errs.append("action cards lost or duplicated")
    for s in range(n):
        if any(c // _CPC != s for c in st.decks[s]):
            errs.append(f"{st.names[s]}'s deck holds another colour")
    if not 1 <= st.round <= D.ROUNDS:
        errs.append(f"round {st.round}")
    if st.phase != OVER and len(st.persons) != D.BROWN_PER_ROUND + D.GRAY_PER_ROUND:
        errs.append(f"{len(st.persons)} persons face up")
    return errs


# ---- determinize -------------------------------------------------------------------------
def determinize(game: Game, st: NotreDameState, seat: int, rng: random.Random) -> NotreDameState:
    """A clone whose cards unseen by `seat` (and the person decks) are resampled with `rng`.

    Card backs show their owner, so unseen cards are pooled per owner. What `seat` passed is
    kept consistent: the card passed on in the second draft step stays where it is; the two
    passed in the first step are only swapped between the places they can be.
    """
    new = game.clone(st)
    s = seat
    fixed = set(st.passed2[s])
    pair = set(st.passed1[s])
    groups: dict[tuple[str, int], list[tuple[list[int], int]]] = {}

    def put(key: tuple[str, int], cont: list[int], i: int) -> None:
        groups.setdefault(key, []).append((cont, i))

    for o in range(new.n):
        conts = [new.incoming[o]]
        if o != s:
            conts += [new.drawn[o], new.hands[o], new.thirds[o]]
        for cont in conts:
            for i, c in enumerate(cont):
                if c in fixed:
                    continue
                put(("pair", 0) if c in pair else ("owner", c // _CPC), cont, i)
        deck_key = ("deck", s) if o == s else ("owner", o)
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
    for letter in D.PERIOD_LETTERS:
        idx = [i for i, k in enumerate(new.gray_deck) if D.PERSON_BY_KEY[k].deck == letter]
        keys = sorted(new.gray_deck[i] for i in idx)
        rng.shuffle(keys)
        for i, k in zip(idx, keys, strict=True):
            new.gray_deck[i] = k
    new.seed = rng.randrange(2**31)
    return new


# ---- evaluate ----------------------------------------------------------------------------
def evaluate(game: Game, st: NotreDameState, seat: int, depth: int = 0) -> float:
    """Prestige plus a rough value of resources, position and threats (for the greedy bot).

    When `seat` is in the middle of a multi-part action (a donation, a carriage destination,
    a hotel bonus...), the value is that of its best way to finish it, so that starting the
    action is not worth the same as playing the card without effect.
    """
    if st.pending and st.pending[-1]["s"] == seat and depth < 4:
        prompt = game.prompt(st)
        if prompt is not None:
            best = float("-inf")
            for move in prompt.moves:
                after = game.clone(st)
                game.play(after, move)
                best = max(best, evaluate(game, after, seat, depth + 1))
            return best
    s = seat
    left = 0 if st.phase == OVER else D.ROUNDS - st.round + 1
    value = float(st.prestige[s])
    value += 0.5 * st.gold[s] + 0.6 * st.supply[s] + 0.1 * st.general[s]
    # markers keep paying: the park on every gain, the hospital against every plague
    value += 0.15 * left * (count(st, s, D.PARK) // D.PARK_MARKERS_PER_BONUS)
    value += 0.3 * left * min(count(st, s, D.HOSPITAL), 4)
    value += 0.1 * left * sum(st.sectors[s])
    value += 0.3 * sum(st.msgs[s])
    # cards in hand: two of three get played, so each counts for two thirds of its worth
    value += sum(_card_value(st, s, c % _CPC, left) for c in st.hands[s]) * 2 / 3
    total = sum(count(st, o, D.NOTRE_DAME) for o in range(st.n))
    if total:
        value += D.ND_POOL[st.n] // total * count(st, s, D.NOTRE_DAME)
    if st.phase != OVER:
        after, over = rat_after_plague(st, s)
        value -= 0.5 * after * min(left, 3) / 3 + (3.0 if over else 0.0)
    return value


def _card_value(st: NotreDameState, s: int, t: int, left: int) -> float:
    """A rough worth of playing action card `t` now (for `evaluate`)."""
    if t == D.FRIEND:
        return 1.5
    if t != D.NOTRE_DAME and not st.supply[s]:
        return 0.3
    n = count(st, s, t) + 1 if t != D.NOTRE_DAME else 0
    if t == D.CLOISTER:
        return 0.6 * min(n, st.general[s])
    if t == D.BANK:
        return 0.5 * n
    if t == D.RESIDENCE:
        return n + park_bonus(st, s)
    if t == D.HOTEL:
        return 0.7 * (2 if n >= D.HOTEL_TWO_BONUSES["published" if st.published else "seed"] else 1)
    if t == D.PARK:
        return 0.5 + 0.15 * left * (n % 2 == 0)
    if t == D.HOSPITAL:
        return 0.5 + 0.3 * left
    if t == D.NOTRE_DAME:
        return 1.5 if st.gold[s] else 0.0
    return 1.5  # carriage: a message is worth a few prestige
