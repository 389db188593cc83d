"""Notre Dame: seeded random playouts with invariants and the kinds of decision they reach
(determinism, saves and illegal moves: tests/conformance/test_conformance.py, for every title)."""

from __future__ import annotations

import hashlib
import random
from dataclasses import MISSING, fields

import pytest

from boardgames_tui.engine.core.decisions import kind_of
from boardgames_tui.engine.core.playout import random_playout
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.engine.notre_dame import GAME
from boardgames_tui.engine.notre_dame.decisions import DECISIONS
from boardgames_tui.engine.notre_dame.state import (
    LAYOUT_1_KEYS,
    OVER,
    TURN_KINDS,
    NotreDameDecision,
    NotreDameState,
)

GAMES_PER_COUNT = 200
OPTION_SETS = (
    {"rules": "seed", "scores": "hidden"},
    {"rules": "published", "scores": "open"},
    {"rules": "seed", "scores": "open"},
    {"rules": "published", "scores": "hidden"},
)


def _check(state: NotreDameState) -> None:
    errors = GAME.invariants(state)
    assert not errors, errors
    prompt = GAME.prompt(state)
    if prompt is not None:
        assert prompt.moves, "a prompt without moves"
        assert len({m.id for m in prompt.moves}) == len(prompt.moves), "duplicate move ids"
        assert 0 <= prompt.seat < state.n


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_invariants_and_end_after_round_nine(players: int) -> None:
    """Issue: >= 200 seeded random playouts per player count, invariants after every move
    (nothing negative, 14 markers per colour, gold conserved, cards conserved), and the game
    ends after round 9."""
    for i in range(GAMES_PER_COUNT):
        seed = 1000 * players + i
        options = OPTION_SETS[i % len(OPTION_SETS)]
        res = random_playout(GAME, players, seed, options, check=_check)
        st = res.state
        assert st.phase == OVER and st.round == 9
        assert GAME.prompt(st) is None
        assert res.winners
        assert sum(st.nd) == 0  # the last Notre Dame scoring emptied Notre Dame


def test_playouts_reach_every_kind_of_decision() -> None:
    """Random play exercises every sub-decision (so the playouts cover the rules)."""
    seen: set[str] = set()

    def note(state: NotreDameState, prompt: Prompt, rng: random.Random) -> str:
        if state.pending:
            seen.add(state.pending[0].kind)
        move = prompt.moves[rng.randrange(len(prompt.moves))]
        seen.add(
            move.id.split(":")[0]
            + (":" + move.id.split(":")[1] if move.id.startswith("hire") else "")
        )
        return move.id

    for seed in range(60):
        random_playout(GAME, 2 + seed % 4, seed, OPTION_SETS[seed % 4], choose=note)
    for kind in (
        "source",
        "donate",
        "friend",
        "carriage",
        "message",
        "bonus",
        "minstrel_from",
        "minstrel_to",
        "fool_from",
        "fool_to",
        "bishop",
        "overflow",
    ):
        assert kind in seen, kind
    hires = {s for s in seen if s.startswith("hire:")}
    assert len(hires) == 15


def test_steps_mark_later_parts_of_a_decision() -> None:
    """Protocol: later steps of a multi-part decision have step > 0 and the same seat."""
    rng = random.Random(8)
    st = GAME.new_state(["A", "B", "C"], {}, 8)
    last_seat = None
    while (p := GAME.prompt(st)) is not None:
        if p.step > 0:
            assert p.seat == last_seat
        last_seat = p.seat
        GAME.play(st, p.moves[rng.randrange(len(p.moves))])


def _eager(state: NotreDameState, prompt: Prompt, rng: random.Random) -> str:
    """Mostly real plays (no "without effect", no passing): deeper, fuller boards."""
    good = [m for m in prompt.moves if not (m.id.startswith("void:") or m.id in ("pass", "leave"))]
    pool = good if good and rng.random() < 0.9 else prompt.moves
    return pool[rng.randrange(len(pool))].id


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_eager_playouts_keep_invariants(players: int) -> None:
    """Invariants also hold in games where players act (empty supplies, friends in Notre
    Dame, empty general supplies, overflows)."""
    for i in range(50):
        options = OPTION_SETS[i % len(OPTION_SETS)]
        res = random_playout(GAME, players, 5000 + i, options, choose=_eager, check=_check)
        assert res.state.phase == OVER


def test_states_with_pending_decisions_keep_their_first_layout_digests() -> None:
    """The pending decisions are typed now; unfinished states still digest as the first
    layout's dicts did (digests recorded before the change), so no save needs a layout bump."""
    digests: list[str] = []
    kinds: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        names = ["A", "B", "C", "D"][: 2 + seed % 3]
        st = GAME.new_state(names, {"rules": ("seed", "published")[seed % 2]}, seed)
        while (p := GAME.prompt(st)) is not None:
            if st.pending[0].kind not in TURN_KINDS:  # a part of an action waits
                digests.append(GAME.digest(st))
                kinds.add(st.pending[0].kind)
            GAME.play(st, rng.choice(p.moves))
    assert len(kinds) >= 8, kinds
    assert len(digests) == 185
    joined = hashlib.sha256(" ".join(digests).encode()).hexdigest()[:32]
    assert joined == "735515fdb1d1faed13c17fdfadbfc45c"


def test_one_decision_class_per_kind_with_only_its_own_fields() -> None:
    """Each kind of decision is its own small dataclass (no bag of optional fields): one class
    per kind of the table, and each holds exactly the fields its first-layout digest names."""
    import boardgames_tui.engine.notre_dame.state as state

    # the module's own classes: `dataclass(slots=True)` makes a class anew, and the one it
    # replaced may still be listed among the subclasses until it is collected
    classes = [c for c in NotreDameDecision.__subclasses__() if vars(state).get(c.__name__) is c]
    kinds = {kind_of(c): c for c in classes}
    assert len(kinds) == len(classes) == 16
    assert set(kinds) == set(DECISIONS.kinds())
    for kind, cls in kinds.items():
        own = {f.name for f in fields(cls)} - {"kind", "seat"}
        assert own == {name for _, name in LAYOUT_1_KEYS.get(kind, ())}, kind
        assert all(f.default is MISSING for f in fields(cls) if f.name in own), kind
