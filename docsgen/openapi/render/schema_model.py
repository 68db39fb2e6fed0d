"""A flattened view of one schema: `$ref` followed, `allOf` merged, nullability and alternatives made explicit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docsgen.common.jsonpos import type_name
from docsgen.openapi.limits import MAX_ALL_OF_DEPTH as _MAX_ALL_OF_DEPTH
from docsgen.openapi.render.context import RenderContext, ref_name

# Keywords copied from a schema (and from allOf members when the schema lacks them).
_SCALARS = (
    "title",
    "description",
    "format",
    "enum",
    "default",
    "const",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentMediaType",
    "contentEncoding",
    "x-default",
    "x-enumDescriptions",
    "x-enum-descriptions",
    "x-enum-varnames",
    "x-enumNames",
)


@dataclass
class Flat:
    """One schema as the renderers see it."""

    raw: dict  # the dereferenced source schema (its id() identifies it)
    ref: str | None = None  # the $ref it was reached through, if any
    types: list[str] = field(default_factory=list)  # JSON types without "null"
    nullable: bool = False
    props: dict[str, Any] = field(default_factory=dict)  # name -> raw schema (unresolved)
    required: set[str] = field(default_factory=set)
    items: Any = None  # raw items schema
    additional: Any = None  # additionalProperties: None (unset), True, False or a raw schema
    alternatives: list[tuple[str, Any]] = field(default_factory=list)  # (label, raw schema)
    alt_kind: str = ""  # "oneOf" | "anyOf"
    discriminator: str = ""  # discriminator property name
    kw: dict[str, Any] = field(default_factory=dict)  # _SCALARS present
    height: int = 0  # allOf levels merged below this schema (cut short: more than the depth left allowed)

    @property
    def name(self) -> str | None:
        """The component name when the schema was reached through a `$ref`."""
        return ref_name(self.ref) if self.ref else None

    @property
    def read_only(self) -> bool:
        return self.kw.get("readOnly") is True

    @property
    def write_only(self) -> bool:
        return self.kw.get("writeOnly") is True

    @property
    def is_binary(self) -> bool:
        """True for file content (format binary/base64 or a 3.1 contentMediaType on a string)."""
        fmt = self.kw.get("format")
        return "string" in self.types and (fmt in ("binary", "base64") or "contentMediaType" in self.kw)

    def has_children(self) -> bool:
        """True when the tree shows nested rows below this schema."""
        return bool(self.props or self.alternatives or isinstance(self.additional, dict) and self.additional)


def _types_of(schema: dict) -> tuple[list[str], bool]:
    raw = schema.get("type")
    if isinstance(raw, str):
        types = [raw]
    elif isinstance(raw, list):
        types = [t for t in raw if isinstance(t, str)]
    else:
        types = []
    nullable = "null" in types or schema.get("nullable") is True
    return [t for t in types if t != "null"], nullable


def _is_null_schema(ctx: RenderContext, schema: Any) -> bool:
    target = ctx.resolve(schema)
    return target.get("type") == "null" or target.get("type") == ["null"] or target.get("const", 0) is None


def flatten(ctx: RenderContext, schema: Any, _depth: int = 0) -> Flat:
    """Return the flattened view of `schema` (memoised per source object).

    allOf is merged to a bounded depth, so a view made deep inside an allOf chain may be cut short: it is
    reused only at that depth, and a complete view only where its chain fits in the depth left.
    """
    raw, ref = ctx.deref(schema)
    if not isinstance(raw, dict):
        raw = {"type": "boolean"} if raw is True else {}
        ctx.keep.append(raw)
    cached = ctx.flat.get(id(raw))
    if cached is None or cached.raw is not raw or _depth + cached.height > _MAX_ALL_OF_DEPTH:
        cached = ctx.flat.get((id(raw), _depth))
    if cached is not None and cached.raw is raw:
        return cached if cached.ref == ref else _with_ref(cached, ref)
    flat = _build(ctx, raw, _depth)
    flat.ref = ref
    complete = _depth + flat.height <= _MAX_ALL_OF_DEPTH
    ctx.flat[id(raw) if complete else (id(raw), _depth)] = flat
    return flat


def _with_ref(flat: Flat, ref: str | None) -> Flat:
    return Flat(**{**flat.__dict__, "ref": ref})


def _build(ctx: RenderContext, raw: dict, depth: int) -> Flat:
    types, nullable = _types_of(raw)
    flat = Flat(raw=raw, types=types, nullable=nullable)
    for key in _SCALARS:
        if key in raw:
            flat.kw[key] = raw[key]
    props = raw.get("properties")
    if isinstance(props, dict):
        flat.props = dict(props)
    req = raw.get("required")
    if isinstance(req, list):
        flat.required = {r for r in req if isinstance(r, str)}
    if "items" in raw:
        flat.items = raw["items"]
    elif isinstance(raw.get("prefixItems"), list) and raw["prefixItems"]:
        flat.items = raw["prefixItems"][0]
    if "additionalProperties" in raw:
        flat.additional = raw["additionalProperties"]
    all_of = raw.get("allOf")
    if isinstance(all_of, list) and all_of:
        flat.height = 1
        if depth < _MAX_ALL_OF_DEPTH:
            _merge_all_of(ctx, flat, all_of, depth)
        else:
            flat.height = _MAX_ALL_OF_DEPTH + 1  # cut short here: complete at no depth
    _alternatives(ctx, flat, raw)
    if not flat.types:
        if flat.props or flat.additional not in (None, False):
            flat.types = ["object"]
        elif flat.items is not None:
            flat.types = ["array"]
        elif "const" in flat.kw and flat.kw["const"] is not None:
            flat.types = [_json_type(flat.kw["const"])]
        elif isinstance(flat.kw.get("enum"), list) and flat.kw["enum"]:
            flat.types = sorted({_json_type(v) for v in flat.kw["enum"] if v is not None})
    if isinstance(flat.kw.get("enum"), list) and None in flat.kw["enum"]:
        flat.nullable = True
    return flat


def _json_type(value: Any) -> str:
    # A null const is shown as an object, as before; every other value by its JSON type.
    return "object" if value is None else type_name(value)


def _merge_all_of(ctx: RenderContext, flat: Flat, members: list, depth: int) -> None:
    own_props = flat.props
    merged_props: dict[str, Any] = {}
    for member in members:
        part = flatten(ctx, member, depth + 1)
        if part.raw is flat.raw:
            continue
        flat.height = max(flat.height, part.height + 1)
        if _is_null_schema(ctx, member):
            flat.nullable = True
            continue
        merged_props.update(part.props)
        flat.required |= part.required
        if not flat.types and part.types:
            flat.types = list(part.types)
        if flat.items is None and part.items is not None:
            flat.items = part.items
        if flat.additional is None and part.additional is not None:
            flat.additional = part.additional
        for key, val in part.kw.items():
            if key in ("title",) and flat.kw.get("title") is None and len(members) > 1:
                continue  # a base type's title does not name the composite
            flat.kw.setdefault(key, val)
        explicit = isinstance(part.raw.get("oneOf"), list) or isinstance(part.raw.get("anyOf"), list)
        if not flat.alternatives and part.alternatives and explicit:
            # Alternatives inherited from a base that only has a discriminator mapping are its subtypes
            # (this schema is one of them), so only explicit oneOf/anyOf carry over.
            flat.alternatives, flat.alt_kind = list(part.alternatives), part.alt_kind
            flat.discriminator = part.discriminator
    merged_props.update(own_props)
    flat.props = merged_props


def _alternatives(ctx: RenderContext, flat: Flat, raw: dict) -> None:
    kind = (
        "oneOf"
        if isinstance(raw.get("oneOf"), list)
        else "anyOf"
        if isinstance(raw.get("anyOf"), list)
        else ""
    )
    disc = found if isinstance(found := raw.get("discriminator"), dict) else {}
    prop = found if isinstance(found := disc.get("propertyName"), str) else ""
    mapping = found if isinstance(found := disc.get("mapping"), dict) else {}
    members: list[Any] = list(raw[kind]) if kind else []
    if not members and mapping:
        # Polymorphism declared only through the mapping: the mapped schemas are the alternatives.
        kind = "oneOf"
        members = [{"$ref": _mapping_ref(v)} for v in mapping.values() if isinstance(v, str)]
    if not members:
        return
    by_ref = {_mapping_ref(v): k for k, v in mapping.items() if isinstance(v, str)}
    alts: list[tuple[str, Any]] = []
    for index, member in enumerate(members, 1):
        if _is_null_schema(ctx, member):
            flat.nullable = True
            continue
        ref = member.get("$ref") if isinstance(member, dict) else None
        target = ctx.resolve(member)
        label = ""
        if prop and ref:
            label = by_ref.get(ref, "") or (ref_name(ref) if not mapping else by_ref.get(ref, ref_name(ref)))
        if not label and isinstance(target.get("title"), str) and target["title"].strip():
            label = target["title"].strip()
        if not label and ref:
            label = ref_name(ref)
        if not label:
            types, _ = _types_of(target)
            label = types[0] if len(types) == 1 and not target.get("properties") else ""
            if not label and (target.get("properties") or target.get("type") == "object"):
                label = "object"
        alts.append((label or f"Option {index}", member))
    flat.alternatives, flat.alt_kind, flat.discriminator = alts, kind, prop


def _mapping_ref(value: str) -> str:
    """A discriminator mapping value is a reference or a bare schema name."""
    return value if value.startswith("#") or "/" in value else f"#/components/schemas/{value}"


def unwrap_single(ctx: RenderContext, flat: Flat) -> Flat:
    """A oneOf with one non-null member (typical `nullable` spelling in 3.1) is just that member."""
    if len(flat.alternatives) == 1 and not flat.props and not flat.types:
        inner = flatten(ctx, flat.alternatives[0][1])
        merged = Flat(**{**inner.__dict__})
        merged.nullable = inner.nullable or flat.nullable
        merged.kw = {**inner.kw, **flat.kw}
        merged.ref = inner.ref or flat.ref
        return merged
    return flat
