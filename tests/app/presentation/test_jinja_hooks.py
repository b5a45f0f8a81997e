"""The Jinja hooks of app/presentation/jinja_hooks.py against the pinned Jinja.

The hooks override or read parts of Jinja that are not a documented extension point. If an
upgrade of Jinja changes one of them, these tests fail and say which hook to read again —
before a page silently renders otherwise, or slower. The second half checks that each hook
still has its effect.
"""

from __future__ import annotations

import hashlib
import inspect
import tomllib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import pytest
from jinja2 import DictLoader, Environment, FileSystemLoader, pass_context
from jinja2.compiler import CodeGenerator
from jinja2.ext import Extension
from jinja2.idtracking import Symbols
from jinja2.runtime import Macro
from markupsafe import Markup, escape

from app import i18n
from app.presentation import jinja_hooks
from app.presentation.environment import templates
from app.presentation.jinja_hooks import (
    ESCAPE_IMPORT,
    CollapseIndentation,
    FastEnvironment,
    PlainCallsCodeGenerator,
    escape_output,
)

HOOKS = "app/presentation/jinja_hooks.py"

# What each hook overrides or calls, with the parameters it was written against.
SIGNATURES: list[tuple[Callable[..., Any], list[str], str]] = [
    (CodeGenerator.visit_Template, ["self", "node", "frame"], "PlainCallsCodeGenerator"),
    (
        CodeGenerator.visit_Call,
        ["self", "node", "frame", "forward_caller"],
        "PlainCallsCodeGenerator",
    ),
    (
        CodeGenerator._output_child_pre,
        ["self", "node", "frame", "finalize"],
        "PlainCallsCodeGenerator",
    ),
    (
        CodeGenerator._output_child_post,
        ["self", "node", "frame", "finalize"],
        "PlainCallsCodeGenerator",
    ),
    (Symbols.find_ref, ["self", "name"], "PlainCallsCodeGenerator._resolved"),
    (Symbols.find_load, ["self", "target"], "PlainCallsCodeGenerator._resolved"),
    (Environment.getattr, ["self", "obj", "attribute"], "FastEnvironment.getattr"),
    (
        Environment.get_template,
        ["self", "name", "parent", "globals"],
        "FastEnvironment.get_template",
    ),
    (Environment.make_globals, ["self", "d"], "FastEnvironment.make_globals"),
    (Extension.filter_stream, ["self", "stream"], "CollapseIndentation"),
    (jinja2.lexer.TokenStream.__init__, ["self", "generator", "name", "filename"], "Collapse"),
]

# A fingerprint of the source of every Jinja function a hook overrides or whose attributes it
# reads, as of the pinned Jinja: a change in any of them means the hook must be read again
# against the new code (and its speed measured again).
FINGERPRINTS = {
    "CodeGenerator.visit_Template": "c43af1aeb714bab1",
    "CodeGenerator.visit_Call": "f851b3bf5364bdfe",
    "CodeGenerator._output_child_pre": "950d7b8230fc9ca2",
    "CodeGenerator._output_child_post": "d943023c1d348a9e",
    "Environment.getattr": "9d52d65b450cc167",
    "Environment.get_template": "924d6591de252c7d",
    "Environment.make_globals": "b6eb9ef15eaebcaf",
    "Environment.overlay": "52cf7976c40646dd",
    "Macro.__init__": "325737cd5ca06fba",
    "Symbols.find_ref": "d5d35b928dcc56e6",
    "Symbols.find_load": "25ba1f74df31af87",
    "Extension.filter_stream": "1d1b44c99911930d",
}
_JINJA_FUNCTIONS: dict[str, tuple[Callable[..., Any], str]] = {
    "CodeGenerator.visit_Template": (CodeGenerator.visit_Template, "PlainCallsCodeGenerator"),
    "CodeGenerator.visit_Call": (CodeGenerator.visit_Call, "PlainCallsCodeGenerator"),
    "CodeGenerator._output_child_pre": (
        CodeGenerator._output_child_pre,
        "PlainCallsCodeGenerator",
    ),
    "CodeGenerator._output_child_post": (
        CodeGenerator._output_child_post,
        "PlainCallsCodeGenerator",
    ),
    "Environment.getattr": (Environment.getattr, "FastEnvironment.getattr"),
    "Environment.get_template": (Environment.get_template, "FastEnvironment.get_template"),
    "Environment.make_globals": (Environment.make_globals, "FastEnvironment.make_globals"),
    "Environment.overlay": (Environment.overlay, "FastEnvironment.overlay"),
    "Macro.__init__": (Macro.__init__, "pure (Macro._func, Macro.name)"),
    "Symbols.find_ref": (Symbols.find_ref, "PlainCallsCodeGenerator._resolved"),
    "Symbols.find_load": (Symbols.find_load, "PlainCallsCodeGenerator._resolved"),
    "Extension.filter_stream": (Extension.filter_stream, "CollapseIndentation"),
}


def _loudly(what: str, hook: str, detail: str) -> str:
    return (
        f"\n\n*** Jinja {jinja2.__version__} changed {what}, which {hook} in {HOOKS} relies "
        f"on. ***\n{detail}\nRead the hook again against the new Jinja code, measure "
        f"`python -m bench.pages` before and after, then update this test.\n"
    )


def _env(**sources: str) -> FastEnvironment:
    """An environment with the hooks alone (none of the server's globals but `_`)."""
    env = FastEnvironment(
        loader=DictLoader(sources),
        autoescape=True,
        auto_reload=False,
        extensions=[CollapseIndentation],
    )
    env.globals["_"] = lambda text: Markup(escape(text))
    return env


# ---- What the hooks rely on is still there, in the same shape ----------------------------


def test_the_installed_jinja_is_the_pinned_one() -> None:
    pins = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())["project"][
        "dependencies"
    ]
    pinned = next(p.split("==")[1] for p in pins if p.startswith("jinja2=="))
    assert jinja2.__version__ == pinned, (
        f"Jinja {jinja2.__version__} is installed but pyproject.toml pins {pinned}: the hooks "
        f"in {HOOKS} were checked against the pinned one (bash scripts/install.sh)"
    )


@pytest.mark.parametrize("function, parameters, hook", SIGNATURES)
def test_overridden_and_called_methods_keep_their_signatures(
    function: Callable[..., Any], parameters: list[str], hook: str
) -> None:
    found = list(inspect.signature(function).parameters)
    assert found == parameters, _loudly(
        f"the signature of {function.__qualname__}",
        hook,
        f"was ({', '.join(parameters)}), now ({', '.join(found)})",
    )


@pytest.mark.parametrize("name", sorted(FINGERPRINTS))
def test_the_jinja_code_the_hooks_were_written_against_is_unchanged(name: str) -> None:
    function, hook = _JINJA_FUNCTIONS[name]
    found = hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
    assert found == FINGERPRINTS[name], _loudly(
        f"the code of {name}", hook, f"fingerprint {FINGERPRINTS[name]} is now {found}"
    )


def test_the_attributes_the_hooks_read_are_still_there() -> None:
    env = _env()
    module: Any = env.from_string("{% macro m(a, names) %}{{ a }}{% endmacro %}").module
    macro = module.m
    assert isinstance(macro, Macro)
    func = getattr(macro, "_func", None)
    assert callable(func) and isinstance(func.__code__.co_filename, str), _loudly(
        "Macro._func (the macro's compiled function)", "pure", "it is gone or not a function"
    )
    assert macro.name == "m", _loudly("Macro.name", "pure", repr(macro.name))
    assert tuple(macro.arguments) == ("a", "names"), _loudly(
        "Macro.arguments", "own() parts (environment._own_part)", repr(macro.arguments)
    )
    assert CodeGenerator._FinalizeInfo._fields == ("const", "src"), _loudly(
        "CodeGenerator._FinalizeInfo", "PlainCallsCodeGenerator", "its fields (.src)"
    )
    assert jinja2.idtracking.VAR_LOAD_RESOLVE == "resolve", _loudly(
        "idtracking.VAR_LOAD_RESOLVE", "PlainCallsCodeGenerator._resolved", "its value"
    )
    assert Environment.code_generator_class is CodeGenerator, _loudly(
        "Environment.code_generator_class", "FastEnvironment", "the attribute"
    )
    assert env.compile("x", raw=True).count(ESCAPE_IMPORT) == 1
    assert getattr(pass_context(lambda: None), "jinja_pass_arg", None) is not None, _loudly(
        "the `jinja_pass_arg` marker of context-taking callables",
        "the check that PLAIN_CALLS take no context (environment.py)",
        "pass_context no longer sets it",
    )


def test_compiled_templates_look_escape_up_in_their_module_globals() -> None:
    """The whole of `escape_output`'s hook: the compiled functions call `escape(…)`, a name
    looked up in the template module's globals when they run, which our import rebinds."""
    env = _env()
    code = env.compile("{{ x }}", raw=True)
    assert "escape(" in code, _loudly("how {{ x }} is escaped", "escape_output", code)
    template = env.from_string("{{ x }}")
    assert template.root_render_func.__globals__["escape"] is escape_output, _loudly(
        "where compiled templates find `escape`", "PlainCallsCodeGenerator.visit_Template", code
    )


def test_the_server_environment_is_built_on_the_hooks() -> None:
    assert type(templates.env) is FastEnvironment
    assert templates.env.code_generator_class is PlainCallsCodeGenerator
    assert any(isinstance(e, CollapseIndentation) for e in templates.env.extensions.values())


# ---- What each hook does ------------------------------------------------------------------


def test_plain_calls_are_direct_python_calls_and_their_markup_is_printed_as_it_is() -> None:
    env = _env()
    code = env.compile('{{ _("a<b") }}', raw=True)
    assert "context.call(" not in code and "escape(" not in code.split("yield", 1)[1]
    assert env.from_string('{{ _("a<b") }}').render() == "a&lt;b"
    # A name the template binds itself goes through Jinja's call, as before.
    local = "{% macro _(t) %}[{{ t }}]{% endmacro %}{{ _('<') }}"
    assert "context.call(" in env.compile(local, raw=True)
    assert env.from_string(local).render() == "[&lt;]"


@pytest.mark.parametrize("value", ["<b>&'\"", Markup("<i>"), 7, -3, 1.5, None, True, ["<"]])
def test_printed_values_are_escaped_as_markupsafe_does(value: Any) -> None:
    assert escape_output(value) == escape(value)
    assert isinstance(escape_output(value), Markup)
    assert _env().from_string("{{ v }}").render(v=value) == str(escape(value))


def test_a_dict_key_reads_as_jinja_reads_it() -> None:
    page = "{{ d.a }}|{{ d.items is callable }}|{{ d.missing is defined }}|{{ d.get('a') }}"
    assert _env().from_string(page).render(d={"a": 1, "items": 2}) == "1|True|False|1"


def test_templates_are_loaded_once_and_an_overlay_loads_its_own() -> None:
    env = _env(**{"a.html": "{{ x }}"})
    first = env.get_template("a.html")
    assert env.get_template("a.html") is first
    overlay = env.overlay(autoescape=False)
    assert isinstance(overlay, FastEnvironment)
    assert overlay.get_template("a.html") is not first
    assert overlay.get_template("a.html").render(x="<") == "<"
    assert type(first.globals) is dict and first.globals["_"] is env.globals["_"]


def test_indentation_of_the_template_text_collapses_but_printed_values_do_not() -> None:
    env = _env(**{"a.html": "<p>\n    <b>{{ x }}</b>  \n\t  </p>\n"})
    assert env.get_template("a.html").render(x="a\n   b") == "<p>\n<b>a\n   b</b>\n</p>"


def test_a_pure_macro_is_drawn_once_per_distinct_arguments_and_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(jinja_hooks, "_PURE", OrderedDict())
    monkeypatch.setattr(jinja_hooks, "_PURE_SIZE", [0])
    calls: list[Any] = []

    def tick(value: Any) -> str:
        calls.append(value)
        return ""

    # Files, as the server's templates are: a macro is known by its file's name and its own.
    (tmp_path / "a.html").write_text("{% macro word(v) %}{{ tick(v) }}<{{ v }}>{% endmacro %}")
    (tmp_path / "b.html").write_text("{% macro word(v) %}{{ tick(v) }}({{ v }}){% endmacro %}")
    env = FastEnvironment(loader=FileSystemLoader(tmp_path), autoescape=True, auto_reload=False)
    env.globals["tick"] = tick  # before any template is loaded (FastEnvironment.make_globals)
    a: Any = env.get_template("a.html").module
    word = jinja_hooks.pure(a.word)
    with i18n.use("en"):
        assert [str(word(v)) for v in (1, 1, True, 1.0, "1", 1)] == [
            "<1>",
            "<1>",
            "<True>",
            "<1.0>",
            "<1>",
            "<1>",
        ]
        assert calls == [1, True, 1.0, "1"]  # each distinct argument once
        assert str(word([1, 2])) == str(word([1, 2])) == "<[1, 2]>"
        assert calls[-1] == [1, 2] and len(calls) == 5
    with i18n.use("pl"):
        word(1)
    assert len(calls) == 6  # another language: drawn again
    b: Any = env.get_template("b.html").module
    other = jinja_hooks.pure(b.word)
    with i18n.use("en"):
        # The same macro name and arguments in another template file: its own drawing.
        assert str(other(1)) == "(1)" and len(calls) == 7
