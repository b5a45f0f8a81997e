"""Dreadful Circus card data: the PROVISIONAL 63-card set (docs/rules/dreadful-circus.md).

The seed rulebook (the publisher's Polish rulebook) gives no card list. The set below is
the spec's provisional one: one row per design, copies split by player-count marker. The rules
refer to a card's behaviour only through its `effect` key, so an official list can replace these
rows without touching the rules code, as long as it reuses the effect keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.core import Term, trc

Kind = Literal["attraction", "performance"]
Timing = Literal["scoring", "permanent", "immediate", "none"]

METALS: tuple[str, ...] = ("copper", "silver", "gold")
CITIES: tuple[str, ...] = ("berlin", "paris", "vegas", "prague", "london")
ITEMS: tuple[str, ...] = METALS + CITIES
"""The eight kinds of goods a screen or wagon holds, in this fixed order."""
COIN_VALUES: tuple[int, ...] = (1, 2, 3)

START_COINS: tuple[int, ...] = (3, 2, 1)
START_CONTRACTS = 6
CONTRACTS_PER_CITY = 11
COLLECTION_DESIGNS: tuple[str, ...] = ("ice_cream", "cotton_candy", "popcorn", "candied_apple")
COLLECTION_VP: tuple[int, ...] = (0, 2, 5, 9)
"""VP of one Collection set by its size (1 to 3 different designs)."""

CONTRACT_COLOURS: dict[str, str] = {
    "grey": "berlin",
    "violet": "paris",
    "green": "vegas",
    "turquoise": "prague",
    "pink": "london",
}


DC = "dreadful_circus"
"""The catalogues' context of the game's words."""

METAL_WORDS: dict[str, str] = {
    "copper": trc("dreadful_circus", "copper"),
    "silver": trc("dreadful_circus", "silver"),
    "gold": trc("dreadful_circus", "gold"),
}
CITY_WORDS: dict[str, str] = {
    "berlin": trc("dreadful_circus", "Berlin"),
    "paris": trc("dreadful_circus", "Paris"),
    "vegas": trc("dreadful_circus", "Vegas"),
    "prague": trc("dreadful_circus", "Prague"),
    "london": trc("dreadful_circus", "London"),
}
DESIGN_WORDS: dict[str, str] = {
    "ice_cream": trc("dreadful_circus", "ice cream"),
    "cotton_candy": trc("dreadful_circus", "cotton candy"),
    "popcorn": trc("dreadful_circus", "popcorn"),
    "candied_apple": trc("dreadful_circus", "candied apple"),
}
"""Collection designs."""
COLOUR_MEANINGS: dict[str, str] = {
    "orange": trc("dreadful_circus", "Collection"),
    "red": trc("dreadful_circus", "Interaction"),
    "yellow": trc("dreadful_circus", "Coins"),
    "blue": trc("dreadful_circus", "Various"),
}
"""What a card colour means (contract colours mean their city)."""
COLOUR_WORDS: dict[str, str] = {
    "orange": trc("dreadful_circus", "orange"),
    "red": trc("dreadful_circus", "red"),
    "yellow": trc("dreadful_circus", "yellow"),
    "blue": trc("dreadful_circus", "blue"),
    "grey": trc("dreadful_circus", "grey"),
    "violet": trc("dreadful_circus", "violet"),
    "green": trc("dreadful_circus", "green"),
    "turquoise": trc("dreadful_circus", "turquoise"),
    "pink": trc("dreadful_circus", "pink"),
}
COLLECTION_TEXTS: dict[str, str] = {
    "ice_cream": trc("dreadful_circus", "Collection card (ice cream)."),
    "cotton_candy": trc("dreadful_circus", "Collection card (cotton candy)."),
    "popcorn": trc("dreadful_circus", "Collection card (popcorn)."),
    "candied_apple": trc("dreadful_circus", "Collection card (candied apple)."),
}
CONTRACT_TEXTS: dict[str, str] = {
    "berlin": trc("dreadful_circus", "Counts as one Berlin contract."),
    "paris": trc("dreadful_circus", "Counts as one Paris contract."),
    "vegas": trc("dreadful_circus", "Counts as one Vegas contract."),
    "prague": trc("dreadful_circus", "Counts as one Prague contract."),
    "london": trc("dreadful_circus", "Counts as one London contract."),
}


def word(words: dict[str, str], code: str) -> Term:
    """A game word by its code, for a message parameter."""
    return Term(words.get(code, code), DC)


@dataclass(frozen=True)
class CardDesign:
    """One card design (row of the spec's tables)."""

    id: str
    name: str
    kind: Kind
    colour: str
    base: int
    plus5: int
    plus7: int
    vp: int
    timing: Timing
    effect: str
    """The rule key the engine dispatches on (several designs may share one)."""
    text: str
    collection: str | None = None
    """Collection design of an orange card."""
    city: str | None = None
    """City of a contract-colour card."""
    copyable: bool = False
    """Whether Distorting Mirrors / Twisted Corridors may copy its scoring effect."""
    polish_name: str | None = None


def _collection(cid: str, name: str, design: str, polish: str | None) -> CardDesign:
    return CardDesign(
        cid,
        name,
        "attraction",
        "orange",
        3,
        1,
        0,
        0,
        "scoring",
        "collection",
        COLLECTION_TEXTS[design],
        collection=design,
        copyable=True,
        polish_name=polish,
    )


def _contract(cid: str, name: str, colour: str, base: int, plus7: int) -> CardDesign:
    city = CONTRACT_COLOURS[colour]
    return CardDesign(
        cid,
        name,
        "attraction",
        colour,
        base,
        0,
        plus7,
        1,
        "scoring",
        "contract",
        CONTRACT_TEXTS[city],
        city=city,
        copyable=True,
    )


def _attraction(
    cid: str,
    name: str,
    colour: str,
    copies: tuple[int, int, int],
    vp: int,
    timing: Timing,
    text: str,
    *,
    copyable: bool = False,
    polish: str | None = None,
) -> CardDesign:
    return CardDesign(
        cid,
        name,
        "attraction",
        colour,
        *copies,
        vp,
        timing,
        cid,
        text,
        copyable=copyable,
        polish_name=polish,
    )


def _performance(
    cid: str,
    name: str,
    colour: str,
    copies: tuple[int, int, int],
    text: str,
    polish: str | None = None,
) -> CardDesign:
    return CardDesign(
        cid, name, "performance", colour, *copies, 0, "immediate", cid, text, polish_name=polish
    )


DESIGNS_LIST: tuple[CardDesign, ...] = (
    _collection(
        "ice_cream_cones", trc("dreadful_circus", "Ice-Cream Cones"), "ice_cream", "Lodowe Rożki"
    ),
    _collection(
        "cotton_candy", trc("dreadful_circus", "Cotton Candy"), "cotton_candy", "Słodkie Chmurki"
    ),
    _collection(
        "exploding_cobs", trc("dreadful_circus", "Exploding Cobs"), "popcorn", "Wybuchowe Kolby"
    ),
    _collection("candied_apples", trc("dreadful_circus", "Candied Apples"), "candied_apple", None),
    _contract("cabaret_of_shadows", trc("dreadful_circus", "Cabaret of Shadows"), "grey", 1, 0),
    _contract("clockwork_automaton", trc("dreadful_circus", "Clockwork Automaton"), "grey", 0, 1),
    _contract(
        "cancan_of_the_damned", trc("dreadful_circus", "Can-Can of the Damned"), "violet", 1, 0
    ),
    _contract("catacomb_mime", trc("dreadful_circus", "Mime of the Catacombs"), "violet", 0, 1),
    _contract("neon_illusionist", trc("dreadful_circus", "Neon Illusionist"), "green", 1, 0),
    _contract("one_armed_bandit", trc("dreadful_circus", "One-Armed Bandit Revue"), "green", 0, 1),
    _contract("clay_golem", trc("dreadful_circus", "Clay Golem"), "turquoise", 1, 0),
    _contract(
        "astronomical_clock", trc("dreadful_circus", "Astronomical Clock Ride"), "turquoise", 0, 1
    ),
    _contract("fog_carousel", trc("dreadful_circus", "Fog Carousel"), "pink", 1, 0),
    _contract("tower_ravens", trc("dreadful_circus", "Ravens of the Tower"), "pink", 0, 1),
    _attraction(
        "flaming_arrow",
        trc("dreadful_circus", "Flaming Arrow"),
        "yellow",
        (1, 0, 0),
        0,
        "scoring",
        trc(
            "dreadful_circus",
            "+3 VP for each set of one copper, one silver and one gold coin you hold.",
        ),
        copyable=True,
        polish="Płonąca Strzała",
    ),
    _attraction(
        "gilded_cage",
        trc("dreadful_circus", "Gilded Cage"),
        "yellow",
        (1, 0, 0),
        1,
        "scoring",
        trc("dreadful_circus", "+1 VP for each gold coin you hold."),
        copyable=True,
    ),
    _attraction(
        "penny_arcade",
        trc("dreadful_circus", "Penny Arcade"),
        "yellow",
        (1, 0, 0),
        1,
        "scoring",
        trc("dreadful_circus", "+1 VP for every 2 copper coins you hold."),
        copyable=True,
    ),
    _attraction(
        "fortune_machine",
        trc("dreadful_circus", "Fortune-Telling Machine"),
        "yellow",
        (0, 1, 0),
        1,
        "permanent",
        trc("dreadful_circus", "Each time you win an offer, take 1 copper from the supply."),
    ),
    _attraction(
        "iron_strongbox",
        trc("dreadful_circus", "Iron Strongbox"),
        "yellow",
        (0, 0, 1),
        1,
        "permanent",
        trc(
            "dreadful_circus",
            "Other players' effects cannot take coins from you (not a target for loading coins;"
            " Toll Gate takes nothing).",
        ),
    ),
    _attraction(
        "scales_of_themis",
        trc("dreadful_circus", "Scales of Themis"),
        "blue",
        (1, 0, 0),
        2,
        "scoring",
        trc(
            "dreadful_circus", "You win ties for contract majorities and the first final tie-break."
        ),
        copyable=True,
        polish="Waga Temidy",
    ),
    _attraction(
        "the_loop",
        trc("dreadful_circus", "The Loop"),
        "blue",
        (1, 0, 0),
        1,
        "scoring",
        trc("dreadful_circus", "A contract set of 5 different types is worth 11 VP."),
        copyable=True,
        polish="Pętla",
    ),
    _attraction(
        "distorting_mirrors",
        trc("dreadful_circus", "Distorting Mirrors"),
        "blue",
        (1, 0, 0),
        0,
        "scoring",
        trc(
            "dreadful_circus",
            "Copies the scoring effect of an Attraction of your left or right neighbour.",
        ),
        polish="Krzywe Lustra",
    ),
    _attraction(
        "crystal_balls",
        trc("dreadful_circus", "Crystal Balls"),
        "blue",
        (1, 0, 0),
        0,
        "scoring",
        trc("dreadful_circus", "Counts as one Collection card of the design you choose."),
        polish="Kryształowe Kule",
    ),
    _attraction(
        "twisted_corridors",
        trc("dreadful_circus", "Twisted Corridors"),
        "blue",
        (0, 1, 0),
        0,
        "scoring",
        trc("dreadful_circus", "Copies the scoring effect of another Attraction in your area."),
        polish="Zakręcone Korytarze",
    ),
    _attraction(
        "rainbow_bridge",
        trc("dreadful_circus", "Rainbow Bridge"),
        "blue",
        (0, 1, 0),
        0,
        "scoring",
        trc("dreadful_circus", "Counts as one contract of the type you choose."),
        copyable=True,
        polish="Tęczowy Most",
    ),
    _attraction(
        "pickled_things",
        trc("dreadful_circus", "Pickled Things"),
        "blue",
        (0, 0, 1),
        0,
        "scoring",
        trc(
            "dreadful_circus",
            "+1 VP for each different printed colour among the Attractions in your area.",
        ),
        copyable=True,
    ),
    _attraction(
        "hall_of_wax",
        trc("dreadful_circus", "Hall of Wax Figures"),
        "blue",
        (0, 0, 1),
        3,
        "none",
        trc("dreadful_circus", "No effect."),
    ),
    _attraction(
        "barkers_booth",
        trc("dreadful_circus", "Barker's Booth"),
        "red",
        (1, 0, 0),
        1,
        "permanent",
        trc(
            "dreadful_circus",
            "Each time you, as a seller, accept a wagon, take 1 copper from the supply.",
        ),
    ),
    _attraction(
        "guard_dogs",
        trc("dreadful_circus", "Guard Dogs"),
        "red",
        (1, 0, 0),
        1,
        "permanent",
        trc(
            "dreadful_circus",
            "Other players' Performances can never choose you, load your wagon or touch your area.",
        ),
    ),
    _attraction(
        "toll_gate",
        trc("dreadful_circus", "Toll Gate"),
        "red",
        (1, 0, 0),
        1,
        "permanent",
        trc(
            "dreadful_circus",
            "Each time a neighbour wins an offer, they give you 1 copper if they have one.",
        ),
    ),
    _attraction(
        "sticky_monkey",
        trc("dreadful_circus", "Sticky-Fingered Monkey"),
        "red",
        (0, 1, 0),
        1,
        "permanent",
        trc(
            "dreadful_circus",
            "When your Performance loads other players' wagons, you may take 1 more item.",
        ),
    ),
    _performance(
        "bendy_marcella",
        trc("dreadful_circus", "Bendy Marcella"),
        "red",
        (1, 0, 0),
        trc(
            "dreadful_circus",
            "Choose another player: they load all their coins; take 1 coin of your choice.",
        ),
        "Giętka Marcella",
    ),
    _performance(
        "knife_thrower",
        trc("dreadful_circus", "Knife Thrower"),
        "red",
        (1, 0, 0),
        trc(
            "dreadful_circus",
            "Choose another player: they load all their contracts; take 2 of your choice.",
        ),
    ),
    _performance(
        "pickpocket_clowns",
        trc("dreadful_circus", "Pickpocket Clowns"),
        "red",
        (1, 0, 0),
        trc(
            "dreadful_circus",
            "Every other player loads all their coins; take 1 copper from each wagon that has one.",
        ),
    ),
    _performance(
        "human_cannonball",
        trc("dreadful_circus", "Human Cannonball"),
        "red",
        (1, 0, 0),
        trc(
            "dreadful_circus",
            "Choose two other players: each loads all contracts; take 1 from each wagon.",
        ),
    ),
    _performance(
        "candy_thieves",
        trc("dreadful_circus", "Candy Thieves"),
        "red",
        (0, 1, 0),
        trc("dreadful_circus", "Move one Collection card of another player's area into your area."),
    ),
    _performance(
        "fire_breather",
        trc("dreadful_circus", "Fire-Breather"),
        "red",
        (0, 0, 1),
        trc(
            "dreadful_circus",
            "Choose two other players: each loads all coins; take 1 copper or silver from each.",
        ),
    ),
    _performance(
        "coin_juggler",
        trc("dreadful_circus", "Coin Juggler"),
        "yellow",
        (2, 0, 0),
        trc("dreadful_circus", "Take 1 silver and 1 copper from the supply."),
    ),
    _performance(
        "golden_trapeze",
        trc("dreadful_circus", "Golden Trapeze"),
        "yellow",
        (1, 0, 0),
        trc("dreadful_circus", "Take 1 gold."),
    ),
    _performance(
        "strongman",
        trc("dreadful_circus", "Strongman"),
        "yellow",
        (1, 0, 0),
        trc("dreadful_circus", "Take 3 copper."),
    ),
    _performance(
        "alchemist",
        trc("dreadful_circus", "Alchemist"),
        "yellow",
        (0, 1, 0),
        trc("dreadful_circus", "Turn 0 to 3 of your copper into silver, then take 1 copper."),
    ),
    _performance(
        "rain_of_coins",
        trc("dreadful_circus", "Rain of Coins"),
        "yellow",
        (0, 0, 1),
        trc("dreadful_circus", "Every player takes 1 copper, you first; then you take 1 silver."),
    ),
    _performance(
        "sleight_of_hand",
        trc("dreadful_circus", "Sleight of Hand"),
        "blue",
        (2, 0, 0),
        trc("dreadful_circus", "Draw 3 contracts from the bag."),
    ),
    _performance(
        "tightrope_walker",
        trc("dreadful_circus", "Tightrope Walker"),
        "blue",
        (1, 0, 0),
        trc("dreadful_circus", "Draw 4 contracts, keep 2 of your choice, return the others."),
    ),
    _performance(
        "vanishing_cabinet",
        trc("dreadful_circus", "Vanishing Cabinet"),
        "blue",
        (1, 0, 0),
        trc(
            "dreadful_circus",
            "You may swap an Attraction of your area with one of another player's area.",
        ),
    ),
    _performance(
        "encore",
        trc("dreadful_circus", "Encore!"),
        "blue",
        (1, 0, 0),
        trc("dreadful_circus", "With 4 or more cards in hand, you may play 1 card from your hand."),
    ),
    _performance(
        "resurrection_show",
        trc("dreadful_circus", "Resurrection Show"),
        "blue",
        (0, 1, 0),
        trc("dreadful_circus", "You may put an Attraction from the discard pile into your area."),
    ),
    _performance(
        "grand_parade",
        trc("dreadful_circus", "Grand Parade"),
        "blue",
        (0, 1, 0),
        trc("dreadful_circus", "Every player draws 1 contract, you first; then you draw 1 more."),
    ),
    _performance(
        "wheel_of_fortune",
        trc("dreadful_circus", "Wheel of Fortune"),
        "blue",
        (0, 0, 1),
        trc(
            "dreadful_circus",
            "Return any of your contracts to the bag, then draw that many plus 1.",
        ),
    ),
)

DESIGNS: dict[str, CardDesign] = {d.id: d for d in DESIGNS_LIST}


def deck_for(num_players: int) -> list[str]:
    """The unshuffled deck for a player count: base, +5+ with 5–6, everything with 7–8."""
    deck: list[str] = []
    for d in DESIGNS_LIST:
        copies = (
            d.base + (d.plus5 if num_players >= 5 else 0) + (d.plus7 if num_players >= 7 else 0)
        )
        deck += [d.id] * copies
    return deck


def hand_size(num_players: int) -> int:
    """Cards dealt to each player: 8 with 4–6 players, 7 with 7–8."""
    return 8 if num_players <= 6 else 7


def is_attraction(card: str) -> bool:
    """Whether a card is an Attraction (tent symbol)."""
    return DESIGNS[card].kind == "attraction"


def effect_of(card: str) -> str:
    """The rule key of a card."""
    return DESIGNS[card].effect


def name_of(card: str) -> Term:
    """The card's name, shown in the reader's language."""
    return Term(DESIGNS[card].name, DC)
