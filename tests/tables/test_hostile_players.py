"""Hostile players against the store, on both backends: each attack is refused or bounded
at its cause (names that pass for another's, seats imposed on others, time given back by
undo, a private table watched by a stranger, notification targets without limit)."""

from __future__ import annotations

import pytest

from engine.tables import Refused, StoreError, TableStore, check_user, parse_seats


@pytest.mark.parametrize(
    "name", ["autopilot", "Autopilot", "aut0pi1ot", "me", "ME", "open", "0pen", "greedy", "Random"]
)
def test_the_apps_own_names_and_their_lookalikes_are_reserved(name: str) -> None:
    with pytest.raises(StoreError, match="reserved"):
        check_user(name)


def test_a_name_that_passes_for_a_players_name_is_refused(store: TableStore) -> None:
    """alice plays here: `Alice`, `ALICE`, `a1ice` and `aIice` are refused as a new seat's
    user and as a joiner; alice herself and unlike names are not."""
    store.create("notre-dame", parse_seats("alice,open", "alice"), {}, 1, "alice")
    for fake in ("Alice", "ALICE", "a1ice", "aIice"):
        with pytest.raises(Refused, match=f"the name {fake} looks like alice"):
            store.create("notre-dame", parse_seats(f"{fake},open", fake), {}, 2, fake)
    waiting = store.create("notre-dame", parse_seats("bob,open", "bob"), {}, 3, "bob").id
    with pytest.raises(Refused, match="looks like alice"):
        store.join(waiting, "ALICE")
    assert store.join(waiting, "carol") == 1
    assert store.create("notre-dame", parse_seats("alice,open", "alice"), {}, 4, "alice")
