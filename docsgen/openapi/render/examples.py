"""Example values generated from schemas (documented examples first), bounded for recursive and huge schemas."""

from __future__ import annotations

from typing import Any

from docsgen.openapi.limits import EXAMPLE_MAX_DEPTH as MAX_DEPTH
from docsgen.openapi.limits import EXAMPLE_MAX_NODES as MAX_NODES
from docsgen.openapi.limits import EXAMPLE_MAX_PROPS as MAX_PROPS
from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.schema_model import Flat, flatten, unwrap_single

_FORMATS: dict[str, Any] = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "12:00:00",
    "email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uri-reference": "/example",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "3c90c3cc-0d44-4b50-8888-8dd25736052a",
    "binary": "<binary>",
    "byte": "aGVsbG8=",
    "base64": "aGVsbG8=",
    "password": "<password>",
    "duration": "P1D",
}


def example_for(
    ctx: RenderContext,
    schema: Any,
    direction: str = "",
    *,
    required_only: bool = False,
    prefill: bool = False,
) -> Any:
    """Return an example value for `schema`; `prefill` prefers `x-default` (playground inputs)."""
    key = (id(schema), direction, required_only, prefill)
    if key in ctx.examples and ctx.examples[key][0] is schema:
        return ctx.examples[key][1]
    value = _gen(ctx, schema, direction, required_only, prefill, (), 0, [MAX_NODES])
    ctx.examples[key] = (schema, value)
    return value


def documented(flat: Flat, prefill: bool = False) -> tuple[bool, Any]:
    """Return (True, value) for a value the spec gives: x-default (prefill), example, examples, default, const."""
    kw = flat.kw
    if prefill and "x-default" in kw:
        return True, kw["x-default"]
    if "example" in kw:
        return True, kw["example"]
    exs = kw.get("examples")
    if isinstance(exs, list) and exs:
        return True, exs[0]
    if "const" in kw:
        return True, kw["const"]
    if "default" in kw:
        return True, kw["default"]
    enum = kw.get("enum")
    if isinstance(enum, list) and enum:
        return True, next((v for v in enum if v is not None), enum[0])
    return False, None


def _gen(
    ctx: RenderContext,
    schema: Any,
    direction: str,
    required_only: bool,
    prefill: bool,
    stack: tuple[int, ...],
    depth: int,
    budget: list[int],
) -> Any:
    flat = unwrap_single(ctx, flatten(ctx, schema))
    found, value = documented(flat, prefill)
    if found:
        return value
    budget[0] -= 1
    if id(flat.raw) in stack or depth > MAX_DEPTH or budget[0] < 0:
        return {} if "object" in flat.types or flat.props else [] if "array" in flat.types else None
    stack = (*stack, id(flat.raw))
    if flat.alternatives and not flat.props:
        value = _gen(
            ctx, flat.alternatives[0][1], direction, required_only, prefill, stack, depth + 1, budget
        )
        return _tag(flat, value)
    kind = flat.types[0] if flat.types else ("object" if flat.props else "")
    if kind == "object" or flat.props:
        out: dict[str, Any] = {}
        for name, sub in flat.props.items():
            if len(out) >= MAX_PROPS:
                break
            if required_only and name not in flat.required:
                continue
            child = flatten(ctx, sub)
            if (direction == "request" and child.read_only) or (direction == "response" and child.write_only):
                continue
            out[name] = _gen(ctx, sub, direction, required_only, prefill, stack, depth + 1, budget)
        if flat.alternatives:
            extra = _gen(
                ctx, flat.alternatives[0][1], direction, required_only, prefill, stack, depth + 1, budget
            )
            if isinstance(extra, dict):
                out.update(
                    {k: v for k, v in _tag(flat, extra).items() if k not in out or k == flat.discriminator}
                )
        if not out and isinstance(flat.additional, dict) and flat.additional and not required_only:
            out["key"] = _gen(
                ctx, flat.additional, direction, required_only, prefill, stack, depth + 1, budget
            )
        return out
    if kind == "array":
        if flat.items is None or id(flatten(ctx, flat.items).raw) in stack:
            return []  # a recursive item (a tree's children) is shown as an empty list
        item = _gen(ctx, flat.items, direction, required_only, prefill, stack, depth + 1, budget)
        return [] if item is None else [item]
    if kind == "string":
        fmt = flat.kw.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            return _FORMATS[fmt]
        if "contentMediaType" in flat.kw:
            return "<binary>"
        return "<string>"
    if kind == "integer":
        return _number(flat, 123, int)
    if kind == "number":
        return _number(flat, 123, float)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return "<any>" if not flat.props else {}


def _tag(flat: Flat, value: Any) -> Any:
    """Set the discriminator property of the first alternative's example to that alternative's value."""
    if flat.discriminator and isinstance(value, dict) and flat.alternatives:
        return {**value, flat.discriminator: flat.alternatives[0][0]}
    return value


def _bound(value: Any) -> int | float | None:
    """A usable numeric bound: not a boolean, not infinite or NaN (`.inf`, `1e400`), not beyond a float's range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if -1e300 < value < 1e300 else None  # NaN compares false too


def _number(flat: Flat, fallback: int, cast: type) -> Any:
    kw = flat.kw
    lo = _bound(kw.get("minimum"))
    hi = _bound(kw.get("maximum"))
    raw_ex_lo = kw.get("exclusiveMinimum")
    ex_lo = _bound(raw_ex_lo)
    if raw_ex_lo is True and lo is not None:
        return cast(lo + 1)
    if ex_lo is not None:
        return cast(ex_lo + 1)
    if lo is not None:
        return cast(lo)
    if hi is not None and hi < fallback:
        return cast(hi)
    return cast(fallback)


def media_examples(ctx: RenderContext, media: dict) -> list[tuple[str, Any]]:
    """Return the (label, value) examples a media type object documents (`example`, `examples` map)."""
    out: list[tuple[str, Any]] = []
    if "example" in media:
        out.append(("Example", media["example"]))
    exs = media.get("examples")
    if isinstance(exs, dict):
        for name, ex in exs.items():
            ex = ctx.resolve(ex)
            if "value" in ex:
                label = (
                    ex.get("summary") if isinstance(ex.get("summary"), str) and ex["summary"] else str(name)
                )
                out.append((label, ex["value"]))
            elif isinstance(ex.get("externalValue"), str):
                out.append((str(name), f"See {ex['externalValue']}"))
    return out
