"""Hooks into Jinja's internals that make the table pages fast — and nothing else.

Everything here exists because it was measured: each hook says what it saves. Each one
relies on something of Jinja (pinned in pyproject.toml) that is not a documented extension
point, so tests/presentation/test_jinja_hooks.py checks, for the pinned version, that it is
still there with the same shape, and that every hook still has its effect:

- `PlainCallsCodeGenerator` subclasses `jinja2.compiler.CodeGenerator` and overrides
  `visit_Template(node, frame=None)`, `visit_Call(node, frame, forward_caller=False)`,
  `_output_child_pre(node, frame, finalize)` and `_output_child_post(node, frame, finalize)`;
  it reads `frame.symbols.find_ref`/`find_load` (with `jinja2.idtracking.VAR_LOAD_RESOLVE`),
  `frame.eval_ctx.autoescape` and `finalize.src`, and relies on the compiled template's
  functions looking up the name `escape` in the module's globals when they run.
- `FastEnvironment` subclasses `jinja2.Environment`: its class attribute
  `code_generator_class`, and the methods `getattr`, `get_template`, `overlay` and
  `make_globals`.
- `CollapseIndentation` is an `Extension.filter_stream` over the lexer's `Token`s and
  `TokenStream`.
- `pure` reads a `jinja2.runtime.Macro`'s private `_func` (its compiled function, whose
  `__code__.co_filename` names the template) and its `name`.

What templates see is built in `app.presentation.environment`; this module has no globals,
filters or translations of its own.
"""

from __future__ import annotations

import marshal
import re
from collections import OrderedDict
from collections.abc import MutableMapping
from keyword import iskeyword as is_python_keyword
from typing import Any

from jinja2 import Environment, Template, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.ext import Extension
from jinja2.idtracking import VAR_LOAD_RESOLVE
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup, escape

from app import i18n

PLAIN_CALLS = frozenset(
    {"_", "gettext", "ngettext", "pgettext", "npgettext", "gendered", "mine", "own"}
)
"""Globals that templates call as plain Python functions: each takes no Jinja context and
returns Markup (the translations; `mine()` and `own()` of the shared board, ~20 calls per
board). `app.presentation.environment` checks that none of them takes Jinja's context."""

ESCAPE_IMPORT = "from app.presentation.jinja_hooks import escape_output as escape"
"""The line `PlainCallsCodeGenerator` adds to every compiled template."""


def escape_output(value: Any) -> Markup:
    """What `{{ value }}` prints in an autoescaped template: markupsafe's `escape`, with the
    commonest cases first. Markup (a macro's or `_()`'s output, a cut board) is printed as
    it is instead of being copied into a new Markup, and an int (a version, a count, a seat)
    needs no escaping. The same text as `escape` in every case (a test compares them)."""
    kind = type(value)
    if kind is Markup:
        return value  # type: ignore[no-any-return]
    if kind is str:
        return escape(value)
    if kind is int:
        return Markup(value)
    return escape(value)


class PlainCallsCodeGenerator(CodeGenerator):
    """Jinja's compiler, but a call of one of `PLAIN_CALLS` (the translation functions `_()`,
    `gettext`, … and the calls `{% trans %}` compiles to; the shared board's `mine()` and
    `own()`) is a plain Python call. Jinja routes every call through `Context.call`, which
    looks for a context-taking callable first: an extra Python frame per call (~10 % of a
    table page's CPU, hundreds of calls per page; ~10 % of drawing a board). Ours are plain
    functions, checked by the environment. And `{{ _("…") }}` prints their Markup as it is:
    Jinja escaped it again, which for Markup only copies the text.
    Every other `{{ … }}` is escaped by `escape_output` (the same text, faster)."""

    @staticmethod
    def _resolved(name: str, frame: Frame) -> bool:
        ref = frame.symbols.find_ref(name)
        return ref is not None and frame.symbols.find_load(ref) == (VAR_LOAD_RESOLVE, name)

    def _plain(self, node: nodes.Node, frame: Frame) -> bool:
        """Whether `node` is a call of one of `PLAIN_CALLS` that we write as a plain call."""
        return (
            isinstance(node, nodes.Call)
            and isinstance(node.node, nodes.Name)
            and node.node.name in PLAIN_CALLS
            # The global, not a name the template binds itself (a macro, a loop variable):
            and self._resolved(node.node.name, frame)
            and node.dyn_args is None
            and node.dyn_kwargs is None
            and not self.environment.is_async
            and not any(is_python_keyword(k.key) for k in node.kwargs)
        )

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        super().visit_Template(node, frame)
        # The template's functions look `escape` up when they run: from here on it is ours.
        self.writeline(ESCAPE_IMPORT)

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        # `{{ _("…") }}` is Markup already: escaping it again only copied the text.
        if not (self._plain(node, frame) and frame.eval_ctx.autoescape and finalize.src is None):
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if not (self._plain(node, frame) and frame.eval_ctx.autoescape and finalize.src is None):
            super()._output_child_post(node, frame, finalize)

    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        if forward_caller or not self._plain(node, frame):
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        callee = node.node
        self.visit(callee, frame)
        self.write("(")
        for i, arg in enumerate([*node.args, *node.kwargs]):
            if i:
                self.write(", ")
            self.visit(arg, frame)
        self.write(")")


_DICT_ATTRS = frozenset(dir(dict))


class FastEnvironment(Environment):
    """Jinja's environment with a fast path for `obj.key` on a plain dict (engine views are
    dicts): Jinja tries the attribute first and a dict has none, so every `view.players` cost
    a raised and caught AttributeError. Same result: a dict's own methods (`names.get`) still
    win over its keys, and a missing key is undefined. Compiles with
    `PlainCallsCodeGenerator`."""

    code_generator_class = PlainCallsCodeGenerator
    _by_name: dict[str, Template]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._by_name = {}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRS:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def get_template(
        self,
        name: str | Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> Template:
        """A template by name from a plain dict: templates are never reloaded (auto_reload is
        off), and Jinja's own lookup (the loader's weak reference, its LRU cache's lock and
        reordering) ran ~28 times per table page, for every include and import."""
        if globals is None and type(name) is str:
            template = self._by_name.get(name)
            if template is None:
                template = self._by_name[name] = super().get_template(name, parent)
            return template
        return super().get_template(name, parent, globals)

    def overlay(self, **options: Any) -> Environment:  # type: ignore[override]
        """An overlay loads its own templates (its options may compile them otherwise)."""
        overlay = super().overlay(**options)
        assert isinstance(overlay, FastEnvironment)
        overlay._by_name = {}
        return overlay

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as a plain dict, not Jinja's ChainMap over the environment's:
        every import in a template (`{% from … import … %}`) compares the importer's global
        names with the imported template's, and over a ChainMap that walk was ~6 % of a
        table page's CPU. So every global must be set before any template is loaded (the
        environment module sets them all when it is imported) — set none later."""
        return {**self.globals, **(d or {})}


_LINE_BREAK_AND_INDENT = re.compile(r"[ \t]*\n\s*")


class CollapseIndentation(Extension):
    """Every line break of a template's own text, with the spaces around it (the indentation
    of the template's source), becomes one line break: a page reads the same (HTML shows any
    run of white space as one space, and no template has a `<pre>` or `<textarea>`), and a
    table push is 13–18 % smaller, which every audience's page, every frame and the
    browser's parse pay for. Only the template's text changes, never what an expression
    prints (a player's name, a chat line)."""

    def filter_stream(self, stream: TokenStream) -> TokenStream:
        def collapsed() -> Any:
            for token in stream:
                if token.type == "data" and "\n" in token.value:
                    value = _LINE_BREAK_AND_INDENT.sub("\n", token.value)
                    yield Token(token.lineno, "data", value)
                else:
                    yield token

        return TokenStream(collapsed(), stream.name, stream.filename)


_PURE: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_PURE_SIZE = [0]  # characters held in _PURE
PURE_MAX_CHARS = 4_000_000
"""What `pure` keeps at most (4–8 MB of text), dropping the oldest drawings first: the
seats and rows of past moves are not drawn again, and what is still in use comes back."""
_SCALARS = (str, int, float, bool, type(None), Markup)


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a macro argument that equals another only if both render
    alike: containers become tagged tuples, scalars keep their type (1, 1.0 and True
    differ on the page, and so do Markup and a str of the same text, a list and a tuple)."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is dict:
        return ("d", *((k, _frozen(v)) for k, v in value.items()))
    if kind is list:
        return ("l", *(_frozen(v) for v in value))
    if kind is tuple:
        return ("t", *(_frozen(v) for v in value))
    raise TypeError(kind)  # anything else (an undefined value, an object): do not cache


def _arguments_key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What tells a macro's calls apart (`pure`): the arguments in marshal's format (version
    2: by value, no shared references), which keeps every type apart — 1, 1.0, True and "1";
    a list and a tuple — and refuses anything but plain values (a Markup, an enum, an object:
    then `_frozen`, or TypeError: do not keep). ~3× faster to make than `_frozen`'s tuples."""
    try:
        return marshal.dumps((args, kwargs), 2)
    except ValueError:
        return (_frozen(args), _frozen(kwargs))


def pure(macro: Any) -> Any:
    """`{% set card = pure(card) %}`: a macro whose output depends only on its arguments
    and the language (one defined in a file imported without context, so it cannot see the
    viewer) is rendered once per distinct arguments and language, not on every call: a
    Ganges page draws the same cards, dice and words hundreds of times per move, and a
    move changes one or two seats of the seats bar (`partials/seat.html`) or rows of a
    board. Two macros are told apart by their template's file and their name (every template
    made with `from_string` has the file name "<template>")."""
    where = (macro._func.__code__.co_filename, macro.name)

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            key = (where, i18n.current(), _arguments_key(args, kwargs))
        except TypeError:
            return macro(*args, **kwargs)
        out = _PURE.get(key)
        if out is None:
            out = _PURE[key] = macro(*args, **kwargs)
            _PURE_SIZE[0] += len(out)
            while _PURE_SIZE[0] > PURE_MAX_CHARS and _PURE:
                _PURE_SIZE[0] -= len(_PURE.popitem(last=False)[1])
        return out

    return call
