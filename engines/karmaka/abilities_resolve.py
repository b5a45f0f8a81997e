"""Karmaka — how a card played for its ability resolves, whatever the ability: starting it,
asking a player (a `Prompt`), the answers a prompt accepts, finishing, and the start of the
Karmic offer.

Rule source: docs/rules/karmaka.md ("Conventions for every ability", "The Karmic offer").
A played card sits in `state.chain`; its ability (or the one a copy leads to) resolves through
`begin_ability`. Whenever a player must decide, resolution stops at a `Prompt` and carries on in
`answer_prompt`. A forced decision with a single possible answer is taken at once. When the
ability has fully resolved, `start_offer` hands the played card to the Karmic offer.

The abilities themselves are in `abilities_copies.py`, `abilities_targeted.py` and
`abilities_self.py`; `abilities.py` fills the dispatch tables below with them (this module
imports none of them, so that they can use these helpers). The words of a prompt are in
`prompts.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Event, Forms, IllegalAction, Seat, interned
from engines.karmaka.cards import NUM_CARDS
from engines.karmaka.model import (
    AnyAction,
    Chain,
    Choose,
    Done,
    Draw,
    Pick,
    Prompt,
    PromptKind,
    State,
    Target,
    new_prompt,
    read_player,
)
from engines.karmaka.prompts import prompt_text
from engines.karmaka.table import (
    kind_info,
    legal_targets,
    mimic_sources,
    offer_candidates,
    offered,
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


# ---- dispatch tables (filled by abilities.py) --------------------------------------------------

SelfAbility = Callable[[State, Seat, list[Event]], None]
"""An ability touching only the actor: `(state, actor, events)`."""
TargetedAbility = Callable[[State, Seat, Seat, list[Event]], None]
"""An ability aimed at a player: `(state, actor, target, events)`."""
Answer = Callable[[State, AnyAction, list[Event]], None]
"""What one answer to a prompt of a kind does: `(state, action, events)`."""

SELF_ABILITIES: dict[str, SelfAbility] = {}
"""The abilities touching only the actor, by card kind (filled by `abilities.py`)."""
TARGETED: dict[str, TargetedAbility] = {}
"""The abilities aimed at a player, by card kind, once the target is named (filled by
`abilities.py`)."""
ANSWERS: dict[PromptKind, Answer] = {}
"""What an answer does, by the kind of prompt it answers (filled by `abilities.py`)."""


# ---- starting, asking, finishing ---------------------------------------------------------------


def begin_ability(state: State, card_kind: str, events: list[Event]) -> None:
    """Resolve the ability of `card_kind` for the actor of the card in play."""
    actor = chain_of(state).actor
    me = read_player(state.players, actor)
    if card_kind == "denial":
        if not me.hand:
            finish_nothing(state, "Denial: the Hand is empty, nothing to ruin.", events)
            return
        ask(state, new_prompt("denial", actor, card_kind), events)
        return
    if card_kind == "embody":
        if not me.deeds:
            finish_nothing(state, "Embody: there is no Deed to use.", events)
            return
        ask(state, new_prompt("embody", actor, card_kind), events)
        return
    if card_kind == "mimic":
        seats = mimic_sources(state, actor)
        ask(state, new_prompt("mimic_source", actor, card_kind, seats=seats), events)
        return
    if kind_info(card_kind).targeting in ("rival", "any"):
        seats = legal_targets(state, actor, card_kind)
        ask(state, new_prompt("target", actor, card_kind, seats=seats), events)
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
    events.append(offered(chain.offer_to[0], chain.card))


# ---- the answers a prompt accepts ----------------------------------------------------------------


CHOOSE: tuple[Choose, ...] = tuple(interned(Choose, card=c) for c in range(NUM_CARDS))
"""`Choose` of every card, the same shared instances `interned` gives (looked up by index)."""
DONE, DRAW = interned(Done), interned(Draw)
TARGETS: tuple[Target, ...] = tuple(interned(Target, seat=s) for s in range(8))
"""`Target` of every seat (the shared instances `interned` gives)."""
PICKS: tuple[Pick, ...] = tuple(interned(Pick, position=i) for i in range(NUM_CARDS + 1))
"""`Pick` of every position (index 0 unused: positions count from 1)."""


def prompt_options(state: State) -> list[AnyAction]:
    """Every answer the pending prompt accepts, in a deterministic order."""
    p = prompt_of(state)
    seat = read_player(state.players, p.seat)
    k = p.kind
    if k in ("target", "mimic_source"):
        return [TARGETS[s] for s in p.seats]
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
        return [DRAW, DONE]
    # swindle_pick, spite_pick
    return [PICKS[i] for i in range(1, len(p.row) + 1) if i not in p.picked]


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


def chosen_card(action: AnyAction) -> int:
    """The card a `Choose` answer names."""
    assert isinstance(action, Choose)
    return action.card
