"""The rules of Notre Dame: setup, the five phases of a round, the actions and the scoring.

A round is Persons (automatic) → Draft → Actions → Hire → Plague; rounds 3, 6 and 9 end with
the Notre Dame scoring. Simultaneous choices (the draft) are consecutive hidden decisions in
seat order from the bell-ringer. Multi-part actions push sub-decisions on `state.pending`
(a stack of small dicts); the prompt always answers the top of that stack first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import chance
from ..core.protocol import Event, Game, Move, Option, Prompt, Result
from . import data
from . import view as V
from .queries import count, park_bonus, plague_value, rat_after_plague
from .state import ACTIONS, DRAFT, HIRE, OVER, PLAGUE, NotreDameState
from .title import TITLE

SECTOR_RANGE = range(len(data.SECTORS))
PHASE_NAMES = {DRAFT: "Draft", ACTIONS: "Actions", HIRE: "Hire", PLAGUE: "Plague", OVER: "Over"}
ORDINAL = ("1st", "2nd")
_PERSONS = data.PERSON_BY_KEY


# ---- small queries (module functions: they are on the hot path) -------------------------
def sector_counts(s: NotreDameState, seat: int) -> list[int]:
    """Pieces in each of the 7 borough sectors, the friend included."""
    out = list(s.sectors[seat])
    f = s.friend[seat]
    if 0 <= f < data.NOTRE_DAME:
        out[f] += 1
    return out


def colours_on_board(s: NotreDameState) -> set[int]:
    return {m // 4 for m in s.board_msg if m >= 0}


def may_take_message(s: NotreDameState, seat: int, colour: int) -> bool:
    """The set rule: no second message of a colour before one of every colour in play, etc.

    A colour with no message left on the board no longer counts.
    """
    held = s.msgs[seat]
    mine = held[colour]
    return all(held[c] >= mine for c in colours_on_board(s))


def borough_name(s: NotreDameState, b: int) -> str:
    seat = s.boroughs[b]
    if seat >= 0:
        return f"{s.names[seat]}'s borough"
    return f"the empty {data.COLOURS[s.borough_colour[b]]} borough"


def node_label(s: NotreDameState, node: int) -> str:
    b, k = divmod(node, data.NODES_PER_BOROUGH)
    return f"{borough_name(s, b)} {data.NODE_LABELS[k]}"


def message_label(s: NotreDameState, code: int) -> str:
    colour = data.COLOURS[code // 4]
    if s.published:
        return f"{colour} message ({data.REWARDS[code % 4].text})"
    return f"{colour} message"


def _plus(n: int, what: str) -> str:
    """`+2 markers`, `+1 marker`, `+3 gold`."""
    return f"+{n} {what[:-1] if n == 1 and what.endswith('s') else what}"


class NotreDame(Game[NotreDameState]):
    """Notre Dame (Stefan Feld, 2007) for 2-5 players."""

    meta = TITLE
    summary = (
        "Paris, 14th century: draft action cards, place influence in your borough, keep the "
        "rats away and gain the most prestige in 9 rounds."
    )
    options = (
        Option(
            "rules",
            "Rules",
            (("standard", "standard (this edition)"), ("published", "published 2007 rulebook")),
            "standard",
            "Hotel thresholds, message rewards and where the trusted friend may go.",
        ),
        Option(
            "scores",
            "Prestige",
            (("hidden", "hidden until the end"), ("open", "open scores")),
            "hidden",
            "Hidden: each player sees only their own prestige until the game ends.",
        ),
    )

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """As the protocol's; `rules=seed`, the standard rules' name in saves written before
        they were called "standard", is kept as written (the saves' digests include it)."""
        legacy = options.get("rules") == "seed"
        out = super().check_options({**options, "rules": "standard"} if legacy else options)
        if legacy:
            out["rules"] = "seed"
        return out

    # ================================================================== setup ============
    def new_state(
        self, names: Sequence[str], options: Mapping[str, str], seed: int
    ) -> NotreDameState:
        """Setup as the rules say; seat 0 is the first bell-ringer."""
        n = len(names)
        self.check_players(n)
        opts = self.check_options(options)
        s = NotreDameState(names=list(names), seed=seed, options=opts)
        s.n = n
        s.published = opts["rules"] == "published"
        s.open_scores = opts["scores"] == "open"
        layout = data.borough_seats(n)
        s.boroughs = [-1 if x is None else x for x in layout]
        empty = iter(data.TWO_PLAYER_EMPTY_COLOURS)
        s.borough_colour = [next(empty) if x is None else x for x in layout]
        s.home = [layout.index(seat) for seat in range(n)]
        s.gold = [data.START_GOLD] * n
        s.prestige = [0] * n
        s.supply = [data.START_SUPPLY] * n
        s.general = [data.MARKERS_PER_COLOUR - data.START_SUPPLY] * n
        s.sectors = [[0] * len(data.SECTORS) for _ in range(n)]
        s.nd = [0] * n
        s.friend = [data.PLAY_AREA] * n
        s.rat = [0] * n
        s.carriage = [b * data.NODES_PER_BOROUGH for b in s.home]
        s.msgs = [[0] * len(data.COLOURS) for _ in range(n)]
        s.sources = [{} for _ in range(n)]
        s.bank = data.GOLD_COINS - data.START_GOLD * n
        s.board_msg = [-1] * (len(layout) * data.NODES_PER_BOROUGH)
        for b, colour in enumerate(s.borough_colour):
            rewards = list(data.MESSAGE_REWARDS_PER_COLOUR)
            if s.published:  # only then do the messages differ; seed: the taker chooses
                chance.shuffle(s, rewards)
            for k in range(1, 5):
                s.board_msg[b * data.NODES_PER_BOROUGH + k] = colour * 4 + rewards[k - 1]
        s.decks = [self._fresh_deck(s, seat) for seat in range(n)]
        s.thirds = [[] for _ in range(n)]
        s.brown_deck = list(data.BROWN)
        chance.shuffle(s, s.brown_deck)
        s.gray_deck = []
        for letter in reversed(data.PERIOD_LETTERS):  # C at the bottom, A on top (list end)
            stack = list(data.GRAY[letter])
            chance.shuffle(s, stack)
            s.gray_deck.extend(stack)
        header: list[Event] = []
        self._begin_round(s, header)
        s.opening = [e.text for e in header]  # public: persons and plague value
        return s

    def _fresh_deck(self, s: NotreDameState, seat: int) -> list[int]:
        deck = [seat * data.CARDS_PER_COLOUR + t for t in range(data.CARDS_PER_COLOUR)]
        chance.shuffle(s, deck)
        return deck

    def _begin_round(self, s: NotreDameState, ev: list[Event]) -> None:
        """Phase 1 (persons) and the draw of the draft."""
        n = s.n
        s.persons = [s.brown_deck.pop(), s.brown_deck.pop(), s.gray_deck.pop()]
        s.hired = [""] * n
        s.doctor = [False] * n
        s.drawn = [[s.decks[seat].pop() for _ in range(3)] for seat in range(n)]
        s.hands = [[] for _ in range(n)]
        s.incoming = [[] for _ in range(n)]
        s.passed1 = [[] for _ in range(n)]
        s.passed2 = [[] for _ in range(n)]
        s.played = [[] for _ in range(n)]
        s.phase = DRAFT
        s.draft_step = 0
        s.pos = s.lap = s.step = 0
        people = ", ".join(
            f"{_PERSONS[k].name} ({_PERSONS[k].rats} rat{'' if _PERSONS[k].rats == 1 else 's'})"
            for k in s.persons
        )
        period = data.PERIOD_LETTERS[(s.round - 1) // data.ROUNDS_PER_PERIOD]
        ev.append(
            Event(
                f"Round {s.round} (period {period}), bell-ringer {s.names[s.start]}: "
                f"persons {people}; plague value {plague_value(s)}",
                reveal=True,
            )
        )

    # ================================================================== prompts ==========
    def prompt(self, state: NotreDameState) -> Prompt | None:
        s = state
        if s.pending:
            return self._pending_prompt(s, s.pending[-1])
        if s.phase == OVER:
            return None
        seat = (s.start + s.pos) % s.n
        if s.phase == DRAFT:
            return self._draft_prompt(s, seat)
        if s.phase == ACTIONS:
            return self._card_prompt(s, seat)
        return self._hire_prompt(s, seat)

    def _draft_prompt(self, s: NotreDameState, seat: int) -> Prompt:
        left = s.names[(seat + 1) % s.n]
        cards = s.drawn[seat]
        moves = []
        for c in cards:
            key = data.CARDS[c % data.CARDS_PER_COLOUR]
            rest = [data.CARD_NAMES[data.CARDS[o % data.CARDS_PER_COLOUR]] for o in cards if o != c]
            verb = "return" if s.n == 2 and s.draft_step == 1 else "pass"
            moves.append(
                Move(f"keep:{key}", f"Keep {data.CARD_NAMES[key]}", f"{verb} {' + '.join(rest)}")
            )
        if s.draft_step == 0:
            text = f"Draft: keep 1 of your 3 cards, pass the other 2 to {left}"
        elif s.n == 2:
            text = f"Draft: keep 1 of the 2 cards from {left}, return the other"
        else:
            right = s.names[(seat - 1) % s.n]
            text = f"Draft: keep 1 of the 2 cards from {right}, pass the other to {left}"
        return Prompt(seat, text, tuple(moves), private=True, step=0, phase="Draft")

    def _card_prompt(self, s: NotreDameState, seat: int) -> Prompt:
        moves = []
        seen: set[int] = set()
        for c in s.hands[seat]:
            t = c % data.CARDS_PER_COLOUR
            if t in seen:
                continue
            seen.add(t)
            key = data.CARDS[t]
            name = data.CARD_NAMES[key]
            if self._card_playable(s, seat, t):
                moves.append(Move(f"play:{key}", name, self._card_preview(s, seat, t)))
            moves.append(Move(f"void:{key}", f"{name} without effect", "no effect"))
        text = f"{s.names[seat]}: play your {ORDINAL[s.lap]} card"
        return Prompt(seat, text, tuple(moves), private=True, step=0, phase="Actions")

    def _card_playable(self, s: NotreDameState, seat: int, t: int) -> bool:
        if t == data.FRIEND:
            return True
        if t == data.NOTRE_DAME and s.gold[seat] < 1:
            return False  # no donation, no marker
        if s.supply[seat] > 0:
            return True
        return bool(self._marker_sources(s, seat, t))

    def _marker_sources(self, s: NotreDameState, seat: int, target: int) -> list[int]:
        """Empty supply: where a marker (never the friend) can be moved from into `target`."""
        out = [k for k in SECTOR_RANGE if k != target and s.sectors[seat][k] > 0]
        if target != data.NOTRE_DAME and s.nd[seat] > 0:
            out.append(data.NOTRE_DAME)
        return out

    def _card_preview(self, s: NotreDameState, seat: int, t: int) -> str:
        if t == data.FRIEND:
            where = s.friend[seat]
            if where == data.PLAY_AREA:
                return "put the friend into a sector, then its action"
            return f"move the friend from {data.LOCATION_NAMES[where]}, then that action"
        if t == data.NOTRE_DAME:
            text = "donate 1-3 gold → +1/+3/+6 prestige"
        else:
            text = self._effect_preview(s, seat, t, count(s, seat, t) + 1)
        if s.supply[seat] == 0:
            return "supply empty: move a marker in; " + text
        return text

    def _effect_preview(self, s: NotreDameState, seat: int, k: int, n: int) -> str:
        """What executing sector `k` with `n` markers there would do for `s`."""
        if k == data.CLOISTER:
            return _plus(min(n, s.general[seat]), "markers")
        if k == data.BANK:
            return _plus(n, "gold")
        if k == data.RESIDENCE:
            return self._prestige_preview(s, seat, n)
        if k == data.CARRIAGE:
            return f"carriage up to {n} step" + ("s" if n > 1 else "")
        if k == data.HOTEL:
            two = n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"]
            return "2 bonuses" if two else "1 bonus"
        if k == data.PARK:
            r = s.rat[seat]
            return f"rat {r}→{max(r - 1, 0)}, park bonus {n // data.PARK_MARKERS_PER_BONUS}"
        if k == data.HOSPITAL:
            r = s.rat[seat]
            return f"rat {r}→{max(r - 1, 0)}, plague −{n}"
        return "donate 1-3 gold → +1/+3/+6 prestige"

    def _prestige_preview(self, s: NotreDameState, seat: int, amount: int) -> str:
        if amount <= 0:
            return "+0 prestige"
        bonus = park_bonus(s, seat)
        return f"+{amount} prestige" + (f" (+{bonus} park)" if bonus else "")

    def _hire_prompt(self, s: NotreDameState, seat: int) -> Prompt:
        moves = []
        if s.gold[seat] >= data.HIRE_COST:
            for key in s.persons:
                if self._hirable(s, seat, key):
                    p = _PERSONS[key]
                    moves.append(
                        Move(f"hire:{key}", f"Hire {p.name}", self._person_preview(s, seat, key))
                    )
        moves.append(Move("pass", "Hire nobody", "keep your gold"))
        text = f"{s.names[seat]}: hire a person for {data.HIRE_COST} gold?"
        return Prompt(seat, text, tuple(moves), step=0, phase="Hire")

    def _hirable(self, s: NotreDameState, seat: int, key: str) -> bool:
        if key == "minstrel":
            return any(sector_counts(s, seat))
        if key == "fool":
            return s.friend[seat] != data.PLAY_AREA or s.nd[seat] > 0 or any(s.sectors[seat])
        if key == "bishop":
            return s.general[seat] > 0 and 0 in sector_counts(s, seat)
        return True

    def _person_preview(self, s: NotreDameState, seat: int, key: str) -> str:
        if key == "hostess":
            return self._prestige_preview(s, seat, 3) + " + a bonus"
        if key == "minstrel":
            return "move 1-3 pieces between sectors"
        if key == "monk":
            n = min(2, s.general[seat])
            return f"+{n} marker{'' if n == 1 else 's'}, " + self._prestige_preview(s, seat, 1)
        if key == "fool":
            return "move a marker or the friend, then that sector's action"
        if key == "moneylender":
            return "+2 gold, " + self._prestige_preview(s, seat, 1)
        if key == "doctor":
            now, over = rat_after_plague(s, seat)
            h = count(s, seat, data.HOSPITAL)
            healed = max(s.rat[seat] - h, 0)
            warn = " (overflow!)" if over else ""
            return f"rat would go {s.rat[seat]}→{now}{warn}; with the Doctor →{healed}"
        if key == "bishop":
            return "a marker into an empty sector, then its action"
        return self._prestige_preview(s, seat, self._person_prestige(s, seat, key))

    def _person_prestige(self, s: NotreDameState, seat: int, key: str) -> int:
        """Prestige of the scoring persons (gray cards other than the Bishop)."""
        counts = sector_counts(s, seat)
        if key == "cityguard":
            return sum(s.sectors[seat]) + s.nd[seat] + (s.friend[seat] != data.PLAY_AREA)
        if key == "nightwatchman":
            return counts.count(0)
        if key == "advocate":
            return 3 * (sum(s.msgs[seat]) // 2)
        if key == "beggarking":
            return data.PLAGUE_MAX - s.rat[seat]
        if key == "guildmaster":
            return 2 * sum(1 for c in counts if c >= 2)
        if key == "lady":
            return max(counts)
        if key == "mayor":
            return 3 * sum(1 for c in counts if c >= 3)
        if key == "carpenter":
            return sum(1 for c in counts if c >= 1)
        return 0

    # ---- sub-decisions ----
    def _pending_prompt(self, s: NotreDameState, p: dict[str, Any]) -> Prompt:
        seat = p["s"]
        k = p["k"]
        name = s.names[seat]
        phase = PHASE_NAMES[s.phase]
        step = s.step
        moves: list[Move] = []
        if k == "source":
            target = p["t"]
            for loc in self._marker_sources(s, seat, target):
                left = count(s, seat, loc) - 1
                moves.append(
                    Move(
                        f"from:{data.LOCATIONS[loc]}",
                        f"From {data.LOCATION_NAMES[loc]}",
                        f"{left} left there",
                    )
                )
            text = f"{name}: supply empty — move a marker into {data.LOCATION_NAMES[target]} from"
        elif k == "donate":
            for g in range(1, min(3, s.gold[seat]) + 1):
                moves.append(
                    Move(
                        f"donate:{g}",
                        f"Donate {g} gold",
                        self._prestige_preview(s, seat, data.DONATION[g]),
                    )
                )
            text = f"{name}: Notre Dame — donate how much gold?"
        elif k == "friend":
            where = s.friend[seat]
            locs = [x for x in SECTOR_RANGE if x != where]
            if not s.published and where != data.NOTRE_DAME and s.gold[seat] >= 1:
                locs.append(data.NOTRE_DAME)
            for loc in locs:
                if loc == data.NOTRE_DAME:
                    preview = "donate 1-3 gold → +1/+3/+6 prestige"
                else:
                    preview = self._effect_preview(s, seat, loc, count(s, seat, loc) + 1)
                moves.append(
                    Move(f"friend:{data.LOCATIONS[loc]}", data.LOCATION_NAMES[loc], preview)
                )
            text = f"{name}: where does the trusted friend go?"
        elif k == "carriage":
            moves = self._carriage_moves(s, seat, p["n"])
            text = f"{name}: move the carriage up to {p['n']} step{'' if p['n'] == 1 else 's'}"
        elif k == "message":
            code = s.board_msg[p["node"]]
            if s.published:
                r = data.REWARDS[code % 4]
                moves.append(Move("take", f"Take it: {r.text}", self._reward_preview(s, seat, r)))
            else:
                for r in data.REWARDS:
                    moves.append(
                        Move(
                            f"take:{r.key}", f"Take it: {r.text}", self._reward_preview(s, seat, r)
                        )
                    )
            if s.published:  # published rulebook: taking it is optional
                moves.append(Move("leave", "Leave it", "no message"))
                text = f"{name}: take the {message_label(s, code)}?"
            else:  # seed: "the player takes the token and chooses one of four" options
                text = f"{name}: you take the {message_label(s, code)} — choose your reward"
        elif k == "bonus":
            for b in data.HOTEL_BONUSES:
                moves.append(
                    Move(f"bonus:{b}", data.HOTEL_BONUS_NAMES[b], self._bonus_preview(s, seat, b))
                )
            total = p["of"]
            nth = total - p["left"] + 1
            text = f"{name}: {p['src']} — choose bonus {nth} of {total}"
        elif k == "minstrel_from":
            for loc, c in enumerate(sector_counts(s, seat)):
                if c:
                    moves.append(
                        Move(
                            f"from:{data.SECTORS[loc]}",
                            f"From {data.LOCATION_NAMES[loc]}",
                            f"{c} there",
                        )
                    )
            text = f"{name}: Minstrel — move pieces from which sector?"
        elif k == "minstrel_to":
            src = p["from"]
            for loc in SECTOR_RANGE:
                if loc != src:
                    moves.append(
                        Move(
                            f"to:{data.SECTORS[loc]}",
                            f"To {data.LOCATION_NAMES[loc]}",
                            f"{count(s, seat, loc)} there",
                        )
                    )
            text = f"{name}: Minstrel — move them from {data.LOCATION_NAMES[src]} to"
        elif k == "minstrel_n":
            for mid, label in self._minstrel_options(s, seat, p["from"]):
                moves.append(Move(mid, label, f"to {data.LOCATION_NAMES[p['to']]}"))
            text = f"{name}: Minstrel — how many pieces?"
        elif k == "fool_from":
            for loc in range(len(data.LOCATIONS)):
                have = s.nd[seat] if loc == data.NOTRE_DAME else s.sectors[seat][loc]
                if have:
                    moves.append(
                        Move(
                            f"from:{data.LOCATIONS[loc]}",
                            f"A marker from {data.LOCATION_NAMES[loc]}",
                            f"{have} there",
                        )
                    )
            if s.friend[seat] != data.PLAY_AREA:
                where = data.LOCATION_NAMES[s.friend[seat]]
                moves.append(Move("from:friend", f"The friend (in {where})", "move the friend"))
            text = f"{name}: Fool — which piece moves?"
        elif k == "fool_to":
            src = p["from"]
            for loc in SECTOR_RANGE:
                if loc != src:
                    preview = self._effect_preview(s, seat, loc, count(s, seat, loc) + 1)
                    moves.append(Move(f"to:{data.SECTORS[loc]}", data.LOCATION_NAMES[loc], preview))
            text = f"{name}: Fool — move it to which sector (then its action)?"
        elif k == "bishop":
            for loc, c in enumerate(sector_counts(s, seat)):
                if c == 0:
                    preview = self._effect_preview(s, seat, loc, 1)
                    moves.append(
                        Move(f"sector:{data.SECTORS[loc]}", data.LOCATION_NAMES[loc], preview)
                    )
            text = f"{name}: Bishop — a marker into which empty sector (then its action)?"
        elif k == "overflow":
            for loc in p["ties"]:
                moves.append(
                    Move(
                        f"remove:{data.SECTORS[loc]}",
                        f"Remove from {data.LOCATION_NAMES[loc]}",
                        f"{count(s, seat, loc)} there",
                    )
                )
            text = f"{name}: plague overflow — remove a marker from which sector?"
            step = 0
        else:  # pragma: no cover - a state the rules never build
            raise AssertionError(f"unknown sub-decision {k!r}")
        return Prompt(seat, text, tuple(moves), step=step, phase=phase)

    def _carriage_moves(self, s: NotreDameState, seat: int, n: int) -> list[Move]:
        here = s.carriage[seat]
        dist = data.road_distances(len(s.boroughs))[here]
        reach = sorted((d, node) for node, d in enumerate(dist) if 0 <= d <= n)
        moves = []
        for d, node in reach:
            code = s.board_msg[node]
            label = node_label(s, node)
            if code >= 0:
                label += f" — {message_label(s, code)}"
                if may_take_message(s, seat, code // 4):
                    preview = "may take the message" if s.published else "take the message"
                else:
                    preview = "set rule: may not take it yet"
            else:
                preview = ""
            steps = "stay" if d == 0 else f"{d} step" + ("s" if d > 1 else "")
            preview = f"{steps}; {preview}" if preview else steps
            moves.append(Move(f"to:{data.node_key(node)}", label, preview))
        return moves

    def _reward_preview(self, s: NotreDameState, seat: int, r: data.Reward) -> str:
        parts = [self._prestige_preview(s, seat, r.prestige)]
        if r.gold:
            parts.append(_plus(r.gold, "gold"))
        if r.marker:
            parts.append(_plus(min(r.marker, s.general[seat]), "marker"))
        if r.rat_back:
            parts.append(f"rat {s.rat[seat]}→{max(s.rat[seat] - r.rat_back, 0)}")
        return ", ".join(parts)

    def _bonus_preview(self, s: NotreDameState, seat: int, b: str) -> str:
        if b == "gold":
            if s.bank > 0:
                return "+1 gold"
            return (
                "+1 gold from the richest player"
                if self._richest(s, seat) >= 0
                else "no gold anywhere"
            )
        if b == "marker":
            return "+1 marker" if s.general[seat] else "general supply empty: no effect"
        r = s.rat[seat]
        return f"rat {r}→{r - 1}" if r else "rat on 0: no effect"

    def _minstrel_options(self, s: NotreDameState, seat: int, src: int) -> list[tuple[str, str]]:
        m = s.sectors[seat][src]
        out = [
            (f"move:{j}", f"{j} marker" + ("s" if j > 1 else "")) for j in range(1, min(3, m) + 1)
        ]
        if s.friend[seat] == src:
            for j in range(min(2, m) + 1):
                extra = f" + {j} marker" + ("s" if j > 1 else "") if j else ""
                out.append((f"move:{j}f", f"The friend{extra}"))
        return out

    # ================================================================== play =============
    def play(self, state: NotreDameState, move: Move) -> list[Event]:
        s = state
        ev = [Event(line) for line in s.opening]  # round 1 opens the first move's log
        s.opening = []
        mid = move.id
        if s.pending:
            self._play_pending(s, s.pending[-1], mid, ev)
        elif s.phase == DRAFT:
            self._play_draft(s, mid, ev)
        elif s.phase == ACTIONS:
            self._play_card(s, mid, ev)
        elif s.phase == HIRE:
            self._play_hire(s, mid, ev)
        else:
            raise AssertionError("no decision to take")
        if s.pending:
            s.step += 1
        else:
            s.step = 0
            self._turn_done(s, ev)
        return ev

    def _turn_done(self, s: NotreDameState, ev: list[Event]) -> None:
        """A seat finished its decision: move on to the next seat, phase or round."""
        n = s.n
        if s.phase == DRAFT:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            if s.draft_step == 0:
                s.draft_step = 1
                s.drawn = s.incoming
                s.incoming = [[] for _ in range(n)]
                return
            for seat in range(n):
                s.hands[seat].extend(s.incoming[seat])
            s.incoming = [[] for _ in range(n)]
            s.drawn = [[] for _ in range(n)]
            s.phase = ACTIONS
            s.lap = 0
            ev.append(Event("Draft done: every player holds 3 cards. Actions begin."))
        elif s.phase == ACTIONS:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            s.lap += 1
            if s.lap == 2:
                s.phase = HIRE
        elif s.phase == HIRE:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            s.phase = PLAGUE
            ev.append(Event(f"Plague: the plague value is {plague_value(s)}."))
            self._plague(s, 0, ev)
        elif s.phase == PLAGUE:
            self._plague(s, s.pos + 1, ev)

    # ---- draft ----
    def _play_draft(self, s: NotreDameState, mid: str, ev: list[Event]) -> None:
        seat = (s.start + s.pos) % s.n
        t = data.CARDS.index(mid.split(":", 1)[1])
        cards = s.drawn[seat]
        keep = next(c for c in cards if c % data.CARDS_PER_COLOUR == t)
        rest = [c for c in cards if c != keep]
        left = (seat + 1) % s.n
        s.hands[seat].append(keep)
        s.incoming[left] = rest
        s.drawn[seat] = []
        names = " and ".join(data.CARD_NAMES[data.CARDS[c % data.CARDS_PER_COLOUR]] for c in rest)
        kept = data.CARD_NAMES[data.CARDS[t]]
        who, to = s.names[seat], s.names[left]
        if s.draft_step == 0:
            s.passed1[seat] = list(rest)
            ev.append(
                Event(
                    f"{who} keeps {kept} and passes {names} to {to}",
                    seat=seat,
                    public=f"{who} keeps a card and passes two to {to}",
                )
            )
        else:
            s.passed2[seat] = list(rest)
            verb = "returns" if s.n == 2 else "passes"
            ev.append(
                Event(
                    f"{who} keeps {kept} and {verb} {names} to {to}",
                    seat=seat,
                    public=f"{who} keeps a card and {verb} one to {to}",
                )
            )

    # ---- actions ----
    def _play_card(self, s: NotreDameState, mid: str, ev: list[Event]) -> None:
        seat = (s.start + s.pos) % s.n
        verb, key = mid.split(":", 1)
        t = data.CARDS.index(key)
        hand = s.hands[seat]
        card = next(c for c in hand if c % data.CARDS_PER_COLOUR == t)
        hand.remove(card)
        s.discard.append(card)
        s.played[seat].append(card)
        if s.lap == 1:  # the third card is discarded unplayed and unseen
            s.thirds[seat].extend(hand)
            hand.clear()
        who = s.names[seat]
        name = data.CARD_NAMES[key]
        if verb == "void":
            ev.append(Event(f"{who} plays {name} without effect"))
            return
        if t == data.FRIEND:
            s.pending.append({"k": "friend", "s": seat})
            ev.append(Event(f"{who} plays the Trusted friend"))
            return
        if s.supply[seat] == 0:
            s.pending.append({"k": "source", "s": seat, "t": t})
            ev.append(Event(f"{who} plays {name} (supply empty: a marker moves in)"))
            return
        if t == data.NOTRE_DAME:
            s.pending.append({"k": "donate", "s": seat, "src": -1, "via": "marker"})
            ev.append(Event(f"{who} plays Notre Dame"))
            return
        s.supply[seat] -= 1
        s.sectors[seat][t] += 1
        full, pub = self._execute(s, seat, t)
        n = count(s, seat, t)
        self._say(
            s,
            seat,
            ev,
            f"{who} plays {name} ({n} there): {full}",
            f"{who} plays {name} ({n} there): {pub}",
        )

    def _execute(self, s: NotreDameState, seat: int, k: int) -> tuple[str, str]:
        """Execute sector `k`'s action for `s` (its marker is already there).

        Returns the effect as (full text, public text); multi-part effects push a sub-decision.
        """
        n = count(s, seat, k)
        if k == data.CLOISTER:
            got = min(n, s.general[seat])
            s.general[seat] -= got
            s.supply[seat] += got
            text = _plus(got, "markers")
            return text, text
        if k == data.BANK:
            text = self._take_gold(s, seat, n)
            return text, text
        if k == data.RESIDENCE:
            return self._gain(s, seat, n, "residence")
        if k == data.CARRIAGE:
            s.pending.append({"k": "carriage", "s": seat, "n": n})
            text = f"the carriage may move up to {n} step" + ("s" if n > 1 else "")
            return text, text
        if k == data.HOTEL:
            two = n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"]
            bonuses = 2 if two else 1
            s.pending.append(
                {"k": "bonus", "s": seat, "left": bonuses, "of": bonuses, "src": "Hotel"}
            )
            text = "2 bonuses" if two else "1 bonus"
            return text, text
        if k in (data.PARK, data.HOSPITAL):
            text = self._rat_back(s, seat, 1)
            return text, text
        raise AssertionError(f"no action for location {k}")  # pragma: no cover

    def _gain(self, s: NotreDameState, seat: int, amount: int, source: str) -> tuple[str, str]:
        """Prestige gain from `source`, with the park bonus (not on a gain of 0)."""
        if amount <= 0:
            return "+0 prestige", "no prestige"
        bonus = park_bonus(s, seat)
        s.prestige[seat] += amount + bonus
        src = s.sources[seat]
        src[source] = src.get(source, 0) + amount
        if bonus:
            src["park"] = src.get("park", 0) + bonus
            return f"+{amount} prestige (+{bonus} park)", "gains prestige"
        return f"+{amount} prestige", "gains prestige"

    def _say(self, s: NotreDameState, seat: int, ev: list[Event], full: str, pub: str) -> None:
        """A log line whose public version hides prestige amounts (hidden scores)."""
        if s.open_scores or full == pub:
            ev.append(Event(full))
        else:
            ev.append(Event(full, seat=seat, public=pub))

    def _richest(self, s: NotreDameState, seat: int) -> int:
        """The richest other player (first clockwise from `s` on a tie), -1 if all are broke."""
        best, most = -1, 0
        for i in range(1, s.n):
            o = (seat + i) % s.n
            if s.gold[o] > most:
                best, most = o, s.gold[o]
        return best

    def _take_gold(self, s: NotreDameState, seat: int, amount: int) -> str:
        """Gold from the bank; missing coins come from the richest other player(s)."""
        got = min(amount, s.bank)
        s.bank -= got
        s.gold[seat] += got
        missing = amount - got
        notes = []
        while missing > 0:
            o = self._richest(s, seat)
            if o < 0:
                break
            t = min(missing, s.gold[o])
            s.gold[o] -= t
            s.gold[seat] += t
            missing -= t
            got += t
            notes.append(f"{t} from {s.names[o]}")
        text = _plus(got, "gold")
        if notes:
            text += f" (bank short: {', '.join(notes)})"
        return text

    def _rat_back(self, s: NotreDameState, seat: int, steps: int) -> str:
        old = s.rat[seat]
        s.rat[seat] = max(0, old - steps)
        return f"rat {old}→{s.rat[seat]}"

    def _take_markers(self, s: NotreDameState, seat: int, want: int) -> str:
        got = min(want, s.general[seat])
        s.general[seat] -= got
        s.supply[seat] += got
        return _plus(got, "marker" if got == 1 else "markers")

    # ---- sub-decisions ----
    def _play_pending(
        self, s: NotreDameState, p: dict[str, Any], mid: str, ev: list[Event]
    ) -> None:
        k = p["k"]
        seat = p["s"]
        who = s.names[seat]
        arg = mid.split(":", 1)[1] if ":" in mid else ""
        s.pending.pop()
        if k == "source":
            loc = data.LOCATIONS.index(arg)
            t = p["t"]
            if t == data.NOTRE_DAME:
                s.pending.append({"k": "donate", "s": seat, "src": loc, "via": "marker"})
                return
            self._remove_marker(s, seat, loc)
            s.sectors[seat][t] += 1
            full, pub = self._execute(s, seat, t)
            head = f"{who} moves a marker from {data.LOCATION_NAMES[loc]} to {data.LOCATION_NAMES[t]} ({count(s, seat, t)} there): "
            self._say(s, seat, ev, head + full, head + pub)
        elif k == "donate":
            g = int(arg)
            if p["via"] == "friend":
                s.friend[seat] = data.NOTRE_DAME
                what = "the trusted friend"
            else:
                src = p["src"]
                if src < 0:
                    s.supply[seat] -= 1
                else:
                    self._remove_marker(s, seat, src)
                s.nd[seat] += 1
                what = "a marker"
            s.gold[seat] -= g
            s.bank += g
            full, pub = self._gain(s, seat, data.DONATION[g], "donation")
            head = f"{who} puts {what} in Notre Dame and donates {g} gold: "
            self._say(s, seat, ev, head + full, head + pub)
        elif k == "friend":
            loc = data.LOCATIONS.index(arg)
            if loc == data.NOTRE_DAME:
                s.pending.append({"k": "donate", "s": seat, "src": -1, "via": "friend"})
                return
            s.friend[seat] = loc
            full, pub = self._execute(s, seat, loc)
            head = f"{who}'s trusted friend goes to {data.LOCATION_NAMES[loc]} ({count(s, seat, loc)} there): "
            self._say(s, seat, ev, head + full, head + pub)
        elif k == "carriage":
            node = self._node_index(s, arg)
            s.carriage[seat] = node
            code = s.board_msg[node]
            line = f"{who}'s carriage goes to {node_label(s, node)}"
            if code >= 0:
                if may_take_message(s, seat, code // 4):
                    s.pending.append({"k": "message", "s": seat, "node": node})
                else:
                    line += f" (the {data.COLOURS[code // 4]} message is barred by the set rule)"
            ev.append(Event(line))
        elif k == "message":
            node = p["node"]
            code = s.board_msg[node]
            colour = data.COLOURS[code // 4]
            if mid == "leave":
                ev.append(Event(f"{who} leaves the {colour} message"))
                return
            r = data.REWARDS[code % 4] if s.published else data.REWARD_BY_KEY[arg]
            s.board_msg[node] = -1
            s.msgs[seat][code // 4] += 1
            full, pub = self._gain(s, seat, r.prestige, "messages")
            extra = []
            if r.gold:
                extra.append(self._take_gold(s, seat, r.gold))
            if r.marker:
                extra.append(self._take_markers(s, seat, r.marker))
            if r.rat_back:
                extra.append(self._rat_back(s, seat, r.rat_back))
            tail = "".join(", " + e for e in extra)
            head = f"{who} takes the {colour} message: "
            self._say(s, seat, ev, head + full + tail, head + pub + tail)
        elif k == "bonus":
            if arg == "gold":
                text = self._take_gold(s, seat, 1)
            elif arg == "marker":
                text = self._take_markers(s, seat, 1)
            else:
                text = self._rat_back(s, seat, 1)
            ev.append(Event(f"{who}'s {p['src']} bonus: {text}"))
            if p["left"] > 1:
                s.pending.append({**p, "left": p["left"] - 1})
        elif k == "minstrel_from":
            s.pending.append({"k": "minstrel_to", "s": seat, "from": data.SECTORS.index(arg)})
        elif k == "minstrel_to":
            src, dst = p["from"], data.SECTORS.index(arg)
            options = self._minstrel_options(s, seat, src)
            if len(options) == 1:  # no real choice: move at once
                self._minstrel_move(s, seat, src, dst, options[0][0], ev)
            else:
                s.pending.append({"k": "minstrel_n", "s": seat, "from": src, "to": dst})
        elif k == "minstrel_n":
            self._minstrel_move(s, seat, p["from"], p["to"], mid, ev)
        elif k == "fool_from":
            if arg == "friend":
                s.pending.append(
                    {"k": "fool_to", "s": seat, "from": s.friend[seat], "friend": True}
                )
            else:
                loc = data.LOCATIONS.index(arg)
                s.pending.append({"k": "fool_to", "s": seat, "from": loc, "friend": False})
        elif k == "fool_to":
            src, dst = p["from"], data.SECTORS.index(arg)
            if p["friend"]:
                s.friend[seat] = dst
                what = "the trusted friend"
            else:
                self._remove_marker(s, seat, src)
                s.sectors[seat][dst] += 1
                what = "a marker"
            full, pub = self._execute(s, seat, dst)
            head = (
                f"{who}'s Fool moves {what} from {data.LOCATION_NAMES[src]} to "
                f"{data.LOCATION_NAMES[dst]} ({count(s, seat, dst)} there): "
            )
            self._say(s, seat, ev, head + full, head + pub)
        elif k == "bishop":
            loc = data.SECTORS.index(arg)
            s.general[seat] -= 1
            s.sectors[seat][loc] += 1
            full, pub = self._execute(s, seat, loc)
            head = f"{who}'s Bishop places a marker from the general supply in {data.LOCATION_NAMES[loc]}: "
            self._say(s, seat, ev, head + full, head + pub)
        elif k == "overflow":
            loc = data.SECTORS.index(arg)
            s.sectors[seat][loc] -= 1
            s.general[seat] += 1
            ev.append(Event(f"{who} removes a marker from {data.LOCATION_NAMES[loc]} (plague)"))
        else:  # pragma: no cover
            raise AssertionError(f"unknown sub-decision {k!r}")

    def _node_index(self, s: NotreDameState, key: str) -> int:
        b, rest = key[1:].split("c" if key.endswith("c") else "o", 1)
        return int(b) * data.NODES_PER_BOROUGH + (int(rest) if rest else 0)

    def _remove_marker(self, s: NotreDameState, seat: int, loc: int) -> None:
        if loc == data.NOTRE_DAME:
            s.nd[seat] -= 1
        else:
            s.sectors[seat][loc] -= 1

    def _minstrel_move(
        self, s: NotreDameState, seat: int, src: int, dst: int, mid: str, ev: list[Event]
    ) -> None:
        arg = mid.split(":", 1)[1]
        with_friend = arg.endswith("f")
        m = int(arg.rstrip("f"))
        s.sectors[seat][src] -= m
        s.sectors[seat][dst] += m
        parts = [f"{m} marker" + ("s" if m != 1 else "")] if m else []
        if with_friend:
            s.friend[seat] = dst
            parts.insert(0, "the trusted friend")
        ev.append(
            Event(
                f"{s.names[seat]}'s Minstrel moves {' and '.join(parts)} from "
                f"{data.LOCATION_NAMES[src]} to {data.LOCATION_NAMES[dst]}"
            )
        )

    # ---- hire ----
    def _play_hire(self, s: NotreDameState, mid: str, ev: list[Event]) -> None:
        seat = (s.start + s.pos) % s.n
        who = s.names[seat]
        if mid == "pass":
            ev.append(Event(f"{who} hires nobody"))
            return
        key = mid.split(":", 1)[1]
        person = _PERSONS[key]
        s.gold[seat] -= data.HIRE_COST
        s.bank += data.HIRE_COST
        s.hired[seat] = key
        head = f"{who} hires the {person.name}"
        if key == "hostess":
            full, pub = self._gain(s, seat, 3, "persons")
            s.pending.append({"k": "bonus", "s": seat, "left": 1, "of": 1, "src": "Hostess"})
        elif key == "minstrel":
            s.pending.append({"k": "minstrel_from", "s": seat})
            full = pub = "moves pieces"
        elif key == "monk":
            got = self._take_markers(s, seat, 2)
            full, pub = self._gain(s, seat, 1, "persons")
            full, pub = f"{got}, {full}", f"{got}, {pub}"
        elif key == "fool":
            s.pending.append({"k": "fool_from", "s": seat})
            full = pub = "moves a piece"
        elif key == "moneylender":
            got = self._take_gold(s, seat, 2)
            full, pub = self._gain(s, seat, 1, "persons")
            full, pub = f"{got}, {full}", f"{got}, {pub}"
        elif key == "doctor":
            s.doctor[seat] = True
            full = pub = "plague value 0 this round"
        elif key == "bishop":
            s.pending.append({"k": "bishop", "s": seat})
            full = pub = "places a marker"
        else:
            full, pub = self._gain(s, seat, self._person_prestige(s, seat, key), "persons")
        self._say(s, seat, ev, f"{head}: {full}", f"{head}: {pub}")

    # ---- plague and the end of a round ----
    def _plague(self, s: NotreDameState, first: int, ev: list[Event]) -> None:
        """Phase 5 from position `first`; stops for an overflow tie (a prompt)."""
        value = plague_value(s)
        for pos in range(first, s.n):
            seat = (s.start + pos) % s.n
            who = s.names[seat]
            old = s.rat[seat]
            own = 0 if s.doctor[seat] else value
            hosp = count(s, seat, data.HOSPITAL)
            new, over = rat_after_plague(s, seat)
            s.rat[seat] = new
            why = (
                f"{own}"
                + (" (Doctor)" if s.doctor[seat] else "")
                + (f" − {hosp} hospital" if hosp else "")
            )
            line = f"{who}'s rat {old}→{new} ({why})"
            if not over:
                ev.append(Event(line))
                continue
            loss = min(data.OVERFLOW_PRESTIGE, s.prestige[seat])
            s.prestige[seat] -= loss
            if loss:
                s.sources[seat]["plague"] = s.sources[seat].get("plague", 0) - loss
            self._say(
                s,
                seat,
                ev,
                f"{line}: overflow! {who} returns {loss} prestige",
                f"{line}: overflow! {who} returns prestige",
            )
            counts = sector_counts(s, seat)
            most = max(counts)
            ties = [k for k in SECTOR_RANGE if counts[k] == most and s.sectors[seat][k] > 0]
            if not ties:
                ev.append(Event(f"{who} has no marker to remove"))
            elif len(ties) == 1:
                s.sectors[seat][ties[0]] -= 1
                s.general[seat] += 1
                ev.append(
                    Event(f"{who} removes a marker from {data.LOCATION_NAMES[ties[0]]} (plague)")
                )
            else:
                s.pos = pos
                s.pending.append({"k": "overflow", "s": seat, "ties": ties})
                return
        self._end_round(s, ev)

    def _end_round(self, s: NotreDameState, ev: list[Event]) -> None:
        """Persons back, Notre Dame scoring after rounds 3/6/9, the bell-ringer passes left."""
        s.used_persons.extend(s.persons)
        s.persons = []
        if s.round in data.SCORING_ROUNDS:
            self._score_notre_dame(s, ev)
            # End of a period: brown persons reshuffled, action cards back to their owners.
            s.brown_deck = list(data.BROWN)
            chance.shuffle(s, s.brown_deck)
            s.used_persons = [k for k in s.used_persons if k not in data.BROWN]
            s.decks = [self._fresh_deck(s, seat) for seat in range(s.n)]
            s.thirds = [[] for _ in range(s.n)]
            s.discard = []
        s.round += 1
        if s.round > data.ROUNDS:
            s.round = data.ROUNDS
            s.phase = OVER
            s.pending = []
            res = self.result(s)
            ev.append(Event(f"Game over. {res.summary}", reveal=True))
            return
        s.start = (s.start + 1) % s.n
        self._begin_round(s, ev)

    def _score_notre_dame(self, s: NotreDameState, ev: list[Event]) -> None:
        """Pool ÷ markers in Notre Dame (rounded down) per marker; markers back to the supply."""
        pool = data.ND_POOL[s.n]
        counts = [count(s, seat, data.NOTRE_DAME) for seat in range(s.n)]
        total = sum(counts)
        if not total:
            ev.append(Event("Notre Dame scoring: no markers in Notre Dame"))
            return
        share = pool // total
        ev.append(
            Event(
                f"Notre Dame scoring: {pool} prestige ÷ {total} marker{'' if total == 1 else 's'} = {share} per marker"
            )
        )
        for seat in range(s.n):
            c = counts[seat]
            if not c:
                continue
            full, pub = self._gain(s, seat, share * c, "notredame")
            who = s.names[seat]
            back = f"{who}'s {c} marker{'s' if c > 1 else ''}"
            self._say(s, seat, ev, f"{back}: {full}", f"{back}: {pub}")
            s.general[seat] += s.nd[seat]
            s.nd[seat] = 0
            if s.friend[seat] == data.NOTRE_DAME:
                s.friend[seat] = data.PLAY_AREA

    # ================================================================== views etc. =======
    def result(self, state: NotreDameState) -> Result:
        return V.result(state)

    def view(self, state: NotreDameState, seat: int | None) -> dict[str, Any]:
        return V.view(self, state, seat)

    def invariants(self, state: NotreDameState) -> list[str]:
        return V.invariants(state)

    def determinize(self, state: NotreDameState, seat: int, rng: random.Random) -> NotreDameState:
        return V.determinize(self, state, seat, rng)

    def evaluate(self, state: NotreDameState, seat: int) -> float:
        return V.evaluate(self, state, seat)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        from .reference import rules_reference

        return rules_reference(self.check_options(options or {}))


GAME = NotreDame()
