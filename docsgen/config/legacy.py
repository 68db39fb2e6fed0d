"""Read the older Mintlify `mint.json` by converting it to the docs.json model (and `docsgen migrate` writes it out)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import Diagnostic, DocsgenError, error, has_errors, warning
from docsgen.common.jsonpos import JsonPath, JsonSyntaxError, PositionIndex, format_path, loads
from docsgen.common.newfile import blocked, create_file
from docsgen.config import legacy_fields, legacy_nav

HEX = re.compile(r"^#([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$")
DOCS_THEMES = {"mint", "maple", "palm", "willow", "linden", "almond", "aspen", "luma", "sequoia"}
DEFAULT_PRIMARY = "#16A34A"
NO_EQUIVALENT = {
    "layout": "the sidebar/topnav layout is chosen by the theme",
    "sidebar": "sidebar item styling is chosen by the theme",
    "topbar": "topbar styling is chosen by the theme",
    "rounded": "corner style is chosen by the theme",
    "isWhiteLabeled": "docsgen never adds its own branding",
    "hideFeedbackButtons": "use `feedback` instead",
    "openApiProxy": "the playground proxy is configured under api.playground.proxy",
}
# Keys consumed by the converter; anything else gets a warning naming it.
HANDLED = {
    "$schema", "name", "logo", "favicon", "colors", "theme", "topbarLinks", "topbarCtaButton", "navigation", "anchors",
    "topAnchor", "tabs", "primaryTab", "versions", "footerSocials", "footer", "api", "openapi", "feedback",
    "analytics", "integrations", "modeToggle", "backgroundImage", "background", "font", "redirects", "search", "seo",
    "metadata", "codeBlock", "styling", "banner", "errors", "description", "variables", "interaction",
}  # fmt: skip


@dataclass
class LegacyConversion:
    """The docs.json dict made from a mint.json, its warnings, and the mint.json origin of converted values."""

    data: dict
    diagnostics: list[Diagnostic]
    origins: dict[JsonPath, tuple[str, JsonPath]] = field(default_factory=dict)
    index: PositionIndex | None = None  # positions in mint.json, when the text was read

    def locate(self, path: JsonPath) -> tuple[int, int]:
        """Return the mint.json (line, column) of the value a converted docs.json path came from."""
        probe = tuple(path)
        while probe and probe not in self.origins:
            probe = probe[:-1]
        if self.index is None or probe not in self.origins:
            return (0, 0)
        return self.index.locate(self.origins[probe][1])


def convert_mint_json(data: dict, source: str = "mint.json") -> tuple[dict, list[Diagnostic]]:
    """Convert a parsed mint.json into an equivalent docs.json dict, with a warning per key left behind."""
    result = convert_mint_config(data, source)
    return result.data, result.diagnostics


def convert_mint_config(
    data: object, source: str = "mint.json", index: PositionIndex | None = None
) -> LegacyConversion:
    """Convert a mint.json; with its PositionIndex every diagnostic carries mint.json line and column."""
    conv = Converter(source, index)
    if not isinstance(data, dict):
        conv.diag(error, "legacy.type", "mint.json must hold a JSON object", ())
        return LegacyConversion({}, conv.diags)
    out = conv.convert(data)
    return LegacyConversion(out, conv.diags, conv.origins, index)


def read_mint_json(docs_dir: Path) -> LegacyConversion:
    """Read DOCS_DIR/mint.json and convert it, with located diagnostics (malformed JSON is an error)."""
    path = docs_dir / "mint.json"
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return LegacyConversion({}, [error("legacy.missing", f"no mint.json found in {docs_dir}")])
    except (OSError, UnicodeDecodeError) as exc:
        return LegacyConversion({}, [error("legacy.read", f"cannot read mint.json: {exc}", "mint.json")])
    try:
        data = loads(text)
    except JsonSyntaxError as exc:
        return LegacyConversion(
            {}, [error("config.json", f"invalid JSON: {exc.message}", "mint.json", exc.line, exc.column)]
        )
    return convert_mint_config(data, "mint.json", PositionIndex(text))


def migrate_mint_json(docs_dir: Path) -> tuple[Path, list[Diagnostic]]:
    """Write DOCS_DIR/docs.json converted from mint.json; return its path and the conversion warnings."""
    target = docs_dir / "docs.json"
    why = blocked(docs_dir, target)
    if why:
        raise DocsgenError(
            [
                error(
                    "legacy.exists",
                    f"{why}; refusing to overwrite it",
                    "docs.json",
                    hint="delete or rename docs.json to convert mint.json again",
                )
            ]
        )
    result = read_mint_json(docs_dir)
    diags = result.diagnostics + _schema_problems(result)
    if has_errors(diags):
        raise DocsgenError(diags)
    try:
        create_file(docs_dir, target, json.dumps(result.data, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:  # planted after the check
        raise DocsgenError([error("legacy.exists", f"docs.json not written: {exc}", "docs.json")]) from None
    return target, diags


def write_migration(docs_dir: Path) -> Path:
    """Write DOCS_DIR/docs.json from mint.json for the owner to keep; refuse to overwrite an existing one."""
    return migrate_mint_json(docs_dir)[0]


def _schema_problems(result: LegacyConversion) -> list[Diagnostic]:
    """Check the converted dict against the docs.json schema, so migrate never writes a file build rejects."""
    if not result.data:
        return []
    from jsonschema import Draft202012Validator

    from docsgen.common.resources import schema_path

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    out = []
    for err in Draft202012Validator(schema).iter_errors(result.data):
        where = format_path(tuple(err.absolute_path))
        line, col = result.locate(tuple(err.absolute_path))
        message = f"converted docs.json is invalid at {where or 'top level'}: {err.message}"
        out.append(error("legacy.schema", message, "mint.json", line, col))
    return out


class Converter:
    """One conversion run: the output dict, the diagnostics and the origins of converted values."""

    def __init__(self, source: str, index: PositionIndex | None):
        self.source, self.index = source, index
        self.diags: list[Diagnostic] = []
        self.origins: dict[JsonPath, tuple[str, JsonPath]] = {}

    def diag(self, make, code: str, message: str, path: JsonPath) -> None:
        line, col = self.index.locate(path, key=True) if self.index is not None and path else (0, 0)
        self.diags.append(make(code, message, self.source, line, col, format_path(path)))

    def warn(self, code: str, message: str, path: JsonPath) -> None:
        self.diag(warning, code, message, path)

    def drop(self, path: JsonPath, why: str = "") -> None:
        """Warn that a mint.json key has no docs.json equivalent (naming it)."""
        name = format_path(path)
        self.warn(
            "legacy.dropped",
            f"mint.json key '{name}' cannot be carried over to docs.json" + (f": {why}" if why else ""),
            path,
        )

    def put(self, out: dict, key: str, value: object, origin: JsonPath) -> None:
        out[key] = value
        self.origins[(key,)] = (self.source, origin)

    # ------------------------------------------------------------------ top level
    def convert(self, d: dict) -> dict:
        out: dict = {"$schema": "https://mintlify.com/docs.json"}
        self._theme(d, out)
        name = d.get("name")
        if isinstance(name, str) and name.strip():
            self.put(out, "name", name, ("name",))
        else:
            self.warn(
                "legacy.name",
                "mint.json has no 'name'; using 'Documentation'",
                ("name",) if "name" in d else (),
            )
            out["name"] = "Documentation"
        if isinstance(d.get("description"), str):
            self.put(out, "description", d["description"], ("description",))
        self._colors(d, out)
        for key in ("logo", "favicon"):
            self._image(d, out, key)
        legacy_fields.appearance(self, d, out)
        legacy_fields.fonts(self, d, out)
        legacy_fields.styling(self, d, out)
        legacy_fields.navbar(self, d, out)
        legacy_nav.navigation(self, d, out)
        legacy_fields.footer(self, d, out)
        self._copy_object(d, out, "banner", required="content")
        legacy_fields.redirects(self, d, out)
        legacy_fields.api(self, d, out)
        legacy_fields.seo(self, d, out)
        if isinstance(d.get("search"), dict):
            if isinstance(d["search"].get("prompt"), str):
                self.put(out, "search", {"prompt": d["search"]["prompt"]}, ("search",))
            for key in d["search"]:
                if key != "prompt":
                    self.drop(("search", key))
        elif "search" in d:
            self.drop(("search",), "the search box position is chosen by the theme")
        legacy_fields.feedback(self, d, out)
        legacy_fields.integrations(self, d, out)
        for key in ("errors", "variables", "interaction"):
            self._copy_object(d, out, key)
        for key in d:
            if key not in HANDLED:
                self.drop((key,), NO_EQUIVALENT.get(key, ""))
        return out

    def _theme(self, d: dict, out: dict) -> None:
        theme = d.get("theme")
        if isinstance(theme, str) and theme in DOCS_THEMES:
            self.put(out, "theme", theme, ("theme",))
            return
        if theme is not None:
            self.warn(
                "legacy.theme",
                f"mint.json theme '{theme}' has no docs.json equivalent; using 'mint'",
                ("theme",),
            )
        out["theme"] = "mint"

    def _colors(self, d: dict, out: dict) -> None:
        colors = found if isinstance(found := d.get("colors"), dict) else {}
        if "colors" in d and not isinstance(d["colors"], dict):
            self.warn("legacy.type", "'colors' is not an object; dropped", ("colors",))
        result = {}
        for key in ("primary", "light", "dark"):
            value = colors.get(key)
            if isinstance(value, str) and HEX.match(value):
                result[key] = value
            elif value is not None:
                self.warn(
                    "legacy.color",
                    f"colors.{key} '{value}' is not a hex colour (#rrggbb or #rgb); dropped",
                    ("colors", key),
                )
        if "primary" not in result:
            self.warn(
                "legacy.color",
                f"mint.json has no usable colors.primary; using {DEFAULT_PRIMARY}",
                ("colors",) if "colors" in d else (),
            )
            result["primary"] = DEFAULT_PRIMARY
        out["colors"] = {k: result[k] for k in ("primary", "light", "dark") if k in result}
        self.origins[("colors",)] = (self.source, ("colors",))
        background = colors.get("background")
        if isinstance(background, dict):
            bg = {
                k: v
                for k, v in background.items()
                if k in ("light", "dark") and isinstance(v, str) and HEX.match(v)
            }
            if bg:
                out.setdefault("background", {})["color"] = bg
        for key in colors:
            if key not in ("primary", "light", "dark", "background"):
                self.drop(("colors", key), "anchor gradients and extra shades are chosen by the theme")

    def _image(self, d: dict, out: dict, key: str) -> None:
        value = d.get(key)
        if isinstance(value, str):
            self.put(out, key, value, (key,))
        elif isinstance(value, dict):
            light = value.get("light") or value.get("dark")
            dark = value.get("dark") or light
            if isinstance(light, str) and isinstance(dark, str):
                result = {"light": light, "dark": dark}
                if key == "logo" and isinstance(value.get("href"), str):
                    result["href"] = value["href"]
                self.put(out, key, result, (key,))
            else:
                self.warn("legacy.type", f"'{key}' has no light or dark image; dropped", (key,))
        elif value is not None:
            self.warn("legacy.type", f"'{key}' is neither a path nor an object; dropped", (key,))

    def _copy_object(self, d: dict, out: dict, key: str, required: str = "") -> None:
        value = d.get(key)
        if isinstance(value, dict) and (not required or required in value):
            self.put(out, key, value, (key,))
        elif value is not None:
            self.warn("legacy.type", f"'{key}' is not a usable object; dropped", (key,))


__all__ = [
    "LegacyConversion",
    "convert_mint_config",
    "convert_mint_json",
    "migrate_mint_json",
    "read_mint_json",
    "write_migration",
]
