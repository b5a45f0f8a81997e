"""Karmaka (Eddy Boxerman & Dave Burke) for 2–4 players: the rules engine.

Rule source: docs/rules/karmaka.md, which restates the Polish rulebook (the
seed, with its card FAQ) and settles what it leaves open.
This module holds the turn: draw, the main play (pass or one of the ways to play a card), the
Karmic offer, extra plays and reincarnation, plus the engine surface (view, determinize, …).
Card abilities live in `abilities.py`, small table rules in `table.py`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engines.core import (
    JSON,
    Engine,
    Event,
    Forms,
    GameOver,
    GameSpec,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Phrase,
    Rng,
    Seat,
    Step,
    Term,
    copy_state,
    english,
    forms,
    interned,
    rank_by,
    tr,
    who,
)
from engines.karmaka.abilities import (
    OPTIONAL_PROMPTS,
    answer_prompt,
    begin_ability,
    prompt_options,
    prompt_public_text,
    prompt_text,
)
from engines.karmaka.cards import (
    CARDS,
    LADDER,
    NEW_LIFE_CARDS,
    NUM_CARDS,
    RING_TOKENS,
    SAFETY_ROUNDS,
    SCORED_COLOURS,
    START_DECK,
    START_HAND,
    WOLF,
)
from engines.karmaka.model import (
    MODE_NAMES,
    Accept,
    Action,
    AnyAction,
    Chain,
    Choose,
    Done,
    Draw,
    EndTurn,
    Options,
    Pass,
    Pick,
    Play,
    Player,
    Prompt,
    Refuse,
    SpendRings,
    State,
    Target,
    Way,
    copy_for_apply,
    set_fields,
    settle_players,
)
from engines.karmaka.table import (
    FROM_DECK,
    TO_FUTURE_LIFE,
    card_json,
    card_score,
    card_term,
    cards_json,
    colour_totals,
    has_transcended,
    hidden_move,
    kind_info,
    left_of,
    offered,
    partner_of,
    ruin,
    take_from_well,
    team_of,
    threshold,
)

MODE_PLAYERS: dict[str, tuple[int, ...]] = {
    "free_for_all": (2, 3, 4),
    "teams_2v2": (4,),
    "big_bad_wolf_2v1": (3,),
}


# ---- small named rules ------------------------------------------------------------------------


def must_reincarnate(state: State, seat: Seat) -> bool:
    """A turn is a reincarnation when the Hand and the Deck are both empty at its start."""
    player = state.players[seat]
    return not player.hand and not player.deck


def can_pass(state: State, seat: Seat) -> bool:
    """Passing is legal only while the Deck still holds a card (counted after the draw)."""
    return state.phase == "play" and state.turn == seat and bool(state.players[seat].deck)


PLAYS: dict[tuple[int, Way], Play] = {
    (c, w): Play(card=c, way=w)
    for c in range(NUM_CARDS)
    for w in ("deed", "ability", "future", "partner")
}
"""Every way to play every card, built once (legal actions are listed at every playout step)."""
PASS, END_TURN, ACCEPT, REFUSE = (interned(k) for k in (Pass, EndTurn, Accept, Refuse))
"""The shared instances of the answers without fields (the ones `interned` gives)."""
ALONE: tuple[frozenset[Seat], ...] = tuple(frozenset({s}) for s in range(8))
"""`frozenset({seat})` per seat, made once: `to_act` is asked at every step of a playout."""
NOBODY: frozenset[Seat] = frozenset()


WAYS: tuple[Way, ...] = ("deed", "ability", "future")
TEAM_WAYS: tuple[Way, ...] = (*WAYS, "partner")


def ways_to_play(state: State) -> tuple[Way, ...]:
    """A for points, B for the ability, C to your Future Life, D (teams_2v2) to your partner's."""
    return TEAM_WAYS if state.mode == "teams_2v2" else WAYS


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == "over"


def acting_seat(state: State) -> Seat | None:
    """The one seat that must act now (`to_act`), None when the game is over."""
    phase = state.phase
    if phase == "over":
        return None
    if phase == "ability" and state.prompt is not None:
        return state.prompt.seat
    if phase == "offer" and state.chain is not None:
        return state.chain.offer_to[0]
    return state.turn


def relation(state: State, viewer: Seat | None, seat: Seat) -> str | None:
    """`you`, `partner` or `rival` as seen from `viewer` (None for a spectator)."""
    if viewer is None:
        return None
    if viewer == seat:
        return "you"
    return "partner" if seat in team_of(state, viewer) else "rival"


def card_label(card: int) -> str:
    """`peek#4`: a card id with its kind, for the text form of actions."""
    return f"{CARDS[card].id}#{card}" if 0 <= card < NUM_CARDS else f"#{card}"


# ---- the flow of a turn (mutating helpers, always called on a fresh copy) ------------------------


def start_turn(state: State, seat: Seat, events: list[Event]) -> None:
    """Begin `seat`'s turn: reincarnate if Hand and Deck are empty, else draw from the Deck."""
    while True:
        if state.turns_started >= SAFETY_ROUNDS * state.num_players:
            reason = tr("%(count)s full rounds passed without a winner")
            end_game(state, [], reason, events, count=SAFETY_ROUNDS)
            return
        if state.turns_started % state.num_players == 0:
            # A new list, not an append: `copy_for_apply` shares this one with the state copied.
            state.rung_history = [*state.rung_history, tuple(p.rung for p in state.players)]
        set_fields(state, turns_started=state.turns_started + 1, turn=seat, phase="play")
        player = state.players[seat]
        if must_reincarnate(state, seat):
            events.append(Event.public("%(who)s has no cards left: reincarnation.", who=who(seat)))
            if player.rings:
                state.phase = "reincarnate"
                return
            reincarnate(state, seat, 0, events)
            if is_over(state):
                return
            seat = left_of(state, seat)
            continue
        events.append(Event.public("%(who)s's turn.", who=who(seat)))
        if player.deck:
            card = player.deck.pop()
            player.hand.append(card)
            hidden_move(state, seat, card, *FROM_DECK, events)
        return


def end_turn(state: State, events: list[Event]) -> None:
    """The turn ends; what was shown to the player is forgotten; the left player goes next."""
    set_fields(state, chain=None, prompt=None, reveals=[])
    start_turn(state, left_of(state, state.turn), events)


def play_card(state: State, seat: Seat, card: int, way: Way, events: list[Event]) -> None:
    """Play a Hand card in one of the ways; only way B leads to an ability and an offer."""
    player = state.players[seat]
    player.hand.remove(card)
    if way == "deed":
        player.deeds.append(card)
        events.append(
            Event.public("%(who)s plays %(card)s as a Deed.", who=who(seat), card=card_term(card))
        )
        end_turn(state, events)
    elif way == "future":
        player.future.append(card)
        hidden_move(state, seat, card, *TO_FUTURE_LIFE, events)
        end_turn(state, events)
    elif way == "partner":
        partner = partner_of(state, seat)
        assert partner is not None
        state.players[partner].future.append(card)
        pair = frozenset({seat, partner})
        events.append(
            Event(
                tr("%(who)s puts %(card)s on %(partner)s's Future Life."),
                seats=pair,
                spectators=False,
                params={"who": who(seat), "card": card_term(card), "partner": who(partner)},
            )
        )
        events.append(
            Event(
                tr("%(who)s puts a card on %(partner)s's Future Life."),
                seats=frozenset(range(state.num_players)) - pair,
                params={"who": who(seat), "partner": who(partner)},
            )
        )
        end_turn(state, events)
    else:
        state.chain = Chain(card=card, actor=seat)
        events.append(
            Event.public(
                "%(who)s plays %(card)s for its ability.", who=who(seat), card=card_term(card)
            )
        )
        begin_ability(state, CARDS[card].id, events)


def answer_offer(state: State, take: bool, events: list[Event]) -> None:
    """The asked player takes the card onto their Future Life, or the next one is asked."""
    chain = state.chain
    assert chain is not None
    asked = chain.offer_to[0]
    if take:
        state.players[asked].future.append(chain.card)
        events.append(
            Event.public(
                "%(who)s takes the %(card)s onto their Future Life.",
                who=who(asked),
                card=card_term(chain.card),
            )
        )
        after_offer(state, events)
        return
    chain.offer_to.pop(0)
    card = card_term(chain.card)
    events.append(Event.public("%(who)s refuses the %(card)s.", who=who(asked), card=card))
    if chain.offer_to:
        events.append(offered(chain.offer_to[0], chain.card))
        return
    ruin(state, chain.card)
    events.append(Event.public("The %(card)s goes to the Ruins.", card=card))
    after_offer(state, events)


def after_offer(state: State, events: list[Event]) -> None:
    """With the offer settled: the extra play if granted and the Hand holds a card, else the end."""
    chain = state.chain
    assert chain is not None
    state.chain = None
    if chain.extra and state.players[chain.actor].hand:
        state.phase = "extra"
        events.append(Event.public("%(who)s may play another card.", who=who(chain.actor)))
        return
    end_turn(state, events)


REINCARNATION: dict[tuple[bool, bool], str | Forms] = {
    (True, True): forms(
        "%(who)s scores %(score)s and %(count)s ring (needs %(need)s) and is reborn as %(rung)s.",
        "%(who)s scores %(score)s and %(count)s rings (needs %(need)s) and is reborn as %(rung)s.",
    ),
    (True, False): tr("%(who)s scores %(score)s (needs %(need)s) and is reborn as %(rung)s."),
    (False, True): forms(
        "%(who)s scores %(score)s and %(count)s ring (needs %(need)s), "
        "stays %(rung)s and gains a Karmic Ring.",
        "%(who)s scores %(score)s and %(count)s rings (needs %(need)s), "
        "stays %(rung)s and gains a Karmic Ring.",
    ),
    (False, False): tr(
        "%(who)s scores %(score)s (needs %(need)s), stays %(rung)s and gains a Karmic Ring."
    ),
}
"""The line a reincarnation is told with, by (reborn one rung up, rings spent)."""


def reincarnate(state: State, seat: Seat, spend: int, events: list[Event]) -> None:
    """Score the Deeds (+ spent rings), move up one rung or gain a ring, start the next life."""
    player = state.players[seat]
    score = card_score(player.deeds)
    need = threshold(player.rung)
    assert need is not None
    player.rings -= spend
    params = {"who": who(seat), "score": score, "count": spend, "need": need}
    reborn = score + spend >= need
    if reborn:
        player.rung += 1
    else:
        player.rings += 1
    params["rung"] = Term(LADDER[player.rung].name, "karmaka")
    events.append(Event.public(REINCARNATION[reborn, bool(spend)], **params))
    if has_transcended(state, seat):
        reason = tr("%(who)s reached Transcendence")
        end_game(state, team_of(state, seat), reason, events, who=who(seat))
        return
    state.ruins.extend(player.deeds)
    player.deeds = []
    player.hand = player.future
    player.future = []
    for _ in range(NEW_LIFE_CARDS - len(player.hand)):
        card = take_from_well(state, events)
        if card is None:
            break
        player.deck.append(card)
    events.append(
        Event.public(
            forms(
                "%(who)s begins a new life with %(count)s card in Hand and %(deck)s in the Deck.",
                "%(who)s begins a new life with %(count)s cards in Hand and %(deck)s in the Deck.",
            ),
            who=who(seat),
            count=len(player.hand),
            deck=len(player.deck),
        )
    )


def end_game(
    state: State, winners: list[Seat], reason: str, events: list[Event], **params: Any
) -> None:
    """The game is over; every card is revealed. `reason` is a message with `params`."""
    state.phase = "over"
    state.winners = sorted(winners)
    why = Phrase(reason, params)
    state.end_reason = english(reason, None, params)
    state.end_phrase = why.to_json()
    state.prompt = None
    events.append(Event.public("Game over: %(reason)s.", reason=why))


# ---- the engine ---------------------------------------------------------------------------------


class Karmaka(Engine[State, Any, Options]):
    """Karmaka for 2–4 players: free for all, 2 on 2, or 2 on 1."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="karmaka",
        title=tr("Karmaka"),
        min_players=2,
        max_players=4,
        options=Options,
        hidden_information=True,
        simultaneous=False,
        summary=tr(
            "Play cards for points, powers or your next life; climb the Karmic Ladder "
            "to Transcendence."
        ),
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Shuffle the Well, deal 4 to each Hand and 2 to each Deck, a random player starts."""
        opts = options
        allowed = MODE_PLAYERS[opts.mode]
        if num_players not in allowed:
            raise IllegalAction(
                "Mode %(mode)s needs %(counts)s players, not %(count)s.",
                mode=Term(MODE_NAMES[opts.mode], "karmaka"),
                counts=" / ".join(str(n) for n in allowed),
                count=num_players,
            )
        rng = Rng.from_seed(seed)
        state = State(
            num_players=num_players,
            mode=opts.mode,
            rng=rng,
            players=[Player() for _ in range(num_players)],
            well=rng.shuffled(list(range(NUM_CARDS))),
        )
        if opts.mode == "big_bad_wolf_2v1":
            state.players[0].rung = WOLF
        for player in state.players:
            player.hand = [state.well.pop() for _ in range(START_HAND)]
        for player in state.players:
            player.deck = [state.well.pop() for _ in range(START_DECK)]
        events: list[Event] = []
        start_turn(state, rng.randbelow(num_players), events)
        return Step(state, events)

    def to_act(self, state: State) -> frozenset[Seat]:
        """The player on turn, or whoever a pending prompt or offer waits for."""
        acting = acting_seat(state)
        return NOBODY if acting is None else ALONE[acting]

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Every legal action of `seat` now (every Hand card in every way, every answer)."""
        if seat != acting_seat(state):
            return []
        phase = state.phase
        if phase == "ability":
            return prompt_options(state)
        if phase == "offer":
            return [ACCEPT, REFUSE]
        if phase == "reincarnate":
            return [interned(SpendRings, rings=k) for k in range(state.players[seat].rings + 1)]
        ways = ways_to_play(state)
        plays: list[AnyAction] = [PLAYS[c, w] for c in state.players[seat].hand for w in ways]
        if phase == "extra":
            return [*plays, END_TURN]
        return [PASS, *plays] if can_pass(state, seat) else plays

    def is_legal(self, state: State, seat: Seat, action: Any) -> bool:
        """`action in self.legal_actions(state, seat)`, without listing them for a card play
        or a pass (the most frequent actions)."""
        kind = type(action)
        if kind is Play and state.phase in ("play", "extra") and seat == acting_seat(state):
            return action.card in state.players[seat].hand and action.way in ways_to_play(state)
        if kind is Pass:
            return seat == acting_seat(state) and can_pass(state, seat)
        return action in self.legal_actions(state, seat)

    def check_turn(self, state: State, seat: Seat) -> None:
        """Raise `GameOver` or `NotYourTurn` unless `seat` may act now (the shared check,
        read from `acting_seat` once: over exactly when `outcome` is not None)."""
        acting = acting_seat(state)
        if acting is None:
            raise GameOver("The game is over.")
        if seat != acting:
            raise NotYourTurn("It is not your turn.")

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Validate against the legal actions, then play it out on a copy."""
        self.check_turn(state, seat)
        if not self.is_legal(state, seat, action):
            why = explain_illegal(state, seat, action)
            raise IllegalAction(why.message, **why.params)
        new = copy_for_apply(state)
        events: list[Event] = []
        match action:
            case Pass():
                events.append(Event.public("%(who)s passes.", who=who(seat)))
                end_turn(new, events)
            case Play():
                play_card(new, seat, action.card, action.way, events)
            case EndTurn():
                events.append(Event.public("%(who)s makes no extra play.", who=who(seat)))
                end_turn(new, events)
            case Accept() | Refuse():
                answer_offer(new, isinstance(action, Accept), events)
            case SpendRings():
                reincarnate(new, seat, action.rings, events)
                if not is_over(new):
                    end_turn(new, events)
            case _:
                answer_prompt(new, action, events, checked=True)
        settle_players(new)
        return Step(new, events)

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """Public table, plus the seat's own Hand, Future Life, prompt and what it was shown."""
        over = is_over(state)
        players = [player_view(state, s, seat, over) for s in range(state.num_players)]
        mine = state.players[seat] if seat is not None else None
        prompt = state.prompt
        outcome = self.outcome(state)
        return {
            "game": self.spec.id,
            "seat": seat,
            "mode": state.mode,
            "num_players": state.num_players,
            "phase": state.phase,
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "round": (state.turns_started - 1) // state.num_players + 1,
            "score_history": (
                [*map(list, state.rung_history), [p.rung for p in state.players]] if over else None
            ),
            "well_count": len(state.well),
            # The end shows every card (spec decision), the Well too, top of the pile first.
            "well": cards_json(list(reversed(state.well))) if over else None,
            "ruins": cards_json(state.ruins),
            "ruins_top": card_json(state.ruins[-1]) if state.ruins else None,
            "in_play": chain_view(state),
            "rings_supply": max(0, RING_TOKENS - sum(p.rings for p in state.players)),
            "ladder": ladder_json(),
            "players": players,
            "hand": cards_json(mine.hand) if mine is not None else None,
            "future": cards_json(mine.future) if mine is not None else None,
            "ways": list(ways_to_play(state)),
            "can_pass": seat is not None and can_pass(state, seat),
            "may_end_turn": seat is not None and state.phase == "extra" and state.turn == seat,
            "rings_to_spend": (
                state.players[seat].rings
                if seat is not None and state.phase == "reincarnate" and state.turn == seat
                else None
            ),
            "prompt": (
                prompt_view(state, prompt) if prompt is not None and prompt.seat == seat else None
            ),
            "waiting": waiting_view(prompt) if prompt is not None else None,
            "revealed": [
                {"label": r.label, "about": r.about, "cards": cards_json(r.cards)}
                for r in state.reveals
                if r.seat == seat
            ],
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "end_phrase": state.end_phrase,
            "outcome": outcome.to_json() if outcome else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        """The transcended player's team wins; the others rank by rung, then rings."""
        if not is_over(state):
            return None
        winners = frozenset(state.winners)
        scores = {s: p.rung for s, p in enumerate(state.players)}
        keys = {
            s: (1, 0, 0) if s in winners else (0, p.rung, p.rings)
            for s, p in enumerate(state.players)
        }
        reason = state.end_reason
        return Outcome(scores, rank_by(keys), winners, reason)

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal every card `seat` cannot see among the hidden places; re-seed the shuffles.

        The result depends only on what `view(state, seat)` shows and on `rng`: hidden cards are
        first renamed canonically (in the order of their places), then dealt by a permutation
        drawn from `rng`; a face-down Swindle/Spite row is re-shuffled; the state's own RNG (the
        future shuffles) is replaced.
        """
        new = copy_state(state)
        seen = visible_cards(state, seat)
        hidden = [c for c in range(NUM_CARDS) if c not in seen]
        places = [c for c in card_places(new) if c not in seen]
        canonical = list(dict.fromkeys(places))
        dealt = random_permutation(hidden, rng.next_u64())
        remap_cards(new, dict(zip(canonical, dealt, strict=False)))
        reshuffle_row(new, Rng.from_seed(rng.next_u64()))
        new.rng = Rng.from_seed(rng.next_u64())
        return new

    def teams(self, state: State, num_players: int) -> list[list[Seat]]:
        """Free for all: each seat alone; 2 on 2: seats 0+2 and 1+3; 2 on 1: the Wolf (seat 0)
        against seats 1+2."""
        sides: list[list[Seat]] = []
        for seat in range(num_players):
            team = team_of(state, seat)
            if team not in sides:
                sides.append(team)
        return sides

    def progress(self, state: State, seat: Seat) -> tuple[int, ...]:
        """A bot's yardstick for a playout cut short: the rung reached, then the rings."""
        player = state.players[seat]
        return (player.rung, player.rings)

    def action_text(self, action: Any) -> str:
        """`pass`, `play peek#4 ability`, `target p1`, `choose voyage#40`, `pick 2`, `spend 1`…"""
        match action:
            case Play():
                return f"play {card_label(action.card)} {action.way}"
            case Choose():
                return f"choose {card_label(action.card)}"
            case Target():
                return f"target p{action.seat}"
            case Pick():
                return f"pick {action.position}"
            case SpendRings():
                return f"spend {action.rings}"
            case EndTurn():
                return "end"
            case _:
                return str(action.type)


# ---- refusals -----------------------------------------------------------------------------------


def explain_illegal(state: State, seat: Seat, action: Any) -> Phrase:
    """Which rule refuses the action, in words a player understands."""
    phase = state.phase
    player = state.players[seat]
    match action:
        case Pass():
            if phase == "play":
                return Phrase(tr("You may pass only while your Deck still holds a card."))
            return Phrase(tr("You cannot pass now."))
        case Play():
            if phase not in ("play", "extra"):
                return Phrase(tr("You cannot play a card now: answer the pending decision first."))
            if action.card not in player.hand:
                return Phrase(tr("That card is not in your Hand."))
            return Phrase(
                tr("Playing onto your partner's Future Life exists only in teams of two.")
            )
        case EndTurn():
            return Phrase(tr("You can end your turn only instead of an extra play."))
        case Accept() | Refuse():
            return Phrase(tr("No card is being offered to you."))
        case SpendRings():
            if phase != "reincarnate":
                return Phrase(tr("Rings are spent only when you reincarnate."))
            return Phrase(tr("You may spend 0 to %(count)s rings."), {"count": player.rings})
    if phase == "ability" and state.prompt is not None:
        return Phrase(
            tr("Not a possible answer. %(prompt)s"), {"prompt": prompt_text(state.prompt)}
        )
    return Phrase(tr("That action does not fit the moment: play a card, pass or end your turn."))


# ---- views --------------------------------------------------------------------------------------


def player_view(state: State, seat: Seat, viewer: Seat | None, over: bool) -> JSON:
    """One player's public area (and, at game end, all their cards)."""
    player = state.players[seat]
    totals = colour_totals(player.deeds)
    best = max(totals["red"], totals["green"], totals["blue"])
    score = best + totals["mosaic"]
    need = threshold(player.rung)
    short = None if need is None else max(0, need - score)
    entry: JSON = {
        "seat": seat,
        "team": team_of(state, seat),
        "relation": relation(state, viewer, seat),
        "rung": player.rung,
        "rung_id": LADDER[player.rung].id,
        "rung_name": LADDER[player.rung].name,
        "threshold": need,
        "rings": player.rings,
        "hand_count": len(player.hand),
        "deck_count": len(player.deck),
        "future_count": len(player.future),
        "deeds": cards_json(player.deeds),
        "exposed": card_json(player.deeds[-1]) if player.deeds else None,
        "totals": totals,
        "best_colours": [c for c in SCORED_COLOURS if totals[c] == best and best > 0],
        "card_score": score,
        "reaches_threshold": need is not None and score >= need,
        "rings_to_move_up": short if short is not None and short <= player.rings else None,
    }
    if over:
        entry["hand"] = cards_json(player.hand)
        entry["deck"] = cards_json(player.deck)
        entry["future_life"] = cards_json(player.future)
    return entry


def ladder_json() -> list[JSON]:
    """The rungs of the Karmic Ladder, bottom first, as the screen draws them."""
    return [
        {"rung": i, "id": r.id, "name": r.name, "threshold": r.threshold}
        for i, r in enumerate(LADDER)
    ]


def chain_view(state: State) -> JSON | None:
    """The card in play, who played it and whom it affected so far."""
    chain = state.chain
    if chain is None:
        return None
    return {
        "card": card_json(chain.card),
        "actor": chain.actor,
        "target": chain.target,
        # The abilities copied so far, by kind only: a copied Deed may since have gone into
        # a Hand (Mimic copying a rival's Thievery takes that very card), and a Hand's cards
        # are named to no one else.
        "copied": [
            {k: v for k, v in c.items() if k != "id"} for c in cards_json(chain.used_sources)
        ],
        "offer_to": list(chain.offer_to) if state.phase == "offer" else [],
    }


def prompt_view(state: State, prompt: Prompt) -> JSON:
    """The pending decision as its player sees it, with every possible answer."""
    options = prompt_options(state)
    return {
        "kind": prompt.kind,
        "ability": prompt.ability,
        "ability_name": kind_info(prompt.ability).name,
        "text": prompt_text(prompt).to_json(),
        "optional": prompt.kind in OPTIONAL_PROMPTS,
        "target": prompt.target,
        "count": prompt.count,
        "limit": prompt.limit,
        "seats": [a.seat for a in options if isinstance(a, Target)],
        "cards": [card_json(a.card) for a in options if isinstance(a, Choose)],
        "row_size": len(prompt.row),
        "positions": [a.position for a in options if isinstance(a, Pick)],
        "can_draw": any(isinstance(a, Draw) for a in options),
        "can_stop": any(isinstance(a, Done) for a in options),
    }


def waiting_view(prompt: Prompt) -> JSON:
    """What everybody may know about the pending decision."""
    public_cards = prompt.kind in ("recycle", "salvage")
    return {
        "seat": prompt.seat,
        "kind": prompt.kind,
        "ability": prompt.ability,
        "text": prompt_public_text(prompt).to_json(),
        "target": prompt.target,
        "count": prompt.count,
        "limit": prompt.limit,
        "cards_count": len(prompt.cards),
        "cards": cards_json(prompt.cards) if public_cards else None,
        "row_size": len(prompt.row),
        "picked": list(prompt.picked),
    }


# ---- hidden information -------------------------------------------------------------------------


def visible_cards(state: State, seat: Seat | None) -> set[int]:
    """Every card whose identity and place `seat` (None = spectator) can see now."""
    seen: set[int] = set(state.ruins)
    over = is_over(state)
    for player in state.players:
        seen.update(player.deeds)
        if over:  # the end of the game shows every Hand, Deck and Future Life
            seen.update(player.hand, player.deck, player.future)
    if over:  # ... and the Well
        seen.update(state.well)
    if state.chain is not None:
        seen.add(state.chain.card)
        seen.update(state.chain.used_sources)
    prompt = state.prompt
    if prompt is not None and prompt.kind in ("recycle", "salvage"):
        seen.update(prompt.cards)
    if seat is None:
        return seen
    me = state.players[seat]
    seen.update(me.hand)
    seen.update(me.future)
    for reveal in state.reveals:
        if reveal.seat == seat:
            seen.update(reveal.cards)
    if prompt is not None and prompt.seat == seat:
        seen.update(prompt.cards)
    return seen


def random_permutation(items: list[int], seed: int) -> list[int]:
    """The items in a random order drawn from one 64-bit seed.

    Sorting by a SplitMix64 hash of (seed, item) is a uniform shuffle for our purposes and costs
    one hash per item instead of one `Rng.randbelow` per item: determinize runs very often.
    """

    def key(item: int) -> int:
        z = (seed + (item + 1) * 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    return sorted(items, key=key)


_MASK64 = (1 << 64) - 1


def card_places(state: State) -> list[int]:
    """Every card id in the state, in the fixed order of their places (repeats included).

    The order is the one `remap_cards` walks; it is what a canonical renaming is built from.
    """
    out: list[int] = []
    for player in state.players:
        for pile in (player.hand, player.deck, player.future, player.deeds):
            out += pile
    out += state.well
    out += state.ruins
    if state.chain is not None:
        out.append(state.chain.card)
        out += state.chain.used_sources
    if state.prompt is not None:
        out += state.prompt.cards
        out += state.prompt.row
    for reveal in state.reveals:
        out += reveal.cards
    return out


def reshuffle_row(state: State, rng: Rng) -> None:
    """Re-shuffle the face-down row of a Swindle/Spite: its order is secret to everybody.

    Only the places still holding a card of the target's Hand move (a Spite pick is ruined and
    stays put); they are sorted first so that the real order cannot show through.
    """
    prompt = state.prompt
    if prompt is None or not prompt.row or prompt.target is None:
        return
    hand = set(state.players[prompt.target].hand)
    places = [i for i, c in enumerate(prompt.row) if c in hand]
    cards = rng.shuffled(sorted(prompt.row[i] for i in places))
    for i, c in zip(places, cards, strict=True):
        prompt.row[i] = c


def remap_cards(state: State, mapping: dict[int, int]) -> None:
    """Rename cards everywhere in a freshly cloned state (a re-deal of the renamed cards)."""

    def swap(cards: list[int]) -> None:
        cards[:] = [mapping.get(c, c) for c in cards]

    for player in state.players:
        for pile in (player.hand, player.deck, player.future, player.deeds):
            swap(pile)
    swap(state.well)
    swap(state.ruins)
    if state.chain is not None:
        state.chain.card = mapping.get(state.chain.card, state.chain.card)
        swap(state.chain.used_sources)
    if state.prompt is not None:
        swap(state.prompt.cards)
        swap(state.prompt.row)
    for reveal in state.reveals:
        swap(reveal.cards)
