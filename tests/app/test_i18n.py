"""Languages (issue 13): complete catalogues, Polish plural forms, choosing a language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n
from scripts.i18n import extract_args, run

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s|\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> set[str | tuple[str, ...]]:
    """Every message the code and templates use today (a fresh Babel extraction)."""
    pot = tmp_path_factory.mktemp("i18n") / "messages.pot"
    run(*extract_args(pot))
    with pot.open("rb") as f:
        return {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_message_is_translated(lang: str, extracted: set[str | tuple[str, ...]]) -> None:
    """Each extracted message has a translation in `lang`, none empty or fuzzy, each
    translation uses exactly the placeholders of its message (every plural form too), and the
    catalogue holds nothing the code no longer marks."""
    with (i18n.LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    entries = {m.id: m for m in catalog if m.id}
    missing = sorted(str(m) for m in extracted if m not in entries)
    assert not missing, f"{lang}: not in the catalogue (run python -m scripts.i18n): {missing}"
    # A message the code no longer marks (a dropped `tr(...)`) would stay translated here until
    # the next extraction silently removed it, and its line would show in English.
    stale = sorted(str(m) for m in entries if m not in extracted)
    assert not stale, f"{lang}: in the catalogue but no longer marked in the code: {stale}"
    for mid in extracted:
        entry = entries[mid]
        assert not entry.fuzzy, f"{lang}: fuzzy {mid!r}"
        forms = (
            [str(s) for s in entry.string]
            if isinstance(entry.string, (tuple, list))
            else [str(entry.string or "")]
        )
        assert forms and all(forms), f"{lang}: untranslated {mid!r}"
        source = mid if isinstance(mid, tuple) else (mid,)
        wanted = set().union(*(placeholders(s) for s in source))
        for form in forms:
            # A singular form may leave out the number ("1 karta" can be "karta").
            assert placeholders(form) <= wanted, f"{lang}: {form!r} has unknown placeholders"
            assert wanted - {"count"} <= placeholders(form), f"{lang}: {form!r} drops one"


@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "gracza"), (2, "graczy"), (5, "graczy"), (12, "graczy"), (22, "graczy")],
)
def test_polish_plural_forms(n: int, form: str) -> None:
    with i18n.use("pl"):
        text = i18n.ngettext(
            "Needs at least %(count)s player", "Needs at least %(count)s players", n
        )
    assert text % {"count": n} == f"Potrzeba co najmniej {n} {form}"


@pytest.mark.parametrize(
    ("n", "pl", "en"),
    [
        (1, "Zajęte: 1 z 1 miejsca.", "1 of 1 seat taken."),
        (2, "Zajęte: 1 z 2 miejsc.", "1 of 2 seats taken."),
        (5, "Zajęte: 1 z 5 miejsc.", "1 of 5 seats taken."),
        (12, "Zajęte: 1 z 12 miejsc.", "1 of 12 seats taken."),
        (22, "Zajęte: 1 z 22 miejsc.", "1 of 22 seats taken."),
    ],
)
def test_plural_in_a_template(n: int, pl: str, en: str) -> None:
    from app.presentation.environment import templates

    source = (
        "{% trans count=n, taken=1 %}{{ taken }} of {{ count }} seat taken."
        "{% pluralize count %}{{ taken }} of {{ count }} seats taken.{% endtrans %}"
    )
    for lang, expected in (("pl", pl), ("en", en)):
        with i18n.use(lang):
            assert templates.env.from_string(source).render(n=n) == expected


def test_the_language_of_a_context_stays_in_it() -> None:
    with i18n.use("pl"):
        assert i18n.gettext("Send") == "Wyślij"
        with i18n.use("en"):
            assert i18n.gettext("Send") == "Send"
        assert i18n.current() == "pl"
    assert i18n.current() == "en"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("en-GB,en;q=0.9,pl;q=0.8", "en"),
        ("de-DE,de;q=0.9,pl;q=0.5", "pl"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("pl;q=0, en;q=0.1", "en"),
        ("x-klingon, ;;; q=abc, PL", "pl"),
    ],
)
def test_accept_language(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_a_stored_choice_wins_over_cookie_and_browser() -> None:
    assert i18n.choose("pl", "en", "en") == "pl"
    assert i18n.choose(None, "pl", "en") == "pl"
    assert i18n.choose(None, "xx", "pl") == "pl"
    assert i18n.choose("xx", None, None) == "en"


def test_every_game_title_is_in_the_catalogues() -> None:
    """Each shipped game's title (marked with `tr` in its spec, so the extraction finds it with
    the engine) is translated in every catalogue."""
    from engines import SHIPPED

    for lang in i18n.LANGUAGES:
        with (i18n.LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
        for engine in SHIPPED:
            entry = catalog.get(engine.spec.title)
            assert entry is not None and entry.string, (lang, engine.spec.title)
    with i18n.use("pl"):
        assert i18n.gettext("Racing Hedgehogs") == "Pędzące Jeże"


def translated_engines() -> list[str]:
    """The engines whose words are in the catalogues: every shipped one (babel.cfg extracts
    all of engines/), not the tests' own game."""
    from engines import SHIPPED

    assert "[python: engines/**.py]" in (ROOT / "babel.cfg").read_text()
    return sorted(e.spec.id for e in SHIPPED)


def test_translated_engines_speak_only_catalogued_words() -> None:
    """Over seeded random games of every translated engine, each log line's message (or its
    plural pair) and each game word it names is in the Polish catalogue, translated — a line
    an extractor missed would otherwise show in English."""
    import random as stdlib_random

    from engines import REGISTRY
    from engines.core import Phrase, Term

    engines = translated_engines()
    assert {"incan_gold", "racing_hedgehogs", "karmaka"} <= set(engines)
    with (i18n.LOCALES / "pl" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale="pl")
    known = {
        (m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.string
    }

    def check(message: object, context: str | None = None) -> None:
        assert (context, message) in known, f"not in the Polish catalogue: {message!r}"

    def check_params(params: dict[str, object]) -> None:
        for value in params.values():
            words = value if isinstance(value, list) else [value]
            for w in words:
                if isinstance(w, Term):
                    check(w.text, w.context)
                elif isinstance(w, Phrase):
                    check(w.message if w.plural is None else (w.message, w.plural))
                    check_params(dict(w.params))

    for game_id in engines:
        engine = REGISTRY[game_id]
        for seed in range(6):
            n = engine.spec.min_players + seed % 2
            state = engine.setup(n, engine.parse_options({}), seed).state
            rng = stdlib_random.Random(seed)
            for _ in range(800):
                if engine.outcome(state) is not None:
                    break
                seat = sorted(engine.to_act(state))[0]
                step = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
                state = step.state
                for event in step.events:
                    check(event.message if event.plural is None else (event.message, event.plural))
                    check_params(dict(event.params))


def test_translation_calls_are_plain_calls_with_jinjas_meaning() -> None:
    """Templates call `_()`, `gettext`, `pgettext` and what `{% trans %}` compiles to
    directly (`PlainCallsCodeGenerator` in app/presentation/jinja_hooks.py), not through
    Jinja's `Context.call`, and print their Markup without escaping it again; the
    output is what Jinja's own new-style gettext gives: translated, variables escaped, the
    translation itself not, inside loops too. A name the template binds itself (here a macro
    called `gettext`) is left to Jinja."""
    from app.presentation.environment import templates

    source = (
        "{% for c in cards %}[{{ _('Game over') }}|{{ pgettext('dreadful_circus', 'gold') }}|"
        "{% trans count=c %}{{ count }} left{% endtrans %}|{{ gettext('worth %(value)s', "
        "value=c) }}|{{ _(word) }}]{% endfor %}"
    )
    code = templates.env.compile(source, raw=True)
    assert "context.call(" not in code
    assert "escape((undefined(name='_')" not in code  # Markup already: not escaped (copied) again
    with i18n.use("pl"):
        page = templates.env.from_string(source).render(cards=[1, "<b>"], word="hazard")
    assert page == (
        "[Koniec gry|złota moneta|zostało 1|wart 1|zagrożenie]"
        "[Koniec gry|złota moneta|zostało &lt;b&gt;|wart &lt;b&gt;|zagrożenie]"
    )
    # A name the template binds itself is not the global: called and escaped as Jinja does.
    macro = "{% macro gettext(x) %}<{{ x }}>{% endmacro %}{{ gettext('a') }}"
    assert "context.call(" in templates.env.compile(macro, raw=True)
    assert templates.env.from_string(macro).render() == "<a>"


def test_printed_values_are_escaped_as_markupsafe_does() -> None:
    """`{{ value }}` goes through `escape_output` (app/presentation/jinja_hooks.py), which
    skips copying Markup and escaping ints: for every kind of value a template prints, the
    same text as markupsafe's `escape`, and Markup out."""
    from markupsafe import Markup, escape

    from app.presentation.environment import templates
    from app.presentation.jinja_hooks import escape_output

    class Html:
        def __html__(self) -> str:
            return "<i>own</i>"

    class Named:
        def __str__(self) -> str:
            return "a<b & 'c'"

    values: list[object] = [
        "<script>alert('x')</script> & \"q\"",
        "plain",
        "",
        Markup("<b>bold</b>"),
        Markup(""),
        0,
        -42,
        10**30,
        True,
        None,
        1.5,
        Html(),
        Named(),
        ["<li>", 3],
    ]
    for value in values:
        out = escape_output(value)
        assert isinstance(out, Markup)
        assert str(out) == str(escape(value)), value
    code = templates.env.compile("{{ x }}", raw=True)
    assert "from app.presentation.jinja_hooks import escape_output as escape" in code
    page = templates.env.from_string("{% for x in xs %}[{{ x }}]{% endfor %}")
    assert page.render(xs=values) == "".join(f"[{escape(v)}]" for v in values)


def test_stylesheets_write_no_words() -> None:
    """CSS `content` never holds words (they cannot be translated there): a badge's text is in
    the HTML, through the catalogue (issue 33: Ganges' "✓ chosen")."""
    content = re.compile(r"content:\s*(\"[^\"]*\"|'[^']*')")
    worded = [
        (path.name, text)
        for path in (ROOT / "static" / "css").rglob("*.css")
        for text in content.findall(path.read_text())
        if re.search(r"[^\W\d_]{2,}", text)
    ]
    assert not worded, worded
