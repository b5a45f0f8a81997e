"""Ganges: Cards & Karma (Rajas of the Ganges: Cards & Karma) — card and component data.

Rule source: docs/rules/ganges.md ("Components"), restating the Polish seed rulebook
(the publisher's Rebel edition).

**PROVISIONAL card list.** The official card-by-card composition is not public; the tables below
are the spec's invented, balanced-looking set. This is the only module that knows them: replace
the four tables (and, if needed, the component constants) when the real list is known, and no
rules code has to change. Rules code reads every count, cost and reward from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.core import Phrase, Term, tr, trc

CardKind = Literal["ship", "building", "goods", "palace"]

DIE_COLOURS: tuple[str, ...] = ("violet", "blue", "orange", "green")
DIE_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
BUILDING_TYPES: tuple[str, ...] = ("red", "yellow", "white")
GOODS_TYPES: tuple[str, ...] = ("silk", "tea", "spice")

ADMINISTRATORS = 12
"""Administrator cards in the supply (limited; fame, karma and coins are not)."""
HAND_LIMIT = 8
START_HAND = 4
TABLE_SIZE: dict[int, int] = {2: 12, 3: 16, 4: 20}
"""Table slots by player count (a grid of 3×4, 4×4, 5×4)."""
TABLE_COLUMNS = 4
EMPTY_TABLE_REFILL = 4
"""Cards laid out when the table runs empty in the middle of a round."""
TRIPLE = 3
"""Symbols (or karma tokens, or administrators) that make a triple."""
FAME_PER_FLIP = 3
COINS_PER_FLIP = 6
ADMIN_TRIPLE_FAME = 2
TIE_POINTS_PER_FAME = 2
TIE_POINTS_PER_COIN = 1

TRACK_BONUSES: tuple[str, ...] = (
    "karma2",
    "coins2_or_palace",
    "fame1_or_ship",
    "admin1",
    "dice2",
    "extra_action",
)
"""The night-side bonuses of one player's six score-track cards."""

SHIP_REWARDS: tuple[str, ...] = (
    "coins2_fame1",
    "coins3",
    "karma2",
    "dice2",
    "goodscards1or2",
    "goodscard1_die1",
    "die1",
    "fame1",
    "karma1",
    "palace",
)
"""Immediate ship rewards. The spec's `die1_good(g)` etc. are split into `die1` + a goods symbol."""

PALACE_EFFECTS: tuple[str, ...] = (
    "dice2",
    "karma2_die1",
    "coin_per_goods_symbol",
    "karma1_repeat_last_ship",
    "top_card_free",
)


@dataclass(frozen=True)
class Goods:
    """One goods symbol: its type and its coin value when sold."""

    good: str
    value: int


@dataclass(frozen=True)
class Card:
    """One two-sided play card: the action side plus the die colour printed in its corner.

    `die_value` is the catalogue default only; in play each game deals the values of a colour
    secretly over the cards of that colour (see `rules.setup`).
    """

    id: str
    index: int
    kind: CardKind
    die_colour: str
    die_value: int
    number: int = 0
    """Ship number (1–28), unique."""
    cost_value: int = 0
    """Ships and palace cards: the exact die value to pay."""
    cost_colour: str = ""
    """Buildings: the die colour to pay with."""
    min_sum: int = 0
    """Buildings: the minimum total of the paying dice."""
    buildings: tuple[str, ...] = ()
    goods: tuple[Goods, ...] = ()
    coin: bool = False
    """Goods cards: one immediate coin when it enters the goods row."""
    reward: str = ""
    """Ships: the immediate reward code (see `SHIP_REWARDS`)."""
    effect: str = ""
    """Palace cards: the effect code (see `PALACE_EFFECTS`)."""


ShipRow = tuple[str, int, int, str, tuple[str, int]]
BuildingRow = tuple[str, tuple[str, ...], str, int, tuple[str, int] | None, tuple[str, int]]
GoodsRow = tuple[str, tuple[tuple[str, int], ...], bool, tuple[str, int]]
PalaceRow = tuple[str, int, str, tuple[str, int]]

# ---- the PROVISIONAL tables (spec "The 144 play cards"); backs as printed there --------------

SHIPS: tuple[ShipRow, ...] = (
    ("S01", 1, 1, "coins2_fame1", ("violet", 1)),
    ("S02", 2, 2, "karma2", ("blue", 2)),
    ("S03", 3, 3, "karma2", ("orange", 3)),
    ("S04", 4, 1, "karma1_good(spice)", ("green", 4)),
    ("S05", 5, 2, "fame1_good(tea)", ("violet", 5)),
    ("S06", 6, 3, "goodscard1_die1", ("blue", 6)),
    ("S07", 7, 1, "goodscards1or2", ("green", 1)),
    ("S08", 8, 2, "karma2", ("violet", 2)),
    ("S09", 9, 3, "palace", ("blue", 3)),
    ("S10", 10, 1, "goodscards1or2", ("orange", 4)),
    ("S11", 11, 2, "dice2", ("green", 5)),
    ("S12", 12, 3, "dice2", ("violet", 6)),
    ("S13", 13, 1, "goodscard1_die1", ("orange", 1)),
    ("S14", 14, 2, "die1_good(silk)", ("green", 2)),
    ("S15", 15, 3, "fame1_good(spice)", ("violet", 3)),
    ("S16", 16, 1, "karma1_good(silk)", ("blue", 4)),
    ("S17", 17, 2, "coins2_fame1", ("orange", 5)),
    ("S18", 18, 3, "palace", ("green", 6)),
    ("S19", 19, 1, "coins3", ("blue", 1)),
    ("S20", 20, 2, "die1_good(tea)", ("orange", 2)),
    ("S21", 21, 3, "coins3", ("green", 3)),
    ("S22", 22, 1, "goodscards1or2", ("violet", 4)),
    ("S23", 23, 2, "coins3", ("blue", 5)),
    ("S24", 24, 3, "coins2_fame1", ("orange", 6)),
    ("S25", 25, 1, "fame1_good(silk)", ("violet", 1)),
    ("S26", 26, 2, "karma1_good(tea)", ("blue", 2)),
    ("S27", 27, 3, "dice2", ("orange", 3)),
    ("S28", 28, 1, "die1_good(spice)", ("green", 4)),
)
BUILDINGS: tuple[BuildingRow, ...] = (
    ("B01", ("red",), "violet", 4, ("silk", 1), ("violet", 5)),
    ("B02", ("red",), "blue", 5, None, ("blue", 6)),
    ("B03", ("red",), "orange", 6, None, ("green", 1)),
    ("B04", ("red",), "green", 7, None, ("violet", 2)),
    ("B05", ("red",), "violet", 8, None, ("blue", 3)),
    ("B06", ("red",), "blue", 9, None, ("orange", 4)),
    ("B07", ("red",), "orange", 4, None, ("green", 5)),
    ("B08", ("red",), "green", 5, None, ("violet", 6)),
    ("B09", ("red",), "violet", 6, None, ("orange", 1)),
    ("B10", ("red",), "blue", 7, ("spice", 2), ("green", 2)),
    ("B11", ("red",), "orange", 8, ("tea", 3), ("violet", 3)),
    ("B12", ("red",), "green", 9, None, ("blue", 4)),
    ("B13", ("yellow",), "violet", 4, None, ("orange", 5)),
    ("B14", ("yellow",), "blue", 5, None, ("green", 6)),
    ("B15", ("yellow",), "orange", 6, None, ("blue", 1)),
    ("B16", ("yellow",), "green", 7, None, ("orange", 2)),
    ("B17", ("yellow",), "violet", 8, None, ("green", 3)),
    ("B18", ("yellow",), "blue", 9, ("spice", 3), ("violet", 4)),
    ("B19", ("yellow",), "orange", 4, None, ("blue", 5)),
    ("B20", ("yellow",), "green", 5, ("tea", 1), ("orange", 6)),
    ("B21", ("yellow",), "violet", 6, ("silk", 2), ("violet", 1)),
    ("B22", ("yellow",), "blue", 7, None, ("blue", 2)),
    ("B23", ("yellow",), "orange", 8, None, ("orange", 3)),
    ("B24", ("yellow",), "green", 9, None, ("green", 4)),
    ("B25", ("white",), "violet", 4, None, ("violet", 5)),
    ("B26", ("white",), "blue", 5, None, ("blue", 6)),
    ("B27", ("white",), "orange", 6, None, ("green", 1)),
    ("B28", ("white",), "green", 7, ("tea", 2), ("violet", 2)),
    ("B29", ("white",), "violet", 8, ("silk", 3), ("blue", 3)),
    ("B30", ("white",), "blue", 9, None, ("orange", 4)),
    ("B31", ("white",), "orange", 4, ("spice", 1), ("green", 5)),
    ("B32", ("white",), "green", 5, None, ("violet", 6)),
    ("B33", ("white",), "violet", 6, None, ("orange", 1)),
    ("B34", ("white",), "blue", 7, None, ("green", 2)),
    ("B35", ("white",), "orange", 8, None, ("violet", 3)),
    ("B36", ("white",), "green", 9, None, ("blue", 4)),
    ("B37", ("red", "yellow"), "violet", 9, None, ("orange", 5)),
    ("B38", ("red", "yellow"), "blue", 10, None, ("green", 6)),
    ("B39", ("red", "yellow"), "orange", 11, None, ("blue", 1)),
    ("B40", ("red", "yellow"), "green", 12, None, ("orange", 2)),
    ("B41", ("red", "yellow"), "violet", 13, None, ("green", 3)),
    ("B42", ("red", "yellow"), "blue", 11, None, ("violet", 4)),
    ("B43", ("red", "white"), "orange", 9, None, ("blue", 5)),
    ("B44", ("red", "white"), "green", 10, None, ("orange", 6)),
    ("B45", ("red", "white"), "violet", 11, None, ("violet", 1)),
    ("B46", ("red", "white"), "blue", 12, None, ("blue", 2)),
    ("B47", ("red", "white"), "orange", 13, None, ("orange", 3)),
    ("B48", ("red", "white"), "green", 11, None, ("green", 4)),
    ("B49", ("yellow", "white"), "violet", 9, None, ("violet", 5)),
    ("B50", ("yellow", "white"), "blue", 10, None, ("blue", 6)),
    ("B51", ("yellow", "white"), "orange", 11, None, ("green", 1)),
    ("B52", ("yellow", "white"), "green", 12, None, ("violet", 2)),
    ("B53", ("yellow", "white"), "violet", 13, None, ("blue", 3)),
    ("B54", ("yellow", "white"), "blue", 11, None, ("orange", 4)),
)
GOODS: tuple[GoodsRow, ...] = (
    ("G01", (("silk", 1),), True, ("green", 5)),
    ("G02", (("silk", 1),), True, ("violet", 6)),
    ("G03", (("silk", 1),), False, ("orange", 1)),
    ("G04", (("silk", 1),), False, ("green", 2)),
    ("G05", (("silk", 2),), True, ("violet", 3)),
    ("G06", (("silk", 2),), False, ("blue", 4)),
    ("G07", (("silk", 2),), False, ("orange", 5)),
    ("G08", (("silk", 2),), False, ("green", 6)),
    ("G09", (("silk", 3),), False, ("blue", 1)),
    ("G10", (("silk", 3),), False, ("orange", 2)),
    ("G11", (("tea", 1),), True, ("green", 3)),
    ("G12", (("tea", 1),), True, ("violet", 4)),
    ("G13", (("tea", 1),), False, ("blue", 5)),
    ("G14", (("tea", 1),), False, ("orange", 6)),
    ("G15", (("tea", 2),), True, ("violet", 1)),
    ("G16", (("tea", 2),), False, ("blue", 2)),
    ("G17", (("tea", 2),), False, ("orange", 3)),
    ("G18", (("tea", 2),), False, ("green", 4)),
    ("G19", (("tea", 3),), False, ("violet", 5)),
    ("G20", (("tea", 3),), False, ("blue", 6)),
    ("G21", (("spice", 1),), True, ("green", 1)),
    ("G22", (("spice", 1),), True, ("violet", 2)),
    ("G23", (("spice", 1),), False, ("blue", 3)),
    ("G24", (("spice", 1),), False, ("orange", 4)),
    ("G25", (("spice", 2),), True, ("green", 5)),
    ("G26", (("spice", 2),), False, ("violet", 6)),
    ("G27", (("spice", 2),), False, ("orange", 1)),
    ("G28", (("spice", 2),), False, ("green", 2)),
    ("G29", (("spice", 3),), False, ("violet", 3)),
    ("G30", (("spice", 3),), False, ("blue", 4)),
    ("G31", (("silk", 1), ("tea", 1)), True, ("orange", 5)),
    ("G32", (("silk", 1), ("tea", 1)), False, ("green", 6)),
    ("G33", (("silk", 1), ("tea", 1)), False, ("blue", 1)),
    ("G34", (("silk", 1), ("tea", 1)), False, ("orange", 2)),
    ("G35", (("silk", 1), ("spice", 1)), True, ("green", 3)),
    ("G36", (("silk", 1), ("spice", 1)), False, ("violet", 4)),
    ("G37", (("silk", 1), ("spice", 1)), False, ("blue", 5)),
    ("G38", (("silk", 1), ("spice", 1)), False, ("orange", 6)),
    ("G39", (("tea", 1), ("spice", 1)), True, ("violet", 1)),
    ("G40", (("tea", 1), ("spice", 1)), False, ("blue", 2)),
    ("G41", (("tea", 1), ("spice", 1)), False, ("orange", 3)),
    ("G42", (("tea", 1), ("spice", 1)), False, ("green", 4)),
)
PALACES: tuple[PalaceRow, ...] = (
    ("P01", 2, "dice2", ("violet", 5)),
    ("P02", 2, "dice2", ("blue", 6)),
    ("P03", 2, "dice2", ("green", 1)),
    ("P04", 2, "dice2", ("violet", 2)),
    ("P05", 3, "karma2_die1", ("blue", 3)),
    ("P06", 3, "karma2_die1", ("orange", 4)),
    ("P07", 3, "karma2_die1", ("green", 5)),
    ("P08", 3, "karma2_die1", ("violet", 6)),
    ("P09", 4, "coin_per_goods_symbol", ("orange", 1)),
    ("P10", 4, "coin_per_goods_symbol", ("green", 2)),
    ("P11", 4, "coin_per_goods_symbol", ("violet", 3)),
    ("P12", 4, "coin_per_goods_symbol", ("blue", 4)),
    ("P13", 5, "karma1_repeat_last_ship", ("orange", 5)),
    ("P14", 5, "karma1_repeat_last_ship", ("green", 6)),
    ("P15", 5, "karma1_repeat_last_ship", ("blue", 1)),
    ("P16", 5, "karma1_repeat_last_ship", ("orange", 2)),
    ("P17", 6, "top_card_free", ("green", 3)),
    ("P18", 6, "top_card_free", ("violet", 4)),
    ("P19", 6, "top_card_free", ("blue", 5)),
    ("P20", 6, "top_card_free", ("orange", 6)),
)


def catalogue_back(index: int) -> tuple[str, int]:
    """The spec's back formula: `PAIRS[(7 * index) % 24]` (violet 1..6, blue, orange, green)."""
    pairs = [(c, v) for c in DIE_COLOURS for v in DIE_VALUES]
    return pairs[(7 * index) % len(pairs)]


def _ship_reward(code: str) -> tuple[str, tuple[Goods, ...]]:
    """Split `die1_good(silk)` into the immediate reward `die1` and the ship's goods symbol."""
    if code.endswith(")"):
        head, good = code[:-1].split("(")
        return head.removesuffix("_good"), (Goods(good, 1),)
    return code, ()


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for cid, number, cost, code, back in SHIPS:
        reward, goods = _ship_reward(code)
        cards.append(
            Card(
                cid,
                len(cards),
                "ship",
                back[0],
                back[1],
                number=number,
                cost_value=cost,
                reward=reward,
                goods=goods,
            )
        )
    for cid, types, colour, min_sum, good, back in BUILDINGS:
        cards.append(
            Card(
                cid,
                len(cards),
                "building",
                back[0],
                back[1],
                cost_colour=colour,
                min_sum=min_sum,
                buildings=types,
                goods=(Goods(*good),) if good else (),
            )
        )
    for cid, goods_list, coin, back in GOODS:
        cards.append(
            Card(
                cid,
                len(cards),
                "goods",
                back[0],
                back[1],
                goods=tuple(Goods(g, v) for g, v in goods_list),
                coin=coin,
            )
        )
    for cid, cost, effect, back in PALACES:
        cards.append(
            Card(cid, len(cards), "palace", back[0], back[1], cost_value=cost, effect=effect)
        )
    return tuple(cards)


CATALOGUE: tuple[Card, ...] = _build()
"""Every play card in catalogue order."""
CARDS: dict[str, Card] = {c.id: c for c in CATALOGUE}
"""Play cards by id (`S01`, `B11`, `G17`, `P09`, …)."""


# ---- cards in words (log lines and refusals name cards the way a player reads them) ----------
# The words are English message ids (context "ganges"); the server shows them in the reader's
# language. A card's words are a `Phrase`, so a log line keeps them translatable.

G = "ganges"
"""The catalogues' context of Ganges' words ("red" building, "green" die differ elsewhere)."""

COLOUR_WORDS: dict[str, str] = {
    "violet": trc("ganges", "violet"),
    "blue": trc("ganges", "blue"),
    "orange": trc("ganges", "orange"),
    "green": trc("ganges", "green"),
}
"""Die colours."""

BUILDING_WORDS: dict[str, str] = {
    "red": trc("ganges", "red"),
    "yellow": trc("ganges", "yellow"),
    "white": trc("ganges", "white"),
}
"""Building types."""

GOOD_WORDS: dict[str, str] = {
    "silk": trc("ganges", "silk"),
    "tea": trc("ganges", "tea"),
    "spice": trc("ganges", "spice"),
}
"""Goods."""

REWARD_WORDS: dict[str, str] = {
    "coins2_fame1": trc("ganges", "+2 coins, +1 fame"),
    "coins3": trc("ganges", "+3 coins"),
    "karma2": trc("ganges", "+2 karma"),
    "dice2": trc("ganges", "take 2 die cards"),
    "goodscards1or2": trc("ganges", "take 1–2 goods cards"),
    "goodscard1_die1": trc("ganges", "1 goods card + 1 die card"),
    "die1": trc("ganges", "take 1 die card"),
    "fame1": trc("ganges", "+1 fame"),
    "karma1": trc("ganges", "+1 karma"),
    "palace": trc("ganges", "use a palace card free"),
}
"""Ship rewards, by code (the part of a code in brackets, a good, is named by the card)."""

EFFECT_WORDS: dict[str, str] = {
    "dice2": trc("ganges", "take 2 die cards"),
    "karma2_die1": trc("ganges", "+2 karma, take 1 die card"),
    "coin_per_goods_symbol": trc("ganges", "1 coin per goods symbol you have"),
    "karma1_repeat_last_ship": trc("ganges", "+1 karma, repeat the last ship's reward"),
    "top_card_free": trc("ganges", "carry out the deck's top card free"),
}
"""Palace card effects, by code."""


BONUS_WORDS: dict[str, str] = {
    "karma2": trc("ganges", "+2 karma"),
    "coins2_or_palace": trc("ganges", "2 coins or palace"),
    "fame1_or_ship": trc("ganges", "1 fame or ship"),
    "admin1": trc("ganges", "+1 admin"),
    "dice2": trc("ganges", "2 die cards"),
    "extra_action": trc("ganges", "extra action"),
}
"""Score-track bonuses, by code."""


KIND_WORDS: dict[str, str] = {
    "building": trc("ganges", "building"),
    "ship": trc("ganges", "ship"),
    "goods": trc("ganges", "goods"),
    "palace": trc("ganges", "palace"),
}
"""Card kinds in words."""

PROMPT_WORDS: dict[str, str] = {
    "action": trc("ganges", "a main action"),
    "end_turn": trc("ganges", "the end of a turn"),
    "discard": trc("ganges", "a discard (hand limit)"),
    "pick": trc("ganges", "a card to pick"),
    "choose": trc("ganges", "a bonus option"),
    "resolve": trc("ganges", "a choice of triples"),
    "convert": trc("ganges", "a track card to flip"),
}
"""What the game can wait for, in words (for a refusal)."""

OPTION_WORDS: dict[str, str] = {
    "coins": trc("ganges", "2 coins"),
    "palace": trc("ganges", "a palace card"),
    "fame": trc("ganges", "1 fame"),
    "ship": trc("ganges", "a ship"),
}
"""The options of a two-way track bonus, in words."""


def word(words: dict[str, str], code: str) -> Term:
    """A Ganges word by its code, for a message parameter."""
    return Term(words.get(code, code), G)


def colour_word(colour: str) -> Term:
    """A die colour (or a building's cost colour); one shared term per colour (terms are
    frozen, and events name colours at most steps)."""
    found = _COLOUR_TERMS.get(colour)
    if found is None:
        found = _COLOUR_TERMS[colour] = word(COLOUR_WORDS, colour)
    return found


_COLOUR_TERMS: dict[str, Term] = {}


def reward_words(code: str) -> Phrase:
    """A ship's reward in words: `karma1_good(spice)` → `+1 karma, a spice good`."""
    base, _, good = code.partition("_good(")
    reward = word(REWARD_WORDS, base)
    if good:
        return Phrase(
            tr("%(reward)s, a %(good)s good"),
            {"reward": reward, "good": word(GOOD_WORDS, good.rstrip(")"))},
        )
    return Phrase(tr("%(reward)s"), {"reward": reward})


def card_words(card_id: str) -> Phrase:
    """A card's action side in words: `ship 12 (take 2 die cards)`, `red+yellow building`…

    One shared phrase per card (made on first use: phrases are never changed once made)."""
    found = _CARD_PHRASES.get(card_id)
    if found is None:
        found = _CARD_PHRASES[card_id] = _card_words(card_id)
    return found


_CARD_PHRASES: dict[str, Phrase] = {}


def _card_words(card_id: str) -> Phrase:
    """`card_words`, made."""
    c = CARDS[card_id]
    if c.kind == "ship":
        return Phrase(
            tr("ship %(number)s (%(reward)s)"),
            {"number": c.number, "reward": reward_words(c.reward)},
        )
    if c.kind == "building":
        types = [word(BUILDING_WORDS, t) for t in c.buildings]
        if len(types) == 1:
            return Phrase(tr("%(type)s building"), {"type": types[0]})
        return Phrase(tr("%(type)s+%(other)s building"), {"type": types[0], "other": types[1]})
    if c.kind == "goods":
        goods = [
            Phrase(tr("%(good)s %(value)s"), {"good": word(GOOD_WORDS, g.good), "value": g.value})
            for g in c.goods
        ]
        if c.coin:
            return Phrase(tr("goods card (%(goods)s, +1 coin)"), {"goods": goods})
        return Phrase(tr("goods card (%(goods)s)"), {"goods": goods})
    return Phrase(
        tr("palace card %(cost)s (%(effect)s)"),
        {"cost": c.cost_value, "effect": word(EFFECT_WORDS, c.effect)},
    )
