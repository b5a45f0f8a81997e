"""Reading JSON that anyone may have written (an uploaded game file, a file given to
`engines.verify`) without a traceback: `loads` answers a value of bounded depth or raises
`BadJson` with a one-line reason — never `RecursionError` (the standard parser recurses
once per level: 10,000 nested brackets exhaust it), never NaN or Infinity."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 64
"""The deepest nesting accepted (a game export is about ten levels deep)."""


class BadJson(ValueError):
    """Not JSON this program reads; the message says why, in one line."""


def _no_constant(name: str) -> Any:
    raise BadJson(f"not JSON: {name} is not a number")


def loads(data: str | bytes) -> Any:
    """The JSON value of `data` (UTF-8 if bytes), at most `MAX_DEPTH` levels deep."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text, parse_constant=_no_constant)
    except BadJson:
        raise
    except RecursionError:
        raise BadJson(f"nested more than {MAX_DEPTH} levels deep") from None
    except UnicodeDecodeError:
        raise BadJson("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadJson(f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except ValueError:  # a number of more than 4,300 digits
        raise BadJson("not JSON this program reads (a number too long)") from None
    if depth(value) > MAX_DEPTH:
        raise BadJson(f"nested more than {MAX_DEPTH} levels deep")
    return value


def depth(value: Any) -> int:
    """How deeply a JSON value nests (a scalar is 0), found without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level) for child in item)
    return deepest


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included, found without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            yield from item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
