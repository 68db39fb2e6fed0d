"""Inline SVG icons from Font Awesome Free, Lucide and Tabler, shipped offline so only used icons reach a page.

The data lives in themes/base/icons/<library>.json.gz (built by themes/base/icons/refresh.py from the npm
packages); it is loaded on first use and cached per process. `icon_svg` returns markup sized 1em that takes
the text colour, so callers size and colour an icon with the font-size and color of a wrapping element.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache, lru_cache
from html import escape
from typing import Any, NamedTuple

from docsgen.common.resources import themes_dir

__all__ = [
    "ICON_ATTRIBUTION",
    "LIBRARIES",
    "IconRef",
    "icon_exists",
    "icon_svg",
    "known_icons",
    "normalize_library",
    "resolve_icon",
    "style_fallback",
]

LIBRARIES = ("fontawesome", "lucide", "tabler")

# One line per library to credit it (Font Awesome's CC BY 4.0 asks for attribution), e.g. in an HTML comment.
ICON_ATTRIBUTION = {
    "fontawesome": "Font Awesome Free by Fonticons, Inc. - https://fontawesome.com - icons CC BY 4.0",
    "lucide": "Lucide icons - https://lucide.dev - ISC License",
    "tabler": "Tabler Icons by Pawel Kuna - https://tabler.io/icons - MIT License",
}

_LIBRARY_NAMES = {
    "fontawesome": "fontawesome",
    "font-awesome": "fontawesome",
    "fa": "fontawesome",
    "lucide": "lucide",
    "tabler": "tabler",
    "tabler-icons": "tabler",
}

# When a name is missing from the requested library, try the others in this order.
_FALLBACK = {
    "fontawesome": ("fontawesome", "lucide", "tabler"),
    "lucide": ("lucide", "tabler", "fontawesome"),
    "tabler": ("tabler", "lucide", "fontawesome"),
}

# Mintlify's iconType values -> Font Awesome Free styles to try, best first.
_FA_OUTLINE = ("regular", "solid", "brands")
_FA_DEFAULT = ("solid", "brands", "regular")
_FA_STYLES = {
    "regular": _FA_OUTLINE,
    "light": _FA_OUTLINE,
    "thin": _FA_OUTLINE,
    "sharp-regular": _FA_OUTLINE,
    "sharp-light": _FA_OUTLINE,
    "sharp-thin": _FA_OUTLINE,
    "solid": _FA_DEFAULT,
    "sharp-solid": _FA_DEFAULT,
    "duotone": _FA_DEFAULT,
    "sharp-duotone-solid": _FA_DEFAULT,
    "brands": ("brands", "solid", "regular"),
}
_FILLED_TYPES = {"solid", "filled", "sharp-solid", "duotone", "sharp-duotone-solid"}

# Class-style spellings: "fa-solid fa-house", "fas fa-house", "fa-brands fa-github".
_FA_CLASS_STYLE = {
    "fa-solid": "solid",
    "fas": "solid",
    "fa-regular": "regular",
    "far": "regular",
    "fa-light": "light",
    "fal": "light",
    "fa-thin": "thin",
    "fat": "thin",
    "fa-duotone": "duotone",
    "fad": "duotone",
    "fa-brands": "brands",
    "fab": "brands",
    "fa-sharp": "sharp-solid",
}
_PREFIXES = ("fa-", "lucide-", "icon-tabler-", "tabler-", "ti-")
_VALID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])")


class IconRef(NamedTuple):
    """Where an icon name resolved to: library, style within it and canonical name."""

    library: str
    style: str
    name: str


def normalize_library(library: str | None) -> str:
    """Map a docs.json `icons.library` value to one of LIBRARIES (unknown or empty -> fontawesome)."""
    return _LIBRARY_NAMES.get((library or "").strip().lower(), "fontawesome")


@cache
def _data(library: str) -> dict[str, Any]:
    """Load one library's data file once per process."""
    raw = (themes_dir() / "base" / "icons" / f"{library}.json.gz").read_bytes()
    return json.loads(gzip.decompress(raw))


@cache
def _synonyms() -> dict[str, tuple[str, ...]]:
    """Map each name in synonyms.json to the other names of every group it belongs to."""
    groups = json.loads((themes_dir() / "base" / "icons" / "synonyms.json").read_text(encoding="utf-8"))[
        "groups"
    ]
    found: dict[str, list[str]] = {}
    for group in groups:
        for name in group:
            others = found.setdefault(name, [])
            others.extend(n for n in group if n != name and n not in others)
    return {name: tuple(others) for name, others in found.items()}


def _icons(library: str, style: str) -> dict[str, Any]:
    styles = _data(library)["styles"]
    return styles[style] if library == "fontawesome" else styles[style]["icons"]


def _styles(library: str, icon_type: str | None) -> tuple[str, ...]:
    """The styles of a library to search, best first, for a Mintlify iconType."""
    kind = (icon_type or "").strip().lower()
    if library == "fontawesome":
        if kind in _FA_STYLES:
            return _FA_STYLES[kind]
        # other Pro spellings (sharp, sharp-duotone-light, duotone-thin...): the closest Free style
        return _FA_OUTLINE if any(w in kind for w in ("light", "thin", "regular")) else _FA_DEFAULT
    if library == "tabler":
        return ("filled", "outline") if kind in _FILLED_TYPES else ("outline", "filled")
    return ("default",)


def _find(library: str, name: str, icon_type: str | None) -> IconRef | None:
    """Look a name (or its alias) up in one library."""
    canonical = _data(library)["aliases"].get(name, name)
    for style in _styles(library, icon_type):
        if canonical in _icons(library, style):
            return IconRef(library, style, canonical)
    return None


def _clean(name: str) -> tuple[str, str | None]:
    """Normalise a written icon name; return (name, style implied by FA class words or None)."""
    words = name.strip().split()
    style = None
    for word in words[:-1]:
        style = _FA_CLASS_STYLE.get(word.lower(), style)
    name = words[-1] if words else ""
    if any(c.isupper() for c in name):
        name = _CAMEL.sub("-", name)  # lucide-react / Tabler React spellings: CircleCheck, IconBrandGithub
        if name.startswith("Icon-"):
            name = name[5:]
    name = name.lower().replace("_", "-")
    for prefix in _PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix) :]
            break
    return name, style


@lru_cache(maxsize=8192)
def resolve_icon(name: str, library: str = "fontawesome", icon_type: str | None = None) -> IconRef | None:
    """Find which icon a name means: the site's library first, then synonyms, then the other libraries."""
    if not name or "/" in name or "." in name or "<" in name:
        return None  # a path, URL or inline SVG: the caller renders it as an image
    clean, class_style = _clean(name)
    if not _VALID.fullmatch(clean):
        return None
    icon_type = icon_type or class_style
    candidates = (clean, *_synonyms().get(clean, ()))
    for lib in _FALLBACK[normalize_library(library)]:
        for candidate in candidates:
            found = _find(lib, candidate, icon_type)
            if found:
                return found
        if lib == "tabler":
            found = _find(lib, f"brand-{clean}", icon_type)
            if found:
                return found
    return None


@lru_cache(maxsize=8192)
def _markup(ref: IconRef) -> str:
    """Build the inline <svg> for a resolved icon."""
    data = _data(ref.library)
    entry = _icons(ref.library, ref.style)[ref.name]
    if ref.library == "fontawesome":
        width, path = entry
        attrs = {"viewBox": f"0 0 {width} {data['height']}", **data["attrs"]}
        inner = f'<path d="{path}"/>'
    else:
        attrs = dict(data["styles"][ref.style]["attrs"])
        inner = entry
    attributes = " ".join(f'{key}="{escape(str(value))}"' for key, value in attrs.items())
    label = escape(
        f"{ref.library}:{ref.name}" if ref.style == "default" else f"{ref.library}:{ref.style}:{ref.name}"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {attributes} width="1em" height="1em" aria-hidden="true" '
        f'focusable="false" class="dg-icon" data-icon="{label}">{inner}</svg>'
    )


@lru_cache(maxsize=8192)
def icon_svg(name: str, library: str = "fontawesome", icon_type: str | None = None) -> str | None:
    """Return inline `<svg class="dg-icon">` markup for an icon name, or None when no library knows it."""
    ref = resolve_icon(name, library, icon_type)
    return _markup(ref) if ref else None


_FREE_STYLES = frozenset({"", "solid", "regular", "brands"})


def style_fallback(name: str, library: str, icon_type: str | None) -> str | None:
    """Return a note when a Font Awesome Pro style (light, thin, duotone, sharp...) is drawn in a Free style.

    docsgen ships Font Awesome Free only: such icons show in the closest Free style (outline for light and
    thin, solid otherwise) rather than disappearing; the caller reports the note as a located info.
    """
    kind = (icon_type or "").strip().lower()
    if kind in _FREE_STYLES or normalize_library(library) != "fontawesome":
        return None
    ref = resolve_icon(name, library, icon_type)
    if ref is None or ref.library != "fontawesome":
        return None
    return (
        f"icon {name!r}: Font Awesome style '{kind[:40]}' is a Pro style, not shipped with docsgen "
        f"(Font Awesome Free): drawn in the '{ref.style}' style"
    )


def icon_exists(name: str, library: str = "fontawesome") -> bool:
    """Say whether icon_svg(name, library) renders something (directly, by alias, synonym or fallback)."""
    return resolve_icon(name, library) is not None


@cache
def _known(library: str) -> frozenset[str]:
    names: set[str] = set(_data(library)["aliases"])
    for style in _data(library)["styles"]:
        names.update(_icons(library, style))
    return frozenset(names)


def known_icons(library: str = "fontawesome") -> set[str]:
    """Return every name (canonical and alias) the library itself ships, without cross-library fallbacks."""
    return set(_known(normalize_library(library)))
