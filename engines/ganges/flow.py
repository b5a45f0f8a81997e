"""Ganges: Cards & Karma — the flow of play: gains, the task stack, the settle step, turns.

Rule source: docs/rules/ganges.md ("Round structure", "The turn", "The five actions",
"The settle step", "Table, deck and discard pile").

Every helper here mutates a state that `apply` has already copied. Work that may need a
decision is a `Task` on `state.tasks` (a stack, resolved depth-first); `advance` runs the stack
until a decision is needed (then `state.prompt` names the seat and the choices) or the game ends.
"""

from __future__ import annotations

from engines.core import Event, Phrase, forms, tr, who
from engines.ganges.cards import (
    ADMIN_TRIPLE_FAME,
    BONUS_WORDS,
    CARDS,
    COINS_PER_FLIP,
    EMPTY_TABLE_REFILL,
    FAME_PER_FLIP,
    HAND_LIMIT,
    TIE_POINTS_PER_COIN,
    TIE_POINTS_PER_FAME,
    TRIPLE,
    card_words,
    colour_word,
    word,
)
from engines.ganges.payment import Die
from engines.ganges.state import Conversion, Player, Prompt, Resolution, State, Task
from engines.ganges.triples import goods_symbol_count, resolutions, triple_words

Events = list[Event] | None
"""Where the events of a step go; None when nobody reads them (a bot's playout, `play`)."""


# ---- small named rules ------------------------------------------------------------------------


def active_seat(state: State) -> int:
    """The seat whose turn it is."""
    return (state.start_player + state.turn) % state.num_players


def die_text(state: State, card_id: str) -> Phrase:
    """`blue 5`: a card's die side."""
    return Phrase(
        tr("%(colour)s %(value)s"),
        {"colour": colour_word(CARDS[card_id].die_colour), "value": state.values[card_id]},
    )


def hand_dice(state: State, seat: int) -> list[Die]:
    """A player's hand as dice."""
    return [Die(c, CARDS[c].die_colour, state.values[c]) for c in state.players[seat].hand]


def table_cards(state: State, kind: str | None = None) -> list[str]:
    """Cards on the table in slot order, optionally only one kind."""
    return [c for c in state.table if c is not None and (kind is None or CARDS[c].kind == kind)]


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
    open_positions = [i + 1 for i, t in enumerate(player.track) if not t.flipped]
    if not open_positions:
        return []
    ways: list[str] = []
    if player.fame >= FAME_PER_FLIP:
        ways.append("fame")
    if player.coins >= COINS_PER_FLIP:
        ways.append("coins")
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
    object.__setattr__(new, "__dict__", data)
    object.__setattr__(new, "__pydantic_fields_set__", {"kind", "seat", *fields})
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


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
    state.deck = state.rng.shuffled(state.discard)
    state.discard = []
    if events is not None:
        events.append(Event.public("The discard pile is shuffled into a new deck."))


def draw(state: State, events: Events) -> str | None:
    """Take the deck's top card (reshuffling when needed); None if there is no card at all."""
    reshuffle(state, events)
    if not state.deck:
        return None
    card_id = state.deck.pop(0)
    reshuffle(state, events)
    return card_id


def check_empty_table(state: State, events: Events) -> None:
    """An empty table at once gets the top 4 deck cards (slots 1–4)."""
    if any(c is not None for c in state.table):
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


# ---- putting cards into a display and carrying them out ---------------------------------------


def place_building(state: State, events: Events, seat: int, card_id: str) -> None:
    """A building joins the building row: 1 fame per building symbol."""
    state.players[seat].buildings.append(card_id)
    if events is not None:
        events.append(
            Event.public(tr("%(who)s builds a %(card)s."), who=who(seat), card=card_words(card_id))
        )
    gain_tokens(state, events, seat, fame=len(CARDS[card_id].buildings))


def place_goods(state: State, events: Events, seat: int, card_id: str) -> None:
    """A goods card joins the goods row, with its immediate coin if it shows one."""
    state.players[seat].goods.append(card_id)
    if events is not None:
        events.append(
            Event.public(tr("%(who)s takes the %(card)s."), who=who(seat), card=card_words(card_id))
        )
    if CARDS[card_id].coin:
        gain_tokens(state, events, seat, coins=1)


SHIP_ROW_BROKEN = tr("%(who)s's ship %(number)s breaks the ascending row: %(cards)s are discarded.")


def place_ship(state: State, events: Events, seat: int, card_id: str) -> None:
    """Ship-row rule, then the ship's reward (queued, so it runs before anything else)."""
    row = state.players[seat].ships
    number = CARDS[card_id].number
    if row and number < CARDS[row[-1]].number:
        state.discard += row
        if events is not None:
            events.append(
                Event.public(
                    SHIP_ROW_BROKEN,
                    who=who(seat),
                    number=number,
                    cards=[card_words(s) for s in row],
                )
            )
        row.clear()
    row.append(card_id)
    state.last_ship = card_id
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s adds %(card)s to their ships."), who=who(seat), card=card_words(card_id)
            )
        )
    push(state, new_task("reward", code=CARDS[card_id].reward))


def carry_out_palace(state: State, events: Events, seat: int, card_id: str) -> None:
    """A palace card is carried out for its effect, then discarded."""
    state.carried.append(card_id)
    if events is not None:
        events.append(
            Event.public(tr("%(who)s uses the %(card)s."), who=who(seat), card=card_words(card_id))
        )
    push(
        state,
        new_task("effect", code=CARDS[card_id].effect),
        new_task("discard_carried", source=card_id),
    )


def gain_ship_reward(state: State, events: Events, seat: int, code: str) -> None:
    """A ship's immediate reward (also repeated by palace 5)."""
    if code == "coins2_fame1":
        gain_tokens(state, events, seat, coins=2, fame=1)
    elif code == "coins3":
        gain_tokens(state, events, seat, coins=3)
    elif code == "karma2":
        gain_tokens(state, events, seat, karma=2)
    elif code == "fame1":
        gain_tokens(state, events, seat, fame=1)
    elif code == "karma1":
        gain_tokens(state, events, seat, karma=1)
    elif code == "dice2":
        push(state, hand_task(), hand_task())
    elif code == "die1":
        push(state, hand_task())
    elif code == "goodscards1or2":
        push(state, new_task("take", code="goods"), new_task("take", code="goods", optional=True))
    elif code == "goodscard1_die1":
        push(state, new_task("take", code="goods"), hand_task())
    elif code == "palace":
        push(state, new_task("take", code="palace"))
    else:  # pragma: no cover - the data module only uses the codes above
        raise ValueError(f"unknown ship reward {code}")


def gain_palace_effect(state: State, events: Events, seat: int, code: str) -> None:
    """A palace card's effect."""
    if code == "dice2":
        push(state, hand_task(), hand_task())
    elif code == "karma2_die1":
        gain_tokens(state, events, seat, karma=2)
        push(state, hand_task())
    elif code == "coin_per_goods_symbol":
        gain_tokens(state, events, seat, coins=goods_symbol_count(state.players[seat]))
    elif code == "karma1_repeat_last_ship":
        gain_tokens(state, events, seat, karma=1)
        if state.last_ship is not None:
            reward = CARDS[state.last_ship].reward
            if events is not None:
                events.append(
                    Event.public(
                        tr("%(who)s repeats the reward of the %(card)s."),
                        who=who(seat),
                        card=card_words(state.last_ship),
                    )
                )
            gain_ship_reward(state, events, seat, reward)
    elif code == "top_card_free":
        push(state, new_task("top_card"))
    else:  # pragma: no cover - the data module only uses the codes above
        raise ValueError(f"unknown palace effect {code}")


def gain_track_bonus(state: State, events: Events, seat: int, code: str) -> None:
    """A flipped track card's one-time bonus."""
    if code == "karma2":
        gain_tokens(state, events, seat, karma=2)
    elif code == "admin1":
        gain_admin(state, events, seat)
    elif code == "dice2":
        push(state, hand_task(), hand_task())
    elif code == "extra_action":
        state.owed += 1
        if events is not None:
            events.append(Event.public(tr("%(who)s will take an extra action."), who=who(seat)))
    elif code in ("coins2_or_palace", "fame1_or_ship"):
        push(state, new_task("choose", code=code))
    else:  # pragma: no cover - the data module only uses the codes above
        raise ValueError(f"unknown track bonus {code}")


def bonus_options(state: State, code: str) -> list[str]:
    """The options of a two-way track bonus that are possible now."""
    if code == "coins2_or_palace":
        return ["coins"] + (["palace"] if table_cards(state, "palace") else [])
    return ["fame"] + (["ship"] if table_cards(state, "ship") else [])


def apply_bonus_option(state: State, events: Events, seat: int, option: str) -> None:
    """Carry out the chosen option of a two-way track bonus."""
    if option == "coins":
        gain_tokens(state, events, seat, coins=2)
    elif option == "fame":
        gain_tokens(state, events, seat, fame=1)
    else:
        push(state, new_task("take", code=option))


def take_for_task(state: State, events: Events, seat: int, task: Task, card_id: str) -> None:
    """Finish a `hand` or `take` task with the chosen table card."""
    remove_from_table(state, events, card_id)
    if task.kind == "hand":
        to_hand(state, events, seat, card_id, "table")
    elif task.code == "goods":
        place_goods(state, events, seat, card_id)
    elif task.code == "palace":
        carry_out_palace(state, events, seat, card_id)
    else:
        place_ship(state, events, seat, card_id)


def carry_out_top_card(state: State, events: Events, seat: int) -> None:
    """Palace 6: the deck's top card is carried out for free (never taken as a die)."""
    card_id = draw(state, events)
    if card_id is None:
        if events is not None:
            events.append(Event.public("There is no card left for the palace."))
        return
    kind = CARDS[card_id].kind
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s carries out the deck's top card, the %(card)s, free."),
                who=who(seat),
                card=card_words(card_id),
            )
        )
    if kind == "building":
        place_building(state, events, seat, card_id)
    elif kind == "goods":
        place_goods(state, events, seat, card_id)
    elif kind == "ship":
        place_ship(state, events, seat, card_id)
    else:
        carry_out_palace(state, events, seat, card_id)


# ---- the settle step --------------------------------------------------------------------------


def resolve_triples(state: State, events: Events, seat: int, res: Resolution) -> None:
    """Discard every card carrying a used symbol, then pay the triples' rewards."""
    p = state.players[seat]
    for t in res.triples:
        if events is not None:
            events.append(
                Event.public(
                    tr("%(who)s completes a triple: %(triple)s."),
                    who=who(seat),
                    triple=triple_words(t),
                )
            )
    gone = set(res.discard)
    p.buildings = [c for c in p.buildings if c not in gone]
    p.ships = [c for c in p.ships if c not in gone]
    p.goods = [c for c in p.goods if c not in gone]
    state.discard += res.discard
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s discards %(cards)s."),
                who=who(seat),
                cards=[card_words(c) for c in res.discard],
            )
        )
    for _ in range(res.admins):
        gain_admin(state, events, seat)
    if res.coins:
        gain_tokens(state, events, seat, coins=res.coins)


def convert(state: State, events: Events, seat: int, conv: Conversion) -> None:
    """Spend 3 fame or 6 coins, flip the track card, gain its bonus."""
    p = state.players[seat]
    if conv.by == "fame":
        p.fame -= FAME_PER_FLIP
    else:
        p.coins -= COINS_PER_FLIP
    card = p.track[conv.position - 1].model_copy(update={"flipped": True})
    p.track[conv.position - 1] = card
    if conv.by == "fame":
        message = tr("%(who)s spends %(count)s fame and flips track card %(position)s: %(bonus)s.")
        count = FAME_PER_FLIP
    else:
        message = tr("%(who)s spends %(count)s coins and flips track card %(position)s: %(bonus)s.")
        count = COINS_PER_FLIP
    if events is not None:
        events.append(
            Event.public(
                message,
                who=who(seat),
                count=count,
                position=conv.position,
                bonus=word(BONUS_WORDS, card.bonus),
            )
        )
    if has_finished(p) and events is not None:
        events.append(
            Event.public(
                tr("%(who)s has flipped all six cards: this is the last round."), who=who(seat)
            )
        )
    gain_track_bonus(state, events, seat, card.bonus)


def settle_once(state: State, events: Events, seat: int) -> bool | None:
    """One pass of the settle step (steps 1–4, first that applies).

    Returns True if something happened, None if a prompt now waits, False if nothing applies.
    """
    p = state.players[seat]
    options = resolutions(p)
    if len(options) == 1:
        resolve_triples(state, events, seat, options[0])
        return True
    if options:
        state.prompt = prompt("resolve", seat=seat, reason="triples", resolutions=options)
        return None
    if p.karma >= TRIPLE:
        p.karma -= TRIPLE
        if events is not None:
            events.append(
                Event.public(
                    tr("%(who)s returns %(count)s karma for an administrator."),
                    who=who(seat),
                    count=TRIPLE,
                )
            )
        gain_admin(state, events, seat)
        return True
    if p.admins >= TRIPLE:
        p.admins -= TRIPLE
        state.admin_supply += TRIPLE
        if events is not None:
            events.append(
                Event.public(
                    tr("%(who)s returns %(count)s administrators for fame."),
                    who=who(seat),
                    count=TRIPLE,
                )
            )
        gain_tokens(state, events, seat, fame=ADMIN_TRIPLE_FAME)
        return True
    convs = conversions(state, p)
    if len(convs) == 1:
        convert(state, events, seat, convs[0])
        return True
    if convs:
        state.prompt = prompt("convert", seat=seat, reason="track", conversions=convs)
        return None
    return False


# ---- running the task stack -------------------------------------------------------------------


def step_task(state: State, events: Events) -> bool:
    """Work on the top task; False when a decision is needed (the prompt is set)."""
    seat = active_seat(state)
    task = state.tasks[-1]
    p = state.players[seat]
    if task.kind == "settle":
        done = settle_once(state, events, seat)
        if done is None:
            return False
        if done is False:
            state.tasks.pop()
        return True
    if task.kind == "hand":
        source = task.source
        available = (
            bool(state.deck or state.discard)
            if source == "deck"
            else bool(table_cards(state))
            if source == "table"
            else source in state.table
        )
        if not available:
            state.tasks.pop()
            return True
        if len(p.hand) >= HAND_LIMIT:
            state.prompt = prompt("discard", seat=seat, reason="hand limit", cards=list(p.hand))
            return False
        if source == "deck":
            state.tasks.pop()
            card_id = draw(state, events)
            if card_id is not None:
                to_hand(state, events, seat, card_id, "deck")
            return True
        choices = [source] if source != "table" else table_cards(state)
        if len(choices) == 1:
            state.tasks.pop()
            take_for_task(state, events, seat, task, choices[0])
            return True
        state.prompt = prompt("pick", seat=seat, reason="die card", cards=choices)
        return False
    if task.kind == "take":
        choices = table_cards(state, task.code)
        if not choices:
            state.tasks.pop()
            return True
        if len(choices) == 1 and not task.optional:
            state.tasks.pop()
            take_for_task(state, events, seat, task, choices[0])
            return True
        reason = f"{task.code} card" + (" (optional)" if task.optional else "")
        state.prompt = prompt(
            "pick", seat=seat, reason=reason, cards=choices, optional=task.optional
        )
        return False
    if task.kind == "choose":
        options = bonus_options(state, task.code)
        if len(options) == 1:
            state.tasks.pop()
            apply_bonus_option(state, events, seat, options[0])
            return True
        state.prompt = prompt("choose", seat=seat, reason=task.code, options=options)
        return False
    state.tasks.pop()
    if task.kind == "effect":
        gain_palace_effect(state, events, seat, task.code)
    elif task.kind == "reward":
        gain_ship_reward(state, events, seat, task.code)
    elif task.kind == "top_card":
        carry_out_top_card(state, events, seat)
    else:  # discard_carried
        state.carried.remove(task.source)
        state.discard.append(task.source)
    return True


def begin_turn(state: State, events: Events) -> None:
    """A new turn: one main action owed; the start player's phase-2 turn opens with the elephant."""
    seat = active_seat(state)
    state.owed = 1
    if events is not None:
        events.append(
            Event.public(
                tr("Round %(round)s, phase %(phase)s: %(who)s's turn."),
                round=state.round,
                phase=state.phase,
                who=who(seat),
            )
        )
    if state.phase == 2 and state.turn == 0:
        state.elephant_green = False
        if events is not None:
            events.append(Event.public(tr("%(who)s turns the elephant over."), who=who(seat)))
        gain_tokens(state, events, seat, karma=1)
        push(state, new_task("settle"))


def end_turn(state: State, events: Events) -> None:
    """Pass the turn on; after both phases end the round (and maybe the game)."""
    state.owed = 0
    state.turn += 1
    if state.turn < state.num_players:
        begin_turn(state, events)
        return
    state.turn = 0
    if state.phase == 1:
        state.phase = 2
        begin_turn(state, events)
        return
    state.track_history.append(tuple(flipped_count(p) for p in state.players))
    if any(has_finished(p) for p in state.players):
        state.over = True
        state.prompt = None
        if events is not None:
            events.append(Event.public("The round is over and so is the game."))
        return
    refill_table(state, events)
    state.round += 1
    state.phase = 1
    state.start_player = (state.start_player + 1) % state.num_players
    state.elephant_green = True
    if events is not None:
        events.append(
            Event.public(tr("The elephant passes to %(who)s."), who=who(state.start_player))
        )
    begin_turn(state, events)


def advance(state: State, events: Events) -> None:
    """Run pending work until a decision is needed or the game is over.

    The prompt is stored straight into the state's fields (no pydantic `__setattr__`: this
    runs at every step of a bot's playout, and the field is a plain attribute)."""
    fields = state.__dict__
    fields["prompt"] = None
    while not state.over:
        if state.tasks:
            if not step_task(state, events):
                return
            continue
        seat = active_seat(state)
        if state.owed > 0:
            if not table_cards(state):
                if events is not None:
                    events.append(
                        Event.public(
                            tr("%(who)s has no card to take; the action lapses."), who=who(seat)
                        )
                    )
                state.owed = 0
                continue
            fields["prompt"] = prompt("action", seat=seat, owed=state.owed)
            return
        if state.players[seat].admins > 0:
            fields["prompt"] = prompt("end_turn", seat=seat)
            return
        end_turn(state, events)
