"""Ganges: Cards & Karma (Rajas of the Ganges: Cards & Karma) for 2–4 players — the engine.

Rule source: docs/rules/ganges.md, which restates the Polish seed rulebook
and settles its open points. The card list is the spec's PROVISIONAL one (cards.py). The flow of
play lives in flow.py (its pieces in basics.py and display.py), payments in payment.py, triples
in triples.py and the views in view.py; this module is the `Engine` surface.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engines.core import (
    JSON,
    SET_DICT,
    SET_EXTRA,
    SET_FIELDS_SET,
    SET_PRIVATE,
    Engine,
    Event,
    GameOver,
    GameSpec,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Rng,
    Seat,
    Step,
    Term,
    interned,
    rank_by,
    tr,
    trc,
    who,
)
from engines.ganges import basics, display, flow
from engines.ganges.actions import (
    ACTION_ADAPTER,
    AdminAction,
    AdminDraw,
    Build,
    BuyShip,
    Choose,
    Convert,
    Discard,
    EndTurn,
    Pick,
    Resolve,
    Stop,
    TakeDie,
    TakeGoods,
    UsePalace,
    action_text,
)
from engines.ganges.cards import (
    ADMINISTRATORS,
    BONUS_WORDS,
    CARDS,
    CATALOGUE,
    DIE_COLOURS,
    KIND_WORDS,
    OPTION_WORDS,
    PROMPT_WORDS,
    START_HAND,
    TABLE_SIZE,
    TRACK_BONUSES,
    card_words,
    colour_word,
)
from engines.ganges.payment import (
    check_building_payment,
    check_common,
    check_exact_payment,
    held_shape,
    shaped_template,
)
from engines.ganges.state import (
    Conversion,
    Options,
    Player,
    Prompt,
    State,
    TrackCard,
    copy_for_apply,
)
from engines.ganges.view import build_view, information_key, redeal

MAIN_KINDS: dict[str, str] = {
    "build": "building",
    "ship": "ship",
    "goods": "goods",
    "palace": "palace",
}
"""Which card kind each main action B–E takes (A takes any)."""


def deal_values(rng: Rng) -> dict[str, int]:
    """The secret die values: each colour's catalogue values shuffled over that colour's cards."""
    values: dict[str, int] = {}
    for colour in DIE_COLOURS:
        cards = [c for c in CATALOGUE if c.die_colour == colour]
        shuffled = rng.shuffled([c.die_value for c in cards])
        values.update({c.id: v for c, v in zip(cards, shuffled, strict=True)})
    return values


def pay(
    state: State, events: basics.Events, seat: int, action: Build | BuyShip | UsePalace
) -> None:
    """Validate the payment for the action's card, then spend cards, jokers and karma."""
    p = state.players[seat]
    target = CARDS[action.card]
    dice = check_common(
        basics.hand_dice(state, seat), action.pay, action.jokers, action.karma, p.karma, p.admins
    )
    if target.kind == "building":
        check_building_payment(target, dice, action.jokers, action.karma)
    else:
        check_exact_payment(target, dice, action.jokers, action.karma)
    for card_id in action.pay:
        basics.discard_from_hand(
            state, events, seat, card_id, tr("%(who)s pays with the %(die)s die.")
        )
    for value in action.jokers:
        p.admins -= 1
        state.admin_supply += 1
        if target.cost_colour:
            if events is not None:
                events.append(
                    Event.public(
                        tr("%(who)s pays with an administrator as %(colour)s %(value)s."),
                        who=who(seat),
                        colour=colour_word(target.cost_colour),
                        value=value,
                    )
                )
        else:
            if events is not None:
                events.append(
                    Event.public(
                        tr("%(who)s pays with an administrator as a %(value)s."),
                        who=who(seat),
                        value=value,
                    )
                )
    if action.karma:
        p.karma -= action.karma
        if events is not None:
            events.append(
                Event.public(
                    tr("%(who)s spends %(count)s karma."), who=who(seat), count=action.karma
                )
            )


def main_action(state: State, events: basics.Events, seat: int, action: Any) -> None:
    """Actions A–E: check the card and the payment, then take the card and queue its gains."""
    card_id = action.card
    if card_id not in state.table:
        raise IllegalAction("That card is not on the table.")
    kind = MAIN_KINDS.get(action.type)
    if kind is not None and CARDS[card_id].kind != kind:
        raise IllegalAction(
            "The %(card)s is not a %(kind)s card.",
            card=card_words(card_id),
            kind=Term(KIND_WORDS[kind], "ganges"),
        )
    if isinstance(action, Build | BuyShip | UsePalace):
        pay(state, events, seat, action)
    state.owed -= 1
    basics.push(state, basics.new_task("settle"))
    if isinstance(action, TakeDie):
        basics.push(state, basics.hand_task(card_id))
        return
    basics.remove_from_table(state, events, card_id)
    match action:
        case Build():
            display.place_building(state, events, seat, card_id)
        case BuyShip():
            display.place_ship(state, events, seat, card_id)
        case TakeGoods():
            display.place_goods(state, events, seat, card_id)
        case _:
            display.carry_out_palace(state, events, seat, card_id)


def main_actions(state: State, seat: int) -> list[Any]:
    """Every canonical main action A–E (and the administrator's draw), in table slot order.

    Cards that cost the same (a building's colour and sum, a ship's or palace's value) have
    the same payments: each is worked out once per call (`Held`), and a building's payments
    as counts of dice per value are kept between calls (`shaped_template`: plain numbers,
    small). The actions of `main_plan`, each paid card's payments built.
    """
    out: list[Any] = []
    append = out.append
    for entry in main_plan(state, seat):
        if type(entry) is tuple:
            cls, tag, card_id, values, groups, ways = entry
            for way in ways:
                append(_paid(cls, tag, card_id, values, groups, way))
        else:
            append(entry)
    return out


def random_main_action(state: State, seat: int, rng: Rng) -> Any:
    """`main_actions(state, seat)[rng.randbelow(count)]`, building only the action drawn (a
    bot's playouts take one random action per step: the others' payments are only counted)."""
    plan = main_plan(state, seat)
    count = 0
    for entry in plan:
        count += len(entry[5]) if type(entry) is tuple else 1
    index = rng.randbelow(count)
    for entry in plan:
        if type(entry) is tuple:
            ways = entry[5]
            if index < len(ways):
                cls, tag, card_id, values, groups, _ = entry
                return _paid(cls, tag, card_id, values, groups, ways[index])
            index -= len(ways)
        elif index == 0:
            return entry
        else:
            index -= 1
    raise AssertionError("the drawn index is below the count")  # pragma: no cover


Plan = list[Any]
"""The main actions in order, each either an action (take, goods, the administrator's draw)
or a paid card's payments: `(cls, tag, card, values, groups, ways)`, with `ways` a building's
template (dice taken per value in `values`, from `groups`) or, when `values` is None, a ship's
or palace card's (cards, jokers, karma) tuples."""


def main_plan(state: State, seat: int) -> Plan:
    """The main actions of `seat` as a `Plan`: every payment counted, none built yet."""
    held = Held(state, seat)
    payments = held.payments
    plan: Plan = []
    append = plan.append
    for card_id in state.table:
        if card_id is None:
            continue
        take, cls, key, colour, cost = _TABLE_ENTRY[card_id]
        append(take)
        if cls is None:
            append(key)
            continue
        found = payments.get(key)
        if found is None:
            found = held.work_out(key, colour, cost)
        append((cls, _TAGS[cls], card_id, *found))
    if held.admins:
        append(_ADMIN_DRAW)
    return plan


Payments = tuple[Any, Any, Any]
"""A paid card's payments: `(values, groups, ways)`, with `ways` a building's template (dice
taken per value in `values`, from `groups`) or, when `values` is None, a ship's or palace
card's (cards, jokers, karma) tuples."""


class Held:
    """What a player's main actions are paid with: the hand's dice by colour and value, karma
    and administrators, and the payments worked out so far (by a table entry's key)."""

    __slots__ = ("admins", "colours", "distinct", "karma", "payments", "shapes")

    def __init__(self, state: State, seat: int) -> None:
        p = state.players[seat]
        values = state.values
        colours: dict[str, dict[int, list[str]]] = {}
        distinct: list[tuple[str, int]] = []
        seen: set[tuple[str, int]] = set()
        for c in p.hand:
            colour = DIE_COLOUR[c]
            value = values[c]
            groups = colours.get(colour)
            if groups is None:
                colours[colour] = {value: [c]}
            else:
                cards = groups.get(value)
                if cards is None:
                    groups[value] = [c]
                else:
                    cards.append(c)
            if (colour, value) not in seen:
                seen.add((colour, value))
                distinct.append((c, value))
        self.karma = p.karma
        self.admins = p.admins
        self.colours = colours
        self.distinct = distinct
        self.payments: dict[Any, Payments] = {}
        self.shapes: dict[str, tuple[list[int], tuple[int, ...], dict[int, list[str]]]] = {}

    def work_out(self, key: Any, colour: str, cost: int) -> Payments:
        """The payments of a table entry (a building's `colour` and sum `cost`, or a ship's
        or palace card's value `cost` when `colour` is ""), kept under `key`."""
        karma, admins = self.karma, self.admins
        if colour:
            shaped = self.shapes.get(colour)
            if shaped is None:
                groups = self.colours.get(colour, {})
                shaped = self.shapes[colour] = (*held_shape(groups), groups)
            values, shape, groups = shaped
            found: Payments = (values, groups, shaped_template(cost, values, shape, karma, admins))
        else:
            exact: list[Any] = [
                ((c,), (), abs(v - cost)) for c, v in self.distinct if -karma <= v - cost <= karma
            ]
            if admins:
                exact.append(((), (cost,), 0))
            found = (None, None, exact)
        self.payments[key] = found
        return found


def _paid(cls: Any, tag: str, card_id: str, values: Any, groups: Any, way: Any) -> Any:
    """One paid action of a `Plan` entry (fresh lists: actions never share them), built as
    `trusted` builds it (the same fields set)."""
    taken, jokers, spent = way
    if values is None:
        cards = list(taken)
    else:
        cards = [c for v, n in zip(values, taken, strict=True) for c in groups[v][:n]]
    new = _NEW(cls)
    SET_DICT(
        new, {"card": card_id, "pay": cards, "jokers": list(jokers), "karma": spent, "type": tag}
    )
    SET_FIELDS_SET(new, _PAID_FIELDS.copy())
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


_NEW = object.__new__
_PAID_FIELDS = {"card", "pay", "jokers", "karma", "type"}
_TAGS: dict[Any, str] = {Build: "build", BuyShip: "ship", UsePalace: "palace"}


def _table_entry(card: Any) -> tuple[Any, Any, Any, str, int]:
    """What `main_plan` reads of a table card: its take action, then for a goods card
    (None, its goods action, "", 0), else (the paid action's class, the key of its payments,
    the cost colour of a building or "", the building's sum or the card's value)."""
    take = interned(TakeDie, card=card.id)
    if card.kind == "goods":
        return take, None, interned(TakeGoods, card=card.id), "", 0
    if card.kind == "building":
        return take, Build, (card.cost_colour, card.min_sum), card.cost_colour, card.min_sum
    cls = BuyShip if card.kind == "ship" else UsePalace
    return take, cls, ("", card.cost_value), "", card.cost_value


DIE_COLOUR: dict[str, str] = {c.id: c.die_colour for c in CATALOGUE}
_TABLE_ENTRY: dict[str, tuple[Any, Any, Any, str, int]] = {c.id: _table_entry(c) for c in CATALOGUE}
_ADMIN_DRAW = interned(AdminDraw)
_ADMIN_ACTION = interned(AdminAction)
_END_TURN = interned(EndTurn)
_STOP = interned(Stop)
_PICK: dict[str, Any] = {c.id: interned(Pick, card=c.id) for c in CATALOGUE}
_DISCARD: dict[str, Any] = {c.id: interned(Discard, card=c.id) for c in CATALOGUE}


def outcome_keys(state: State) -> dict[Seat, tuple[int, ...]]:
    """Ranking keys: finished, flipped cards, tie points, karma (bigger is better)."""
    return {
        s: (int(basics.has_finished(p)), basics.flipped_count(p), basics.tie_points(p), p.karma)
        for s, p in enumerate(state.players)
    }


def winning_reason(
    keys: dict[Seat, tuple[int, ...]], finished: list[Seat], winners: frozenset[Seat]
) -> str:
    """Why the winners won: sole finisher, tie points, karma, or a shared win."""
    if len(finished) == 1:
        return tr("first to flip all six track cards")
    if len(winners) > 1:
        return tr("shared win (tied points and karma)")
    points = keys[next(iter(winners))][2]
    if any(keys[s][2] == points for s in finished if s not in winners):
        return tr("tie-break on karma")
    return tr("tie-break on fame and coins")


def need(prompt: Prompt, kind: str, what: str) -> None:
    """Refuse unless the pending prompt is of this kind."""
    if prompt.kind != kind:
        raise IllegalAction(
            "You cannot %(what)s now; the game waits for: %(waiting)s.",
            what=Term(what, "ganges"),
            waiting=Term(PROMPT_WORDS[prompt.kind], "ganges"),
        )


class Ganges(Engine[State, Any, Options]):
    """Ganges: Cards & Karma for 2–4 players."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="ganges",
        title=tr("Ganges: Cards & Karma"),
        min_players=2,
        max_players=4,
        options=Options,
        hidden_information=True,
        simultaneous=False,
        summary=tr("Use cards as dice to build, trade and sail; flip your six track cards first."),
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Secret die values, shuffled deck, the table, a random start player, 4 cards each."""
        opts = options
        if num_players not in TABLE_SIZE:
            raise IllegalAction("Ganges needs 2 to 4 players, not %(count)s.", count=num_players)
        rng = Rng.from_seed(seed)
        values = deal_values(rng)
        deck = rng.shuffled([c.id for c in CATALOGUE])
        players = [
            Player(track=[TrackCard(bonus=b) for b in rng.shuffled(list(TRACK_BONUSES))])
            for _ in range(num_players)
        ]
        state = State(
            num_players=num_players,
            night_side_up=opts.night_side_up,
            rng=rng,
            values=values,
            deck=deck,
            table=[None] * TABLE_SIZE[num_players],
            players=players,
            admin_supply=ADMINISTRATORS,
            start_player=rng.randbelow(num_players),
        )
        events: list[Event] = []
        basics.refill_table(state, events)
        for k in range(num_players):
            seat = (state.start_player + k) % num_players
            for _ in range(START_HAND):
                card_id = basics.draw(state, events)
                if card_id is not None:
                    state.players[seat].hand.append(card_id)
        flow.begin_turn(state, events)
        flow.advance(state, events)
        return Step(state, list(events))

    def to_act(self, state: State) -> frozenset[Seat]:
        """The seat named by the pending prompt; nobody once the game is over."""
        if state.over or state.prompt is None:
            return frozenset()
        return frozenset({state.prompt.seat})

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """The answers to the pending prompt (payments canonicalised), in a fixed order."""
        prompt = state.prompt
        if state.over or prompt is None or prompt.seat != seat:
            return []
        if prompt.kind == "action":
            return main_actions(state, seat)
        if prompt.kind == "end_turn":
            return [_END_TURN, _ADMIN_ACTION, _ADMIN_DRAW]
        if prompt.kind == "discard":
            seen: set[tuple[str, int]] = set()
            out: list[Any] = []
            values = state.values
            for c in state.players[seat].hand:
                die = (DIE_COLOUR[c], values[c])
                if die not in seen and c in prompt.cards:
                    seen.add(die)
                    out.append(_DISCARD[c])
            return out
        if prompt.kind == "pick":
            picks: list[Any] = [_PICK[c] for c in prompt.cards]
            return [*picks, _STOP] if prompt.optional else picks
        if prompt.kind == "choose":
            return [interned(Choose, option=o) for o in prompt.options]
        if prompt.kind == "resolve":
            return [interned(Resolve, option=i) for i in range(len(prompt.resolutions))]
        return [interned(Convert, by=c.by, position=c.position) for c in prompt.conversions]

    def random_action(self, state: State, seat: Seat, rng: Rng) -> Any:
        """As `legal_actions(state, seat)[rng.randbelow(n)]`; a main action is built alone."""
        prompt = state.prompt
        kind = None if prompt is None or prompt.seat != seat or state.over else prompt.kind
        if kind == "action":
            return random_main_action(state, seat, rng)
        return super().random_action(state, seat, rng)

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Validate the answer to the pending prompt, apply it and run on to the next decision."""
        events: list[Event] = []
        return Step(self._run(state, seat, action, events), events)

    def play(self, state: State, seat: Seat, action: Any) -> State:
        """`apply(...).state`, making no event (a bot's playout reads none)."""
        return self._run(state, seat, action, None)

    def check_turn(self, state: State, seat: Seat) -> None:
        """The engine's check read straight from the state: `outcome` is None unless the game
        is over, and `to_act` is the pending prompt's seat alone."""
        if state.over:
            raise GameOver("The game is over.")
        prompt = state.prompt
        if prompt is None or prompt.seat != seat:
            raise NotYourTurn("It is not your turn.")

    def _run(self, state: State, seat: Seat, action: Any, events: basics.Events) -> State:
        """`apply` with its events going to `events` (None: not made at all)."""
        self.check_turn(state, seat)
        prompt = state.prompt
        assert prompt is not None
        new = copy_for_apply(state, seat)
        p = new.players[seat]

        match action:
            case TakeDie() | Build() | BuyShip() | TakeGoods() | UsePalace():
                need(prompt, "action", trc("ganges", "take an action"))
                main_action(new, events, seat, action)
            case Discard():
                need(prompt, "discard", trc("ganges", "discard"))
                if action.card not in prompt.cards:
                    raise IllegalAction("That card is not in your hand.")
                basics.discard_from_hand(
                    new,
                    events,
                    seat,
                    action.card,
                    tr("%(who)s discards the %(die)s die to make room (hand limit 8)."),
                )
            case Pick():
                need(prompt, "pick", trc("ganges", "pick a card"))
                if action.card not in prompt.cards:
                    raise IllegalAction(
                        "That card cannot be picked; choose one of the offered cards."
                    )
                display.take_for_task(new, events, seat, new.tasks.pop(), action.card)
            case AdminDraw():
                if prompt.kind not in ("action", "end_turn"):
                    raise IllegalAction("An administrator can be used only between actions.")
                if not p.admins:
                    raise IllegalAction("You have no administrator.")
                p.admins -= 1
                new.admin_supply += 1
                if events is not None:
                    events.append(
                        Event.public(
                            tr("%(who)s returns an administrator to draw 2 cards."), who=who(seat)
                        )
                    )
                basics.push(new, basics.hand_task("deck"), basics.hand_task("deck"))
            case AdminAction():
                need(prompt, "end_turn", trc("ganges", "buy an extra action"))
                if not p.admins:
                    raise IllegalAction("You have no administrator.")
                p.admins -= 1
                new.admin_supply += 1
                new.owed += 1
                if events is not None:
                    events.append(
                        Event.public(
                            tr("%(who)s returns an administrator for an extra action."),
                            who=who(seat),
                        )
                    )
            case EndTurn():
                need(prompt, "end_turn", trc("ganges", "end your turn"))
                flow.end_turn(new, events)
            case Stop():
                need(prompt, "pick", trc("ganges", "stop"))
                if not prompt.optional:
                    raise IllegalAction("This gain is compulsory while the cards exist.")
                new.tasks.pop()
                if events is not None:
                    events.append(
                        Event.public(tr("%(who)s takes no second goods card."), who=who(seat))
                    )
            case Choose():
                need(prompt, "choose", trc("ganges", "choose a bonus option"))
                if action.option not in prompt.options:
                    raise IllegalAction(
                        "“%(option)s” is not possible; choose one of %(options)s.",
                        option=action.option,
                        options=[Term(OPTION_WORDS[o], "ganges") for o in prompt.options],
                    )
                new.tasks.pop()
                display.apply_bonus_option(new, events, seat, action.option)
            case Resolve():
                need(prompt, "resolve", trc("ganges", "resolve triples"))
                if not 0 <= action.option < len(prompt.resolutions):
                    raise IllegalAction("No such resolution set.")
                flow.resolve_triples(new, events, seat, prompt.resolutions[action.option])
            case Convert():
                need(prompt, "convert", trc("ganges", "flip a track card"))
                conv = Conversion(by=action.by, position=action.position)
                if conv not in prompt.conversions:
                    raise IllegalAction("That track card cannot be flipped that way now.")
                flow.convert(new, events, seat, conv)
            case _:
                raise IllegalAction("Unknown action.")
        flow.advance(new, events)
        return new

    def catalogue(self) -> Mapping[str, Any]:
        """Words for the screen: the score-track bonuses."""
        return {"bonus_words": BONUS_WORDS}

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """The screen for `seat` (None = spectator): no hidden die value or bonus leaks."""
        result = self.outcome(state)
        return build_view(state, seat, result.to_json() if result else None)

    def information_key(self, state: State, seat: Seat) -> Hashable:
        """What `seat`'s view shows, as a tuple of plain values (a search tree's key)."""
        return information_key(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """After the final round: all-six first, then tie points (2/fame, 1/coin), then karma."""
        if not state.over:
            return None
        keys = outcome_keys(state)
        ranks = rank_by(keys)
        winners = frozenset(s for s, r in ranks.items() if r == 1)
        finished = [s for s, k in keys.items() if k[0]]
        reason = winning_reason(keys, finished, winners)
        details: JSON = {
            "points": {str(s): k[2] for s, k in keys.items()},
            "karma": {str(s): k[3] for s, k in keys.items()},
            "finished": sorted(finished),
        }
        scores = {s: k[1] for s, k in keys.items()}
        return Outcome(scores, ranks, winners, reason, details)

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal hidden die values (by colour), the deck below its top, unflipped bonuses."""
        return redeal(state, seat, rng)

    def progress(self, state: State, seat: Seat) -> tuple[int, ...]:
        """A bot's yardstick for a playout cut short: flipped score-track cards, then tie
        points (2 per fame, 1 per coin), then karma."""
        player = state.players[seat]
        flipped = sum(1 for card in player.track if card.flipped)
        return (flipped, 2 * player.fame + player.coins, player.karma)

    def action_text(self, action: Any) -> str:
        """Short canonical text, e.g. `build B42 pay G37+J6`, `ship S02 pay G17 karma 1`."""
        return action_text(action)
