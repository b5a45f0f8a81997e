"""Ganges: Cards & Karma — putting cards into a player's display and carrying them out:
buildings, goods, ships and their rewards, palaces and their effects, the track bonuses.

Rule source: docs/rules/ganges.md ("The five actions", "Table, deck and discard pile").

Every helper here mutates a state that `apply` has already copied; work that needs a decision
is pushed as a `Task` (basics.py) for the flow (flow.py) to run.
"""

from __future__ import annotations

from engines.core import Event, tr, who
from engines.ganges.basics import (
    Events,
    draw,
    gain_admin,
    gain_tokens,
    hand_task,
    new_task,
    push,
    remove_from_table,
    table_cards,
    to_hand,
)
from engines.ganges.cards import (
    CARDS,
    card_words,
)
from engines.ganges.state import State, Task
from engines.ganges.triples import goods_symbol_count

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
