"""What readers see on every real corpus site: home, a component-rich page, an API page and a changelog when the
site has them, at 390 px and 1280 px, light and dark, in a real browser.

Each site is built once (its sampled pages, tests/readers_corpus.py; page cache off, a temporary output folder) and
walked with one browser. The checks are the fixture suite's (tests/readers_checks.py): no sideways scrolling, no
page errors, the site's accent colour in each mode, outline icons unfilled, zero serious or critical axe-core
violations. Screenshots go to ARTIFACTS/corpus.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from tests.readers_checks import page_problems
from tests.readers_corpus import CORPUS_SITES, build_sample
from tests.readers_sites import ARTIFACTS, axe_source, serve

pytestmark = [pytest.mark.shared, pytest.mark.browser]

WIDTHS = (390, 1280)
MODES = ("light", "dark")
SHOTS = ARTIFACTS / "corpus"
# The corpus's own defects, named exactly (as tests/pipeline/test_corpus.py names them): axiom's
# scripts/placeholder-configurator.min.js colours the placeholders it finds in code blocks with an inline
# `color: rgb(59, 130, 246) !important` (blue-500) in light mode, 3.7:1 on white: under WCAG AA on Mintlify's light
# code blocks as on docsgen's (#f6f8fa). docsgen runs the site's script as Mintlify does; it does not rewrite it.
SITE_DEFECTS = {
    "axiomhq__docs": (("color-contrast", '.axiom-placeholder-highlight[style*="rgb(59, 130, 246)"]'),),
}


def _accents(docs_dir) -> tuple[str, str]:
    """Return the accent the site's docs.json (or legacy mint.json) asks for in light and in dark mode."""
    config = docs_dir / "docs.json"
    if not config.is_file():
        config = docs_dir / "mint.json"
    colors = json.loads(config.read_text(encoding="utf-8")).get("colors") or {}
    return colors["primary"], colors.get("light") or colors["primary"]


def _screenshot(page, path, width: int) -> None:
    """Save the viewport on desktops, the page's first 4,000 px on phones (changelogs run to 60,000 px)."""
    if width > 600:
        page.screenshot(path=str(path))
        return
    height = min(page.evaluate("document.documentElement.scrollHeight"), 4000)
    page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


@pytest.mark.parametrize("docs_dir", CORPUS_SITES, ids=[p.name for p in CORPUS_SITES])
def test_corpus_site_reads_well_on_phone_and_desktop_in_light_and_dark(
    browser: Browser, axe, tmp_path, docs_dir
):
    if not docs_dir.is_dir():
        pytest.fail(f"the corpus is missing at {docs_dir}: these tests need ../shared beside the repository")
    urls = build_sample(docs_dir, tmp_path / "site")
    assert {"home", "content"} <= urls.keys()
    server, base = serve(tmp_path / "site")
    SHOTS.mkdir(parents=True, exist_ok=True)
    accents = _accents(docs_dir)
    problems: list[str] = []
    try:
        for kind, path in urls.items():
            for width in WIDTHS:
                for mode in MODES:
                    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=mode)
                    context.add_init_script(f"try{{localStorage.setItem('dg-theme','{mode}')}}catch(e){{}}")
                    page = context.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    where = f"{docs_dir.name} {kind} /{path} {width}px {mode}"
                    accent = accents[0 if mode == "light" else 1]
                    known = SITE_DEFECTS.get(docs_dir.name, ())
                    problems += page_problems(page, where, mode, accent, axe, errors, known)
                    shot = SHOTS / f"{docs_dir.name}-{kind}-{width}-{mode}.png"
                    _screenshot(page, shot, width)
                    context.close()
    finally:
        server.shutdown()
    assert not problems, "\n".join(problems)
