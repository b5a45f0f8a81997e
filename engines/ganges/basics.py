"""Ganges: Cards & Karma — the small named rules, the task stack's pieces, cards moving
(deck, table, hand, discard pile) and gaining administrators and tokens. Used by the display
(display.py), the flow (flow.py), the rules (rules.py) and the view.

Rule source: docs/rules/ganges.md ("Table, deck and discard pile", "The turn").

Every helper here mutates a state that `apply` has already copied.
"""

from __future__ import annotations

from engines.core import (
    SET_DICT,
    SET_EXTRA,
    SET_FIELDS_SET,
    SET_PRIVATE,
    Event,
    Phrase,
    copy_state,
    forms,
    tr,
    who,
)
from engines.ganges.cards import (
    CARDS,
    COINS_PER_FLIP,
    EMPTY_TABLE_REFILL,
    FAME_PER_FLIP,
    TIE_POINTS_PER_COIN,
    TIE_POINTS_PER_FAME,
    colour_word,
)
from engines.ganges.payment import Die
from engines.ganges.state import (
    Conversion,
    Player,
    Prompt,
    State,
    Task,
)

Events = list[Event] | None
"""Where the events of a step go; None when nobody reads them (a bot's playout, `play`)."""


# ---- small named rules ------------------------------------------------------------------------


def active_seat(state: State) -> int:
    """The seat whose turn it is."""
    return (state.start_player + state.turn) % state.num_players


def die_text(state: State, card_id: str) -> Phrase:
    """`blue 5`: a card's die side (one shared phrase per colour and value: phrases are never
    changed once made)."""
    key = (CARDS[card_id].die_colour, state.values[card_id])
    found = _DIE_PHRASES.get(key)
    if found is None:
        found = _DIE_PHRASES[key] = Phrase(
            tr("%(colour)s %(value)s"), {"colour": colour_word(key[0]), "value": key[1]}
        )
    return found


_DIE_PHRASES: dict[tuple[str, int], Phrase] = {}


def hand_dice(state: State, seat: int) -> list[Die]:
    """A player's hand as dice."""
    return [Die(c, CARDS[c].die_colour, state.values[c]) for c in state.players[seat].hand]


def table_cards(state: State, kind: str | None = None) -> list[str]:
    """Cards on the table in slot order, optionally only one kind."""
    return [c for c in state.table if c is not None and (kind is None or CARDS[c].kind == kind)]


def table_empty(state: State) -> bool:
    """Whether no card lies on the table (`not table_cards(state)`, without listing them)."""
    table = state.table
    return table.count(None) == len(table)


def flipped_count(player: Player) -> int:
    """How many track cards the player has flipped."""
    return sum(1 for t in player.track if t.flipped)


def has_finished(player: Player) -> bool:
    """All six track cards flipped: the game ends after this round."""
    return all(t.flipped for t in player.track)


def tie_points(player: Player) -> int:
    """Tie-break points: 2 per fame token, 1 per coin."""
    return TIE_POINTS_PER_FAME * player.fame + TIE_POINTS_PER_COIN * player.coins


def conversions(state: State, player: Player) -> list[Conversion]:
    """The track flips the player could make now (fame → leftmost, coins → rightmost)."""
    ways: list[str] = []
    if player.fame >= FAME_PER_FLIP:
        ways.append("fame")
    if player.coins >= COINS_PER_FLIP:
        ways.append("coins")
    if not ways:
        return []
    open_positions = [i + 1 for i, t in enumerate(player.track) if not t.flipped]
    if not open_positions:
        return []
    out: list[Conversion] = []
    for by in ways:
        if state.night_side_up:
            out += [Conversion.model_validate({"by": by, "position": p}) for p in open_positions]
        else:
            pos = open_positions[0] if by == "fame" else open_positions[-1]
            out.append(Conversion.model_validate({"by": by, "position": pos}))
    return out


def new_task(kind: str, code: str = "", source: str = "", optional: bool = False) -> Task:
    """The shared task of these fields (tasks are frozen, and a state's copy shares them, so
    one validated instance per distinct task serves every state)."""
    key = (kind, code, source, optional)
    found = _TASKS.get(key)
    if found is None:
        found = _TASKS[key] = Task.model_validate(
            {"kind": kind, "code": code, "source": source, "optional": optional}
        )
    return found


_TASKS: dict[tuple[str, str, str, bool], Task] = {}
"""Every distinct task made so far (a few hundred at most: kinds × codes × cards)."""


def prompt(kind: str, seat: int, **fields: object) -> Prompt:
    """A prompt built from values the engine made itself, without validation (a bot's
    playouts set one at every step). Lists passed in must be new lists."""
    data: dict[str, object] = {
        "kind": kind,
        "seat": seat,
        "reason": "",
        "owed": 0,
        "cards": [],
        "optional": False,
        "options": [],
        "resolutions": [],
        "conversions": [],
    }
    data.update(fields)
    new = Prompt.__new__(Prompt)
    SET_DICT(new, data)
    SET_FIELDS_SET(new, {"kind", "seat", *fields})
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def turn_prompt(kind: str, seat: int, owed: int = 0) -> Prompt:
    """The shared `action` (with `owed`) or `end_turn` prompt of `seat`: `prompt(kind,
    seat=seat, owed=owed)` (or without `owed` for `end_turn`), made once (prompts are frozen,
    and one of these is set at most steps)."""
    key = (kind, seat, owed)
    found = _TURN_PROMPTS.get(key)
    if found is None:
        found = _TURN_PROMPTS[key] = (
            prompt(kind, seat=seat, owed=owed) if kind == "action" else prompt(kind, seat=seat)
        )
    return found


_TURN_PROMPTS: dict[tuple[str, int, int], Prompt] = {}


def push(state: State, *tasks: Task) -> None:
    """Put tasks on the stack so that the first one listed is done first."""
    state.tasks.extend(reversed(tasks))


def hand_task(source: str = "table") -> Task:
    """Take one card into hand from the table (player's pick), the deck, or a given card."""
    return new_task("hand", source=source)


# ---- cards moving -----------------------------------------------------------------------------


def reshuffle(state: State, events: Events) -> None:
    """Turn the shuffled discard pile into the new deck (action side up)."""
    if state.deck or not state.discard:
        return
    # The state's RNG may be shared with the state `apply` copied (`copy_for_apply`): draw
    # from a copy of it.
    rng = state.rng = copy_state(state.rng)
    state.deck = rng.shuffled(state.discard)
    state.discard = []
    if events is not None:
        events.append(Event.public("The discard pile is shuffled into a new deck."))


def draw(state: State, events: Events) -> str | None:
    """Take the deck's top card (reshuffling when needed); None if there is no card at all."""
    reshuffle(state, events)
    if not state.deck:
        return None
    deck = state.deck
    card_id = deck[0]
    # Replaced, not changed: consecutive states share the deck (`copy_for_apply`).
    state.__dict__["deck"] = deck[1:]
    reshuffle(state, events)
    return card_id


def check_empty_table(state: State, events: Events) -> None:
    """An empty table at once gets the top 4 deck cards (slots 1–4)."""
    if not table_empty(state):
        return
    laid = 0
    for slot in range(min(EMPTY_TABLE_REFILL, len(state.table))):
        card_id = draw(state, events)
        if card_id is None:
            break
        state.table[slot] = card_id
        laid += 1
    if laid and events is not None:
        events.append(
            Event.public(
                forms(
                    "The table was empty: %(count)s card is laid out.",
                    "The table was empty: %(count)s cards are laid out.",
                ),
                count=laid,
            )
        )


def remove_from_table(state: State, events: Events, card_id: str) -> None:
    """Take a card off its table slot (the slot stays empty until the refill)."""
    state.table[state.table.index(card_id)] = None
    check_empty_table(state, events)


def refill_table(state: State, events: Events) -> None:
    """Round end: fill every empty slot, in slot order, from the deck."""
    for slot, card_id in enumerate(state.table):
        if card_id is None:
            state.table[slot] = draw(state, events)


def to_hand(state: State, events: Events, seat: int, card_id: str, source: str) -> None:
    """A card enters a hand (`source` "table" or "deck"); others learn its colour, the owner
    its die."""
    state.players[seat].hand.append(card_id)
    if events is None:
        return
    colour = colour_word(CARDS[card_id].die_colour)
    die = die_text(state, card_id)
    if source == "table":
        mine = tr("You take a die card from the table: %(die)s.")
        theirs = tr("%(who)s takes a %(colour)s die card from the table.")
    else:
        mine = tr("You take a die card from the deck: %(die)s.")
        theirs = tr("%(who)s takes a %(colour)s die card from the deck.")
    events.append(Event.private(seat, mine, die=die))
    events.append(Event.others(seat, state.num_players, theirs, who=who(seat), colour=colour))


def discard_from_hand(state: State, events: Events, seat: int, card_id: str, message: str) -> None:
    """A hand card goes to the discard pile die side up (its value becomes public).

    `message` names the player as `%(who)s` and the die as `%(die)s`.
    """
    state.players[seat].hand.remove(card_id)
    state.discard.append(card_id)
    if events is not None:
        events.append(Event.public(message, who=who(seat), die=die_text(state, card_id)))


def gain_admin(state: State, events: Events, seat: int) -> None:
    """One administrator from the supply (lost when the supply is empty)."""
    if state.admin_supply <= 0:
        if events is not None:
            events.append(
                Event.public(
                    tr("No administrator is left in the supply for %(who)s."), who=who(seat)
                )
            )
        return
    state.admin_supply -= 1
    state.players[seat].admins += 1
    if events is not None:
        events.append(Event.public(tr("%(who)s gains an administrator."), who=who(seat)))


def gain_tokens(
    state: State, events: Events, seat: int, *, fame: int = 0, karma: int = 0, coins: int = 0
) -> None:
    """Fame, karma and coins from the (unlimited) supply."""
    p = state.players[seat]
    if fame:
        p.fame += fame
    if karma:
        p.karma += karma
    if coins:
        p.coins += coins
    if events is None:
        return
    parts = [
        Phrase.of(message, count=n)
        for n, message in ((fame, GAIN_FAME), (karma, GAIN_KARMA), (coins, GAIN_COINS))
        if n
    ]
    if parts:
        events.append(Event.public(tr("%(who)s gains %(gains)s."), who=who(seat), gains=parts))


GAIN_FAME = forms("%(count)s fame", "%(count)s fame")
GAIN_KARMA = forms("%(count)s karma", "%(count)s karma")
GAIN_COINS = forms("%(count)s coin", "%(count)s coins")
"""What a player gains, counted (Polish counts tokens: 1 żeton sławy, 2 żetony, 5 żetonów)."""
