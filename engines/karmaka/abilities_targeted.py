"""Karmaka — the abilities aimed at a player: Peek, Stolen Dreams, Thievery, Swindle, Spite,
Longevity, Dwindle, Crisis, Panic, Vengeance, Hell's Heart.

Rule source: docs/rules/karmaka.md ("Cards", "Targets").
The target is asked for by `begin_ability` (`abilities_resolve.py`), named in `answer_target`
here, and the ability then resolves against it. The map of every ability to its module is in
`abilities.py`.
"""

from __future__ import annotations

from engines.core import Event, Seat, Term, forms, tr, who
from engines.karmaka.abilities_resolve import (
    TARGETED,
    ask,
    chosen_card,
    finish,
    prompt_of,
    public_except,
)
from engines.karmaka.cards import SPITE_PICKS, SWINDLE_PICKS
from engines.karmaka.model import (
    AnyAction,
    Pick,
    Pile,
    Prompt,
    PromptKind,
    Reveal,
    State,
    Target,
    new_prompt,
    read_player,
)
from engines.karmaka.table import (
    card_term,
    card_terms,
    kind_info,
    own_rng,
    pile_of,
    reveal,
    ruin_from,
    take_from_well,
)

# ---- targets -----------------------------------------------------------------------------------

WORKS_ON: dict[str, Pile] = {
    "stolen_dreams": "future",
    "thievery": "deeds",
    "swindle": "hand",
    "dwindle": "hand",
    "panic": "deck",
    "crisis": "deeds",
    "vengeance": "deeds",
    "spite": "hand",
}
"""The target's pile a targeted ability takes from: while it is empty the ability changes
nothing, but it still resolves against the target."""

EMPTY_PILE: dict[Pile, str] = {
    "hand": tr("%(target)s's Hand is empty."),
    "deck": tr("%(target)s's Deck is empty."),
    "future": tr("%(target)s's Future Life is empty."),
    "deeds": tr("%(target)s has no Deeds."),
}


def answer_target(state: State, action: AnyAction, events: list[Event]) -> None:
    """The target is named: the targeted ability resolves against it."""
    assert isinstance(action, Target)
    p = prompt_of(state)
    events.append(
        Event.public(
            "%(who)s aims %(name)s at %(who2)s.",
            who=who(p.seat),
            name=Term(kind_info(p.ability).name, "karmaka"),
            who2=who(action.seat),
        )
    )
    pile = WORKS_ON.get(p.ability)
    if pile is not None and not getattr(read_player(state.players, action.seat), pile):
        events.append(Event.public(EMPTY_PILE[pile], target=who(action.seat)))
        finish(state, p.ability, action.seat, events)
        return
    TARGETED[p.ability](state, p.seat, action.seat, events)


def peek(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Peek: only the actor sees the target's whole Hand."""
    hand = list(state.players[target].hand)
    reveal(state, Reveal(seat=actor, about=target, label="peek", cards=hand))
    events.append(
        Event.private(
            actor,
            "You see %(target)s's Hand: %(cards)s.",
            target=who(target),
            cards=card_terms(hand),
        )
    )
    events.append(
        public_except(
            state,
            {actor},
            "%(actor)s looks at %(target)s's Hand.",
            actor=who(actor),
            target=who(target),
        )
    )
    finish(state, "peek", target, events)


def stolen_dreams(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Stolen Dreams: the top of the target's Future Life moves onto the actor's."""
    card = state.players[target].future.pop()
    state.players[actor].future.append(card)
    events.append(
        Event.private(actor, "You take %(card)s onto your Future Life.", card=card_term(card))
    )
    events.append(
        Event.private(
            target, "%(actor)s takes your %(card)s.", actor=who(actor), card=card_term(card)
        )
    )
    events.append(
        public_except(
            state,
            set((actor, target)),
            "%(actor)s moves the top card of %(target)s's Future Life onto their own.",
            actor=who(actor),
            target=who(target),
        )
    )
    finish(state, "stolen_dreams", target, events)


def thievery(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Thievery: the target's Exposed Deed goes into the actor's Hand."""
    card = state.players[target].deeds.pop()
    state.players[actor].hand.append(card)
    events.append(
        Event.public(
            "%(actor)s takes %(target)s's %(card)s into their Hand.",
            actor=who(actor),
            target=who(target),
            card=card_term(card),
        )
    )
    finish(state, "thievery", target, events)


def swindle(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Swindle: the target's Hand is laid out face-down for the actor to pick from."""
    lay_out_hand(state, "swindle_pick", "swindle", actor, target, SWINDLE_PICKS, events)


def spite(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Spite: the target's Hand is laid out face-down; two blind picks are ruined."""
    lay_out_hand(state, "spite_pick", "spite", actor, target, SPITE_PICKS, events)


def lay_out_hand(
    state: State,
    kind: PromptKind,
    ability: str,
    actor: Seat,
    target: Seat,
    picks: int,
    events: list[Event],
) -> None:
    """The target's Hand, shuffled, becomes a face-down row for up to `picks` picks."""
    row = own_rng(state).shuffled(list(state.players[target].hand))
    limit = min(picks, len(row))
    prompt = new_prompt(kind, actor, ability, target=target, row=row, limit=limit)
    ask(state, prompt, events)


def pick_again(state: State, p: Prompt, events: list[Event]) -> bool:
    """Ask for the next face-down pick of the row unless the last one is made."""
    if len(p.picked) < p.limit:
        ask(state, p, events)
        return True
    return False


def answer_swindle_pick(state: State, action: AnyAction, events: list[Event]) -> None:
    """Swindle: one more face-down pick; after the last, look and keep one."""
    assert isinstance(action, Pick)
    p = prompt_of(state)
    p.picked.append(action.position)
    assert p.target is not None
    events.append(
        Event.public(
            "%(who)s picks card %(position)s of %(target)s's row.",
            who=who(p.seat),
            position=action.position,
            target=who(p.target),
        )
    )
    if pick_again(state, p, events):
        return
    cards = [p.row[i - 1] for i in p.picked]
    keep = new_prompt("swindle_keep", p.seat, "swindle", target=p.target, cards=cards)
    ask(state, keep, events)


def answer_swindle_keep(state: State, action: AnyAction, events: list[Event]) -> None:
    """Swindle: keep one picked card, give the others back."""
    p = prompt_of(state)
    assert p.target is not None
    card = chosen_card(action)
    state.players[p.target].hand.remove(card)
    state.players[p.seat].hand.append(card)
    back = [c for c in p.cards if c != card]
    reveal(state, Reveal(seat=p.seat, about=p.target, label="swindle", cards=list(p.cards)))
    events.append(
        Event.private(
            p.seat,
            "You look at %(cards)s; you keep %(card)s and give back %(cards2)s.",
            cards=card_terms(p.cards),
            card=card_term(card),
            cards2=card_terms(back),
        )
    )
    events.append(
        Event.private(
            p.target,
            "%(who)s saw your %(cards)s and takes %(card)s.",
            who=who(p.seat),
            cards=card_terms(p.cards),
            card=card_term(card),
        )
    )
    events.append(
        public_except(
            state,
            set((p.seat, p.target)),
            "%(who)s takes 1 card from %(target)s's Hand.",
            who=who(p.seat),
            target=who(p.target),
        )
    )
    finish(state, "swindle", p.target, events)


def answer_spite_pick(state: State, action: AnyAction, events: list[Event]) -> None:
    """Spite: the picked card is ruined at once, so the second pick ends on top."""
    assert isinstance(action, Pick)
    p = prompt_of(state)
    assert p.target is not None
    card = p.row[action.position - 1]
    p.picked.append(action.position)
    ruin_from(state, state.players[p.target].hand, card)
    events.append(
        Event.public(
            "%(who)s picks card %(position)s of %(target)s's row: %(card)s is ruined.",
            who=who(p.seat),
            position=action.position,
            target=who(p.target),
            card=card_term(card),
        )
    )
    if not pick_again(state, p, events):
        finish(state, "spite", p.target, events)


def longevity(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Longevity: the top 2 Well cards go, unseen, onto the target's Deck."""
    moved = 0
    for _ in range(2):
        card = take_from_well(state, events)
        if card is None:
            break
        state.players[target].deck.append(card)
        moved += 1
    events.append(
        Event.public(
            forms(
                "%(count)s card from the Well goes onto %(target)s's Deck.",
                "%(count)s cards from the Well go onto %(target)s's Deck.",
            ),
            count=moved,
            target=who(target),
        )
    )
    finish(state, "longevity", target, events)


# ---- ruining a card of the target's ----------------------------------------------------------

RUIN_OF_CHOICE: dict[PromptKind, tuple[Pile, str]] = {
    "dwindle": ("hand", tr("%(target)s ruins %(card)s from their Hand.")),
    "crisis": ("deeds", tr("%(target)s ruins their Deed %(card)s.")),
}
"""Dwindle (a Hand card) and Crisis (any Deed): the target chooses the card to ruin."""


def dwindle(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Dwindle: the target chooses a card of their Hand to ruin."""
    ask(state, new_prompt("dwindle", target, "dwindle", target=target), events)


def crisis(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Crisis: the target chooses any one of their Deeds to ruin."""
    ask(state, new_prompt("crisis", target, "crisis", target=target), events)


def answer_ruin_of_choice(state: State, action: AnyAction, events: list[Event]) -> None:
    """Dwindle, Crisis: the target ruins the card they chose; the others keep their order."""
    p = prompt_of(state)
    card = chosen_card(action)
    pile, message = RUIN_OF_CHOICE[p.kind]
    ruin_from(state, pile_of(state, p.seat, pile), card)
    events.append(Event.public(message, target=who(p.seat), card=card_term(card)))
    finish(state, p.kind, p.seat, events)


def panic(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Panic: ruin the top card of the target's Deck."""
    card = ruin_from(state, state.players[target].deck)
    events.append(
        Event.public(
            "%(card)s from the top of %(target)s's Deck is ruined.",
            card=card_term(card),
            target=who(target),
        )
    )
    finish(state, "panic", target, events)


def vengeance(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Vengeance: ruin the target's Exposed Deed."""
    card = ruin_from(state, state.players[target].deeds)
    events.append(
        Event.public(
            "%(target)s's Exposed Deed %(card)s is ruined.",
            target=who(target),
            card=card_term(card),
        )
    )
    finish(state, "vengeance", target, events)


def hells_heart(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Hell's Heart: ruin the top 2 cards of the target's Future Life, top card first."""
    future = state.players[target].future
    ruined = [ruin_from(state, future) for _ in range(min(2, len(future)))]
    events.append(
        Event.public(
            "From %(target)s's Future Life, ruined: %(cards)s.",
            target=who(target),
            cards=card_terms(ruined),
        )
    )
    finish(state, "hells_heart", target, events)
