"""Generate docs/reference/docs-json.mdx (from schemas/docs.schema.json), docs/reference/cli.mdx (from the CLI)
and docs/api/feedback-api.yaml (a copy of schemas/feedback-api.yaml, since specs must live in the docs folder).

Run `python docs/scripts/generate_reference.py` after changing the schema or a command; `--check` exits 1 when
the committed pages are out of date (tests/pipeline/test_docs_site.py runs the check).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

DOCS = Path(__file__).resolve().parent.parent
REPO = DOCS.parent
SCHEMA = REPO / "schemas" / "docs.schema.json"
MAX_DEPTH = 3


def mdx_text(text: str) -> str:
    """Escape schema prose for MDX: braces and angle brackets would start expressions or tags."""
    return (
        text.replace("\\", "\\\\")
        .replace("{", "&#123;")
        .replace("}", "&#125;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("|", "\\|")
        .replace("\n", " ")
    )


def _resolve(schema: dict, node: dict) -> dict:
    """Follow a local $ref (keeping the referring node's own description)."""
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    target: Any = schema
    for part in ref[2:].split("/"):
        target = target[part]
    merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return merged


def type_label(schema: dict, node: dict) -> str:
    """Return a short type name: string, boolean, object, array of object, one of "a" | "b"..."""
    node = _resolve(schema, node)
    if "enum" in node:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        items = _resolve(schema, node.get("items") or {})
        return "array of " + (type_label(schema, items) if items else "values")
    if kind:
        return str(kind)
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(dict.fromkeys(type_label(schema, n) for n in node[key]))
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    return "any"


def _children(schema: dict, node: dict) -> tuple[dict, list[str]]:
    """Return (properties, required) of an object node or of an array's items."""
    node = _resolve(schema, node)
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        node = _resolve(schema, node["items"])
    return node.get("properties") or {}, list(node.get("required") or [])


def _ref_name(node: Any) -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) and ref.startswith("#/$defs/") else None


def _inner_path(schema: dict, raw: dict, field: str) -> str:
    """Return the schema field path (docsgen.config.honoured) of the fields inside `raw` found at `field`."""
    if _ref_name(raw):
        return "#" + str(_ref_name(raw))
    node = _resolve(schema, raw)
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        return "#" + str(_ref_name(node["items"])) if _ref_name(node["items"]) else field + "[]"
    return field


def _ignored_note(field: str) -> str:
    """Return ' Ignored by docsgen: why.' for a field docsgen accepts but does not act on (one table)."""
    from docsgen.config.honoured import IGNORED, classify

    status = classify(field)
    if status is None or status[0] != IGNORED:
        return ""
    return " **Ignored by docsgen**" + (f": {status[1]}." if status[1] else ".")


def _rows(
    schema: dict, props: dict, required: list[str], prefix: str, depth: int, parent: str, quiet: bool = False
) -> list[str]:
    """Return the table rows of props; quiet: inside an ignored field, whose own row says so already."""
    rows = []
    for name, raw in props.items():
        child = _resolve(schema, raw)
        field = f"{parent}.{name}" if parent else name
        label = f"`{prefix}{name}`" + (" (required)" if name in required else "")
        note = "" if quiet else _ignored_note(field)
        text = mdx_text(child.get("description", "")) + note
        rows.append(f"| {label} | {type_label(schema, child)} | {text} |")
        grand, grand_required = _children(schema, child)
        if grand and depth < MAX_DEPTH and name != "navigation":
            inner = _inner_path(schema, raw, field)
            rows += _rows(
                schema, grand, grand_required, f"{prefix}{name}.", depth + 1, inner, quiet or bool(note)
            )
    return rows


def docs_json_reference() -> str:
    """Return the docs.json reference page: one section per top-level property, nested fields as tables."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    required = schema.get("required") or []
    out = [
        "---",
        "title: docs.json reference",
        "description: Every docs.json property, generated from schemas/docs.schema.json.",
        "---",
        "",
        "{/* Generated by docs/scripts/generate_reference.py from schemas/docs.schema.json: do not edit. */}",
        "",
        "`docs.json` configures the whole site. Editors validate it against the JSON Schema shipped with",
        'docsgen: add `"$schema": "https://mintlify.com/docs.json"` (accepted as is) or the path of',
        "`schemas/docs.schema.json`. Required properties: " + ", ".join(f"`{r}`" for r in required) + ".",
        "",
        "Unknown properties are reported as warnings (errors with `--strict`), with the file, line and column.",
        "",
    ]
    out += [
        "Fields marked **Ignored by docsgen** are accepted (a Mintlify site builds unchanged) but have no effect;",
        "`docsgen validate -v` lists the ones a docs.json sets.",
        "",
    ]
    for name, raw in schema["properties"].items():
        node = _resolve(schema, raw)
        out += [f"## {name}", ""]
        out.append(f"**Type:** {type_label(schema, node)}" + (" (required)" if name in required else ""))
        note = _ignored_note(name)
        out += ["", mdx_text(node.get("description", "")) + note, ""]
        props, req = _children(schema, node)
        if props and name != "navigation":
            out += ["| Field | Type | Description |", "| --- | --- | --- |"]
            out += _rows(schema, props, req, "", 1, _inner_path(schema, raw, name), bool(note))
            out.append("")
        if name == "navigation":
            out += ["The navigation patterns are described in [Navigation](/guides/navigation).", ""]
    return "\n".join(out).rstrip() + "\n"


def _commands(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
    out = []
    ctx = click.Context(group)
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)  # loads commands the CLI imports on demand
        out.append((f"{prefix} {name}", command))
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix} {name}")
    return out


def _usage(path: str, command: click.Command) -> str:
    args = " ".join(
        (p.name or "").upper() + ("..." if getattr(p, "nargs", 1) == -1 else "")
        if p.required
        else f"[{(p.name or '').upper()}]"
        for p in command.params
        if isinstance(p, click.Argument)
    )
    sub = " COMMAND" if isinstance(command, click.Group) else ""
    return f"{path} [OPTIONS]{sub}" + (f" {args}" if args else "")


def cli_reference() -> str:
    """Return the CLI reference page: every command and subcommand with its options, from the click tree."""
    from docsgen.cli import main

    out = [
        "---",
        "title: Command line",
        "description: Every docsgen command and option, generated from the command line itself.",
        "---",
        "",
        "{/* Generated by docs/scripts/generate_reference.py from docsgen.cli: do not edit. */}",
        "",
        "Every command accepts `-h` / `--help`. Problems in your files are reported as",
        "`file:line:column: severity: message [code]`; the exit status is 0 on success and 1 on errors.",
        "",
    ]
    for path, command in _commands(main, "docsgen"):
        out += [f"## {path}", "", mdx_text(command.help or command.short_help or ""), ""]
        out += ["```bash", _usage(path, command), "```", ""]
        options = [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]
        if options:
            out += ["| Option | Description |", "| --- | --- |"]
            for option in options:
                flags = ", ".join(f"`{o}`" for o in [*option.opts, *option.secondary_opts])
                text = option.help or ""
                if option.show_default and option.default not in (None, False, ()):
                    text += f" Default: `{option.default}`."
                if isinstance(option.type, click.Choice):
                    text += " One of " + ", ".join(f"`{c}`" for c in option.type.choices) + "."
                out.append(f"| {flags} | {mdx_text(text.strip())} |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def feedback_api_spec() -> str:
    """Return the feedback server's OpenAPI document (a spec must live inside the docs folder)."""
    return (REPO / "schemas" / "feedback-api.yaml").read_text(encoding="utf-8")


GENERATED = {
    DOCS / "reference" / "docs-json.mdx": docs_json_reference,
    DOCS / "reference" / "cli.mdx": cli_reference,
    DOCS / "api" / "feedback-api.yaml": feedback_api_spec,
}


def main(argv: list[str]) -> int:
    """Write the generated pages, or with --check report those that differ."""
    stale = []
    for path, make in GENERATED.items():
        text = make()
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        if "--check" in argv:
            stale.append(path.relative_to(REPO).as_posix())
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    for rel in stale:
        print(f"{rel} is out of date: run python docs/scripts/generate_reference.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
