"""Search records: what Pagefind is given for a page (compact API search text wins over the full page body)."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass

import pytest

from docsgen.build import build
from docsgen.mdx import MdxResult
from docsgen.outputs.pagefind import build_index
from docsgen.outputs.search import record_for, searchable_pages
from docsgen.render import site_context
from docsgen.site.read import read_site


@dataclass
class CompactResult(MdxResult):
    """An MDX result with the compact search text generated API pages carry."""

    search_html: str = ""


def write_site(root) -> None:
    (root / "docs.json").write_text(
        json.dumps(
            {
                "theme": "mint",
                "name": "Records",
                "colors": {"primary": "#2563EB"},
                "navigation": {"groups": [{"group": "G", "pages": ["api", "guide"]}]},
            }
        )
    )
    (root / "api.mdx").write_text("---\ntitle: Api\n---\n\nBody.\n")
    (root / "guide.mdx").write_text("---\ntitle: Guide\n---\n\nBody.\n")


def bundle_fragments(bundle: dict[str, bytes]) -> dict[str, dict]:
    """Return {url: fragment} from an in-memory Pagefind bundle."""
    found = {}
    for rel, data in bundle.items():
        if rel.startswith("fragment/"):
            raw = gzip.decompress(data)
            record = json.loads(raw[len(b"pagefind_dcd") :])
            found[record["url"]] = record
    return found


def test_search_html_replaces_the_full_body_in_the_index(tmp_path):
    write_site(tmp_path)
    site = read_site(tmp_path)
    ctx = site_context(site)
    site.pages["api"].content = CompactResult(
        html="<p>nestedrowword samplecodeword</p>",
        search_html='<h2 id="params">Parameters</h2><p>compactword</p>',
    )
    site.pages["guide"].content = MdxResult(html="<p>guideonlyword</p>")
    records = [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]
    assert sorted(r.url for r in records) == ["/api/", "/guide/"]
    fragments = bundle_fragments(build_index(records))
    api, guide = fragments["/api/"]["content"], fragments["/guide/"]["content"]
    assert "compactword" in api and "Parameters" in api
    assert "nestedrowword" not in api and "samplecodeword" not in api
    assert "guideonlyword" in guide
    assert fragments["/api/"]["anchors"][0]["id"] == "params"


def test_empty_search_html_falls_back_to_the_page_body(tmp_path):
    write_site(tmp_path)
    site = read_site(tmp_path)
    ctx = site_context(site)
    site.pages["api"].content = CompactResult(html="<p>fullbodyword</p>", search_html="")
    site.pages["guide"].content = MdxResult(html="<p>x</p>")
    records = {r.url: r for r in (record_for(ctx, site, p, pol) for p, pol in searchable_pages(site))}
    assert "fullbodyword" in records["/api/"].html


def test_records_keep_words_and_anchors_but_drop_wordless_markup(tmp_path):
    write_site(tmp_path)
    (tmp_path / "guide.mdx").write_text(
        "---\ntitle: Guide\n---\n\n## Setup steps\n\nRun it:\n\n```python\ndef handler_one(request):\n"
        '    return {"page": 1}\n```\n'
    )
    site = read_site(tmp_path)
    ctx = site_context(site)
    build(tmp_path, tmp_path / "out", cache=False)
    html = (tmp_path / "out" / "guide" / "index.html").read_text()
    assert 'class="anchor"' in html and "dg-copy" in html and '<span class="' in html
    site.pages["guide"].content = MdxResult(html=html[html.index("<h2") : html.index("</pre>") + 6])
    site.pages["api"].content = MdxResult(html="<p>x</p>")
    (record,) = [record_for(ctx, site, p, pol) for p, pol in searchable_pages(site) if p.key == "guide"]
    assert 'class="anchor"' not in record.html and "dg-copy" not in record.html
    fragment = bundle_fragments(build_index([record]))["/guide/"]
    assert fragment["anchors"][0]["id"] == "setup-steps" and fragment["anchors"][0]["text"] == "Setup steps"
    assert "def handler_one(request):" in fragment["content"] and '"page": 1' in fragment["content"]
    assert "#" not in fragment["content"]


def test_records_leave_out_svg_which_pagefind_does_not_index(tmp_path):
    """Icons' SVG (path data: a third of a real-shaped page's record) is not sent to Pagefind, which leaves SVG out
    of its index anyway: the bundle is byte-identical with and without it; the text around it stays."""
    from docsgen.outputs.pagefind import SearchRecord
    from docsgen.outputs.pagefind_bundle import stable_bundle
    from docsgen.outputs.search import slim_html, without_svg

    icon = '<svg viewBox="0 0 24 24"><title>svgtitleword</title><path d="M12 16v-4M12 8h.01"/></svg>'
    nested = f"<svg><g>{icon}</g><text>svgtextword</text></svg>"
    body = f'<h2 id="keys">Keys {icon}</h2><p>Before {nested} you start<svgx>kept</svgx>.</p>'
    slim = slim_html(body)
    assert slim == '<h2 id="keys">Keys </h2><p>Before  you start<svgx>kept</svgx>.</p>'
    assert without_svg("<p>a<svg><path/></p>") == "<p>a<svg><path/></p>"  # no end: left as it is
    assert without_svg("<!-- <svg --><p>a</p><svg></svg>") == "<!-- <svg --><p>a</p><svg></svg>"

    def record(html: str) -> SearchRecord:
        page = f'<!doctype html><html lang="en"><head><title>T</title></head><body><main data-pagefind-body>{html}'
        return SearchRecord("/keys/", "en", page + "</main></body></html>")

    with_svg, without = build_index([record(body)]), build_index([record(slim)])
    assert stable_bundle(with_svg) == stable_bundle(without)
    fragment = bundle_fragments(without)["/keys/"]
    assert "svgtitleword" not in fragment["content"] and "svgtextword" not in fragment["content"]
    assert "Before you start" in fragment["content"] and fragment["anchors"][0]["id"] == "keys"


@pytest.mark.timeout(30)
def test_svg_removal_reads_deep_nesting_in_one_pass():
    """A page of 200,000 nested <svg> (hostile raw HTML) is read in one pass: the next "<svg" and "</svg>" are
    searched for again only once passed (searching both at every tag took 6 s at 40,000, minutes at 200,000)."""
    from docsgen.outputs.search import without_svg

    depth = 200_000
    html = "<p>before</p>" + "<svg>" * depth + "<g></g>" + "</svg>" * depth + "<p>after</p>"
    assert without_svg(html) == "<p>before</p><p>after</p>"
    unclosed = "<p>a</p>" + "<svg>" * depth + "</svg>" * (depth - 1)
    assert without_svg(unclosed) == unclosed  # an <svg> without its end: left as it is
    side_by_side = "<p>a</p>" + "<svg><path/></svg><b>x</b>" * 50_000
    assert without_svg(side_by_side) == "<p>a</p>" + "<b>x</b>" * 50_000
