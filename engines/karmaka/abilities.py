"""Karmaka card abilities: resolving a card played for its ability, copy chains and prompts.

Rule source: docs/rules/karmaka.md ("Cards", "Conventions for every ability", "Copy abilities").
A played card sits in `state.chain`; its ability (or the one a copy leads to) resolves through
`begin_ability`. Whenever a player must decide, resolution stops at a `Prompt` and carries on in
`answer_prompt`. A forced decision with a single possible answer is taken at once. When the
ability has fully resolved, `start_offer` hands the played card to the Karmic offer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import (
    Event,
    Forms,
    IllegalAction,
    Phrase,
    Seat,
    Term,
    forms,
    interned,
    tr,
    who,
)
from engines.karmaka.cards import (
    DESTINY_KEEP,
    DESTINY_LOOK,
    NUM_CARDS,
    SPITE_PICKS,
    SWINDLE_PICKS,
    kind,
)
from engines.karmaka.model import (
    AnyAction,
    Chain,
    Choose,
    Done,
    Draw,
    Pick,
    Pile,
    Prompt,
    PromptKind,
    Reveal,
    State,
    Target,
)
from engines.karmaka.table import (
    TO_FUTURE_LIFE,
    card_term,
    card_terms,
    draw_from_well,
    hidden_move,
    kind_info,
    legal_targets,
    mimic_sources,
    offer_candidates,
    pile_of,
    ruin_from,
    take_from_well,
)

OPTIONAL_PROMPTS: frozenset[PromptKind] = frozenset(
    {"destiny_keep", "jubilee", "roulette_ruin", "roulette_draw"}
)
"""Steps worded "up to" / "0, 1 or 2": never answered automatically."""


def chain_of(state: State) -> Chain:
    """The card in play; an ability only resolves while there is one."""
    assert state.chain is not None, "no card in play"
    return state.chain


def prompt_of(state: State) -> Prompt:
    """The pending prompt."""
    assert state.prompt is not None, "no pending prompt"
    return state.prompt


def public_except(state: State, seats: set[Seat], text: str | Forms, **params: Any) -> Event:
    """The public half of an event some seats see privately."""
    everyone = frozenset(range(state.num_players))
    return Event.make(text, everyone - seats, True, params)


# ---- starting, asking, finishing ---------------------------------------------------------------


def begin_ability(state: State, card_kind: str, events: list[Event]) -> None:
    """Resolve the ability of `card_kind` for the actor of the card in play."""
    actor = chain_of(state).actor
    me = state.players[actor]
    if card_kind == "denial":
        if not me.hand:
            finish_nothing(state, "Denial: the Hand is empty, nothing to ruin.", events)
            return
        ask(state, Prompt(kind="denial", seat=actor, ability=card_kind), events)
        return
    if card_kind == "embody":
        if not me.deeds:
            finish_nothing(state, "Embody: there is no Deed to use.", events)
            return
        ask(state, Prompt(kind="embody", seat=actor, ability=card_kind), events)
        return
    if card_kind == "mimic":
        seats = mimic_sources(state, actor)
        ask(state, Prompt(kind="mimic_source", seat=actor, ability=card_kind, seats=seats), events)
        return
    if kind_info(card_kind).targeting in ("rival", "any"):
        seats = legal_targets(state, actor, card_kind)
        ask(state, Prompt(kind="target", seat=actor, ability=card_kind, seats=seats), events)
        return
    SELF_ABILITIES[card_kind](state, actor, events)


def ask(state: State, prompt: Prompt, events: list[Event]) -> None:
    """Wait for `prompt`, or answer it at once when it is forced and has one possible answer."""
    state.prompt = prompt
    state.phase = "ability"
    if prompt.kind in OPTIONAL_PROMPTS:
        return
    options = prompt_options(state)
    if len(options) == 1:
        answer_prompt(state, options[0], events, checked=True)


def finish(state: State, card_kind: str, target: Seat | None, events: list[Event]) -> None:
    """The ability of `card_kind` has resolved against `target` (None: it touched no one)."""
    chain = chain_of(state)
    chain.target = target
    chain.extra = kind_info(card_kind).extra
    start_offer(state, events)


def finish_nothing(state: State, why: str, events: list[Event], **params: Any) -> None:
    """A copy resolved nothing: no target, no extra play; the card is offered clockwise."""
    events.append(Event.public(why, **params))
    chain = chain_of(state)
    chain.target = None
    chain.extra = False
    start_offer(state, events)


def start_offer(state: State, events: list[Event]) -> None:
    """The Karmic offer: the targeted rival alone, otherwise every rival clockwise."""
    chain = chain_of(state)
    state.prompt = None
    state.phase = "offer"
    chain.offer_to = offer_candidates(state, chain.actor, chain.target)
    events.append(
        Event.public(
            "%(who)s is offered the %(card)s.",
            who=who(chain.offer_to[0]),
            card=card_term(chain.card),
        )
    )


# ---- the answers a prompt accepts ----------------------------------------------------------------


CHOOSE: tuple[Choose, ...] = tuple(interned(Choose, card=c) for c in range(NUM_CARDS))
"""`Choose` of every card, the same shared instances `interned` gives (looked up by index)."""
DONE = interned(Done)


def prompt_options(state: State) -> list[AnyAction]:
    """Every answer the pending prompt accepts, in a deterministic order."""
    p = prompt_of(state)
    seat = state.players[p.seat]
    k = p.kind
    if k in ("target", "mimic_source"):
        return [interned(Target, seat=s) for s in p.seats]
    if k in ("denial", "sowing", "jubilee", "roulette_ruin", "dwindle"):
        out: list[AnyAction] = [CHOOSE[c] for c in seat.hand]
        return [*out, DONE] if k in OPTIONAL_PROMPTS else out
    if k in ("embody", "crisis"):
        return [CHOOSE[c] for c in seat.deeds]
    if k == "transmigrate":
        return [CHOOSE[c] for c in seat.future]
    if k in ("destiny_keep", "destiny_return", "recycle", "salvage", "swindle_keep"):
        out = [CHOOSE[c] for c in p.cards]
        return [*out, DONE] if k in OPTIONAL_PROMPTS else out
    if k == "roulette_draw":
        return [interned(Draw), interned(Done)]
    # swindle_pick, spite_pick
    return [interned(Pick, position=i) for i in range(1, len(p.row) + 1) if i not in p.picked]


def answer_prompt(
    state: State, action: AnyAction, events: list[Event], checked: bool = False
) -> None:
    """Apply one answer to the pending prompt (validated against `prompt_options`, unless the
    caller has just `checked` it is one of them)."""
    if not checked and action not in prompt_options(state):
        raise IllegalAction(
            "That is not a possible answer now: %(prompt)s", prompt=prompt_text(prompt_of(state))
        )
    ANSWERS[prompt_of(state).kind](state, action, events)


def _card(action: AnyAction) -> int:
    assert isinstance(action, Choose)
    return action.card


# ---- copies: Denial, Embody, Mimic ---------------------------------------------------------------


def answer_denial(state: State, action: AnyAction, events: list[Event]) -> None:
    """Denial: ruin the chosen Hand card first, then resolve its ability."""
    actor = prompt_of(state).seat
    card = _card(action)
    ruin_from(state, state.players[actor].hand, card)
    events.append(
        Event.public(
            "%(actor)s ruins %(card)s from their Hand and uses it.",
            actor=who(actor),
            card=card_term(card),
        )
    )
    begin_ability(state, kind(card).id, events)


def answer_embody(state: State, action: AnyAction, events: list[Event]) -> None:
    """Embody: resolve the chosen Deed of your own."""
    copy_deed(state, _card(action), "embody", events)


def answer_mimic_source(state: State, action: AnyAction, events: list[Event]) -> None:
    """Mimic: resolve the Exposed Deed of the chosen player."""
    assert isinstance(action, Target)
    deeds = state.players[action.seat].deeds
    actor = prompt_of(state).seat
    events.append(
        Event.public(
            "%(actor)s copies the Exposed Deed of %(who)s.", actor=who(actor), who=who(action.seat)
        )
    )
    if not deeds:
        finish_nothing(
            state, "%(who)s has no Deeds: Mimic does nothing.", events, who=who(action.seat)
        )
        return
    copy_deed(state, deeds[-1], "mimic", events)


def copy_deed(state: State, deed: int, copier: str, events: list[Event]) -> None:
    """Resolve a Deed's ability as a copy, unless it is the same copy card or already used."""
    chain = chain_of(state)
    deed_kind = kind(deed).id
    if deed_kind == copier:
        finish_nothing(
            state, "%(card)s copying %(card)s does nothing.", events, card=card_term(deed)
        )
        return
    if deed in chain.used_sources:
        finish_nothing(
            state,
            "%(card)s was already copied in this chain: it stops.",
            events,
            card=card_term(deed),
        )
        return
    chain.used_sources.append(deed)
    events.append(
        Event.public(
            "%(actor)s uses the ability of the %(card)s.",
            actor=who(chain.actor),
            card=card_term(deed),
        )
    )
    begin_ability(state, deed_kind, events)


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
    if pile is not None and not pile_of(state, action.seat, pile):
        events.append(Event.public(EMPTY_PILE[pile], target=who(action.seat)))
        finish(state, p.ability, action.seat, events)
        return
    TARGETED[p.ability](state, p.seat, action.seat, events)


def peek(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Peek: only the actor sees the target's whole Hand."""
    hand = list(state.players[target].hand)
    state.reveals.append(Reveal(seat=actor, about=target, label="peek", cards=hand))
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
    row = state.rng.shuffled(list(state.players[target].hand))
    limit = min(picks, len(row))
    prompt = Prompt(kind=kind, seat=actor, ability=ability, target=target, row=row, limit=limit)
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
    keep = Prompt(kind="swindle_keep", seat=p.seat, ability="swindle", target=p.target, cards=cards)
    ask(state, keep, events)


def answer_swindle_keep(state: State, action: AnyAction, events: list[Event]) -> None:
    """Swindle: keep one picked card, give the others back."""
    p = prompt_of(state)
    assert p.target is not None
    card = _card(action)
    state.players[p.target].hand.remove(card)
    state.players[p.seat].hand.append(card)
    back = [c for c in p.cards if c != card]
    state.reveals.append(Reveal(seat=p.seat, about=p.target, label="swindle", cards=list(p.cards)))
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
    ask(state, Prompt(kind="dwindle", seat=target, ability="dwindle", target=target), events)


def crisis(state: State, actor: Seat, target: Seat, events: list[Event]) -> None:
    """Crisis: the target chooses any one of their Deeds to ruin."""
    ask(state, Prompt(kind="crisis", seat=target, ability="crisis", target=target), events)


def answer_ruin_of_choice(state: State, action: AnyAction, events: list[Event]) -> None:
    """Dwindle, Crisis: the target ruins the card they chose; the others keep their order."""
    p = prompt_of(state)
    card = _card(action)
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


# ---- abilities that touch only the actor ---------------------------------------------------------


def transmigrate(state: State, actor: Seat, events: list[Event]) -> None:
    """Transmigrate: move any one Future Life card into the Hand."""
    if not state.players[actor].future:
        finish_nothing_self(state, "transmigrate", "The Future Life is empty.", events)
        return
    ask(state, Prompt(kind="transmigrate", seat=actor, ability="transmigrate"), events)


def finish_nothing_self(state: State, card_kind: str, why: str, events: list[Event]) -> None:
    """A self ability that can change nothing still resolves (no target, offered clockwise)."""
    events.append(Event.public(why))
    finish(state, card_kind, None, events)


def answer_transmigrate(state: State, action: AnyAction, events: list[Event]) -> None:
    """Transmigrate: the card leaves the Future Life; its position from the top is public."""
    actor = prompt_of(state).seat
    card = _card(action)
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
    prompt = Prompt(
        kind="destiny_keep", seat=actor, ability="destiny", cards=looked, limit=len(looked)
    )
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
    card = _card(action)
    p.cards.remove(card)
    state.well.append(card)
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
    ask(state, Prompt(kind=card_kind, seat=actor, ability=card_kind, cards=top), events)


def answer_ruins_pick(state: State, action: AnyAction, events: list[Event]) -> None:
    """Recycle / Salvage: the chosen card leaves the Ruins; the others keep their order."""
    p = prompt_of(state)
    card = _card(action)
    state.ruins.remove(card)
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
    ask(state, Prompt(kind="sowing", seat=actor, ability="sowing", limit=need), events)


def answer_sowing(state: State, action: AnyAction, events: list[Event]) -> None:
    """Sowing: one more card face-down on the Future Life."""
    p = prompt_of(state)
    card = _card(action)
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
    ask(state, Prompt(kind="jubilee", seat=actor, ability="jubilee", limit=2), events)


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
    ask(state, Prompt(kind="roulette_ruin", seat=actor, ability="roulette", limit=2), events)


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
    prompt = Prompt(kind="roulette_draw", seat=actor, ability="roulette", limit=ruined + 1)
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


# ---- dispatch tables -----------------------------------------------------------------------------

SELF_ABILITIES: dict[str, Callable[[State, Seat, list[Event]], None]] = {
    "transmigrate": transmigrate,
    "destiny": destiny,
    "another_day": another_day,
    "recycle": recycle,
    "salvage": salvage,
    "sowing": sowing,
    "voyage": voyage,
    "jubilee": jubilee,
    "roulette": roulette,
}

TARGETED: dict[str, Callable[[State, Seat, Seat, list[Event]], None]] = {
    "peek": peek,
    "stolen_dreams": stolen_dreams,
    "thievery": thievery,
    "swindle": swindle,
    "longevity": longevity,
    "dwindle": dwindle,
    "panic": panic,
    "crisis": crisis,
    "hells_heart": hells_heart,
    "vengeance": vengeance,
    "spite": spite,
}

ANSWERS: dict[PromptKind, Callable[[State, AnyAction, list[Event]], None]] = {
    "target": answer_target,
    "mimic_source": answer_mimic_source,
    "denial": answer_denial,
    "embody": answer_embody,
    "transmigrate": answer_transmigrate,
    "destiny_keep": answer_destiny_keep,
    "destiny_return": answer_destiny_return,
    "recycle": answer_ruins_pick,
    "salvage": answer_ruins_pick,
    "sowing": answer_sowing,
    "jubilee": answer_jubilee,
    "dwindle": answer_ruin_of_choice,
    "crisis": answer_ruin_of_choice,
    "roulette_ruin": answer_roulette_ruin,
    "roulette_draw": answer_roulette_draw,
    "swindle_pick": answer_swindle_pick,
    "swindle_keep": answer_swindle_keep,
    "spite_pick": answer_spite_pick,
}


# ---- words for the screen ------------------------------------------------------------------------


def prompt_text(p: Prompt) -> Phrase:
    """What the answering player is asked (a message with its parameters)."""
    ability = Term(kind_info(p.ability).name, "karmaka")
    progress = {"count": p.count, "limit": p.limit, "keep": DESTINY_KEEP, "picked": len(p.picked)}
    texts: dict[PromptKind, str] = {
        "target": tr("%(ability)s: choose a player to target."),
        "mimic_source": tr("Mimic: choose whose Exposed Deed to copy."),
        "denial": tr("Denial: choose a card of your Hand to ruin; you then use its ability."),
        "embody": tr("Embody: choose one of your Deeds; you use its ability."),
        "transmigrate": tr(
            "Transmigrate: choose a card of your Future Life to take into your Hand."
        ),
        "destiny_keep": tr(
            "Destiny: put a card on your Future Life (%(count)s of %(keep)s so far), or stop."
        ),
        "destiny_return": tr("Destiny: choose the next card to put back on the Well (last = top)."),
        "recycle": tr("Recycle: choose a Ruins card to put on your Future Life."),
        "salvage": tr("Salvage: choose a Ruins card to take into your Hand."),
        "sowing": tr("Sowing: choose a card to put on your Future Life (%(count)s of %(limit)s)."),
        "jubilee": tr(
            "Jubilee: add a card to your Deeds (%(count)s of %(limit)s so far), or stop."
        ),
        "dwindle": tr("Dwindle: choose a card of your Hand to ruin."),
        "crisis": tr("Crisis: choose one of your Deeds to ruin."),
        "roulette_ruin": tr(
            "Roulette: ruin a card of your Hand (%(count)s of %(limit)s), or stop."
        ),
        "roulette_draw": tr("Roulette: draw a card (%(count)s of at most %(limit)s), or stop."),
        "swindle_pick": tr("Swindle: pick a face-down card (%(picked)s of %(limit)s)."),
        "swindle_keep": tr("Swindle: choose the card to keep; the others go back."),
        "spite_pick": tr("Spite: pick a face-down card to ruin (%(picked)s of %(limit)s)."),
    }
    message = texts[p.kind]
    params = {k: v for k, v in {"ability": ability, **progress}.items() if f"%({k})s" in message}
    return Phrase(message, params)


def prompt_public_text(p: Prompt) -> Phrase:
    """What everybody else is told about the pending decision."""
    ability = Term(kind_info(p.ability).name, "karmaka")
    if p.kind in ("dwindle", "crisis"):
        return Phrase(
            tr("%(who)s chooses a card to ruin (%(ability)s)."),
            {"who": who(p.seat), "ability": ability},
        )
    return Phrase(tr("%(who)s is resolving %(ability)s."), {"who": who(p.seat), "ability": ability})
