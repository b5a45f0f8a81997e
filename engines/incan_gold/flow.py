"""Incan Gold — the small named rules and the flow of a round: the deck and the opening
reveal, each card revealed (treasure shared, artifact, hazard, flight), the revealed choices
(leavers share the path's gems, a lone leaver takes the artifacts), the end of a round and of
the game.

Rule source: docs/rules/incan-gold.md ("Round r (r = 1..5)", "Artifact values", "End and
winner"). The flow's helpers mutate the state in place; the engine (`rules.py`) only calls them
on a fresh copy. They make their events only when given a list (`Events`): a bot's playout
(`IncanGold.play`) passes None. Options, actions and the state are in `model.py`; the card data
in `cards.py`.
"""

from __future__ import annotations

from typing import Literal

from engines.core import Event, Seat, Term, forms, who
from engines.incan_gold.cards import (
    ARTIFACT_VALUES,
    CARDS,
    HAZARDS,
    ROUNDS,
    TREASURES,
    Card,
)
from engines.incan_gold.model import Events, PathCard, Player, RoundSummary, State

# ---- small named rules ------------------------------------------------------------------------


def card(card_id: int) -> Card:
    """The card data for an id."""
    return CARDS[card_id]


def explorers(state: State) -> list[Seat]:
    """Seats still in the temple."""
    return [s for s, p in enumerate(state.players) if p.in_temple]


def split(value: int, among: int) -> tuple[int, int]:
    """Each share and the remainder when `value` gems are split among `among` players."""
    return value // among, value % among


def is_duplicate_hazard(state: State, card_id: int) -> bool:
    """Whether a hazard of this kind already lies on the path (which makes everyone flee)."""
    kind = card(card_id).hazard
    return any(card(pc.card).hazard == kind for pc in state.path[:-1] if card(pc.card).hazard)


def artifact_value(carried_before: int) -> int:
    """Value of the next artifact carried out, given how many were carried before."""
    return ARTIFACT_VALUES[min(carried_before, len(ARTIFACT_VALUES) - 1)]


def score(player: Player) -> int:
    """Tent total plus artifact values."""
    return player.tent + sum(player.artifacts)


def deck_for_round(state: State) -> list[int]:
    """Treasures, hazards not removed, earlier unrevealed artifacts and this round's artifact."""
    deck = list(TREASURES) + [h for h in HAZARDS if h not in state.removed_hazards]
    deck += state.unrevealed_artifacts
    if state.round_artifact is not None:
        deck.append(state.round_artifact)
    return deck


# ---- the flow of a round (mutating helpers, always called on a fresh copy) ---------------------


def start_round(state: State, events: Events) -> None:
    """Show this round's artifact, build and shuffle the deck, reveal the opening card."""
    state.path = []
    for p in state.players:
        p.in_temple, p.haul, p.choice, p.last_choice = True, 0, None, None
    state.round_artifact = state.future_artifacts.pop(0) if state.future_artifacts else None
    state.deck = state.rng.shuffled(deck_for_round(state))
    if events is not None:
        events.append(
            Event.public(
                "Round %(round)s begins; %(who)s leads.",
                round=state.round,
                who=who(state.start_player),
            )
        )
    if state.round_artifact is not None:
        name = Term(card(state.round_artifact).name)
        if events is not None:
            events.append(
                Event.public("This round's artifact, the %(name)s, joins the deck.", name=name)
            )
    reveal_opening(state, events)


def reveal_opening(state: State, events: Events) -> None:
    """Reveal the first card with no decision before it.

    The seed adds: if that first card is a hazard, the next one is revealed at once too, since
    nobody has anything to lose yet (the spec only mentions the first card; the seed wins).
    """
    reveal_next(state, events)
    if len(state.path) == 1 and card(state.path[0].card).kind == "hazard" and state.deck:
        if events is not None:
            events.append(
                Event.public("Nobody has anything to lose yet: the next card is revealed.")
            )
        reveal_next(state, events)


def reveal_next(state: State, events: Events) -> bool:
    """Reveal the top card onto the path; True if the round ended by flight."""
    c = card(state.deck.pop(0))
    pc = PathCard(card=c.id)
    state.path.append(pc)
    inside = explorers(state)
    if c.kind == "treasure":
        share, rest = split(c.value, len(inside))
        for s in inside:
            state.players[s].haul += share
        pc.remainder = rest
        if events is not None:
            events.append(
                Event.public(
                    forms(
                        "Treasure %(value)s: %(share)s each to %(count)s explorer, "
                        "%(rest)s left on the card.",
                        "Treasure %(value)s: %(share)s each to %(count)s explorers, "
                        "%(rest)s left on the card.",
                    ),
                    value=c.value,
                    share=share,
                    count=len(inside),
                    rest=rest,
                )
            )
        return False
    if c.kind == "artifact":
        if events is not None:
            events.append(
                Event.public("An artifact, the %(name)s, lies on the path.", name=Term(c.name))
            )
        return False
    if is_duplicate_hazard(state, c.id):
        if events is not None:
            events.append(
                Event.public(
                    "A second %(hazard)s card: everyone inside flees empty-handed!",
                    hazard=Term(c.hazard),
                )
            )
        flee(state, c, events)
        return True
    if events is not None:
        events.append(
            Event.public("Hazard: %(hazard)s. Nothing happens, yet.", hazard=Term(c.hazard))
        )
    return False


def flee(state: State, hazard: Card, events: Events) -> None:
    """Everyone inside loses the round haul; the duplicate hazard and path artifacts go."""
    for s in explorers(state):
        p = state.players[s]
        p.haul, p.in_temple = 0, False
    state.removed_hazards.append(hazard.id)
    lost = [pc.card for pc in state.path if card(pc.card).kind == "artifact"]
    state.removed_artifacts += lost
    state.path = [pc for pc in state.path if pc.card not in lost]
    end_round(
        state, events, RoundSummary(round=state.round, ended_by="flight", hazard=hazard.hazard)
    )


def resolve_decision(state: State, events: Events) -> None:
    """Reveal every choice, send the leavers home, then reveal on or end the round."""
    inside = explorers(state)
    leavers = [s for s in inside if state.players[s].choice == "camp"]
    for s in inside:
        p = state.players[s]
        p.last_choice, p.choice = p.choice, None
    stayers = [s for s in inside if s not in leavers]
    if leavers:
        names = ", ".join(who(s) for s in leavers)
        if events is not None:
            events.append(Event.public("Back to camp: %(names)s.", names=names))
    if stayers:
        names = ", ".join(who(s) for s in stayers)
        if events is not None:
            events.append(Event.public("Deeper in: %(names)s.", names=names))
    if leavers:
        leave(state, leavers, events)
    if not explorers(state):
        end_round(state, events, RoundSummary(round=state.round, ended_by="all_left"))
        return
    if not state.deck:
        return_everyone(state, events, "deck_empty")
        return
    reveal_next(state, events)


def leave(state: State, leavers: list[Seat], events: Events) -> None:
    """Leavers share the path's gems, a lone leaver takes the artifacts, all bank their haul."""
    total = sum(pc.remainder for pc in state.path)
    share, rest = split(total, len(leavers))
    if total:
        # What cannot be divided stays on the path; keep it on the first cards that had gems.
        for pc in state.path:
            pc.remainder = 0
        for pc in state.path:
            if rest == 0:
                break
            if card(pc.card).kind == "treasure":
                pc.remainder = rest
                rest = 0
        if rest:  # pragma: no cover - a remainder always comes from a treasure card
            state.path[0].remainder = rest
    if len(leavers) == 1:
        take_artifacts(state, leavers[0], events)
    for s in leavers:
        p = state.players[s]
        gained = p.haul + share
        p.tent += gained
        p.haul = 0
        p.in_temple = False
        if events is not None:
            events.append(
                Event.private(
                    s,
                    forms(
                        "You put %(count)s gem into your tent.",
                        "You put %(count)s gems into your tent.",
                    ),
                    count=gained,
                )
            )
        if share and events is not None:
            events.append(
                Event.public(
                    forms(
                        "%(who)s picks up %(count)s gem from the path.",
                        "%(who)s picks up %(count)s gems from the path.",
                    ),
                    who=who(s),
                    count=share,
                )
            )


def take_artifacts(state: State, seat: Seat, events: Events) -> None:
    """A single leaver carries out every artifact on the path, valued in carried order."""
    p = state.players[seat]
    keep: list[PathCard] = []
    for pc in state.path:
        c = card(pc.card)
        if c.kind != "artifact":
            keep.append(pc)
            continue
        value = artifact_value(state.artifacts_carried)
        state.artifacts_carried += 1
        p.artifacts.append(value)
        p.artifact_names.append(c.name)
        if events is not None:
            events.append(
                Event.public(
                    "%(who)s carries out the %(name)s (worth %(value)s).",
                    who=who(seat),
                    name=Term(c.name),
                    value=value,
                )
            )
    state.path = keep


def return_everyone(state: State, events: Events, ended_by: Literal["deck_empty"]) -> None:
    """Defensive rule: the deck ran out, everyone still inside returns safely."""
    inside = explorers(state)
    if inside:
        if events is not None:
            events.append(Event.public("The deck is empty: everyone inside returns safely."))
        leave(state, inside, events)
    end_round(state, events, RoundSummary(round=state.round, ended_by=ended_by))


def end_round(state: State, events: Events, summary: RoundSummary) -> None:
    """Drop revealed artifacts, keep unrevealed ones, pass the lead, start the next round."""
    summary.scores = [score(p) for p in state.players]
    state.rounds.append(summary)
    on_path = [pc.card for pc in state.path if card(pc.card).kind == "artifact"]
    state.removed_artifacts += on_path
    state.unrevealed_artifacts = [a for a in state.deck if card(a).kind == "artifact"]
    state.deck = []
    for p in state.players:
        p.choice = None
    if events is not None:
        events.append(Event.public("Round %(round)s is over.", round=state.round))
    if state.round >= ROUNDS:
        state.over = True
        state.path = []
        if events is not None:
            events.append(Event.public("The game is over; the tents are opened."))
        return
    state.round += 1
    state.start_player = (state.start_player + 1) % state.num_players
    start_round(state, events)
