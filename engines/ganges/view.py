"""Ganges: Cards & Karma — what each seat may see (`view`) and re-dealing the rest (`determinize`).

Rule source: docs/rules/ganges.md ("Hidden information"). Public: the table's action sides,
the deck's top card and size, the discard pile (die side up), every display, token and track
state, hand sizes and hand colours. Private: the die values in a hand (owner only). Secret to
all: table, display and deck die values, the deck order below the top card, and unflipped track
bonuses (base game).
"""

from __future__ import annotations

from functools import cache

from engines.core import JSON, Phrase, Rng, copy_state, tr
from engines.ganges.basics import active_seat, flipped_count, hand_dice, has_finished, table_cards
from engines.ganges.cards import (
    CARDS,
    CATALOGUE,
    DIE_COLOURS,
    DIE_VALUES,
    EFFECT_WORDS,
    TABLE_COLUMNS,
    card_words,
    reward_words,
    word,
)
from engines.ganges.payment import payments_for
from engines.ganges.state import Prompt, State, TrackCard
from engines.ganges.triples import triple_words

BY_COLOUR: dict[str, list[str]] = {
    colour: [c.id for c in CATALOGUE if c.die_colour == colour] for colour in DIE_COLOURS
}
"""Card ids by die colour, catalogue order (die values are re-dealt within a colour)."""


@cache
def card_front(card_id: str) -> JSON:
    """A card's action side as the screen draws it (the die colour is in its corner).

    Made once per card and shared by every view that shows it (it depends on the card alone;
    views are read, never changed): making it per view was two thirds of a Ganges view.

    Ships: number, exact cost, reward code; buildings: types, cost colour and minimum sum (1 fame
    per building); goods: goods and the immediate coin; palace: exact cost and effect code.
    """
    c = CARDS[card_id]
    front: JSON = {"kind": c.kind, "die_colour": c.die_colour}
    if c.goods:
        front["goods"] = [{"good": g.good, "value": g.value} for g in c.goods]
    if c.kind == "ship":
        front.update(
            number=c.number,
            cost=c.cost_value,
            reward=c.reward,
            gain=reward_words(c.reward).to_json(),
        )
    elif c.kind == "building":
        front.update(buildings=list(c.buildings), cost_colour=c.cost_colour, cost=c.min_sum)
    elif c.kind == "goods":
        front["coin"] = c.coin
    else:
        front.update(
            cost=c.cost_value,
            effect=c.effect,
            gain=Phrase(tr("%(reward)s"), {"reward": word(EFFECT_WORDS, c.effect)}).to_json(),
        )
    front["text"] = card_words(card_id).to_json()
    return front


def discard_view(state: State) -> JSON:
    """The discard pile, die side up: size, top die, and how many of each colour and value."""
    counts = {colour: [0] * len(DIE_VALUES) for colour in DIE_COLOURS}
    for c in state.discard:
        counts[CARDS[c].die_colour][DIE_VALUES.index(state.values[c])] += 1
    top = state.discard[-1] if state.discard else None
    return {
        "count": len(state.discard),
        "top": None
        if top is None
        else {"colour": CARDS[top].die_colour, "value": state.values[top]},
        "counts": counts,
    }


def playable(state: State, seat: int) -> JSON:
    """For the acting seat: which table cards each main action A–E can take now."""
    return {key: cards for key, cards in targets_and_payments(state, seat)[0].items()}


def targets_and_payments(state: State, seat: int) -> tuple[dict[str, list[str]], JSON]:
    """The cards each main action can take, and every way the seat can pay for each paid card
    (the engine's canonical payments: equal dice merged, jokers declared as the rules need).

    The payment picker shows these ways and accepts a selection only when it is one of them,
    so the browser never re-derives the payment rules (engines/ganges/payment.py decides).
    """
    p = state.players[seat]
    dice = hand_dice(state, seat)
    by_card = {d.card: d for d in dice}
    out: dict[str, list[str]] = {"take": table_cards(state), "goods": table_cards(state, "goods")}
    ways: JSON = {}
    for kind, key in (("building", "build"), ("ship", "ship"), ("palace", "palace")):
        out[key] = []
        for c in table_cards(state, kind):
            found = payments_for(c, dice, p.karma, p.admins)
            if found:
                out[key].append(c)
            ways[c] = [
                {
                    "cards": list(pay.cards),
                    "dice": sorted(f"{by_card[d].colour}:{by_card[d].value}" for d in pay.cards),
                    "jokers": sorted(pay.jokers),
                    "karma": pay.karma,
                }
                for pay in found
            ]
    return out, ways


def prompt_view(state: State, prompt: Prompt | None, seat: int | None) -> JSON | None:
    """The pending decision; a discard prompt's choices (hand cards) only for its owner."""
    if prompt is None:
        return None
    data: JSON = prompt.model_dump(mode="json")
    mine = seat == prompt.seat
    if prompt.kind == "discard" and not mine:
        data["cards"] = []
    if prompt.kind == "action" and mine:
        data["playable"], data["payments"] = targets_and_payments(state, prompt.seat)
    if prompt.kind == "resolve":
        for shown, res in zip(data["resolutions"], prompt.resolutions, strict=True):
            shown["words"] = [triple_words(t).to_json() for t in res.triples]
            shown["discard_words"] = [card_words(c).to_json() for c in res.discard]
    return data


def build_view(state: State, seat: int | None, outcome: JSON | None) -> JSON:
    """The whole screen for `seat` (None = spectator)."""
    shown: set[str] = set()

    def ref(card_id: str | None) -> str | None:
        """Note a card whose front the view must describe."""
        if card_id is not None:
            shown.add(card_id)
        return card_id

    players: list[JSON] = []
    for s, p in enumerate(state.players):
        if s == seat:
            hand: list[JSON] = [
                {"id": ref(d.card), "colour": d.colour, "value": d.value}
                for d in hand_dice(state, s)
            ]
        else:
            hand = [{"colour": CARDS[c].die_colour} for c in p.hand]
        track: list[JSON] = []
        for i, t in enumerate(p.track):
            visible = t.flipped or state.night_side_up
            track.append(
                {"position": i + 1, "flipped": t.flipped, "bonus": t.bonus if visible else None}
            )
        players.append(
            {
                "seat": s,
                "hand": hand,
                "hand_count": len(p.hand),
                "buildings": [ref(c) for c in p.buildings],
                "ships": [ref(c) for c in p.ships],
                "goods": [ref(c) for c in p.goods],
                "fame": p.fame,
                "karma": p.karma,
                "coins": p.coins,
                "admins": p.admins,
                "track": track,
                "flipped": flipped_count(p),
                "finished": has_finished(p),
            }
        )
    prompt = prompt_view(state, state.prompt, seat)
    if prompt is not None:
        for c in prompt.get("cards", []):
            ref(c)
    view: JSON = {
        "game": "ganges",
        "seat": seat,
        "over": state.over,
        "night_side_up": state.night_side_up,
        "round": state.round,
        "phase": state.phase,
        "start_player": state.start_player,
        "elephant": "green" if state.elephant_green else "grey",
        "active": None if state.over else active_seat(state),
        "to_act": [] if state.prompt is None else [state.prompt.seat],
        "last_round": any(has_finished(p) for p in state.players),
        "table": {"columns": TABLE_COLUMNS, "slots": [ref(c) for c in state.table]},
        "deck": {"count": len(state.deck), "top": ref(state.deck[0] if state.deck else None)},
        "discard": discard_view(state),
        "in_play": [ref(c) for c in state.carried],
        "admin_supply": state.admin_supply,
        "last_ship": ref(state.last_ship),
        "players": players,
        "prompt": prompt,
        "outcome": outcome,
        "score_history": [list(r) for r in state.track_history] if state.over else None,
    }
    view["cards"] = {c: card_front(c) for c in sorted(shown, key=lambda c: CARDS[c].index)}
    return view


def information_key(state: State, seat: int | None) -> tuple[object, ...]:
    """Equal for two states exactly when `build_view(state, seat, …)` is (a search tree's
    information sets; see `Engine.information_key`), from the parts the view shows, as plain
    values: the prompt's fields, whatever the view derives from the rest (payments, card
    fronts, flipped counts, the header) left out, and the discard pile as the view has it —
    size, top die and how many of each colour and value."""
    values = state.values
    night = state.night_side_up
    players: list[tuple[object, ...]] = []
    for s, p in enumerate(state.players):
        if s == seat:
            hand: tuple[object, ...] = tuple([(c, values[c]) for c in p.hand])
        else:
            hand = tuple([DIE_COLOUR[c] for c in p.hand])
        track = tuple([(t.flipped, t.bonus if t.flipped or night else None) for t in p.track])
        players.append(
            (
                hand,
                tuple(p.buildings),
                tuple(p.ships),
                tuple(p.goods),
                p.fame,
                p.karma,
                p.coins,
                p.admins,
                track,
            )
        )
    counts = [0] * (len(DIE_COLOURS) * MAX_DIE)
    for c in state.discard:
        counts[COLOUR_OFFSET[c] + values[c] - 1] += 1
    top = state.discard[-1] if state.discard else None
    prompt = state.prompt
    shown: tuple[object, ...] | None = None
    if prompt is not None:
        hidden = prompt.kind == "discard" and seat != prompt.seat
        shown = (
            prompt.kind,
            prompt.seat,
            prompt.reason,
            prompt.owed,
            () if hidden else tuple(prompt.cards),
            prompt.optional,
            tuple(prompt.options),
            repr(prompt.resolutions) if prompt.resolutions else "",
            tuple([(c.by, c.position) for c in prompt.conversions]),
        )
    return (
        state.over,
        night,
        state.round,
        state.phase,
        state.start_player,
        state.elephant_green,
        None if state.over else active_seat(state),
        tuple(state.table),
        len(state.deck),
        state.deck[0] if state.deck else None,
        len(state.discard),
        None if top is None else (DIE_COLOUR[top], values[top]),
        tuple(counts),
        tuple(state.carried),
        state.admin_supply,
        state.last_ship,
        tuple(players),
        shown,
        tuple(state.track_history) if state.over else None,
    )


MAX_DIE = max(DIE_VALUES)
DIE_COLOUR: dict[str, str] = {c.id: c.die_colour for c in CATALOGUE}
COLOUR_OFFSET: dict[str, int] = {c.id: DIE_COLOURS.index(c.die_colour) * MAX_DIE for c in CATALOGUE}
"""Where a card's die colour starts in `information_key`'s discard counts (ints only)."""


def redeal(state: State, seat: int | None, rng: Rng) -> State:
    """A copy with everything `seat` cannot see re-dealt at random (see module docstring).

    Depends only on what `seat` sees and on `rng`: every secret pool is sorted before it is
    shuffled, and the state's own RNG (the future reshuffles) is replaced by one from `rng`.
    """
    new = copy_state(state)
    new.rng = Rng.from_seed(rng.next_u64())
    known = set(new.discard)
    if seat is not None:
        known |= set(new.players[seat].hand)
    for cards in BY_COLOUR.values():
        hidden = [c for c in cards if c not in known]
        values = rng.shuffled(sorted(new.values[c] for c in hidden))
        new.values.update(zip(hidden, values, strict=True))
    if len(new.deck) > 1:
        new.deck[1:] = rng.shuffled(sorted(new.deck[1:], key=lambda c: CARDS[c].index))
    if not new.night_side_up:
        for p in new.players:
            closed = [i for i, t in enumerate(p.track) if not t.flipped]
            bonuses = rng.shuffled(sorted(p.track[i].bonus for i in closed))
            for i, b in zip(closed, bonuses, strict=True):
                p.track[i] = TrackCard(bonus=b)
    return new
