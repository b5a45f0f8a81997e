"""Dreadful Circus set-up by player count (docs/rules/dreadful-circus.md, "Components" and
"Setup"): the figures below are the spec's, not the code's."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import IllegalAction
from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.cards import DESIGNS, deck_for, hand_size, is_attraction

# players: (deck size, cards dealt, cards left aside), from the spec's table.
BY_PLAYERS = {
    4: (40, 32, 8),
    5: (52, 40, 12),
    6: (52, 48, 4),
    7: (63, 49, 14),
    8: (63, 56, 7),
}


def test_the_card_set_is_63_cards_43_attractions_and_20_performances() -> None:
    full = deck_for(8)
    assert len(full) == 63
    kinds = Counter("attraction" if is_attraction(c) else "performance" for c in full)
    assert kinds == {"attraction": 43, "performance": 20}
    base = deck_for(4)
    base_kinds = Counter("attraction" if is_attraction(c) else "performance" for c in base)
    assert base_kinds == {"attraction": 27, "performance": 13}
    assert set(full) <= set(DESIGNS)


@pytest.mark.parametrize("players", sorted(BY_PLAYERS))
def test_deck_and_deal_by_player_count(players: int) -> None:
    deck, dealt, left = BY_PLAYERS[players]
    assert len(deck_for(players)) == deck
    assert hand_size(players) * players == dealt
    assert deck - dealt == left
    state = ENGINE.setup(players, ENGINE.parse_options({}), 5).state
    in_hands = sum(len(h) for h in state.hands)
    assert in_hands == dealt
    # Every card of the deck is in a hand, the set-aside deck or (after redeals) the discard.
    assert in_hands + len(state.deck) + len(state.discard) == deck
    assert Counter([c for h in state.hands for c in h] + state.deck + state.discard) == Counter(
        deck_for(players)
    )


@pytest.mark.parametrize("players", [1, 2, 3, 9, 12])
def test_setup_refuses_fewer_than_4_or_more_than_8_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="4 to 8"):
        ENGINE.setup(players, ENGINE.parse_options({}), 1)
