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


# ---- the provisional card set: one row per design; its words by id ----------------------

NAMES: dict[str, str] = {
    "ice_cream_cones": trc("dreadful_circus", "Ice-Cream Cones"),
    "cotton_candy": trc("dreadful_circus", "Cotton Candy"),
    "exploding_cobs": trc("dreadful_circus", "Exploding Cobs"),
    "candied_apples": trc("dreadful_circus", "Candied Apples"),
    "cabaret_of_shadows": trc("dreadful_circus", "Cabaret of Shadows"),
    "clockwork_automaton": trc("dreadful_circus", "Clockwork Automaton"),
    "cancan_of_the_damned": trc("dreadful_circus", "Can-Can of the Damned"),
    "catacomb_mime": trc("dreadful_circus", "Mime of the Catacombs"),
    "neon_illusionist": trc("dreadful_circus", "Neon Illusionist"),
    "one_armed_bandit": trc("dreadful_circus", "One-Armed Bandit Revue"),
    "clay_golem": trc("dreadful_circus", "Clay Golem"),
    "astronomical_clock": trc("dreadful_circus", "Astronomical Clock Ride"),
    "fog_carousel": trc("dreadful_circus", "Fog Carousel"),
    "tower_ravens": trc("dreadful_circus", "Ravens of the Tower"),
    "flaming_arrow": trc("dreadful_circus", "Flaming Arrow"),
    "gilded_cage": trc("dreadful_circus", "Gilded Cage"),
    "penny_arcade": trc("dreadful_circus", "Penny Arcade"),
    "fortune_machine": trc("dreadful_circus", "Fortune-Telling Machine"),
    "iron_strongbox": trc("dreadful_circus", "Iron Strongbox"),
    "scales_of_themis": trc("dreadful_circus", "Scales of Themis"),
    "the_loop": trc("dreadful_circus", "The Loop"),
    "distorting_mirrors": trc("dreadful_circus", "Distorting Mirrors"),
    "crystal_balls": trc("dreadful_circus", "Crystal Balls"),
    "twisted_corridors": trc("dreadful_circus", "Twisted Corridors"),
    "rainbow_bridge": trc("dreadful_circus", "Rainbow Bridge"),
    "pickled_things": trc("dreadful_circus", "Pickled Things"),
    "hall_of_wax": trc("dreadful_circus", "Hall of Wax Figures"),
    "barkers_booth": trc("dreadful_circus", "Barker's Booth"),
    "guard_dogs": trc("dreadful_circus", "Guard Dogs"),
    "toll_gate": trc("dreadful_circus", "Toll Gate"),
    "sticky_monkey": trc("dreadful_circus", "Sticky-Fingered Monkey"),
    "bendy_marcella": trc("dreadful_circus", "Bendy Marcella"),
    "knife_thrower": trc("dreadful_circus", "Knife Thrower"),
    "pickpocket_clowns": trc("dreadful_circus", "Pickpocket Clowns"),
    "human_cannonball": trc("dreadful_circus", "Human Cannonball"),
    "candy_thieves": trc("dreadful_circus", "Candy Thieves"),
    "fire_breather": trc("dreadful_circus", "Fire-Breather"),
    "coin_juggler": trc("dreadful_circus", "Coin Juggler"),
    "golden_trapeze": trc("dreadful_circus", "Golden Trapeze"),
    "strongman": trc("dreadful_circus", "Strongman"),
    "alchemist": trc("dreadful_circus", "Alchemist"),
    "rain_of_coins": trc("dreadful_circus", "Rain of Coins"),
    "sleight_of_hand": trc("dreadful_circus", "Sleight of Hand"),
    "tightrope_walker": trc("dreadful_circus", "Tightrope Walker"),
    "vanishing_cabinet": trc("dreadful_circus", "Vanishing Cabinet"),
    "encore": trc("dreadful_circus", "Encore!"),
    "resurrection_show": trc("dreadful_circus", "Resurrection Show"),
    "grand_parade": trc("dreadful_circus", "Grand Parade"),
    "wheel_of_fortune": trc("dreadful_circus", "Wheel of Fortune"),
}
"""Every design's English name, by id."""
POLISH_NAMES: dict[str, str] = {
    "ice_cream_cones": "Lodowe Rożki",
    "cotton_candy": "Słodkie Chmurki",
    "exploding_cobs": "Wybuchowe Kolby",
    "flaming_arrow": "Płonąca Strzała",
    "scales_of_themis": "Waga Temidy",
    "the_loop": "Pętla",
    "distorting_mirrors": "Krzywe Lustra",
    "crystal_balls": "Kryształowe Kule",
    "twisted_corridors": "Zakręcone Korytarze",
    "rainbow_bridge": "Tęczowy Most",
    "bendy_marcella": "Giętka Marcella",
}
"""The names the seed rulebook gives in Polish (the others are translated in the catalogues)."""
RULE_TEXTS: dict[str, str] = {
    "flaming_arrow": trc(
        "dreadful_circus",
        "+3 VP for each set of one copper, one silver and one gold coin you hold.",
    ),
    "gilded_cage": trc("dreadful_circus", "+1 VP for each gold coin you hold."),
    "penny_arcade": trc("dreadful_circus", "+1 VP for every 2 copper coins you hold."),
    "fortune_machine": trc(
        "dreadful_circus",
        "Each time you win an offer, take 1 copper from the supply.",
    ),
    "iron_strongbox": trc(
        "dreadful_circus",
        "Other players' effects cannot take coins from you (not a target for loading "
        "coins; Toll Gate takes nothing).",
    ),
    "scales_of_themis": trc(
        "dreadful_circus",
        "You win ties for contract majorities and the first final tie-break.",
    ),
    "the_loop": trc("dreadful_circus", "A contract set of 5 different types is worth 11 VP."),
    "distorting_mirrors": trc(
        "dreadful_circus",
        "Copies the scoring effect of an Attraction of your left or right neighbour.",
    ),
    "crystal_balls": trc(
        "dreadful_circus",
        "Counts as one Collection card of the design you choose.",
    ),
    "twisted_corridors": trc(
        "dreadful_circus",
        "Copies the scoring effect of another Attraction in your area.",
    ),
    "rainbow_bridge": trc("dreadful_circus", "Counts as one contract of the type you choose."),
    "pickled_things": trc(
        "dreadful_circus",
        "+1 VP for each different printed colour among the Attractions in your area.",
    ),
    "hall_of_wax": trc("dreadful_circus", "No effect."),
    "barkers_booth": trc(
        "dreadful_circus",
        "Each time you, as a seller, accept a wagon, take 1 copper from the supply.",
    ),
    "guard_dogs": trc(
        "dreadful_circus",
        "Other players' Performances can never choose you, load your wagon or touch your area.",
    ),
    "toll_gate": trc(
        "dreadful_circus",
        "Each time a neighbour wins an offer, they give you 1 copper if they have one.",
    ),
    "sticky_monkey": trc(
        "dreadful_circus",
        "When your Performance loads other players' wagons, you may take 1 more item.",
    ),
    "bendy_marcella": trc(
        "dreadful_circus",
        "Choose another player: they load all their coins; take 1 coin of your choice.",
    ),
    "knife_thrower": trc(
        "dreadful_circus",
        "Choose another player: they load all their contracts; take 2 of your choice.",
    ),
    "pickpocket_clowns": trc(
        "dreadful_circus",
        "Every other player loads all their coins; take 1 copper from each wagon that has one.",
    ),
    "human_cannonball": trc(
        "dreadful_circus",
        "Choose two other players: each loads all contracts; take 1 from each wagon.",
    ),
    "candy_thieves": trc(
        "dreadful_circus",
        "Move one Collection card of another player's area into your area.",
    ),
    "fire_breather": trc(
        "dreadful_circus",
        "Choose two other players: each loads all coins; take 1 copper or silver from each.",
    ),
    "coin_juggler": trc("dreadful_circus", "Take 1 silver and 1 copper from the supply."),
    "golden_trapeze": trc("dreadful_circus", "Take 1 gold."),
    "strongman": trc("dreadful_circus", "Take 3 copper."),
    "alchemist": trc(
        "dreadful_circus",
        "Turn 0 to 3 of your copper into silver, then take 1 copper.",
    ),
    "rain_of_coins": trc(
        "dreadful_circus",
        "Every player takes 1 copper, you first; then you take 1 silver.",
    ),
    "sleight_of_hand": trc("dreadful_circus", "Draw 3 contracts from the bag."),
    "tightrope_walker": trc(
        "dreadful_circus",
        "Draw 4 contracts, keep 2 of your choice, return the others.",
    ),
    "vanishing_cabinet": trc(
        "dreadful_circus",
        "You may swap an Attraction of your area with one of another player's area.",
    ),
    "encore": trc(
        "dreadful_circus",
        "With 4 or more cards in hand, you may play 1 card from your hand.",
    ),
    "resurrection_show": trc(
        "dreadful_circus",
        "You may put an Attraction from the discard pile into your area.",
    ),
    "grand_parade": trc(
        "dreadful_circus",
        "Every player draws 1 contract, you first; then you draw 1 more.",
    ),
    "wheel_of_fortune": trc(
        "dreadful_circus",
        "Return any of your contracts to the bag, then draw that many plus 1.",
    ),
}
"""What an Attraction or a Performance does, by id (Collection and contract cards say it by
their design or city)."""

COLLECTIONS: tuple[tuple[str, str], ...] = (
    # id, Collection design
    ("ice_cream_cones", "ice_cream"),
    ("cotton_candy", "cotton_candy"),
    ("exploding_cobs", "popcorn"),
    ("candied_apples", "candied_apple"),
)
CONTRACTS: tuple[tuple[str, str, int, int], ...] = (
    # id, colour, copies (base, 7+ players)
    ("cabaret_of_shadows", "grey", 1, 0),
    ("clockwork_automaton", "grey", 0, 1),
    ("cancan_of_the_damned", "violet", 1, 0),
    ("catacomb_mime", "violet", 0, 1),
    ("neon_illusionist", "green", 1, 0),
    ("one_armed_bandit", "green", 0, 1),
    ("clay_golem", "turquoise", 1, 0),
    ("astronomical_clock", "turquoise", 0, 1),
    ("fog_carousel", "pink", 1, 0),
    ("tower_ravens", "pink", 0, 1),
)
ATTRACTIONS: tuple[tuple[str, str, tuple[int, int, int], int, Timing, bool], ...] = (
    # id, colour, copies (base, 5+, 7+ players), VP, timing, copyable by Mirrors/Corridors
    ("flaming_arrow", "yellow", (1, 0, 0), 0, "scoring", True),
    ("gilded_cage", "yellow", (1, 0, 0), 1, "scoring", True),
    ("penny_arcade", "yellow", (1, 0, 0), 1, "scoring", True),
    ("fortune_machine", "yellow", (0, 1, 0), 1, "permanent", False),
    ("iron_strongbox", "yellow", (0, 0, 1), 1, "permanent", False),
    ("scales_of_themis", "blue", (1, 0, 0), 2, "scoring", True),
    ("the_loop", "blue", (1, 0, 0), 1, "scoring", True),
    ("distorting_mirrors", "blue", (1, 0, 0), 0, "scoring", False),
    ("crystal_balls", "blue", (1, 0, 0), 0, "scoring", False),
    ("twisted_corridors", "blue", (0, 1, 0), 0, "scoring", False),
    ("rainbow_bridge", "blue", (0, 1, 0), 0, "scoring", True),
    ("pickled_things", "blue", (0, 0, 1), 0, "scoring", True),
    ("hall_of_wax", "blue", (0, 0, 1), 3, "none", False),
    ("barkers_booth", "red", (1, 0, 0), 1, "permanent", False),
    ("guard_dogs", "red", (1, 0, 0), 1, "permanent", False),
    ("toll_gate", "red", (1, 0, 0), 1, "permanent", False),
    ("sticky_monkey", "red", (0, 1, 0), 1, "permanent", False),
)
PERFORMANCES: tuple[tuple[str, str, tuple[int, int, int]], ...] = (
    # id, colour, copies (base, 5+, 7+ players)
    ("bendy_marcella", "red", (1, 0, 0)),
    ("knife_thrower", "red", (1, 0, 0)),
    ("pickpocket_clowns", "red", (1, 0, 0)),
    ("human_cannonball", "red", (1, 0, 0)),
    ("candy_thieves", "red", (0, 1, 0)),
    ("fire_breather", "red", (0, 0, 1)),
    ("coin_juggler", "yellow", (2, 0, 0)),
    ("golden_trapeze", "yellow", (1, 0, 0)),
    ("strongman", "yellow", (1, 0, 0)),
    ("alchemist", "yellow", (0, 1, 0)),
    ("rain_of_coins", "yellow", (0, 0, 1)),
    ("sleight_of_hand", "blue", (2, 0, 0)),
    ("tightrope_walker", "blue", (1, 0, 0)),
    ("vanishing_cabinet", "blue", (1, 0, 0)),
    ("encore", "blue", (1, 0, 0)),
    ("resurrection_show", "blue", (0, 1, 0)),
    ("grand_parade", "blue", (0, 1, 0)),
    ("wheel_of_fortune", "blue", (0, 0, 1)),
)


def _collection(cid: str, design: str) -> CardDesign:
    return CardDesign(
        cid,
        NAMES[cid],
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
        polish_name=POLISH_NAMES.get(cid),
    )


def _contract(cid: str, colour: str, base: int, plus7: int) -> CardDesign:
    city = CONTRACT_COLOURS[colour]
    return CardDesign(
        cid,
        NAMES[cid],
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
        polish_name=POLISH_NAMES.get(cid),
    )


def _attraction(
    cid: str, colour: str, copies: tuple[int, int, int], vp: int, timing: Timing, copyable: bool
) -> CardDesign:
    return CardDesign(
        cid,
        NAMES[cid],
        "attraction",
        colour,
        *copies,
        vp,
        timing,
        cid,
        RULE_TEXTS[cid],
        copyable=copyable,
        polish_name=POLISH_NAMES.get(cid),
    )


def _performance(cid: str, colour: str, copies: tuple[int, int, int]) -> CardDesign:
    return CardDesign(
        cid,
        NAMES[cid],
        "performance",
        colour,
        *copies,
        0,
        "immediate",
        cid,
        RULE_TEXTS[cid],
        polish_name=POLISH_NAMES.get(cid),
    )


DESIGNS_LIST: tuple[CardDesign, ...] = (
    *(_collection(*row) for row in COLLECTIONS),
    *(_contract(*row) for row in CONTRACTS),
    *(_attraction(*row) for row in ATTRACTIONS),
    *(_performance(*row) for row in PERFORMANCES),
)
"""Every design, in the deck's order (Collection, contract, other Attraction, Performance)."""

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
