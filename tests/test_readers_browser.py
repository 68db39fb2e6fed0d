"""What readers see, in a real browser: every page type at 390 px and 1280 px, light and dark.

For each page: no sideways scrolling, no page errors, the site's accent colour in each mode (and `.dark` site CSS
applied), outline icons unfilled, zero serious or critical axe-core violations. Screenshots of every page type
are written under ARTIFACTS (printed once) so a reviewer can look instead of reading.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from docsgen.build import build
from tests.conftest import FIXTURES, write_tree
from tests.readers_sites import ARTIFACTS, SEARCH_FILES, axe_source, serve, write_hostile

WIDTHS = (390, 1280)
MODES = ("light", "dark")

# (site, path, page type); `#search=...` opens the search dialog and types the query.
PAGES = [
    ("example", "", "home"),
    ("example", "quickstart/", "content-steps-code"),
    ("example", "guides/changelog/", "changelog"),
    ("example", "404.html", "404"),
    ("example", "#search=bucket", "search-results"),
    ("components", "callouts/", "callouts"),
    ("components", "cards/", "cards"),
    ("components", "tabs/", "tabs"),
    ("components", "code/", "code"),
    ("components", "steps/", "steps"),
    ("components", "accordions/", "accordions"),
    ("components", "api-fields/", "api-fields"),
    ("components", "content/", "content"),
    ("components", "math-and-diagrams/", "math-diagrams"),
    ("components", "changelog/", "changelog-component"),
    ("api-site", "api-reference/pets/list-pets/", "endpoint"),
    ("api-site", "api-reference/pets/create-a-pet/", "endpoint-body"),
    ("api-site", "api-reference/pet-adopted/", "webhook"),
    ("api-site", "api/pet-model/", "schema"),
    ("hostile", "", "switchers-cta-home"),
    ("hostile", "api-reference/list-deployment-artifacts/", "endpoint-long-path"),
]
# The accent (--dg-primary) each site's docs.json asks for in light and dark mode.
ACCENTS = {
    "example": ("#4F46E5", "#818CF8"),
    "components": ("#0D9373", "#07C983"),
    "api-site": ("#0E7490", "#0E7490"),
    "hostile": ("#0052FF", "#F472B6"),
}

_OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > w + 1 && getComputedStyle(el).position !== "fixed") {
      let inScroller = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") { inScroller = true; break; }
      }
      if (!inScroller) out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: w, culprits: out.slice(0, 6)};
}"""
_FILLED_OUTLINES = """() => [...document.querySelectorAll('svg[fill="none"]')]
  .filter((s) => s.getClientRects().length && getComputedStyle(s).fill !== "none")
  .map((s) => s.dataset.icon || s.outerHTML.slice(0, 80))"""
_AXE = """() => axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`))"""


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("readers")
    sources = {name: FIXTURES / name for name in ("example", "components", "api-site")}
    sources["hostile"] = write_hostile(root / "hostile-src")
    sources["search"] = write_tree(root / "search-src", SEARCH_FILES)
    servers, urls = [], {}
    for name, source in sources.items():
        build(source, root / name)
        server, url = serve(root / name)
        servers.append(server)
        urls[name] = url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"\nreaders: screenshots in {ARTIFACTS}")
    yield urls
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


def _rgb_hex(value: str) -> str:
    """Normalise a computed colour ('rgb(250, 250, 200)' or '#abc') to upper-case #RRGGBB."""
    value = value.strip()
    if value.startswith("rgb"):
        parts = [int(float(p)) for p in value[value.index("(") + 1 : value.index(")")].split(",")[:3]]
        return "#" + "".join(f"{p:02X}" for p in parts)
    return value.upper()


@pytest.mark.parametrize(("site", "path", "kind"), PAGES, ids=[f"{s}:{k}" for s, _, k in PAGES])
def test_page_reads_well_on_phone_and_desktop_in_light_and_dark(
    browser: Browser, sites, axe, site, path, kind
):
    problems: list[str] = []
    for width in WIDTHS:
        for mode in MODES:
            context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=mode)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            url, _, query = (sites[site] + path).partition("#search=")
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if query:
                page.locator(".dg-search-button").click()
                page.locator(".dg-search-input").fill(query)
                page.locator(".dg-search-results li").first.wait_for(timeout=10000)
            where = f"{kind} {width}px {mode}"
            box = page.evaluate(_OVERFLOW)
            if box["scroll"] > box["width"]:
                problems.append(f"{where}: page is {box['scroll']} px wide: {box['culprits']}")
            problems += [f"{where}: page error {e}" for e in errors]
            accent = page.evaluate(
                "getComputedStyle(document.documentElement).getPropertyValue('--dg-primary')"
            )
            wanted = ACCENTS[site][0 if mode == "light" else 1]
            if _rgb_hex(accent) != wanted:
                problems.append(f"{where}: accent {accent!r}, expected {wanted}")
            has_dark = page.evaluate("document.documentElement.classList.contains('dark')")
            if has_dark != (mode == "dark"):
                problems.append(f"{where}: <html> class 'dark' is {has_dark}")
            filled = page.evaluate(_FILLED_OUTLINES)
            if filled:
                problems.append(f"{where}: outline icons drawn filled: {filled[:5]}")
            page.add_script_tag(content=axe)
            problems += [f"{where}: axe {v}" for v in page.evaluate(_AXE)]
            page.screenshot(path=str(ARTIFACTS / f"{site}-{kind}-{width}-{mode}.png"), full_page=width == 390)
            context.close()
    assert not problems, "\n".join(problems)


def test_site_css_written_for_mintlify_dark_class_applies(browser: Browser, sites):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(sites["hostile"])
    color = page.evaluate("getComputedStyle(document.querySelector('.dg-hostile-probe')).color")
    assert color == "rgb(250, 250, 200)"
    page.locator(".dg-theme-toggle").click()
    assert page.evaluate("document.documentElement.className").split().count("dark") == 0
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.dg-hostile-probe')).color")
        != "rgb(250, 250, 200)"
    )
    context.close()


def test_search_excerpts_come_from_prose_not_from_mdx_code_samples(browser: Browser, sites):
    page = browser.new_page()
    page.goto(sites["search"])
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("accordion")
    option = page.locator("#dg-search-results [role=option]").first
    option.wait_for()
    excerpt = option.locator(".dg-search-excerpt").inner_text()
    assert "Use an accordion to fold" in excerpt
    assert "<Accordion" not in excerpt and "</" not in excerpt
    page.close()


def test_content_images_zoom_on_click_and_close(browser: Browser, sites):
    page = browser.new_page()
    page.goto(sites["hostile"])
    image = page.locator(".dg-prose img[alt='Architecture diagram']")
    image.click()
    zoom = page.locator("dialog.dg-zoom[open] img")
    zoom.wait_for()
    assert zoom.get_attribute("alt") == "Architecture diagram"
    zoom.click()
    page.locator("dialog.dg-zoom").wait_for(state="detached")
    page.close()
