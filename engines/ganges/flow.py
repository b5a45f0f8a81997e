"""Ganges: Cards & Karma — the flow of play: the task stack, the settle step, turns.

Rule source: docs/rules/ganges.md ("Round structure", "The turn", "The five actions",
"The settle step", "Table, deck and discard pile").

Every helper here mutates a state that `apply` has already copied. Work that may need a
decision is a `Task` on `state.tasks` (a stack, resolved depth-first); `advance` runs the stack
until a decision is needed (then `state.prompt` names the seat and the choices) or the game ends.
"""

from __future__ import annotations

from engines.core import Event, tr, who
from engines.ganges.basics import (
    Events,
    active_seat,
    conversions,
    draw,
    flipped_count,
    gain_admin,
    gain_tokens,
    has_finished,
    new_task,
    prompt,
    push,
    refill_table,
    table_cards,
    table_empty,
    to_hand,
    turn_prompt,
)
from engines.ganges.cards import (
    ADMIN_TRIPLE_FAME,
    BONUS_WORDS,
    COINS_PER_FLIP,
    FAME_PER_FLIP,
    HAND_LIMIT,
    TRIPLE,
    card_words,
    word,
)
from engines.ganges.display import (
    apply_bonus_option,
    bonus_options,
    carry_out_top_card,
    gain_palace_effect,
    gain_ship_reward,
    gain_track_bonus,
    take_for_task,
)
from engines.ganges.state import Conversion, Resolution, State, own_player
from engines.ganges.triples import resolutions, triple_words

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
            else not table_empty(state)
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
        # The one change to a player before its own answer: its copy is made here (the
        # player who acts is copied by `apply` itself).
        own_player(state, seat)
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
    # Replaced, not appended to: states share the list (`copy_for_apply`).
    state.__dict__["track_history"] = [
        *state.track_history,
        tuple(flipped_count(p) for p in state.players),
    ]
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
            if table_empty(state):
                if events is not None:
                    events.append(
                        Event.public(
                            tr("%(who)s has no card to take; the action lapses."), who=who(seat)
                        )
                    )
                state.owed = 0
                continue
            fields["prompt"] = turn_prompt("action", seat, state.owed)
            return
        if state.players[seat].admins > 0:
            fields["prompt"] = turn_prompt("end_turn", seat)
            return
        end_turn(state, events)
