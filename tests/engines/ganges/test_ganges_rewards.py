"""Every ship reward, palace action and track bonus (docs/rules/ganges.md, "Reward and effect
codes" and "Score-track cards"; the data is in engines/ganges/cards.py)."""

from __future__ import annotations

import pytest

from engines.ganges.cards import TRACK_BONUSES
from engines.ganges.state import State
from tests.engines.ganges.helpers import act, position, prompt_of, texts

# Ships by reward and cost: S01 coins2_fame1 (1), S19 coins3 (1), S02 karma2 (2), S11 dice2 (2),
# S07 goodscards1or2 (1), S06 goodscard1_die1 (3), S14 die1+silk (2), S05 fame1+tea (2),
# S04 karma1+spice (1), S09 palace (3). Hand dice: G21 green 1, G40 blue 2, G41 orange 3.
DICE = {1: "G21", 2: "G40", 3: "G41", 4: "G24", 5: "G37", 6: "G14"}


def buy(ship: str, cost: int, table: list[str], **player: object) -> State:
    """Seat 0 buys `ship` (on the table with `table`) paying the exact die."""
    fields = {"hand": [DICE[cost]], **player}
    st = position(table=[ship, *table], players={0: fields})
    return act(st, 0, {"type": "ship", "card": ship, "pay": [DICE[cost]]})


def test_ship_coins2_fame1() -> None:
    """S01: 2 coins and 1 fame."""
    p = buy("S01", 1, ["B01"]).players[0]
    assert (p.coins, p.fame) == (2, 1)


def test_ship_coins3() -> None:
    """S19: 3 coins."""
    assert buy("S19", 1, ["B01"]).players[0].coins == 3


def test_ship_karma2() -> None:
    """S02: 2 karma."""
    assert buy("S02", 2, ["B01"]).players[0].karma == 2


def test_ship_dice2_takes_two_table_cards() -> None:
    """S11: two table cards into hand, one pick at a time."""
    st = buy("S11", 2, ["B01", "G01", "P01"])
    assert prompt_of(st).cards == ["B01", "G01", "P01"]
    st = act(st, 0, {"type": "pick", "card": "P01"})
    st = act(st, 0, {"type": "pick", "card": "B01"})
    assert st.players[0].hand == ["P01", "B01"]


def test_ship_goodscards1or2_take_two_or_stop_after_one() -> None:
    """S07: the first goods card is compulsory, the second optional; coins on goods count."""
    st = buy("S07", 1, ["G01", "G13", "B01"])
    assert prompt_of(st).kind == "pick" and not prompt_of(st).optional
    assert prompt_of(st).cards == ["G01", "G13"]
    st = act(st, 0, {"type": "pick", "card": "G01"})
    assert prompt_of(st).optional and texts(st, 0) == ["pick G13", "stop"]
    two = act(st, 0, {"type": "pick", "card": "G13"})
    assert two.players[0].goods == ["G01", "G13"] and two.players[0].coins == 1
    one = act(st, 0, {"type": "stop"})
    assert one.players[0].goods == ["G01"] and "G13" in one.table


def test_ship_goodscards1or2_single_or_no_goods_card() -> None:
    """S07: a lone goods card is simply taken; with none the reward gives nothing."""
    st = buy("S07", 1, ["G13", "B01"])
    assert st.players[0].goods == ["G13"]
    st = buy("S07", 1, ["B01", "B02"])
    assert st.players[0].goods == [] and st.players[0].hand == []


def test_ship_goodscard1_die1() -> None:
    """S06: first one goods card into the goods row, then one card of any kind into hand."""
    st = buy("S06", 3, ["G13", "G02", "B01"])
    st = act(st, 0, {"type": "pick", "card": "G02"})
    assert st.players[0].goods == ["G02"] and st.players[0].coins == 1
    assert prompt_of(st).cards == ["G13", "B01"]
    st = act(st, 0, {"type": "pick", "card": "G13"})
    assert st.players[0].hand == ["G13"]


def test_ship_goodscard1_die1_without_goods_gives_only_the_die() -> None:
    """S06 with no goods card on the table: only the card into hand."""
    st = buy("S06", 3, ["B01", "B02"])
    st = act(st, 0, {"type": "pick", "card": "B02"})
    assert st.players[0].goods == [] and st.players[0].hand == ["B02"]


def test_ship_die1_with_goods_symbol_while_in_row() -> None:
    """S14: one card into hand; its silk counts in the display (here: a silk triple)."""
    st = buy("S14", 2, ["B01", "B02"], goods=["G03", "G06"])
    st = act(st, 0, {"type": "pick", "card": "B02"})
    p = st.players[0]
    assert p.hand == ["B02"]
    assert p.coins == 1 + 2 + 1 and p.ships == [] and p.goods == []


def test_ship_fame1_with_goods() -> None:
    """S05: 1 fame and a tea symbol."""
    st = buy("S05", 2, ["B01"], goods=["G13"])
    p = st.players[0]
    assert p.fame == 1 and p.ships == ["S05"] and p.goods == ["G13"]


def test_ship_karma1_with_goods() -> None:
    """S04: 1 karma and a spice symbol, which completes different goods with silk and tea."""
    st = buy("S04", 1, ["B01"], goods=["G33"])
    p = st.players[0]
    assert p.karma == 1 and p.coins == 3 and p.ships == [] and p.goods == []


def test_ship_palace_reward_uses_a_table_palace_for_free() -> None:
    """S09: take a palace card from the table and carry it out free; none there, nothing."""
    st = buy("S09", 3, ["P05", "P09", "B01"])
    assert prompt_of(st).cards == ["P05", "P09"]
    st = act(st, 0, {"type": "pick", "card": "P05"})
    assert st.carried == ["P05"] and st.players[0].karma == 2
    st = act(st, 0, {"type": "pick", "card": "B01"})
    assert st.players[0].hand == ["B01"] and st.discard[-1] == "P05" and st.carried == []
    none = buy("S09", 3, ["B01"])
    assert none.players[0].karma == 0 and none.players[0].hand == []


def use(
    palace: str, cost: int, table: list[str], deck: list[str] | None = None, **player: object
) -> State:
    """Seat 0 pays `palace` with the exact die and carries it out."""
    fields = {"hand": [DICE[cost]], **player}
    st = position(table=[palace, *table], deck=deck, players={0: fields})
    return act(st, 0, {"type": "palace", "card": palace, "pay": [DICE[cost]]})


def test_palace_2_dice2() -> None:
    """P01: two table cards into hand."""
    st = use("P01", 2, ["B01", "B02", "B03"])
    st = act(st, 0, {"type": "pick", "card": "B01"})
    st = act(st, 0, {"type": "pick", "card": "B03"})
    assert st.players[0].hand == ["B01", "B03"] and st.discard == ["G40", "P01"]


def test_palace_3_karma2_die1() -> None:
    """P05: 2 karma and one table card into hand."""
    st = use("P05", 3, ["B01", "B02"])
    st = act(st, 0, {"type": "pick", "card": "B02"})
    p = st.players[0]
    assert p.karma == 2 and p.hand == ["B02"]


def test_palace_4_coin_per_goods_symbol_everywhere() -> None:
    """P09: goods symbols on buildings, ships and goods cards all count."""
    st = use("P09", 4, ["B01"], buildings=["B11"], ships=["S04"], goods=["G40"])
    assert st.players[0].coins == 4


def test_palace_5_without_any_ship_gives_only_karma() -> None:
    """P13 before any ship entered a row: just 1 karma."""
    st = use("P13", 5, ["B01"])
    assert st.players[0].karma == 1 and st.players[0].coins == 0


def test_palace_5_repeats_last_ship_reward_but_not_its_goods() -> None:
    """P13 after S14 (die1 + silk): one card into hand, no silk symbol."""
    st = position(table=["P13", "B01", "B02"], players={0: {"hand": ["G37"]}})
    st.last_ship = "S14"
    st = act(st, 0, {"type": "palace", "card": "P13", "pay": ["G37"]})
    st = act(st, 0, {"type": "pick", "card": "B02"})
    p = st.players[0]
    assert p.karma == 1 and p.hand == ["B02"] and p.goods == [] and p.ships == []


def test_palace_5_repeating_a_palace_reward() -> None:
    """P13 after S09 (palace): another palace card from the table is carried out."""
    st = position(table=["P13", "P09", "B01"], players={0: {"hand": ["G37"], "goods": ["G31"]}})
    st.last_ship = "S09"
    st = act(st, 0, {"type": "palace", "card": "P13", "pay": ["G37"]})
    p = st.players[0]
    assert p.karma == 1 and p.coins == 2
    assert st.discard[-2:] == ["P09", "P13"]


@pytest.mark.parametrize(
    ("top", "check"),
    [
        ("B42", lambda p: p.buildings == ["B42"] and p.fame == 2),
        ("G01", lambda p: p.goods == ["G01"] and p.coins == 1),
        ("S19", lambda p: p.ships == ["S19"] and p.coins == 3),
        ("P13", lambda p: p.karma == 1),
    ],
)
def test_palace_6_top_card_free(top: str, check: object) -> None:
    """P17: the deck's top card is carried out without paying (never taken as a die)."""
    st = use("P17", 6, ["B01"], deck=[top, "B02", "B03"])
    p = st.players[0]
    assert callable(check) and check(p)
    assert p.hand == [] and st.deck[0] == "B02"


def flip_with(bonus: str, table: list[str]) -> State:
    """Seat 0 gains a third fame (building B07) and flips track position 1 showing `bonus`."""
    track = [bonus, *(b for b in TRACK_BONUSES if b != bonus)]
    st = position(table=["B07", *table], players={0: {"fame": 2, "hand": ["G24"], "track": track}})
    return act(st, 0, {"type": "build", "card": "B07", "pay": ["G24"]})


def test_track_karma2_and_admin1() -> None:
    """Track bonuses karma2 and admin1."""
    assert flip_with("karma2", ["B01"]).players[0].karma == 2
    st = flip_with("admin1", ["B01"])
    assert st.players[0].admins == 1 and st.admin_supply == 11


def test_track_dice2() -> None:
    """Track bonus dice2: two table cards into hand."""
    st = flip_with("dice2", ["B01", "B02", "B03"])
    st = act(st, 0, {"type": "pick", "card": "B01"})
    st = act(st, 0, {"type": "pick", "card": "B02"})
    assert st.players[0].hand == ["B01", "B02"]


def test_track_coins2_or_palace() -> None:
    """coins2_or_palace: 2 coins, or a free palace card; without a palace card only coins."""
    st = flip_with("coins2_or_palace", ["P05", "B01"])
    assert prompt_of(st).options == ["coins", "palace"]
    assert act(st, 0, {"type": "choose", "option": "coins"}).players[0].coins == 2
    palace = act(st, 0, {"type": "choose", "option": "palace"})
    assert palace.players[0].karma == 2 and palace.players[0].hand == ["B01"]
    only = flip_with("coins2_or_palace", ["B01"])
    assert only.players[0].coins == 2


def test_track_fame1_or_ship() -> None:
    """fame1_or_ship: 1 fame, or a table ship into the row with its reward."""
    st = flip_with("fame1_or_ship", ["S19", "B01"])
    assert prompt_of(st).options == ["fame", "ship"]
    assert act(st, 0, {"type": "choose", "option": "fame"}).players[0].fame == 1
    ship = act(st, 0, {"type": "choose", "option": "ship"})
    assert ship.players[0].ships == ["S19"] and ship.players[0].coins == 3
    assert ship.last_ship == "S19"


def test_track_extra_action_is_compulsory_and_comes_next() -> None:
    """extra_action: one more main action in this turn before the turn can end."""
    st = flip_with("extra_action", ["G01", "B01"])
    prompt = prompt_of(st)
    assert prompt.kind == "action" and prompt.seat == 0
    st = act(st, 0, {"type": "goods", "card": "G01"})
    assert prompt_of(st).seat == 1
