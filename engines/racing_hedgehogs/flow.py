"""Racing Hedgehogs — the small named rules, a round's scoring and the flow of a game: dealing
a round, ending it (every hand scored), the final outcome and the closing log line.

Rule source: docs/rules/racing-hedgehogs.md ("Round setup", "End of round", "End of game").
The flow's helpers mutate the state in place; the engine (`rules.py`) only calls them on a fresh
copy, and plays the cards itself (`apply`, `play`). The views are in `view.py`; options, actions
and the state in `model.py`; the track and deck data in `data.py`.
"""

from __future__ import annotations

from engines.core import JSON, Event, Outcome, Seat, Term, forms, rank_by, tr, who
from engines.racing_hedgehogs.data import (
    COLOURS,
    FINISH,
    FINISH_BONUS_ADVANCED,
    FINISH_BONUS_BASIC,
    PAIR_MULTIPLIER,
    REMOVED_CARDS,
    SINGLE_MULTIPLIER,
    START,
    TRACK_VALUES,
    TWO_PLUS_MULTIPLIER,
    Card,
    Colour,
    full_deck,
)
from engines.racing_hedgehogs.model import (
    PlayerRoundScore,
    RoundResult,
    ScoreKind,
    ScoreLine,
    State,
)

# ---- small named rules -------------------------------------------------------------------------


def rounds_in_game(num_players: int) -> int:
    """The game lasts as many rounds as there are players."""
    return num_players


def removed_count(num_players: int) -> int:
    """How many cards are set aside unseen before the deal (10 / 3 / 0)."""
    return REMOVED_CARDS[num_players]


def hand_size(num_players: int) -> int:
    """Cards dealt to each player: the rest of the deck, shared evenly (15 / 13 / 11)."""
    return (len(full_deck()) - removed_count(num_players)) // num_players


def track_value(position: int) -> int:
    """The value of a track position."""
    return TRACK_VALUES[position]


def moved_hedgehog(card: Card, named: Colour | None) -> Colour | None:
    """The hedgehog a card moves: its own colour, or the named one for a rainbow joker."""
    return card.colour if card.colour is not None else named


def advance(position: int, pluses: int) -> int:
    """Move forward by `pluses`, never past the finish (2 from the field before it stops there)."""
    return min(position + pluses, FINISH)


def is_round_over(positions: dict[Colour, int]) -> bool:
    """A round ends the moment any hedgehog stands on the finish."""
    return any(pos == FINISH for pos in positions.values())


def finish_bonus(advanced: bool) -> int:
    """Bonus for the player who moved a hedgehog onto the finish (+3, or +6 advanced)."""
    return FINISH_BONUS_ADVANCED if advanced else FINISH_BONUS_BASIC


def floor_at_zero(total: int) -> int:
    """A negative round total counts as 0; earlier rounds are never reduced."""
    return max(total, 0)


def next_starter(starter: Seat, num_players: int) -> Seat:
    """The next round starts with the player to the left (clockwise) of the last starter."""
    return (starter + 1) % num_players


def next_seat(seat: Seat, num_players: int) -> Seat:
    """Play passes clockwise."""
    return (seat + 1) % num_players


def sort_cards(cards: list[Card]) -> list[Card]:
    """Cards in canonical order (by suit, then pluses)."""
    return sorted(cards, key=Card.sort_key)


def joker_line(cards: list[Card]) -> list[ScoreLine]:
    """Rainbow jokers score nothing; listed so the screen shows every kept card."""
    jokers = [c for c in cards if c.colour is None]
    if not jokers:
        return []
    return [ScoreLine(kind="joker", colour=None, cards=jokers, value=0, multiplier=0, points=0)]


def score_basic(cards: list[Card], positions: dict[Colour, int]) -> list[ScoreLine]:
    """Basic scoring: every coloured card scores its hedgehog's field value, jokers 0."""
    lines: list[ScoreLine] = []
    for colour in COLOURS:
        own = [c for c in cards if c.colour is colour]
        if own:
            value = track_value(positions[colour])
            lines.append(
                ScoreLine(
                    kind="cards",
                    colour=colour,
                    cards=own,
                    value=value,
                    multiplier=len(own),
                    points=value * len(own),
                )
            )
    return lines + joker_line(cards)


def score_advanced(cards: list[Card], positions: dict[Colour, int]) -> list[ScoreLine]:
    """Advanced scoring: each pair of one-plus cards ×5, an unpaired one ×1, two-plus ×2."""
    lines: list[ScoreLine] = []
    for colour in COLOURS:
        value = track_value(positions[colour])
        ones = [c for c in cards if c.colour is colour and c.pluses == 1]
        twos = [c for c in cards if c.colour is colour and c.pluses == 2]
        for i in range(0, len(ones) - 1, 2):
            lines.append(_line("pair", colour, ones[i : i + 2], value, PAIR_MULTIPLIER))
        if len(ones) % 2:
            lines.append(_line("single", colour, ones[-1:], value, SINGLE_MULTIPLIER))
        for card in twos:
            lines.append(_line("two_plus", colour, [card], value, TWO_PLUS_MULTIPLIER))
    return lines + joker_line(cards)


def _line(
    kind: ScoreKind, colour: Colour, cards: list[Card], value: int, multiplier: int
) -> ScoreLine:
    return ScoreLine(
        kind=kind,
        colour=colour,
        cards=cards,
        value=value,
        multiplier=multiplier,
        points=value * multiplier,
    )


def score_player(
    kept: list[Card], positions: dict[Colour, int], finished: bool, advanced: bool
) -> PlayerRoundScore:
    """One player's round: card lines, finish bonus, total and the points after the zero floor."""
    lines = score_advanced(kept, positions) if advanced else score_basic(kept, positions)
    card_points = sum(line.points for line in lines)
    bonus = finish_bonus(advanced) if finished else 0
    total = card_points + bonus
    return PlayerRoundScore(
        kept=sort_cards(kept),
        lines=lines,
        card_points=card_points,
        bonus=bonus,
        total=total,
        points=floor_at_zero(total),
    )


def totals(state: State) -> list[int]:
    """Each seat's points summed over the finished rounds."""
    return [sum(r.players[s].points for r in state.results) for s in range(state.num_players)]


def last_round_points(state: State) -> list[int]:
    """Each seat's points in the last finished round (the tie-break), zeros before any."""
    if not state.results:
        return [0] * state.num_players
    return [p.points for p in state.results[-1].players]


def is_game_over(state: State) -> bool:
    """The game ends after as many rounds as there are players."""
    return len(state.results) >= rounds_in_game(state.num_players)


def cumulative(rounds: list[list[int]]) -> list[list[int]]:
    """Running totals per seat after each round, for the score chart."""
    out: list[list[int]] = []
    for row in rounds:
        out.append([a + b for a, b in zip(out[-1], row, strict=True)] if out else list(row))
    return out


# ---- the flow of a game (mutating helpers, always called on a fresh copy) ----------------------


def deal_round(state: State, events: list[Event]) -> None:
    """Hedgehogs to the start, set cards aside unseen, deal the rest evenly; the starter leads."""
    n = state.num_players
    deck = state.rng.shuffled(full_deck())
    k, size = removed_count(n), hand_size(n)
    state.removed = sort_cards(deck[:k])
    state.hands = [sort_cards(deck[k + i * size : k + (i + 1) * size]) for i in range(n)]
    state.positions = dict.fromkeys(COLOURS, START)
    state.plays = []
    state.current = state.starter
    params = {"round": state.round, "rounds": rounds_in_game(n), "count": size}
    events.append(
        Event.public(
            forms(
                "Round %(round)s of %(rounds)s begins: %(count)s card each.",
                "Round %(round)s of %(rounds)s begins: %(count)s cards each.",
            ),
            **params,
        )
    )
    if k:
        events.append(
            Event.public(
                forms(
                    "%(count)s card is set aside unseen.", "%(count)s cards are set aside unseen."
                ),
                count=k,
            )
        )
    events.append(Event.public("%(who)s starts.", who=who(state.starter)))


def end_round(state: State, finisher: Seat, hedgehog: Colour, events: list[Event]) -> None:
    """Score the round, then deal the next one or end the game."""
    n = state.num_players
    players = [
        score_player(state.hands[s], state.positions, s == finisher, state.advanced_scoring)
        for s in range(n)
    ]
    state.results.append(
        RoundResult(
            round=state.round,
            starter=state.starter,
            finisher=finisher,
            finishing_hedgehog=hedgehog,
            positions=dict(state.positions),
            removed=list(state.removed),
            players=players,
        )
    )
    events.append(
        Event.public(
            "Round %(round)s ends: %(who)s brought the %(colour)s hedgehog home (+%(bonus)s).",
            round=state.round,
            who=who(finisher),
            colour=Term(hedgehog.value, "hedgehog"),
            bonus=finish_bonus(state.advanced_scoring),
        )
    )
    for seat, p in enumerate(players):
        if p.total < 0:
            message = tr("%(who)s scores %(points)s (a negative round counts as 0).")
        else:
            message = tr("%(who)s scores %(points)s.")
        events.append(Event.public(message, who=who(seat), points=p.points))
    if is_game_over(state):
        state.current = None
        state.hands = [[] for _ in range(n)]
        state.removed = []
        events.append(game_over_event(final_outcome(state)))
        return
    state.round += 1
    state.starter = next_starter(state.starter, n)
    deal_round(state, events)


def final_outcome(state: State) -> Outcome:
    """Totals after the last round; ties go to the most last-round points, then shared."""
    tot, last = totals(state), last_round_points(state)
    seats = range(state.num_players)
    ranks = rank_by({s: (tot[s], last[s]) for s in seats})
    winners = frozenset(s for s in seats if ranks[s] == 1)
    if len(winners) > 1:
        reason = tr("shared win: tied on total and on last-round points")
    elif sum(1 for s in seats if tot[s] == max(tot)) > 1:
        reason = tr("highest total, tie broken by last-round points")
    else:
        reason = tr("highest total")
    details: JSON = {
        "rounds": [[p.points for p in r.players] for r in state.results],
        "last_round_points": last,
    }
    return Outcome({s: tot[s] for s in seats}, ranks, winners, reason, details)


def game_over_event(outcome: Outcome) -> Event:
    """The closing log line: the winner(s) and the reason."""
    winners = [who(s) for s in sorted(outcome.winners)]
    best = max(outcome.scores.values())
    reason = Term(outcome.reason)
    if len(winners) > 1:
        return Event.public(
            "Game over: %(names)s and %(last)s share the win with %(points)s points (%(reason)s).",
            names=", ".join(winners[:-1]),
            last=winners[-1],
            points=best,
            reason=reason,
        )
    return Event.public(
        forms(
            "Game over: %(who)s wins with %(count)s point (%(reason)s).",
            "Game over: %(who)s wins with %(count)s points (%(reason)s).",
        ),
        who=winners[0],
        count=best,
        reason=reason,
    )
