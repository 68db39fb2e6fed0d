"""The corpus sites whose landing pages use Tailwind grids show them in columns at 1280 px and in one column at
390 px (mintlify-docs' and spree's home pages: `grid sm:grid-cols-2 ...`), built as `docsgen build` builds them."""

from __future__ import annotations

import pytest

from tests.readers_corpus import CORPUS_SITES, build_sample
from tests.readers_sites import serve

pytestmark = [pytest.mark.shared, pytest.mark.browser]

SITES = [p for p in CORPUS_SITES if p.name in ("mintlify-docs", "spree__spree")]
# the grids of each home page: CSS selector of the grid's items (one per site's landing grid)
GRIDS = {
    "mintlify-docs": "div.grid.sm\\:grid-cols-2 > *",
    "spree__spree": "div.grid.sm\\:grid-cols-2.lg\\:grid-cols-3 > *",
}

ROWS = """(sel) => {
  const items = [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null).slice(0, 4);
  return items.map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; });
}"""


@pytest.mark.parametrize("docs_dir", SITES, ids=[p.name for p in SITES])
def test_landing_grid_in_columns_on_desktop_one_column_on_phone(browser, tmp_path, docs_dir):
    if not docs_dir.is_dir():
        pytest.fail(f"the corpus is missing at {docs_dir}: these tests need ../shared beside the repository")
    urls = build_sample(docs_dir, tmp_path / "site")
    server, base = serve(tmp_path / "site")
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}{urls['home']}")
        items = page.evaluate(ROWS, GRIDS[docs_dir.name])
        assert len(items) >= 2
        assert items[0][1] == items[1][1] and items[0][0] < items[1][0]  # side by side
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{base}{urls['home']}")
        items = page.evaluate(ROWS, GRIDS[docs_dir.name])
        assert len({left for left, _ in items}) == 1  # one column
        assert items[0][1] < items[1][1]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone
        page.close()
    finally:
        server.shutdown()
