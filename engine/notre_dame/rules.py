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
from . import data as D
from . import view as V
from .queries import count, park_bonus, plague_value, rat_after_plague
from .state import ACTIONS, DRAFT, HIRE, OVER, PLAGUE, NotreDameState
from .title import TITLE

SECTOR_RANGE = range(len(D.SECTORS))
PHASE_NAMES = {DRAFT: "Draft", ACTIONS: "Actions", HIRE: "Hire", PLAGUE: "Plague", OVER: "Over"}
ORDINAL = ("1st", "2nd")
_PERSONS = D.PERSON_BY_KEY


# ---- small queries (module functions: they are on the hot path) -------------------------
def sector_counts(st: NotreDameState, s: int) -> list[int]:
    """Pieces in each of the 7 borough sectors, the friend included."""
    out = list(st.sectors[s])
    f = st.friend[s]
    if 0 <= f < D.NOTRE_DAME:
        out[f] += 1
    return out


def colours_on_board(st: NotreDameState) -> set[int]:
    return {m // 4 for m in st.board_msg if m >= 0}


def may_take_message(st: NotreDameState, s: int, colour: int) -> bool:
    """The set rule: no second message of a colour before one of every colour in play, etc.

    A colour with no message left on the board no longer counts.
    """
    held = st.msgs[s]
    mine = held[colour]
    return all(held[c] >= mine for c in colours_on_board(st))


def borough_name(st: NotreDameState, b: int) -> str:
    seat = st.boroughs[b]
    if seat >= 0:
        return f"{st.names[seat]}'s borough"
    return f"the empty {D.COLOURS[st.borough_colour[b]]} borough"


def node_label(st: NotreDameState, node: int) -> str:
    b, k = divmod(node, D.NODES_PER_BOROUGH)
    return f"{borough_name(st, b)} {D.NODE_LABELS[k]}"


def message_label(st: NotreDameState, code: int) -> str:
    colour = D.COLOURS[code // 4]
    if st.published:
        return f"{colour} message ({D.REWARDS[code % 4].text})"
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
        st = NotreDameState(names=list(names), seed=seed, options=opts)
        st.n = n
        st.published = opts["rules"] == "published"
        st.open_scores = opts["scores"] == "open"
        layout = D.borough_seats(n)
        st.boroughs = [-1 if x is None else x for x in layout]
        empty = iter(D.TWO_PLAYER_EMPTY_COLOURS)
        st.borough_colour = [next(empty) if x is None else x for x in layout]
        st.home = [layout.index(s) for s in range(n)]
        st.gold = [D.START_GOLD] * n
        st.prestige = [0] * n
        st.supply = [D.START_SUPPLY] * n
        st.general = [D.MARKERS_PER_COLOUR - D.START_SUPPLY] * n
        st.sectors = [[0] * len(D.SECTORS) for _ in range(n)]
        st.nd = [0] * n
        st.friend = [D.PLAY_AREA] * n
        st.rat = [0] * n
        st.carriage = [b * D.NODES_PER_BOROUGH for b in st.home]
        st.msgs = [[0] * len(D.COLOURS) for _ in range(n)]
        st.sources = [{} for _ in range(n)]
        st.bank = D.GOLD_COINS - D.START_GOLD * n
        st.board_msg = [-1] * (len(layout) * D.NODES_PER_BOROUGH)
        for b, colour in enumerate(st.borough_colour):
            rewards = list(D.MESSAGE_REWARDS_PER_COLOUR)
            if st.published:  # only then do the messages differ; seed: the taker chooses
                chance.shuffle(st, rewards)
            for k in range(1, 5):
                st.board_msg[b * D.NODES_PER_BOROUGH + k] = colour * 4 + rewards[k - 1]
        st.decks = [self._fresh_deck(st, s) for s in range(n)]
        st.thirds = [[] for _ in range(n)]
        st.brown_deck = list(D.BROWN)
        chance.shuffle(st, st.brown_deck)
        st.gray_deck = []
        for letter in reversed(D.PERIOD_LETTERS):  # C at the bottom, A on top (list end)
            stack = list(D.GRAY[letter])
            chance.shuffle(st, stack)
            st.gray_deck.extend(stack)
        header: list[Event] = []
        self._begin_round(st, header)
        st.opening = [e.text for e in header]  # public: persons and plague value
        return st

    def _fresh_deck(self, st: NotreDameState, s: int) -> list[int]:
        deck = [s * D.CARDS_PER_COLOUR + t for t in range(D.CARDS_PER_COLOUR)]
        chance.shuffle(st, deck)
        return deck

    def _begin_round(self, st: NotreDameState, ev: list[Event]) -> None:
        """Phase 1 (persons) and the draw of the draft."""
        n = st.n
        st.persons = [st.brown_deck.pop(), st.brown_deck.pop(), st.gray_deck.pop()]
        st.hired = [""] * n
        st.doctor = [False] * n
        st.drawn = [[st.decks[s].pop() for _ in range(3)] for s in range(n)]
        st.hands = [[] for _ in range(n)]
        st.incoming = [[] for _ in range(n)]
        st.passed1 = [[] for _ in range(n)]
        st.passed2 = [[] for _ in range(n)]
        st.played = [[] for _ in range(n)]
        st.phase = DRAFT
        st.draft_step = 0
        st.pos = st.lap = st.step = 0
        people = ", ".join(
            f"{_PERSONS[k].name} ({_PERSONS[k].rats} rat{'' if _PERSONS[k].rats == 1 else 's'})"
            for k in st.persons
        )
        period = D.PERIOD_LETTERS[(st.round - 1) // D.ROUNDS_PER_PERIOD]
        ev.append(
            Event(
                f"Round {st.round} (period {period}), bell-ringer {st.names[st.start]}: "
                f"persons {people}; plague value {plague_value(st)}",
                reveal=True,
            )
        )

    # ================================================================== prompts ==========
    def prompt(self, state: NotreDameState) -> Prompt | None:
        st = state
        if st.pending:
            return self._pending_prompt(st, st.pending[-1])
        if st.phase == OVER:
            return None
        s = (st.start + st.pos) % st.n
        if st.phase == DRAFT:
            return self._draft_prompt(st, s)
        if st.phase == ACTIONS:
            return self._card_prompt(st, s)
        return self._hire_prompt(st, s)

    def _draft_prompt(self, st: NotreDameState, s: int) -> Prompt:
        left = st.names[(s + 1) % st.n]
        cards = st.drawn[s]
        moves = []
        for c in cards:
            key = D.CARDS[c % D.CARDS_PER_COLOUR]
            rest = [D.CARD_NAMES[D.CARDS[o % D.CARDS_PER_COLOUR]] for o in cards if o != c]
            verb = "return" if st.n == 2 and st.draft_step == 1 else "pass"
            moves.append(
                Move(f"keep:{key}", f"Keep {D.CARD_NAMES[key]}", f"{verb} {' + '.join(rest)}")
            )
        if st.draft_step == 0:
            text = f"Draft: keep 1 of your 3 cards, pass the other 2 to {left}"
        elif st.n == 2:
            text = f"Draft: keep 1 of the 2 cards from {left}, return the other"
        else:
            right = st.names[(s - 1) % st.n]
            text = f"Draft: keep 1 of the 2 cards from {right}, pass the other to {left}"
        return Prompt(s, text, tuple(moves), private=True, step=0, phase="Draft")

    def _card_prompt(self, st: NotreDameState, s: int) -> Prompt:
        moves = []
        seen: set[int] = set()
        for c in st.hands[s]:
            t = c % D.CARDS_PER_COLOUR
            if t in seen:
                continue
            seen.add(t)
            key = D.CARDS[t]
            name = D.CARD_NAMES[key]
            if self._card_playable(st, s, t):
                moves.append(Move(f"play:{key}", name, self._card_preview(st, s, t)))
            moves.append(Move(f"void:{key}", f"{name} without effect", "no effect"))
        text = f"{st.names[s]}: play your {ORDINAL[st.lap]} card"
        return Prompt(s, text, tuple(moves), private=True, step=0, phase="Actions")

    def _card_playable(self, st: NotreDameState, s: int, t: int) -> bool:
        if t == D.FRIEND:
            return True
        if t == D.NOTRE_DAME and st.gold[s] < 1:
            return False  # no donation, no marker
        if st.supply[s] > 0:
            return True
        return bool(self._marker_sources(st, s, t))

    def _marker_sources(self, st: NotreDameState, s: int, target: int) -> list[int]:
        """Empty supply: where a marker (never the friend) can be moved from into `target`."""
        out = [k for k in SECTOR_RANGE if k != target and st.sectors[s][k] > 0]
        if target != D.NOTRE_DAME and st.nd[s] > 0:
            out.append(D.NOTRE_DAME)
        return out

    def _card_preview(self, st: NotreDameState, s: int, t: int) -> str:
        if t == D.FRIEND:
            where = st.friend[s]
            if where == D.PLAY_AREA:
                return "put the friend into a sector, then its action"
            return f"move the friend from {D.LOCATION_NAMES[where]}, then that action"
        if t == D.NOTRE_DAME:
            text = "donate 1-3 gold → +1/+3/+6 prestige"
        else:
            text = self._effect_preview(st, s, t, count(st, s, t) + 1)
        if st.supply[s] == 0:
            return "supply empty: move a marker in; " + text
        return text

    def _effect_preview(self, st: NotreDameState, s: int, k: int, n: int) -> str:
        """What executing sector `k` with `n` markers there would do for `s`."""
        if k == D.CLOISTER:
            return _plus(min(n, st.general[s]), "markers")
        if k == D.BANK:
            return _plus(n, "gold")
        if k == D.RESIDENCE:
            return self._prestige_preview(st, s, n)
        if k == D.CARRIAGE:
            return f"carriage up to {n} step" + ("s" if n > 1 else "")
        if k == D.HOTEL:
            two = n >= D.HOTEL_TWO_BONUSES["published" if st.published else "seed"]
            return "2 bonuses" if two else "1 bonus"
        if k == D.PARK:
            r = st.rat[s]
            return f"rat {r}→{max(r - 1, 0)}, park bonus {n // D.PARK_MARKERS_PER_BONUS}"
        if k == D.HOSPITAL:
            r = st.rat[s]
            return f"rat {r}→{max(r - 1, 0)}, plague −{n}"
        return "donate 1-3 gold → +1/+3/+6 prestige"

    def _prestige_preview(self, st: NotreDameState, s: int, amount: int) -> str:
        if amount <= 0:
            return "+0 prestige"
        bonus = park_bonus(st, s)
        return f"+{amount} prestige" + (f" (+{bonus} park)" if bonus else "")

    def _hire_prompt(self, st: NotreDameState, s: int) -> Prompt:
        moves = []
        if st.gold[s] >= D.HIRE_COST:
            for key in st.persons:
                if self._hirable(st, s, key):
                    p = _PERSONS[key]
                    moves.append(
                        Move(f"hire:{key}", f"Hire {p.name}", self._person_preview(st, s, key))
                    )
        moves.append(Move("pass", "Hire nobody", "keep your gold"))
        text = f"{st.names[s]}: hire a person for {D.HIRE_COST} gold?"
        return Prompt(s, text, tuple(moves), step=0, phase="Hire")

    def _hirable(self, st: NotreDameState, s: int, key: str) -> bool:
        if key == "minstrel":
            return any(sector_counts(st, s))
        if key == "fool":
            return st.friend[s] != D.PLAY_AREA or st.nd[s] > 0 or any(st.sectors[s])
        if key == "bishop":
            return st.general[s] > 0 and 0 in sector_counts(st, s)
        return True

    def _person_preview(self, st: NotreDameState, s: int, key: str) -> str:
        if key == "hostess":
            return self._prestige_preview(st, s, 3) + " + a bonus"
        if key == "minstrel":
            return "move 1-3 pieces between sectors"
        if key == "monk":
            n = min(2, st.general[s])
            return f"+{n} marker{'' if n == 1 else 's'}, " + self._prestige_preview(st, s, 1)
        if key == "fool":
            return "move a marker or the friend, then that sector's action"
        if key == "moneylender":
            return "+2 gold, " + self._prestige_preview(st, s, 1)
        if key == "doctor":
            now, over = rat_after_plague(st, s)
            h = count(st, s, D.HOSPITAL)
            healed = max(st.rat[s] - h, 0)
            warn = " (overflow!)" if over else ""
            return f"rat would go {st.rat[s]}→{now}{warn}; with the Doctor →{healed}"
        if key == "bishop":
            return "a marker into an empty sector, then its action"
        return self._prestige_preview(st, s, self._person_prestige(st, s, key))

    def _person_prestige(self, st: NotreDameState, s: int, key: str) -> int:
        """Prestige of the scoring persons (gray cards other than the Bishop)."""
        counts = sector_counts(st, s)
        if key == "cityguard":
            return sum(st.sectors[s]) + st.nd[s] + (st.friend[s] != D.PLAY_AREA)
        if key == "nightwatchman":
            return counts.count(0)
        if key == "advocate":
            return 3 * (sum(st.msgs[s]) // 2)
        if key == "beggarking":
            return D.PLAGUE_MAX - st.rat[s]
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
    def _pending_prompt(self, st: NotreDameState, p: dict[str, Any]) -> Prompt:
        s = p["s"]
        k = p["k"]
        name = st.names[s]
        phase = PHASE_NAMES[st.phase]
        step = st.step
        moves: list[Move] = []
        if k == "source":
            target = p["t"]
            for loc in self._marker_sources(st, s, target):
                left = count(st, s, loc) - 1
                moves.append(
                    Move(
                        f"from:{D.LOCATIONS[loc]}",
                        f"From {D.LOCATION_NAMES[loc]}",
                        f"{left} left there",
                    )
                )
            text = f"{name}: supply empty — move a marker into {D.LOCATION_NAMES[target]} from"
        elif k == "donate":
            for g in range(1, min(3, st.gold[s]) + 1):
                moves.append(
                    Move(
                        f"donate:{g}",
                        f"Donate {g} gold",
                        self._prestige_preview(st, s, D.DONATION[g]),
                    )
                )
            text = f"{name}: Notre Dame — donate how much gold?"
        elif k == "friend":
            where = st.friend[s]
            locs = [x for x in SECTOR_RANGE if x != where]
            if not st.published and where != D.NOTRE_DAME and st.gold[s] >= 1:
                locs.append(D.NOTRE_DAME)
            for loc in locs:
                if loc == D.NOTRE_DAME:
                    preview = "donate 1-3 gold → +1/+3/+6 prestige"
                else:
                    preview = self._effect_preview(st, s, loc, count(st, s, loc) + 1)
                moves.append(Move(f"friend:{D.LOCATIONS[loc]}", D.LOCATION_NAMES[loc], preview))
            text = f"{name}: where does the trusted friend go?"
        elif k == "carriage":
            moves = self._carriage_moves(st, s, p["n"])
            text = f"{name}: move the carriage up to {p['n']} step{'' if p['n'] == 1 else 's'}"
        elif k == "message":
            code = st.board_msg[p["node"]]
            if st.published:
                r = D.REWARDS[code % 4]
                moves.append(Move("take", f"Take it: {r.text}", self._reward_preview(st, s, r)))
            else:
                for r in D.REWARDS:
                    moves.append(
                        Move(f"take:{r.key}", f"Take it: {r.text}", self._reward_preview(st, s, r))
                    )
            if st.published:  # published rulebook: taking it is optional
                moves.append(Move("leave", "Leave it", "no message"))
                text = f"{name}: take the {message_label(st, code)}?"
            else:  # seed: "the player takes the token and chooses one of four" options
                text = f"{name}: you take the {message_label(st, code)} — choose your reward"
        elif k == "bonus":
            for b in D.HOTEL_BONUSES:
                moves.append(
                    Move(f"bonus:{b}", D.HOTEL_BONUS_NAMES[b], self._bonus_preview(st, s, b))
                )
            total = p["of"]
            nth = total - p["left"] + 1
            text = f"{name}: {p['src']} — choose bonus {nth} of {total}"
        elif k == "minstrel_from":
            for loc, c in enumerate(sector_counts(st, s)):
                if c:
                    moves.append(
                        Move(
                            f"from:{D.SECTORS[loc]}", f"From {D.LOCATION_NAMES[loc]}", f"{c} there"
                        )
                    )
            text = f"{name}: Minstrel — move pieces from which sector?"
        elif k == "minstrel_to":
            src = p["from"]
            for loc in SECTOR_RANGE:
                if loc != src:
                    moves.append(
                        Move(
                            f"to:{D.SECTORS[loc]}",
                            f"To {D.LOCATION_NAMES[loc]}",
                            f"{count(st, s, loc)} there",
                        )
                    )
            text = f"{name}: Minstrel — move them from {D.LOCATION_NAMES[src]} to"
        elif k == "minstrel_n":
            for mid, label in self._minstrel_options(st, s, p["from"]):
                moves.append(Move(mid, label, f"to {D.LOCATION_NAMES[p['to']]}"))
            text = f"{name}: Minstrel — how many pieces?"
        elif k == "fool_from":
            for loc in range(len(D.LOCATIONS)):
                have = st.nd[s] if loc == D.NOTRE_DAME else st.sectors[s][loc]
                if have:
                    moves.append(
                        Move(
                            f"from:{D.LOCATIONS[loc]}",
                            f"A marker from {D.LOCATION_NAMES[loc]}",
                            f"{have} there",
                        )
                    )
            if st.friend[s] != D.PLAY_AREA:
                where = D.LOCATION_NAMES[st.friend[s]]
                moves.append(Move("from:friend", f"The friend (in {where})", "move the friend"))
            text = f"{name}: Fool — which piece moves?"
        elif k == "fool_to":
            src = p["from"]
            for loc in SECTOR_RANGE:
                if loc != src:
                    preview = self._effect_preview(st, s, loc, count(st, s, loc) + 1)
                    moves.append(Move(f"to:{D.SECTORS[loc]}", D.LOCATION_NAMES[loc], preview))
            text = f"{name}: Fool — move it to which sector (then its action)?"
        elif k == "bishop":
            for loc, c in enumerate(sector_counts(st, s)):
                if c == 0:
                    preview = self._effect_preview(st, s, loc, 1)
                    moves.append(Move(f"sector:{D.SECTORS[loc]}", D.LOCATION_NAMES[loc], preview))
            text = f"{name}: Bishop — a marker into which empty sector (then its action)?"
        elif k == "overflow":
            for loc in p["ties"]:
                moves.append(
                    Move(
                        f"remove:{D.SECTORS[loc]}",
                        f"Remove from {D.LOCATION_NAMES[loc]}",
                        f"{count(st, s, loc)} there",
                    )
                )
            text = f"{name}: plague overflow — remove a marker from which sector?"
            step = 0
        else:  # pragma: no cover - a state the rules never build
            raise AssertionError(f"unknown sub-decision {k!r}")
        return Prompt(s, text, tuple(moves), step=step, phase=phase)

    def _carriage_moves(self, st: NotreDameState, s: int, n: int) -> list[Move]:
        here = st.carriage[s]
        dist = D.road_distances(len(st.boroughs))[here]
        reach = sorted((d, node) for node, d in enumerate(dist) if 0 <= d <= n)
        moves = []
        for d, node in reach:
            code = st.board_msg[node]
            label = node_label(st, node)
            if code >= 0:
                label += f" — {message_label(st, code)}"
                if may_take_message(st, s, code // 4):
                    preview = "may take the message" if st.published else "take the message"
                else:
                    preview = "set rule: may not take it yet"
            else:
                preview = ""
            steps = "stay" if d == 0 else f"{d} step" + ("s" if d > 1 else "")
            preview = f"{steps}; {preview}" if preview else steps
            moves.append(Move(f"to:{D.node_key(node)}", label, preview))
        return moves

    def _reward_preview(self, st: NotreDameState, s: int, r: D.Reward) -> str:
        parts = [self._prestige_preview(st, s, r.prestige)]
        if r.gold:
            parts.append(_plus(r.gold, "gold"))
        if r.marker:
            parts.append(_plus(min(r.marker, st.general[s]), "marker"))
        if r.rat_back:
            parts.append(f"rat {st.rat[s]}→{max(st.rat[s] - r.rat_back, 0)}")
        return ", ".join(parts)

    def _bonus_preview(self, st: NotreDameState, s: int, b: str) -> str:
        if b == "gold":
            if st.bank > 0:
                return "+1 gold"
            return (
                "+1 gold from the richest player"
                if self._richest(st, s) >= 0
                else "no gold anywhere"
            )
        if b == "marker":
            return "+1 marker" if st.general[s] else "general supply empty: no effect"
        r = st.rat[s]
        return f"rat {r}→{r - 1}" if r else "rat on 0: no effect"

    def _minstrel_options(self, st: NotreDameState, s: int, src: int) -> list[tuple[str, str]]:
        m = st.sectors[s][src]
        out = [
            (f"move:{j}", f"{j} marker" + ("s" if j > 1 else "")) for j in range(1, min(3, m) + 1)
        ]
        if st.friend[s] == src:
            for j in range(min(2, m) + 1):
                extra = f" + {j} marker" + ("s" if j > 1 else "") if j else ""
                out.append((f"move:{j}f", f"The friend{extra}"))
        return out

    # ================================================================== play =============
    def play(self, state: NotreDameState, move: Move) -> list[Event]:
        st = state
        ev = [Event(line) for line in st.opening]  # round 1 opens the first move's log
        st.opening = []
        mid = move.id
        if st.pending:
            self._play_pending(st, st.pending[-1], mid, ev)
        elif st.phase == DRAFT:
            self._play_draft(st, mid, ev)
        elif st.phase == ACTIONS:
            self._play_card(st, mid, ev)
        elif st.phase == HIRE:
            self._play_hire(st, mid, ev)
        else:
            raise AssertionError("no decision to take")
        if st.pending:
            st.step += 1
        else:
            st.step = 0
            self._turn_done(st, ev)
        return ev

    def _turn_done(self, st: NotreDameState, ev: list[Event]) -> None:
        """A seat finished its decision: move on to the next seat, phase or round."""
        n = st.n
        if st.phase == DRAFT:
            st.pos += 1
            if st.pos < n:
                return
            st.pos = 0
            if st.draft_step == 0:
                st.draft_step = 1
                st.drawn = st.incoming
                st.incoming = [[] for _ in range(n)]
                return
            for s in range(n):
                st.hands[s].extend(st.incoming[s])
            st.incoming = [[] for _ in range(n)]
            st.drawn = [[] for _ in range(n)]
            st.phase = ACTIONS
            st.lap = 0
            ev.append(Event("Draft done: every player holds 3 cards. Actions begin."))
        elif st.phase == ACTIONS:
            st.pos += 1
            if st.pos < n:
                return
            st.pos = 0
            st.lap += 1
            if st.lap == 2:
                st.phase = HIRE
        elif st.phase == HIRE:
            st.pos += 1
            if st.pos < n:
                return
            st.pos = 0
            st.phase = PLAGUE
            ev.append(Event(f"Plague: the plague value is {plague_value(st)}."))
            self._plague(st, 0, ev)
        elif st.phase == PLAGUE:
            self._plague(st, st.pos + 1, ev)

    # ---- draft ----
    def _play_draft(self, st: NotreDameState, mid: str, ev: list[Event]) -> None:
        s = (st.start + st.pos) % st.n
        t = D.CARDS.index(mid.split(":", 1)[1])
        cards = st.drawn[s]
        keep = next(c for c in cards if c % D.CARDS_PER_COLOUR == t)
        rest = [c for c in cards if c != keep]
        left = (s + 1) % st.n
        st.hands[s].append(keep)
        st.incoming[left] = rest
        st.drawn[s] = []
        names = " and ".join(D.CARD_NAMES[D.CARDS[c % D.CARDS_PER_COLOUR]] for c in rest)
        kept = D.CARD_NAMES[D.CARDS[t]]
        who, to = st.names[s], st.names[left]
        if st.draft_step == 0:
            st.passed1[s] = list(rest)
            ev.append(
                Event(
                    f"{who} keeps {kept} and passes {names} to {to}",
                    seat=s,
                    public=f"{who} keeps a card and passes two to {to}",
                )
            )
        else:
            st.passed2[s] = list(rest)
            verb = "returns" if st.n == 2 else "passes"
            ev.append(
                Event(
                    f"{who} keeps {kept} and {verb} {names} to {to}",
                    seat=s,
                    public=f"{who} keeps a card and {verb} one to {to}",
                )
            )

    # ---- actions ----
    def _play_card(self, st: NotreDameState, mid: str, ev: list[Event]) -> None:
        s = (st.start + st.pos) % st.n
        verb, key = mid.split(":", 1)
        t = D.CARDS.index(key)
        hand = st.hands[s]
        card = next(c for c in hand if c % D.CARDS_PER_COLOUR == t)
        hand.remove(card)
        st.discard.append(card)
        st.played[s].append(card)
        if st.lap == 1:  # the third card is discarded unplayed and unseen
            st.thirds[s].extend(hand)
            hand.clear()
        who = st.names[s]
        name = D.CARD_NAMES[key]
        if verb == "void":
            ev.append(Event(f"{who} plays {name} without effect"))
            return
        if t == D.FRIEND:
            st.pending.append({"k": "friend", "s": s})
            ev.append(Event(f"{who} plays the Trusted friend"))
            return
        if st.supply[s] == 0:
            st.pending.append({"k": "source", "s": s, "t": t})
            ev.append(Event(f"{who} plays {name} (supply empty: a marker moves in)"))
            return
        if t == D.NOTRE_DAME:
            st.pending.append({"k": "donate", "s": s, "src": -1, "via": "marker"})
            ev.append(Event(f"{who} plays Notre Dame"))
            return
        st.supply[s] -= 1
        st.sectors[s][t] += 1
        full, pub = self._execute(st, s, t)
        n = count(st, s, t)
        self._say(
            st,
            s,
            ev,
            f"{who} plays {name} ({n} there): {full}",
            f"{who} plays {name} ({n} there): {pub}",
        )

    def _execute(self, st: NotreDameState, s: int, k: int) -> tuple[str, str]:
        """Execute sector `k`'s action for `s` (its marker is already there).

        Returns the effect as (full text, public text); multi-part effects push a sub-decision.
        """
        n = count(st, s, k)
        if k == D.CLOISTER:
            got = min(n, st.general[s])
            st.general[s] -= got
            st.supply[s] += got
            text = _plus(got, "markers")
            return text, text
        if k == D.BANK:
            text = self._take_gold(st, s, n)
            return text, text
        if k == D.RESIDENCE:
            return self._gain(st, s, n, "residence")
        if k == D.CARRIAGE:
            st.pending.append({"k": "carriage", "s": s, "n": n})
            text = f"the carriage may move up to {n} step" + ("s" if n > 1 else "")
            return text, text
        if k == D.HOTEL:
            two = n >= D.HOTEL_TWO_BONUSES["published" if st.published else "seed"]
            bonuses = 2 if two else 1
            st.pending.append(
                {"k": "bonus", "s": s, "left": bonuses, "of": bonuses, "src": "Hotel"}
            )
            text = "2 bonuses" if two else "1 bonus"
            return text, text
        if k in (D.PARK, D.HOSPITAL):
            text = self._rat_back(st, s, 1)
            return text, text
        raise AssertionError(f"no action for location {k}")  # pragma: no cover

    def _gain(self, st: NotreDameState, s: int, amount: int, source: str) -> tuple[str, str]:
        """Prestige gain from `source`, with the park bonus (not on a gain of 0)."""
        if amount <= 0:
            return "+0 prestige", "no prestige"
        bonus = park_bonus(st, s)
        st.prestige[s] += amount + bonus
        src = st.sources[s]
        src[source] = src.get(source, 0) + amount
        if bonus:
            src["park"] = src.get("park", 0) + bonus
            return f"+{amount} prestige (+{bonus} park)", "gains prestige"
        return f"+{amount} prestige", "gains prestige"

    def _say(self, st: NotreDameState, s: int, ev: list[Event], full: str, pub: str) -> None:
        """A log line whose public version hides prestige amounts (hidden scores)."""
        if st.open_scores or full == pub:
            ev.append(Event(full))
        else:
            ev.append(Event(full, seat=s, public=pub))

    def _richest(self, st: NotreDameState, s: int) -> int:
        """The richest other player (first clockwise from `s` on a tie), -1 if all are broke."""
        best, most = -1, 0
        for i in range(1, st.n):
            o = (s + i) % st.n
            if st.gold[o] > most:
                best, most = o, st.gold[o]
        return best

    def _take_gold(self, st: NotreDameState, s: int, amount: int) -> str:
        """Gold from the bank; missing coins come from the richest other player(s)."""
        got = min(amount, st.bank)
        st.bank -= got
        st.gold[s] += got
        missing = amount - got
        notes = []
        while missing > 0:
            o = self._richest(st, s)
            if o < 0:
                break
            t = min(missing, st.gold[o])
            st.gold[o] -= t
            st.gold[s] += t
            missing -= t
            got += t
            notes.append(f"{t} from {st.names[o]}")
        text = _plus(got, "gold")
        if notes:
            text += f" (bank short: {', '.join(notes)})"
        return text

    def _rat_back(self, st: NotreDameState, s: int, steps: int) -> str:
        old = st.rat[s]
        st.rat[s] = max(0, old - steps)
        return f"rat {old}→{st.rat[s]}"

    def _take_markers(self, st: NotreDameState, s: int, want: int) -> str:
        got = min(want, st.general[s])
        st.general[s] -= got
        st.supply[s] += got
        return _plus(got, "marker" if got == 1 else "markers")

    # ---- sub-decisions ----
    def _play_pending(
        self, st: NotreDameState, p: dict[str, Any], mid: str, ev: list[Event]
    ) -> None:
        k = p["k"]
        s = p["s"]
        who = st.names[s]
        arg = mid.split(":", 1)[1] if ":" in mid else ""
        st.pending.pop()
        if k == "source":
            loc = D.LOCATIONS.index(arg)
            t = p["t"]
            if t == D.NOTRE_DAME:
                st.pending.append({"k": "donate", "s": s, "src": loc, "via": "marker"})
                return
            self._remove_marker(st, s, loc)
            st.sectors[s][t] += 1
            full, pub = self._execute(st, s, t)
            head = f"{who} moves a marker from {D.LOCATION_NAMES[loc]} to {D.LOCATION_NAMES[t]} ({count(st, s, t)} there): "
            self._say(st, s, ev, head + full, head + pub)
        elif k == "donate":
            g = int(arg)
            if p["via"] == "friend":
                st.friend[s] = D.NOTRE_DAME
                what = "the trusted friend"
            else:
                src = p["src"]
                if src < 0:
                    st.supply[s] -= 1
                else:
                    self._remove_marker(st, s, src)
                st.nd[s] += 1
                what = "a marker"
            st.gold[s] -= g
            st.bank += g
            full, pub = self._gain(st, s, D.DONATION[g], "donation")
            head = f"{who} puts {what} in Notre Dame and donates {g} gold: "
            self._say(st, s, ev, head + full, head + pub)
        elif k == "friend":
            loc = D.LOCATIONS.index(arg)
            if loc == D.NOTRE_DAME:
                st.pending.append({"k": "donate", "s": s, "src": -1, "via": "friend"})
                return
            st.friend[s] = loc
            full, pub = self._execute(st, s, loc)
            head = f"{who}'s trusted friend goes to {D.LOCATION_NAMES[loc]} ({count(st, s, loc)} there): "
            self._say(st, s, ev, head + full, head + pub)
        elif k == "carriage":
            node = self._node_index(st, arg)
            st.carriage[s] = node
            code = st.board_msg[node]
            line = f"{who}'s carriage goes to {node_label(st, node)}"
            if code >= 0:
                if may_take_message(st, s, code // 4):
                    st.pending.append({"k": "message", "s": s, "node": node})
                else:
                    line += f" (the {D.COLOURS[code // 4]} message is barred by the set rule)"
            ev.append(Event(line))
        elif k == "message":
            node = p["node"]
            code = st.board_msg[node]
            colour = D.COLOURS[code // 4]
            if mid == "leave":
                ev.append(Event(f"{who} leaves the {colour} message"))
                return
            r = D.REWARDS[code % 4] if st.published else D.REWARD_BY_KEY[arg]
            st.board_msg[node] = -1
            st.msgs[s][code // 4] += 1
            full, pub = self._gain(st, s, r.prestige, "messages")
            extra = []
            if r.gold:
                extra.append(self._take_gold(st, s, r.gold))
            if r.marker:
                extra.append(self._take_markers(st, s, r.marker))
            if r.rat_back:
                extra.append(self._rat_back(st, s, r.rat_back))
            tail = "".join(", " + e for e in extra)
            head = f"{who} takes the {colour} message: "
            self._say(st, s, ev, head + full + tail, head + pub + tail)
        elif k == "bonus":
            if arg == "gold":
                text = self._take_gold(st, s, 1)
            elif arg == "marker":
                text = self._take_markers(st, s, 1)
            else:
                text = self._rat_back(st, s, 1)
            ev.append(Event(f"{who}'s {p['src']} bonus: {text}"))
            if p["left"] > 1:
                st.pending.append({**p, "left": p["left"] - 1})
        elif k == "minstrel_from":
            st.pending.append({"k": "minstrel_to", "s": s, "from": D.SECTORS.index(arg)})
        elif k == "minstrel_to":
            src, dst = p["from"], D.SECTORS.index(arg)
            options = self._minstrel_options(st, s, src)
            if len(options) == 1:  # no real choice: move at once
                self._minstrel_move(st, s, src, dst, options[0][0], ev)
            else:
                st.pending.append({"k": "minstrel_n", "s": s, "from": src, "to": dst})
        elif k == "minstrel_n":
            self._minstrel_move(st, s, p["from"], p["to"], mid, ev)
        elif k == "fool_from":
            if arg == "friend":
                st.pending.append({"k": "fool_to", "s": s, "from": st.friend[s], "friend": True})
            else:
                loc = D.LOCATIONS.index(arg)
                st.pending.append({"k": "fool_to", "s": s, "from": loc, "friend": False})
        elif k == "fool_to":
            src, dst = p["from"], D.SECTORS.index(arg)
            if p["friend"]:
                st.friend[s] = dst
                what = "the trusted friend"
            else:
                self._remove_marker(st, s, src)
                st.sectors[s][dst] += 1
                what = "a marker"
            full, pub = self._execute(st, s, dst)
            head = (
                f"{who}'s Fool moves {what} from {D.LOCATION_NAMES[src]} to "
                f"{D.LOCATION_NAMES[dst]} ({count(st, s, dst)} there): "
            )
            self._say(st, s, ev, head + full, head + pub)
        elif k == "bishop":
            loc = D.SECTORS.index(arg)
            st.general[s] -= 1
            st.sectors[s][loc] += 1
            full, pub = self._execute(st, s, loc)
            head = f"{who}'s Bishop places a marker from the general supply in {D.LOCATION_NAMES[loc]}: "
            self._say(st, s, ev, head + full, head + pub)
        elif k == "overflow":
            loc = D.SECTORS.index(arg)
            st.sectors[s][loc] -= 1
            st.general[s] += 1
            ev.append(Event(f"{who} removes a marker from {D.LOCATION_NAMES[loc]} (plague)"))
        else:  # pragma: no cover
            raise AssertionError(f"unknown sub-decision {k!r}")

    def _node_index(self, st: NotreDameState, key: str) -> int:
        b, rest = key[1:].split("c" if key.endswith("c") else "o", 1)
        return int(b) * D.NODES_PER_BOROUGH + (int(rest) if rest else 0)

    def _remove_marker(self, st: NotreDameState, s: int, loc: int) -> None:
        if loc == D.NOTRE_DAME:
            st.nd[s] -= 1
        else:
            st.sectors[s][loc] -= 1

    def _minstrel_move(
        self, st: NotreDameState, s: int, src: int, dst: int, mid: str, ev: list[Event]
    ) -> None:
        arg = mid.split(":", 1)[1]
        with_friend = arg.endswith("f")
        m = int(arg.rstrip("f"))
        st.sectors[s][src] -= m
        st.sectors[s][dst] += m
        parts = [f"{m} marker" + ("s" if m != 1 else "")] if m else []
        if with_friend:
            st.friend[s] = dst
            parts.insert(0, "the trusted friend")
        ev.append(
            Event(
                f"{st.names[s]}'s Minstrel moves {' and '.join(parts)} from "
                f"{D.LOCATION_NAMES[src]} to {D.LOCATION_NAMES[dst]}"
            )
        )

    # ---- hire ----
    def _play_hire(self, st: NotreDameState, mid: str, ev: list[Event]) -> None:
        s = (st.start + st.pos) % st.n
        who = st.names[s]
        if mid == "pass":
            ev.append(Event(f"{who} hires nobody"))
            return
        key = mid.split(":", 1)[1]
        person = _PERSONS[key]
        st.gold[s] -= D.HIRE_COST
        st.bank += D.HIRE_COST
        st.hired[s] = key
        head = f"{who} hires the {person.name}"
        if key == "hostess":
            full, pub = self._gain(st, s, 3, "persons")
            st.pending.append({"k": "bonus", "s": s, "left": 1, "of": 1, "src": "Hostess"})
        elif key == "minstrel":
            st.pending.append({"k": "minstrel_from", "s": s})
            full = pub = "moves pieces"
        elif key == "monk":
            got = self._take_markers(st, s, 2)
            full, pub = self._gain(st, s, 1, "persons")
            full, pub = f"{got}, {full}", f"{got}, {pub}"
        elif key == "fool":
            st.pending.append({"k": "fool_from", "s": s})
            full = pub = "moves a piece"
        elif key == "moneylender":
            got = self._take_gold(st, s, 2)
            full, pub = self._gain(st, s, 1, "persons")
            full, pub = f"{got}, {full}", f"{got}, {pub}"
        elif key == "doctor":
            st.doctor[s] = True
            full = pub = "plague value 0 this round"
        elif key == "bishop":
            st.pending.append({"k": "bishop", "s": s})
            full = pub = "places a marker"
        else:
            full, pub = self._gain(st, s, self._person_prestige(st, s, key), "persons")
        self._say(st, s, ev, f"{head}: {full}", f"{head}: {pub}")

    # ---- plague and the end of a round ----
    def _plague(self, st: NotreDameState, first: int, ev: list[Event]) -> None:
        """Phase 5 from position `first`; stops for an overflow tie (a prompt)."""
        value = plague_value(st)
        for pos in range(first, st.n):
            s = (st.start + pos) % st.n
            who = st.names[s]
            old = st.rat[s]
            own = 0 if st.doctor[s] else value
            hosp = count(st, s, D.HOSPITAL)
            new, over = rat_after_plague(st, s)
            st.rat[s] = new
            why = (
                f"{own}"
                + (" (Doctor)" if st.doctor[s] else "")
                + (f" − {hosp} hospital" if hosp else "")
            )
            line = f"{who}'s rat {old}→{new} ({why})"
            if not over:
                ev.append(Event(line))
                continue
            loss = min(D.OVERFLOW_PRESTIGE, st.prestige[s])
            st.prestige[s] -= loss
            if loss:
                st.sources[s]["plague"] = st.sources[s].get("plague", 0) - loss
            self._say(
                st,
                s,
                ev,
                f"{line}: overflow! {who} returns {loss} prestige",
                f"{line}: overflow! {who} returns prestige",
            )
            counts = sector_counts(st, s)
            most = max(counts)
            ties = [k for k in SECTOR_RANGE if counts[k] == most and st.sectors[s][k] > 0]
            if not ties:
                ev.append(Event(f"{who} has no marker to remove"))
            elif len(ties) == 1:
                st.sectors[s][ties[0]] -= 1
                st.general[s] += 1
                ev.append(
                    Event(f"{who} removes a marker from {D.LOCATION_NAMES[ties[0]]} (plague)")
                )
            else:
                st.pos = pos
                st.pending.append({"k": "overflow", "s": s, "ties": ties})
                return
        self._end_round(st, ev)

    def _end_round(self, st: NotreDameState, ev: list[Event]) -> None:
        """Persons back, Notre Dame scoring after rounds 3/6/9, the bell-ringer passes left."""
        st.used_persons.extend(st.persons)
        st.persons = []
        if st.round in D.SCORING_ROUNDS:
            self._score_notre_dame(st, ev)
            # End of a period: brown persons reshuffled, action cards back to their owners.
            st.brown_deck = list(D.BROWN)
            chance.shuffle(st, st.brown_deck)
            st.used_persons = [k for k in st.used_persons if k not in D.BROWN]
            st.decks = [self._fresh_deck(st, s) for s in range(st.n)]
            st.thirds = [[] for _ in range(st.n)]
            st.discard = []
        st.round += 1
        if st.round > D.ROUNDS:
            st.round = D.ROUNDS
            st.phase = OVER
            st.pending = []
            res = self.result(st)
            ev.append(Event(f"Game over. {res.summary}", reveal=True))
            return
        st.start = (st.start + 1) % st.n
        self._begin_round(st, ev)

    def _score_notre_dame(self, st: NotreDameState, ev: list[Event]) -> None:
        """Pool ÷ markers in Notre Dame (rounded down) per marker; markers back to the supply."""
        pool = D.ND_POOL[st.n]
        counts = [count(st, s, D.NOTRE_DAME) for s in range(st.n)]
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
        for s in range(st.n):
            c = counts[s]
            if not c:
                continue
            full, pub = self._gain(st, s, share * c, "notredame")
            who = st.names[s]
            back = f"{who}'s {c} marker{'s' if c > 1 else ''}"
            self._say(st, s, ev, f"{back}: {full}", f"{back}: {pub}")
            st.general[s] += st.nd[s]
            st.nd[s] = 0
            if st.friend[s] == D.NOTRE_DAME:
                st.friend[s] = D.PLAY_AREA

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
