"""fixtures/components renders cleanly page by page: every component used, no diagnostics."""

from __future__ import annotations

import json
import re

from docsgen.mdx import render_mdx
from tests.conftest import FIXTURES
from tests.mdx_helpers import make_ctx

SITE = FIXTURES / "components"
FRONTMATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(\n|\Z)", re.S)
EVERY_COMPONENT = {
    "Note", "Info", "Tip", "Warning", "Check", "Danger", "Callout", "Card", "CardGroup", "Columns", "Column",
    "Tabs", "Tab", "CodeGroup", "Accordion", "AccordionGroup", "Expandable", "Steps", "Step", "Frame", "Icon",
    "Tooltip", "Badge", "Tree", "Tree.Folder", "Tree.File", "Color", "Color.Row", "Color.Item", "Panel", "Update",
    "View", "Visibility", "Prompt", "Tile", "GitHub", "ParamField", "ResponseField", "RequestExample",
    "ResponseExample", "CodeBlock",
}  # fmt: skip


def test_fixture_site_pages_render_without_diagnostics():
    config = json.loads((SITE / "docs.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for page in config["navigation"]["pages"]:
        text = (SITE / f"{page}.mdx").read_text(encoding="utf-8")
        m = FRONTMATTER.match(text)
        body = text[m.end() :] if m else text
        used |= set(re.findall(r"<([A-Z][\w.]*)", body))
        ctx = make_ctx(SITE, source=f"{page}.mdx", line_offset=m.group(0).count("\n") if m else 0)
        ctx.variables = config.get("variables", {})
        result = render_mdx(body, ctx)
        assert [d.format() for d in result.diagnostics] == [], page
        assert "{{" not in result.html, page
    assert used >= EVERY_COMPONENT, EVERY_COMPONENT - used
