"""Messages that name a person's act or state, which Polish says differently for a woman, a
man, or in neutral wording ("poddała się", "poddał się", "rezygnacja").

A person chooses how the site speaks of them (`GENDERS`, kept with them: `User.gender`); a
bot, or a person who has not chosen, is spoken of in neutral wording. Each message below has
one catalogue entry per choice, its gettext context being the choice ("she", "he",
"neutral"): `python -m scripts.i18n` adds the three to the catalogues, and
`tests/app/test_gender.py` checks that each has its forms. They are read with
`app.i18n.gendered` (templates: `gendered(grammar, message)`), which falls back to the plain
message for any message not listed here.
"""

from __future__ import annotations

from app.i18n import N_

GENDERED: tuple[str, ...] = (
    # The seats bar (templates/partials/seat.html)
    N_("to act"),
    N_("This player is to act"),
    N_("Has chosen"),
    N_("resigned"),
    N_("Resigned; a bot finishes their game"),
    N_("disconnected"),
    N_("connected"),
    N_("not connected"),
    # Names on boards and end screens (app/presentation/messages.py `standing_names`)
    N_("%(name)s (resigned)"),
    # Said to the person themself (their own choice)
    N_("You resigned from this game."),
    N_("You have already resigned."),
    N_("You resigned; a bot finishes your game."),
    N_(
        "The table has moved on (you saw version %(seen)s, it is at %(now)s); "
        "here is the current state."
    ),
    # Log lines (the person is the line's `who`, looked up when the line is read)
    N_("%(who)s resigned; a bot finishes their game."),
    N_("%(who)s lets a bot play for them."),
    N_("%(who)s is away; a bot plays for them until they return."),
    N_("%(who)s ran out of time; a bot chose for them."),
    N_("%(who)s ran out of time %(count)s times in a row; a bot plays for them until they return."),
)
"""Every message with a form per choice."""

GENDER_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("she", N_("As a woman"), N_("in Polish: “rozłączona”, “poddała się”")),
    ("he", N_("As a man"), N_("in Polish: “rozłączony”, “poddał się”")),
    ("neutral", N_("In neutral words"), N_("in Polish: “bez połączenia”, “rezygnacja”")),
)
"""The name page's choices: (value, label, an example of the words it gives)."""
