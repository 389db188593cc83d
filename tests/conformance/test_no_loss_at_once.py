"""The strong computer player never throws a game away at once where the greedy one would
not (issue 47): at a decision where some option ends the game lost, whatever the hidden cards
(in the real position and in every world the seat may imagine), and another does not, strong
takes a losing one only if greedy does too.

A search whose playout players read the sampled world's hidden cards (rollout mode without
`playout_worlds`) judged every option of a hidden-hand plug-in lost and threw away its own
Princess; the strong player now checks its choice on worlds sampled from its view
(`SearchBot._not_lost_at_once`). Every installed title, over a few seeded random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardgames_tui.engine.bots.players import make_bot
from boardgames_tui.engine.core.protocol import Game, Prompt
from boardgames_tui.engine.core.registry import game_ids, get_game

GAMES = 12  # seeded random games scanned per title
POSITIONS = 3  # decisions checked per title, at most


def lost_at_once(game: Game, worlds: list[Any], prompt: Prompt) -> list[bool | None]:
    """For each option: True if it ends the game lost in every world, False if in none."""
    out: list[bool | None] = []
    for move in prompt.moves:
        ends = []
        for world in worlds:
            after = game.clone(world)
            game.play(after, move)
            ends.append(
                game.prompt(after) is None and prompt.seat not in game.result(after).winners
            )
        out.append(True if all(ends) else False if not any(ends) else None)
    return out


def decisions_to_check(game: Game) -> list[tuple[Any, Prompt, list[bool | None]]]:
    """Decisions of seeded random games where one option loses at once and another does not
    (checked on the real position first: it is cheap, and most decisions end nothing)."""
    found: list[tuple[Any, Prompt, list[bool | None]]] = []
    players = max(2, game.min_players)
    for seed in range(GAMES):
        state = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), seed)
        rng = random.Random(seed)
        while (p := game.prompt(state)) is not None and len(found) < POSITIONS:
            quick = lost_at_once(game, [state], p) if len(p.moves) > 1 else []
            if True in quick and False in quick:
                worlds = [state] + [
                    game.determinize(state, p.seat, random.Random(k)) for k in range(4)
                ]
                flags = lost_at_once(game, worlds, p)
                if True in flags and False in flags:
                    found.append((game.clone(state), p, flags))
            game.play(state, p.moves[rng.randrange(len(p.moves))])
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_strong_never_loses_at_once_where_greedy_would_not(game_id: str) -> None:
    game = get_game(game_id)
    found = decisions_to_check(game)
    for k, (state, prompt, flags) in enumerate(found):
        ids = prompt.ids()
        greedy = make_bot("greedy", game, seed=k).choose(game.clone(state), prompt)
        strong = make_bot("strong", game, seed=k, iterations=16).choose(game.clone(state), prompt)
        if not flags[ids.index(greedy)]:
            assert not flags[ids.index(strong)], (
                f"{game_id}: at {prompt.text!r} strong plays {strong}, which loses at once "
                f"whatever the hidden cards; greedy plays {greedy}"
            )


def test_notre_dame_strong_hires_no_doctor_that_ends_the_game_lost() -> None:
    """Reproduction: a random two-player game of Notre Dame (seed 35) at P1's last hire.
    Every option loses in the end, and the search, indifferent, hired the Doctor, which ends
    the game at once; greedy hires the Minstrel and plays on."""
    game = get_game("notre-dame")
    state = game.new_state(["P0", "P1"], game.check_options({}), 35)
    rng = random.Random(35)
    while (p := game.prompt(state)) is not None:
        if len(p.moves) > 1 and p.text.startswith("P1: hire"):
            worlds = [state] + [game.determinize(state, p.seat, random.Random(k)) for k in range(4)]
            flags = lost_at_once(game, worlds, p)
            if True in flags and False in flags:
                break
        game.play(state, p.moves[rng.randrange(len(p.moves))])
    assert p is not None and flags[p.ids().index("hire:doctor")]
    strong = make_bot("strong", game, seed=35, iterations=32).choose(game.clone(state), p)
    assert not flags[p.ids().index(strong)], strong
