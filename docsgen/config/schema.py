"""Check docs.json against schemas/docs.schema.json and turn every failure into a located diagnostic."""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import TYPE_CHECKING, Any

from docsgen.common.errors import Diagnostic
from docsgen.common.jsonpos import JsonPath, format_path, type_name
from docsgen.common.resources import schema_path
from docsgen.config.load import RawConfig

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


@cache
def load_schema() -> dict:
    """Read the docs.json schema once per process."""
    return json.loads(schema_path().read_text(encoding="utf-8"))


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema())


@cache
def _fast_validator() -> Any:
    """Return the compiled (Rust) validator that answers "is it valid?" for every build, in microseconds."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(load_schema(), validate_formats=False)


def validate_schema(raw: RawConfig) -> list[Diagnostic]:
    """Return one diagnostic per schema violation, located in the file that holds it.

    A valid configuration (every build of a working site) is confirmed by the compiled validator; only an
    invalid one pays for importing jsonschema, whose errors carry what the located messages need.
    """
    data = {k: v for k, v in raw.data.items() if k != "$schema"}
    if _fast_validator().is_valid(data):
        return []
    diags = []
    for err in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        err = _deepest(err)
        diags.append(_to_diagnostic(raw, err))
    return diags


def _deepest(err: ValidationError) -> ValidationError:
    """Descend into oneOf/anyOf failures to the alternative that came closest."""
    from jsonschema.exceptions import best_match

    while err.validator in ("oneOf", "anyOf") and err.context:
        best = best_match(err.context)
        if best is None:
            break
        err = best
    return err


def _to_diagnostic(raw: RawConfig, err: ValidationError) -> Diagnostic:
    path: JsonPath = tuple(err.absolute_path)
    found = err.instance
    key = False
    hint = ""
    v = err.validator
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        message = f"missing required field '{missing}'"
    elif v == "additionalProperties":
        allowed = sorted(schema.get("properties", {}) if isinstance(schema := err.schema, dict) else ())
        extras = sorted(set(found) - set(allowed)) if isinstance(found, dict) else []
        name = extras[0] if extras else "?"
        path = (*path, name)
        key = True
        message = f"unknown field '{name}'"
        close = difflib.get_close_matches(name, allowed, n=1)
        hint = f"did you mean '{close[0]}'?" if close else f"expected one of: {', '.join(allowed)}"
    elif v == "enum":
        values = err.validator_value if isinstance(err.validator_value, list) else []
        options = ", ".join(json.dumps(o) for o in values)
        message = f"found {json.dumps(found)}, expected one of: {options}"
    elif v == "const":
        message = f"found {json.dumps(found)}, expected {json.dumps(err.validator_value)}"
    elif v == "type":
        expected = err.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        shown = "" if found is None else " " + _short(found)
        message = f"found {type_name(found)}{shown}, expected {expected}"
    elif v == "pattern":
        message = f"found {json.dumps(found)}, expected a value matching {err.validator_value}"
    elif v in ("minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum"):
        message = f"found {_short(found)}: {err.message}"
    else:
        message = err.message if len(err.message) < 200 else err.message[:200] + "..."
    description = err.schema.get("description") if isinstance(err.schema, dict) else None
    if not hint and description and v in ("type", "enum", "pattern"):
        hint = description
    if v == "additionalProperties":
        # Real sites carry keys Mintlify silently drops (old names, experiments): warn, so they still build.
        return raw.diagnostic(
            "config.unknown-field", message + " (ignored)", path, key=True, hint=hint, severity="warning"
        )
    return raw.diagnostic("config.schema", message, path, key=key, hint=hint)


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def ignored_fields(raw: RawConfig) -> list[Diagnostic]:
    """List the fields docs.json sets that docsgen accepts but does not act on (validate --verbose).

    The status of each field comes from one table, docsgen.config.honoured.FIELDS; a field inside an ignored
    one is not listed again.
    """
    from docsgen.config.honoured import IGNORED, classify, present_fields

    out: list[Diagnostic] = []
    skipped: list[tuple] = []
    for path, field in present_fields(raw.data, load_schema()):
        if any(path[: len(p)] == p for p in skipped):
            continue
        status = classify(field)
        if status is None or status[0] != IGNORED:
            continue
        skipped.append(path)
        note = f" ({status[1]})" if status[1] else ""
        out.append(
            raw.diagnostic(
                "config.ignored",
                f"'{format_path(path)}' is accepted but not used by docsgen{note}",
                path,
                severity="info",
                key=True,
            )
        )
    return out
