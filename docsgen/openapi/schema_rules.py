"""Consistency rules JSON Schema validation of the document cannot see: bounds that exclude every value, patterns
that are not regular expressions, security requirements naming schemes that are not defined."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jsonschema_rs

from docsgen.common.errors import Diagnostic, warning
from docsgen.openapi.locate import JsonPath
from docsgen.openapi.messages import short, where
from docsgen.openapi.spec import METHODS, Spec

# (lower, upper) keyword pairs: a lower bound above the upper one leaves no valid value.
_PAIRS = (
    ("minimum", "maximum"),
    ("exclusiveMinimum", "exclusiveMaximum"),
    ("minimum", "exclusiveMaximum"),
    ("exclusiveMinimum", "maximum"),
    ("minLength", "maxLength"),
    ("minItems", "maxItems"),
    ("minProperties", "maxProperties"),
    ("minContains", "maxContains"),
)
_STRICT = {
    ("exclusiveMinimum", "exclusiveMaximum"),
    ("minimum", "exclusiveMaximum"),
    ("exclusiveMinimum", "maximum"),
}


def consistency_problems(spec: Spec) -> list[Diagnostic]:
    """Return the bound, pattern and security-scheme problems of a spec (warnings, located)."""
    problems: list[Diagnostic] = []
    for path, schema in spec.scan().bounded:
        problems += _bound_problems(spec, schema, path)
        pattern = schema.get("pattern")
        # (3.0: the official schema already checks `pattern` as a regex.)
        if spec.is_31 and isinstance(pattern, str) and not valid_pattern(pattern):
            problems.append(
                warning(
                    "openapi.pattern",
                    f"pattern {short(pattern)} is not a valid regular expression",
                    hint="patterns are ECMA-262 regular expressions (as in JavaScript, with the u flag)",
                    **where(spec, (*path, "pattern")),
                )
            )
    problems += security_problems(spec)
    return problems


def _number(value: Any) -> float | None:
    # Compared as they are: Python compares ints and floats exactly (float() of a 400-digit int overflows).
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _bound_problems(spec: Spec, schema: dict, path: JsonPath) -> list[Diagnostic]:
    problems = []
    for low_key, high_key in _PAIRS:
        low, high = _number(schema.get(low_key)), _number(schema.get(high_key))
        if low is None or high is None:
            continue
        empty = low >= high if (low_key, high_key) in _STRICT else low > high
        if empty:
            problems.append(
                warning(
                    "openapi.bounds",
                    f"`{low_key}` {short(schema[low_key])} is above `{high_key}` {short(schema[high_key])}: "
                    "no value can match",
                    **where(spec, (*path, low_key)),
                )
            )
    return problems


@lru_cache(maxsize=4096)
def valid_pattern(pattern: str) -> bool:
    """Tell whether a `pattern` is a regular expression the JSON Schema validator accepts."""
    try:
        jsonschema_rs.Draft202012Validator({"pattern": pattern})
    except (ValueError, jsonschema_rs.ValidationError):
        return False
    return True


def security_problems(spec: Spec) -> list[Diagnostic]:
    """Warn about security requirements naming a scheme `components.securitySchemes` does not define."""
    components = spec.data.get("components")
    schemes = components.get("securitySchemes") if isinstance(components, dict) else None
    defined = set(schemes) if isinstance(schemes, dict) else set()
    places: list[tuple[JsonPath, Any]] = [(("security",), spec.data.get("security"))]
    for section in ("paths", "webhooks"):
        items = spec.data.get(section)
        for key, raw in (items if isinstance(items, dict) else {}).items():
            item = spec.deref(raw)
            for method, op in (item if isinstance(item, dict) else {}).items():
                if method in METHODS and isinstance(op, dict) and "security" in op:
                    places.append(((section, key, method, "security"), op["security"]))
    problems = []
    for path, requirements in places:
        for i, requirement in enumerate(requirements if isinstance(requirements, list) else []):
            for name in requirement if isinstance(requirement, dict) else {}:
                if name not in defined:
                    problems.append(
                        warning(
                            "openapi.undefined-security-scheme",
                            f"security scheme {name!r} is not defined in components.securitySchemes",
                            hint=f"defined: {', '.join(sorted(defined))}" if defined else "none is defined",
                            **where(spec, (*path, i, name)),
                        )
                    )
    return problems
