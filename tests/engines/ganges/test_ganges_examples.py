"""The seed rulebook's worked examples (docs/rules/ganges.md T1–T12), one named test each."""

from __future__ import annotations

from engines.core import IllegalAction
from engines.ganges.actions import Convert, Resolve
from tests.engines.ganges.helpers import act, position, prompt_of, refused, texts


def test_sylwia_lower_ship_resets_the_row_then_dice2() -> None:
    """T1: ship 12 after 3 and 17 discards the row first; then S12's reward takes 2 cards."""
    st = position(
        table=["S12", "G01", "G02", "B01"], players={0: {"ships": ["S03", "S17"], "hand": ["G17"]}}
    )
    st = act(st, 0, {"type": "ship", "card": "S12", "pay": ["G17"]})
    p = st.players[0]
    assert p.ships == ["S12"]
    assert st.discard == ["G17", "S03", "S17"]
    assert st.last_ship == "S12"
    assert prompt_of(st).kind == "pick" and prompt_of(st).cards == ["G01", "G02", "B01"]
    st = act(st, 0, {"type": "pick", "card": "G02"})
    st = act(st, 0, {"type": "pick", "card": "B01"})
    assert st.players[0].hand == ["G02", "B01"]
    assert st.table[:4] == [None, "G01", None, None]


def test_julian_one_card_two_building_triples() -> None:
    """T2: a third red+yellow card completes red and yellow at once: 2 administrators."""
    st = position(table=["B39"], players={0: {"buildings": ["B37", "B38"], "hand": ["G14", "G07"]}})
    st = act(st, 0, {"type": "build", "card": "B39", "pay": ["G14", "G07"]})
    p = st.players[0]
    assert (p.fame, p.admins, p.buildings) == (2, 2, [])
    assert {"B37", "B38", "B39"} <= set(st.discard)
    assert prompt_of(st).kind == "end_turn"


def test_anna_building_triple_and_tea_triple_then_flip() -> None:
    """T3: red triple + tea triple from B11: 1 administrator (seed's "2" is a misprint) and
    6 coins, which flip track position 6 at once (karma2)."""
    track = ["admin1", "dice2", "extra_action", "fame1_or_ship", "coins2_or_palace", "karma2"]
    st = position(
        table=["B11"],
        players={
            0: {
                "buildings": ["B02", "B03"],
                "goods": ["G16", "G13"],
                "hand": ["G14", "G34"],
                "track": track,
            }
        },
    )
    st = act(st, 0, {"type": "build", "card": "B11", "pay": ["G14", "G34"]})
    p = st.players[0]
    assert (p.fame, p.coins, p.karma, p.admins) == (1, 0, 2, 1)
    assert [t.flipped for t in p.track] == [False] * 5 + [True]
    assert p.buildings == [] and p.goods == []
    assert set(st.discard) == {"G14", "G34", "B02", "B03", "B11", "G16", "G13"}


def test_szymon_forced_choice_between_triples() -> None:
    """T4: three resolution sets all need B49's yellow; one administrator whichever is chosen."""
    st = position(
        table=["B49"],
        players={0: {"buildings": ["B14", "B15", "B02", "B03"], "hand": ["G02", "G29"]}},
    )
    st = act(st, 0, {"type": "build", "card": "B49", "pay": ["G02", "G29"]})
    assert st.players[0].fame == 2
    prompt = prompt_of(st)
    assert prompt.kind == "resolve"
    discards = [r.discard for r in prompt.resolutions]
    assert sorted(discards) == sorted([["B14", "B15", "B49"], ["B02", "B49"], ["B03", "B49"]])
    assert all(r.admins == 1 and len(r.triples) == 1 for r in prompt.resolutions)
    seed_choice = discards.index(["B02", "B49"])
    after = act(st, 0, Resolve(option=seed_choice).model_dump())
    assert after.players[0].buildings == ["B14", "B15", "B03"]
    assert after.players[0].admins == 1
    yellow = discards.index(["B14", "B15", "B49"])
    other = act(st, 0, Resolve(option=yellow).model_dump())
    assert other.players[0].buildings == ["B02", "B03"]
    assert other.players[0].admins == 1


def test_kamila_administrator_as_blue_six() -> None:
    """T5: blue 5 plus an administrator declared blue 6 pays 11; the 5 alone does not."""
    st = position(table=["B42"], players={0: {"hand": ["G37"], "admins": 1}})
    refused(st, 0, {"type": "build", "card": "B42", "pay": ["G37"]}, IllegalAction)
    assert "build B42 pay G37+J6" in texts(st, 0)
    after = act(st, 0, {"type": "build", "card": "B42", "pay": ["G37"], "jokers": [6]})
    p = after.players[0]
    assert (p.admins, p.fame, p.hand) == (0, 2, [])
    assert after.admin_supply == 12
    assert after.discard == ["G37"]


def test_karma_seed_example_three_as_two_or_four() -> None:
    """T6: a 3 with 1 karma pays a cost-2 ship or a cost-4 palace, not a cost-1 ship."""
    st = position(
        table=["S02", "P09", "S01", "S03"], players={0: {"hand": ["G17", "G03", "G34"], "karma": 1}}
    )
    ship = act(st, 0, {"type": "ship", "card": "S02", "pay": ["G17"], "karma": 1})
    assert ship.players[0].ships == ["S02"] and ship.players[0].karma == 2
    palace = act(st, 0, {"type": "palace", "card": "P09", "pay": ["G17"], "karma": 1})
    assert palace.players[0].karma == 0
    refused(st, 0, {"type": "ship", "card": "S01", "pay": ["G17"], "karma": 1}, IllegalAction)
    refused(st, 0, {"type": "ship", "card": "S03", "pay": ["G03", "G34"]}, IllegalAction)


def test_goods_conflict_silk_same_or_different() -> None:
    """T7: G36's silk serves "same silk" (4 coins) or "different goods" (3 coins)."""
    st = position(table=["G36"], players={0: {"goods": ["G03", "G06", "G13"]}})
    st = act(st, 0, {"type": "goods", "card": "G36"})
    prompt = prompt_of(st)
    assert prompt.kind == "resolve"
    by_coins = {r.coins: i for i, r in enumerate(prompt.resolutions)}
    assert sorted(by_coins) == [3, 4]
    same = act(st, 0, Resolve(option=by_coins[4]).model_dump())
    assert same.players[0].goods == ["G13"] and same.players[0].coins == 4
    diff = act(st, 0, Resolve(option=by_coins[3]).model_dump())
    assert diff.players[0].goods == ["G03", "G06"] and diff.players[0].coins == 3


def test_ship_triple_after_reward_and_karma_cascade() -> None:
    """T8 and T9: S08's karma first, then the ship triple and the third karma; the next player's
    palace 5 repeats S08's reward although S08 was discarded."""
    st = position(
        table=["S08", "P13"],
        players={0: {"ships": ["S02", "S03"], "karma": 1, "hand": ["G40"]}, 1: {"hand": ["G37"]}},
    )
    st = act(st, 0, {"type": "ship", "card": "S08", "pay": ["G40"]})
    p = st.players[0]
    assert (p.karma, p.admins, p.ships) == (0, 2, [])
    assert st.last_ship == "S08"
    st = act(st, 0, {"type": "end_turn"})
    assert prompt_of(st).seat == 1
    st = act(st, 1, {"type": "palace", "card": "P13", "pay": ["G37"]})
    q = st.players[1]
    assert (q.karma, q.admins) == (0, 1)
    assert "P13" in st.discard and not st.carried


def test_elephant_cascade_at_phase_two() -> None:
    """T10: elephant karma → administrator → third administrator → 2 fame → flip → admin1."""
    track = ["admin1", "dice2", "extra_action", "fame1_or_ship", "coins2_or_palace", "karma2"]
    st = position(
        table=["G01", "G02", "G03"],
        players={0: {"karma": 2, "admins": 2, "fame": 2, "track": track}},
        active=1,
    )
    st = act(st, 1, {"type": "goods", "card": "G01"})
    assert (st.phase, st.elephant_green) == (2, False)
    p = st.players[0]
    assert (p.karma, p.admins, p.fame) == (0, 1, 1)
    assert [t.flipped for t in p.track] == [True] + [False] * 5
    assert prompt_of(st).kind == "action" and prompt_of(st).seat == 0


def test_hand_limit_discard_first_for_action_a_and_dice2() -> None:
    """T11: with 8 cards, discard first, then take; the same for each card of dice2."""
    hand = ["G01", "G02", "G03", "G04", "G05", "G06", "G07", "G40"]
    st = position(table=["B01", "P01", "B02", "B03"], players={0: {"hand": hand}})
    took = act(st, 0, {"type": "take", "card": "B01"})
    assert prompt_of(took).kind == "discard"
    assert "B01" in took.table
    took = act(took, 0, {"type": "discard", "card": "G03"})
    assert len(took.players[0].hand) == 8 and took.players[0].hand[-1] == "B01"
    assert took.discard == ["G03"]
    # Palace 2 paid with G40 (a 2): 7 cards, the first card fits, the second needs a discard.
    st = act(st, 0, {"type": "palace", "card": "P01", "pay": ["G40"]})
    st = act(st, 0, {"type": "pick", "card": "B01"})
    assert len(st.players[0].hand) == 8
    assert prompt_of(st).kind == "discard"
    st = act(st, 0, {"type": "discard", "card": "G01"})
    st = act(st, 0, {"type": "pick", "card": "B03"})
    assert st.players[0].hand[-2:] == ["B01", "B03"] and len(st.players[0].hand) == 8


def test_palace_four_counts_goods_symbols() -> None:
    """T12: G31 (silk + tea) and G05 (silk 2) give 3 coins; nothing leaves the display."""
    st = position(table=["P09"], players={0: {"goods": ["G31", "G05"], "hand": ["G24"]}})
    st = act(st, 0, {"type": "palace", "card": "P09", "pay": ["G24"]})
    p = st.players[0]
    assert p.coins == 3 and p.goods == ["G31", "G05"]


def test_fame_and_coins_both_ready_player_chooses_order() -> None:
    """Settle step 4: 3 fame and 6 coins together: the player picks which flip comes first."""
    st = position(table=["B07"], players={0: {"fame": 2, "coins": 6, "hand": ["G24"]}})
    st = act(st, 0, {"type": "build", "card": "B07", "pay": ["G24"]})
    prompt = prompt_of(st)
    assert prompt.kind == "convert"
    assert [(c.by, c.position) for c in prompt.conversions] == [("fame", 1), ("coins", 6)]
    st = act(st, 0, Convert(by="coins", position=6).model_dump())
    p = st.players[0]
    assert [t.flipped for t in p.track] == [True] + [False] * 4 + [True]
    assert (p.fame, p.coins) == (0, 0)
