"""Computer players, hints and analysis decide from their seat's view only (issues 6, 19, 33).

Two states that differ only in what the deciding seat cannot see (other hands, face-down
tokens, deck and bag order, future chance) must give the same decision for the same bot seed,
at every level. The twins are made for every installed title alike (`twins.py`): by playing
another seat's private move differently, by the title's own `twin` hook, and by
`game.determinize` itself; the check first makes sure the seat's view is really unchanged.
A plug-in whose computer players could read hidden information fails here
(`test_a_leaky_plugin_fails_the_checks`).
"""

from __future__ import annotations

import random

import pytest

from boardgames_tui.engine.bots.analysis import rate_position
from boardgames_tui.engine.bots.coach import option_values
from boardgames_tui.engine.bots.players import LEVELS, make_bot
from boardgames_tui.engine.core.protocol import Game
from boardgames_tui.engine.core.registry import catalog, get_game
from tests.conformance.twins import Pair, checked_twins


def _players(t: object) -> int:
    """The typical table, at most 3 seats (the checks cost less; 3 hide as much as more)."""
    return max(t.min_players, min(t.players, 3))  # type: ignore[attr-defined]


GAMES = [(t.id, _players(t)) for t in catalog()]  # every installed title


def _twins(game: Game, players: int, seed: int) -> list[Pair]:
    return checked_twins(game, players, seed)


def check_determinize(game: Game, players: int, seed: int = 11) -> None:
    """The sampled world is a function of the seat's view and the rng alone."""
    for pair in _twins(game, players, seed):
        da = game.determinize(pair.real, pair.prompt.seat, random.Random(5))
        db = game.determinize(pair.other, pair.prompt.seat, random.Random(5))
        assert game.digest(da) == game.digest(db), f"{game.id} ({pair.how}): {pair.prompt.text}"


def check_bots(game: Game, players: int, level: str, seed: int = 23) -> None:
    for k, pair in enumerate(_twins(game, players, seed)):
        a, b, p = pair.real, pair.other, pair.prompt
        bot_a = make_bot(level, game, seed=1000 + k, iterations=12)
        bot_b = make_bot(level, game, seed=1000 + k, iterations=12)
        assert bot_a.choose(game.clone(a), p) == bot_b.choose(game.clone(b), p), (
            f"{game.id} {level} ({pair.how}): {p.text}"
        )


def check_hint(game: Game, players: int, seed: int = 29) -> None:
    """The coach's values (the hint) and a move's rating (analysis) are the same for two
    states the seat to move cannot tell apart."""
    for k, pair in enumerate(_twins(game, players, seed)):
        a, b, p = pair.real, pair.other, pair.prompt
        if k % 2 == 0:  # the hint: every option's value
            hint_a = option_values(game, game.clone(a), p, seed=2000 + k, iterations=8)
            hint_b = option_values(game, game.clone(b), p, seed=2000 + k, iterations=8)
            assert hint_a == hint_b, f"{game.id} ({pair.how}): {p.text}"
        else:  # analysis: the rating (with every option's value) of a move that was played
            played = p.moves[-1].id  # pinned, and not the first option
            rate_a = rate_position(game, game.clone(a), 1, played, 2000 + k, iterations=8)
            rate_b = rate_position(game, game.clone(b), 1, played, 2000 + k, iterations=8)
            assert rate_a == rate_b, f"{game.id} ({pair.how}): {p.text}"


@pytest.mark.parametrize("gid, players", GAMES)
def test_determinize_depends_only_on_the_view(gid: str, players: int) -> None:
    check_determinize(get_game(gid), players)


@pytest.mark.parametrize("gid, players", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_same_decision_whatever_the_seat_cannot_see(gid: str, players: int, level: str) -> None:
    check_bots(get_game(gid), players, level)


@pytest.mark.parametrize("gid, players", GAMES)
def test_hint_and_analysis_see_only_the_seat_s_view(gid: str, players: int) -> None:
    check_hint(get_game(gid), players)


def test_two_player_rattus_strong_and_hint_see_only_the_seat_s_view() -> None:
    """At 2 players strong and the coach judge Rattus Cartus by their own evaluation
    (`lead`, which also reads the face-down cards of the sampled world): the same check."""
    from boardgames_tui.engine.bots.search import settings_for

    game = get_game("rattus-cartus")
    assert settings_for(game, 2).evaluator == "lead"
    check_bots(game, 2, "strong", seed=31)
    check_hint(game, 2, seed=31)


# ---- a plug-in whose computer players could read what is hidden fails the checks ----------


def _leaky_toys() -> dict[str, Game]:
    """The example plug-in, made leaky three ways, as a plug-in author might get it wrong."""
    from boardgames_toy.game import ToyGame, ToyState, ToyView

    class KeepsHands(ToyGame):
        """`determinize` reshuffles the deck but leaves the other hands as they really are:
        the strong player and the hint would read them."""

        def determinize(self, s: ToyState, seat: int, rng: random.Random) -> ToyState:
            new = self.clone(s)
            rng.shuffle(new.deck)
            new.seed = rng.randrange(2**31)
            return new

    class CopiesState(ToyGame):
        """`determinize` left out: the default keeps every hand (the toy before issue 33)."""

        determinize = Game.determinize  # type: ignore[assignment]

    class ShowsLastHand(ToyGame):
        """The public view indexes the hands with PUBLIC (-1): the last seat's hand shows."""

        def view(self, s: ToyState, seat: int | None) -> ToyView:
            v = super().view(s, seat)
            if seat is not None:
                v["hand"] = sorted(s.hands[seat])
            return v

    class KeepsWhatOthersWereShown(ToyGame):
        """`determinize` deals the hands anew but keeps every face-down discard, so what
        another seat was shown (a hidden fact that is not a card in a hand) stays true."""

        def determinize(self, s: ToyState, seat: int, rng: random.Random) -> ToyState:
            new = self.clone(s)
            others = [o for o in range(len(s.names)) if o != seat]
            pool = sorted(new.deck + [c for o in others for c in new.hands[o]])
            rng.shuffle(pool)
            for o in others:
                new.hands[o] = [pool.pop() for _ in s.hands[o]]
            new.deck = pool
            new.seed = rng.randrange(2**31)
            return new

    class ForgetsWhatItWasShown(ToyGame):
        """`determinize` redraws every other seat's discards, those shown to the seat too."""

        def determinize(self, s: ToyState, seat: int, rng: random.Random) -> ToyState:
            new = self.clone(s)
            others = [o for o in range(len(s.names)) if o != seat]
            pool = sorted(new.deck + [c for o in others for c in new.hands[o] + new.discards[o]])
            rng.shuffle(pool)
            for o in others:
                new.hands[o] = [pool.pop() for _ in s.hands[o]]
                new.discards[o] = [pool.pop() for _ in s.discards[o]]
            new.deck = pool
            new.seed = rng.randrange(2**31)
            return new

    return {
        "forgets what it was shown": ForgetsWhatItWasShown(),
        "keeps hands": KeepsHands(),
        "copies": CopiesState(),
        "last hand": ShowsLastHand(),
        "keeps what others were shown": KeepsWhatOthersWereShown(),
    }


@pytest.mark.parametrize("leak", ["keeps hands", "copies", "last hand"])
def test_a_leaky_plugin_fails_the_checks(leak: str) -> None:
    """No twin is keyed by a built-in id, so the checks above catch a plug-in's leak."""
    game = _leaky_toys()[leak]
    why = "the public view shows" if leak == "last hand" else r"toy \((history|hook)\)"
    with pytest.raises(AssertionError, match=why):
        check_determinize(game, 2)


def test_a_determinize_that_keeps_what_others_were_shown_fails() -> None:
    """At three seats the second seat is shown the first one's discards, the third is not:
    the third's sampled worlds must not keep them (issue 47)."""
    with pytest.raises(AssertionError, match=r"toy \(history\)"):
        check_determinize(_leaky_toys()["keeps what others were shown"], 3)


def test_a_plugin_whose_hint_reads_the_other_hands_fails() -> None:
    with pytest.raises(AssertionError, match=r"toy \((history|hook)\)"):
        check_hint(_leaky_toys()["keeps hands"], 2)


def test_a_determinize_that_redraws_what_the_seat_was_shown_names_the_cause() -> None:
    """The failure says which part of the view changed and the two ways it can be wrong
    (issue 47: such failures read as leaks while the game hid nothing)."""
    game = _leaky_toys()["forgets what it was shown"]
    with pytest.raises(AssertionError, match=r"shown: .* became .*determinize must keep it"):
        check_determinize(game, 2)
