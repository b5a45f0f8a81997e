"""Karmaka — the abilities that touch only the actor: Transmigrate, Destiny, Another Day, Voyage,
Recycle, Salvage, Sowing, Jubilee, Roulette.

Rule source: docs/rules/karmaka.md ("Cards").
They start from `begin_ability` (`abilities_resolve.py`); the map of every ability to its module
is in `abilities.py`.
"""

from __future__ import annotations

from engines.core import Event, Seat, forms, tr, who
from engines.karmaka.abilities_resolve import ask, chosen_card, finish, prompt_of, public_except
from engines.karmaka.cards import DESTINY_KEEP, DESTINY_LOOK
from engines.karmaka.model import AnyAction, Choose, Draw, PromptKind, State, new_prompt
from engines.karmaka.table import (
    TO_FUTURE_LIFE,
    card_term,
    card_terms,
    draw_from_well,
    hidden_move,
    put_on_well,
    ruin_from,
    take_from_well,
    unruin,
)


def transmigrate(state: State, actor: Seat, events: list[Event]) -> None:
    """Transmigrate: move any one Future Life card into the Hand."""
    if not state.players[actor].future:
        finish_nothing_self(state, "transmigrate", "The Future Life is empty.", events)
        return
    ask(state, new_prompt("transmigrate", actor, "transmigrate"), events)


def finish_nothing_self(state: State, card_kind: str, why: str, events: list[Event]) -> None:
    """A self ability that can change nothing still resolves (no target, offered clockwise)."""
    events.append(Event.public(why))
    finish(state, card_kind, None, events)


def answer_transmigrate(state: State, action: AnyAction, events: list[Event]) -> None:
    """Transmigrate: the card leaves the Future Life; its position from the top is public."""
    actor = prompt_of(state).seat
    card = chosen_card(action)
    future = state.players[actor].future
    position = len(future) - future.index(card)
    future.remove(card)
    state.players[actor].hand.append(card)
    events.append(
        Event.private(actor, "You take %(card)s from your Future Life.", card=card_term(card))
    )
    events.append(
        Event.public(
            "%(actor)s takes card %(position)s from the top of their Future Life.",
            actor=who(actor),
            position=position,
        )
    )
    finish(state, "transmigrate", None, events)


def destiny(state: State, actor: Seat, events: list[Event]) -> None:
    """Destiny: look at the top 3 Well cards, one at a time."""
    looked: list[int] = []
    for _ in range(DESTINY_LOOK):
        card = take_from_well(state, events)
        if card is None:
            break
        looked.append(card)
    if not looked:
        finish_nothing_self(state, "destiny", "The Well is empty.", events)
        return
    events.append(
        Event.private(actor, "You look at %(cards)s from the Well.", cards=card_terms(looked))
    )
    events.append(
        public_except(
            state,
            {actor},
            forms(
                "%(actor)s looks at %(count)s card of the Well.",
                "%(actor)s looks at %(count)s cards of the Well.",
            ),
            actor=who(actor),
            count=len(looked),
        )
    )
    prompt = new_prompt("destiny_keep", actor, "destiny", cards=looked, limit=len(looked))
    ask(state, prompt, events)


def answer_destiny_keep(state: State, action: AnyAction, events: list[Event]) -> None:
    """Destiny: keep a card on the Future Life (up to 2), or stop keeping."""
    p = prompt_of(state)
    if isinstance(action, Choose):
        p.cards.remove(action.card)
        state.players[p.seat].future.append(action.card)
        p.count += 1
        events.append(
            Event.private(
                p.seat, "You put %(card)s on your Future Life.", card=card_term(action.card)
            )
        )
        if p.count < DESTINY_KEEP and p.cards:
            ask(state, p, events)
            return
    destiny_return(state, events)


def destiny_return(state: State, events: list[Event]) -> None:
    """Destiny: the cards not kept go back on the Well one by one (the last ends on top)."""
    p = prompt_of(state)
    if not p.cards:
        kept, back = p.count, p.limit - p.count
        events.append(
            Event.public(
                forms(
                    "%(who)s puts %(kept)s on their Future Life and %(count)s card back "
                    "on the Well.",
                    "%(who)s puts %(kept)s on their Future Life and %(count)s cards back "
                    "on the Well.",
                ),
                who=who(p.seat),
                kept=kept,
                count=back,
            )
        )
        finish(state, "destiny", None, events)
        return
    back_prompt = p.model_copy(update={"kind": "destiny_return"})
    ask(state, back_prompt, events)


def answer_destiny_return(state: State, action: AnyAction, events: list[Event]) -> None:
    """Destiny: put the chosen card on top of the Well."""
    p = prompt_of(state)
    card = chosen_card(action)
    p.cards.remove(card)
    put_on_well(state, card)
    events.append(
        Event.private(p.seat, "You put %(card)s back on top of the Well.", card=card_term(card))
    )
    destiny_return(state, events)


def another_day(state: State, actor: Seat, events: list[Event]) -> None:
    """Another Day: draw 1 card from the Well."""
    draw_from_well(state, actor, 1, events)
    finish(state, "another_day", None, events)


def voyage(state: State, actor: Seat, events: list[Event]) -> None:
    """Voyage: draw 3 cards from the Well."""
    draw_from_well(state, actor, 3, events)
    finish(state, "voyage", None, events)


def recycle(state: State, actor: Seat, events: list[Event]) -> None:
    """Recycle: one of the top 3 Ruins cards onto the Future Life."""
    ruins_pick(state, actor, "recycle", events)


def salvage(state: State, actor: Seat, events: list[Event]) -> None:
    """Salvage: one of the top 3 Ruins cards into the Hand."""
    ruins_pick(state, actor, "salvage", events)


def ruins_pick(state: State, actor: Seat, card_kind: PromptKind, events: list[Event]) -> None:
    """Lay out the top 3 Ruins (fewer if there are fewer) for Recycle or Salvage."""
    top = state.ruins[-3:]
    if not top:
        finish_nothing_self(state, card_kind, "The Ruins are empty.", events)
        return
    ask(state, new_prompt(card_kind, actor, card_kind, cards=top), events)


def answer_ruins_pick(state: State, action: AnyAction, events: list[Event]) -> None:
    """Recycle / Salvage: the chosen card leaves the Ruins; the others keep their order."""
    p = prompt_of(state)
    card = chosen_card(action)
    unruin(state, card)
    me = state.players[p.seat]
    if p.kind == "recycle":
        me.future.append(card)
        message = tr("%(who)s takes %(card)s from the Ruins onto their Future Life.")
    else:
        me.hand.append(card)
        message = tr("%(who)s takes %(card)s from the Ruins into their Hand.")
    events.append(Event.public(message, who=who(p.seat), card=card_term(card)))
    finish(state, p.kind, None, events)


def sowing(state: State, actor: Seat, events: list[Event]) -> None:
    """Sowing: draw 2, then put 2 Hand cards on the Future Life (all if fewer)."""
    draw_from_well(state, actor, 2, events)
    need = min(2, len(state.players[actor].hand))
    if need == 0:
        finish(state, "sowing", None, events)
        return
    ask(state, new_prompt("sowing", actor, "sowing", limit=need), events)


def answer_sowing(state: State, action: AnyAction, events: list[Event]) -> None:
    """Sowing: one more card face-down on the Future Life."""
    p = prompt_of(state)
    card = chosen_card(action)
    me = state.players[p.seat]
    me.hand.remove(card)
    me.future.append(card)
    p.count += 1
    hidden_move(state, p.seat, card, *TO_FUTURE_LIFE, events)
    if p.count < p.limit:
        ask(state, p, events)
        return
    finish(state, "sowing", None, events)


def jubilee(state: State, actor: Seat, events: list[Event]) -> None:
    """Jubilee: up to 2 Hand cards onto the Deeds."""
    if not state.players[actor].hand:
        finish_nothing_self(state, "jubilee", "The Hand is empty.", events)
        return
    ask(state, new_prompt("jubilee", actor, "jubilee", limit=2), events)


def answer_jubilee(state: State, action: AnyAction, events: list[Event]) -> None:
    """Jubilee: one more card onto the Deeds, or stop."""
    p = prompt_of(state)
    me = state.players[p.seat]
    if isinstance(action, Choose):
        me.hand.remove(action.card)
        me.deeds.append(action.card)
        p.count += 1
        events.append(
            Event.public(
                "%(who)s adds %(card)s to their Deeds.",
                who=who(p.seat),
                card=card_term(action.card),
            )
        )
        if p.count < p.limit and me.hand:
            ask(state, p, events)
            return
    finish(state, "jubilee", None, events)


def roulette(state: State, actor: Seat, events: list[Event]) -> None:
    """Roulette: first ruin 0, 1 or 2 Hand cards."""
    if not state.players[actor].hand:
        roulette_draws(state, actor, 0, events)
        return
    ask(state, new_prompt("roulette_ruin", actor, "roulette", limit=2), events)


def answer_roulette_ruin(state: State, action: AnyAction, events: list[Event]) -> None:
    """Roulette: ruin one more card, or stop ruining."""
    p = prompt_of(state)
    me = state.players[p.seat]
    if isinstance(action, Choose):
        ruin_from(state, me.hand, action.card)
        p.count += 1
        events.append(
            Event.public(
                "%(who)s ruins %(card)s from their Hand.",
                who=who(p.seat),
                card=card_term(action.card),
            )
        )
        if p.count < p.limit and me.hand:
            ask(state, p, events)
            return
    roulette_draws(state, p.seat, p.count, events)


def roulette_draws(state: State, actor: Seat, ruined: int, events: list[Event]) -> None:
    """Roulette: then draw up to ruined + 1 cards, one at a time."""
    prompt = new_prompt("roulette_draw", actor, "roulette", limit=ruined + 1)
    ask(state, prompt, events)


def answer_roulette_draw(state: State, action: AnyAction, events: list[Event]) -> None:
    """Roulette: draw the next card (seen before deciding again), or stop."""
    p = prompt_of(state)
    if isinstance(action, Draw):
        drawn = draw_from_well(state, p.seat, 1, events)
        p.count += 1
        if drawn and p.count < p.limit:
            ask(state, p, events)
            return
    finish(state, "roulette", None, events)
