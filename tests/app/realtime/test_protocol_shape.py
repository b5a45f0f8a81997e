"""The frame-shape guard of the protocol parser: its quick bound (brackets and commas
counted) refuses exactly the frames the exact scan (`json_shape`) refuses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.errors import Refusal
from app.realtime.protocol import MAX_DEPTH, MAX_ITEMS, json_shape, parse_incoming

SHAPE = "Message is nested too deeply or holds too many items."

# Text made of JSON's structural characters, quotes, escapes and a little else: brackets and
# commas inside strings are what the quick bound over-counts.
frames = st.text(alphabet='[]{},"\\ a1:', max_size=60) | st.builds(
    lambda n, inner: '{"type": "chat", "text": "' + inner + '"}' + "[" * n,
    st.integers(0, 12),
    st.text(alphabet="[{,\\", max_size=30),
)


@settings(max_examples=400, deadline=None)
@given(frames)
def test_the_quick_bound_refuses_what_the_exact_scan_refuses(frame: str) -> None:
    depth, items = json_shape(frame)
    too_big = depth > MAX_DEPTH or items > MAX_ITEMS
    try:
        parse_incoming(frame, 65536)
        refused_for_shape = False
    except Refusal as exc:
        refused_for_shape = exc.template == SHAPE
    assert refused_for_shape == too_big, (frame, depth, items)


def test_brackets_and_commas_inside_strings_are_not_structure() -> None:
    text = '{"type": "chat", "text": "' + "[{," * 20 + '"}'
    assert json_shape(text) == (1, 2)
    assert parse_incoming(text, 65536).type == "chat"
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    try:
        parse_incoming(deep, 65536)
    except Refusal as exc:
        assert exc.code == "malformed" and exc.template == SHAPE
    else:
        raise AssertionError("a frame nested too deeply was parsed")
