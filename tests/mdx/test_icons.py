"""Offline icon sets: names resolve to inline SVG, unknown names do not, the corpus's icons all resolve."""

from __future__ import annotations

import gzip
import json
import re
import time
import xml.etree.ElementTree as ET

import pytest

from docsgen.common.resources import themes_dir
from docsgen.mdx import icons
from docsgen.mdx.icons import LIBRARIES, IconRef, icon_exists, icon_svg, known_icons, resolve_icon
from tests.conftest import CORPUS

SVG = "{http://www.w3.org/2000/svg}"
ICON_DIR = themes_dir() / "base" / "icons"


def parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == root.get("height") == "1em"
    assert root.get("aria-hidden") == "true"
    assert root.get("class") == "dg-icon"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    assert len(root), "an icon has drawing elements"
    return root


@pytest.mark.parametrize(
    ("name", "library", "expected"),
    [
        ("house", "fontawesome", "fontawesome:solid:house"),
        ("github", "fontawesome", "fontawesome:brands:github"),
        ("circle-check", "lucide", "lucide:circle-check"),
        ("trash", "lucide", "lucide:trash"),
        ("settings", "tabler", "tabler:outline:settings"),
        ("brand-github", "tabler", "tabler:outline:brand-github"),
    ],
)
def test_known_names_render_valid_svg(name, library, expected):
    root = parse(icon_svg(name, library))
    assert root.get("data-icon") == expected


def test_fill_and_stroke_follow_the_library():
    fa = parse(icon_svg("house"))
    assert fa.get("fill") == "currentColor" and fa.get("viewBox") == "0 0 512 512"
    assert fa[0].tag == f"{SVG}path" and fa[0].get("d").startswith("M")
    lucide = parse(icon_svg("flag", "lucide"))
    assert (lucide.get("fill"), lucide.get("stroke"), lucide.get("stroke-width")) == (
        "none",
        "currentColor",
        "2",
    )
    assert lucide.get("viewBox") == "0 0 24 24"
    filled = parse(icon_svg("star", "tabler", "solid"))
    assert filled.get("fill") == "currentColor" and filled.get("stroke") is None
    assert filled.get("data-icon") == "tabler:filled:star"
    outline = parse(icon_svg("star", "tabler"))
    assert outline.get("stroke") == "currentColor"
    # Tabler's invisible bounding box path is stripped from the data.
    assert 'd="M0 0h24v24H0z"' not in icon_svg("star", "tabler")


def test_wide_font_awesome_icons_keep_their_viewbox():
    root = parse(icon_svg("car-side"))
    assert root.get("viewBox") == "0 0 640 512"


@pytest.mark.parametrize(
    "name", ["", "no-such-icon-anywhere", "/images/logo.svg", "https://x.io/a.png", "<svg/>", "a b!"]
)
def test_unknown_names_return_none(name):
    assert icon_svg(name) is None
    assert icon_svg(name, "lucide") is None
    assert not icon_exists(name, "tabler")


@pytest.mark.parametrize(
    ("icon_type", "style"),
    [
        (None, "solid"),
        ("solid", "solid"),
        ("regular", "regular"),
        ("light", "regular"),
        ("thin", "regular"),
        ("sharp-solid", "solid"),
        ("duotone", "solid"),
        ("brands", "solid"),  # circle-user has no brand glyph: fall back to solid
        ("nonsense", "solid"),
    ],
)
def test_icon_type_maps_to_font_awesome_styles(icon_type, style):
    assert resolve_icon("circle-user", "fontawesome", icon_type) == IconRef(
        "fontawesome", style, "circle-user"
    )


def test_style_fallback_solid_then_brands_then_regular():
    # Only in brands: every icon type finds it there.
    for icon_type in (None, "regular", "solid", "light"):
        assert resolve_icon("python", "fontawesome", icon_type).style == "brands"
    # Regular-only request for an icon without a regular glyph falls back to solid.
    assert resolve_icon("rocket", "fontawesome", "regular").style == "solid"
    solid = icon_svg("circle-user", icon_type="solid")
    regular = icon_svg("circle-user", icon_type="regular")
    assert solid != regular


@pytest.mark.parametrize(
    ("written", "library", "canonical"),
    [
        ("fa-house", "fontawesome", "house"),
        ("fa-solid fa-house", "fontawesome", "house"),
        ("fab fa-github", "fontawesome", "github"),
        ("check-circle", "fontawesome", "circle-check"),  # Font Awesome alias
        ("home", "fontawesome", "house"),
        ("  Rocket ", "fontawesome", "rocket"),
        ("check-circle", "lucide", "circle-check-big"),  # Lucide's old name
        ("trash-2", "lucide", "trash"),  # renamed in Lucide 1.x
        ("CircleCheck", "lucide", "circle-check"),  # lucide-react spelling
        ("Trash2", "lucide", "trash"),
        ("CircleCheckBig", "lucide", "circle-check-big"),
        ("lucide-flag", "lucide", "flag"),
        ("IconBrandGithub", "tabler", "brand-github"),
        ("ti-home", "tabler", "home"),
    ],
)
def test_name_spellings_and_aliases(written, library, canonical):
    ref = resolve_icon(written, library)
    assert ref is not None and ref.library == library and ref.name == canonical


def test_class_words_choose_the_style():
    assert resolve_icon("fa-regular fa-star").style == "regular"
    assert resolve_icon("fas fa-star").style == "solid"


@pytest.mark.parametrize(
    ("name", "library", "expected"),
    [
        ("gear", "lucide", IconRef("lucide", "default", "settings")),  # FA name on a Lucide site
        ("settings", "fontawesome", IconRef("fontawesome", "solid", "gear")),  # Lucide name on an FA site
        ("magnifying-glass", "tabler", IconRef("tabler", "outline", "search")),
        ("github", "lucide", IconRef("tabler", "outline", "brand-github")),  # brands left Lucide
        ("github", "tabler", IconRef("tabler", "outline", "brand-github")),
        ("sparkles", "fontawesome", IconRef("lucide", "default", "sparkles")),  # FA Pro only
        ("alien-8bit", "lucide", IconRef("tabler", "outline", "alien")),
    ],
)
def test_names_from_other_libraries_fall_back(name, library, expected):
    assert resolve_icon(name, library) == expected
    assert icon_exists(name, library)


def test_unknown_library_means_font_awesome():
    assert icon_svg("house", "no-such-library") == icon_svg("house")
    assert icon_svg("house", "Font-Awesome") == icon_svg("house")


def test_known_icons_per_library():
    fa, lucide, tabler = (known_icons(lib) for lib in LIBRARIES)
    assert {"house", "github", "circle-check", "check-circle"} <= fa
    assert {"circle-check", "check-circle", "trash", "trash-2"} <= lucide and "github" not in lucide
    assert {"brand-github", "home"} <= tabler
    assert len(fa) > 2000 and len(lucide) > 1800 and len(tabler) > 5000
    known_icons("lucide").add("mutation-does-not-leak")
    assert "mutation-does-not-leak" not in known_icons("lucide")


def test_every_shipped_icon_is_well_formed_svg():
    count = 0
    for library in LIBRARIES:
        for style in icons._data(library)["styles"]:
            for name in icons._icons(library, style):
                parse(icons._markup(IconRef(library, style, name)))
                count += 1
    assert count > 9000


def test_data_files_are_compact_and_licensed():
    total = 0
    for library in LIBRARIES:
        path = ICON_DIR / f"{library}.json.gz"
        total += path.stat().st_size
        data = json.loads(gzip.decompress(path.read_bytes()))
        assert data["library"] == library and data["version"]
        assert (ICON_DIR / f"{library}.LICENSE.txt").read_text(encoding="utf-8").strip()
    assert total < 1_500_000


def _corpus_icon_names() -> dict[str, str]:
    """Every icon name written in the corpus (docs.json files and MDX), with one place using it."""
    names: dict[str, str] = {}
    prop = re.compile(r"\bicon=(?:\"([^\"]+)\"|'([^']+)'|\{\s*\"([^\"]+)\"\s*\})")
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix in (".mdx", ".md", ".jsx"):
            for match in prop.finditer(path.read_text(encoding="utf-8")):
                names.setdefault(next(g for g in match.groups() if g), str(path.relative_to(CORPUS)))
        elif path.suffix == ".json" and "openapi" not in path.name:
            for match in re.finditer(r"\"icon\"\s*:\s*\"([^\"]+)\"", path.read_text(encoding="utf-8")):
                names.setdefault(match.group(1), str(path.relative_to(CORPUS)))
    # Paths and URLs are images, not icon names.
    return {n: p for n, p in names.items() if "/" not in n and "." not in n}


def test_every_corpus_icon_resolves_with_lucide():
    library = json.loads((CORPUS / "docs.json").read_text(encoding="utf-8"))["icons"]["library"]
    assert library == "lucide"
    names = _corpus_icon_names()
    assert len(names) > 100
    missing = {name: where for name, where in names.items() if icon_svg(name, library) is None}
    print("corpus icons missing:", missing or "none")
    assert not missing
    direct = sum(1 for name in names if resolve_icon(name, library).library == "lucide")
    assert direct >= len(names) - 10  # only brand and Pro names leave Lucide


def test_lookups_are_fast():
    icon_svg("rocket", "lucide")  # load the data once
    names = ["rocket", "circle-check", "github", "gear", "python", "flag"]
    start = time.perf_counter()
    for _ in range(5000):
        for name in names:
            icon_svg(name, "lucide")
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"{30000 / elapsed:.0f} calls/s"
