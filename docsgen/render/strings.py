"""The interface's own words ("On this page", "Was this page helpful?", search, pagination, 404 ...) in every
language Mintlify supports: themes/base/strings.json, one object per language code, English the fallback.
docs.json `strings` overrides them: {"*": {...}} for every language, {"de": {...}} for one.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from docsgen.resources import themes_dir
from docsgen.theme import register_template_globals

# Codes real sites use for the languages of the catalogue (BCP 47 and Mintlify's own).
ALIASES = {
    "ja": "jp", "ja-JP": "jp", "ja-jp": "jp", "zh": "cn", "zh-CN": "cn", "zh-Hans": "cn", "zh-TW": "zh-Hant",
    "uk": "ua", "pt": "pt-BR", "fr-CA": "fr", "fr-ca": "fr", "nb": "no", "en-US": "en", "en-GB": "en",
}  # fmt: skip


@functools.cache
def catalogue() -> dict[str, dict[str, str]]:
    """Return every language's interface strings (read once)."""
    return json.loads((themes_dir() / "base" / "strings.json").read_text(encoding="utf-8"))


def catalogue_code(lang: str | None) -> str:
    """Return the catalogue's code for a page language ('en' when it has none of its own)."""
    if not lang:
        return "en"
    known = catalogue()
    if lang in known:
        return lang
    if lang in ALIASES:
        return ALIASES[lang]
    base = lang.split("-")[0].lower()
    return base if base in known else ALIASES.get(base, "en")


def interface_strings(lang: str | None, overrides: Any = None) -> dict[str, str]:
    """Return the interface strings of a language: English, the language's, then docs.json `strings` ("*" and the
    page's own code)."""
    known = catalogue()
    out = dict(known["en"]) | known.get(catalogue_code(lang), {})
    if isinstance(overrides, dict):
        for key in ("*", lang or "en"):
            value = overrides.get(key)
            if isinstance(value, dict):
                out.update({k: str(v) for k, v in value.items() if isinstance(v, str | int | float)})
    return out


# Templates rendered without a page language (redirect pages, a theme's own) get the English words.
register_template_globals({"t": dict(catalogue()["en"])})
