"""Page cache and parallel rendering: unchanged pages are not re-rendered, and output never depends on either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docsgen.render
from docsgen.build import build
from docsgen.engine.bodies import BodyPack
from docsgen.engine.cache import body_file, cached_keys, entry_files
from docsgen.engine.pool import MIN_PAGES_PER_WORKER, worker_count

PAGES = 2 * MIN_PAGES_PER_WORKER + 4  # enough for two workers


def page(n: int, total: int = PAGES) -> str:
    """Return a page with a heading, a table, code, a component, a link to the next page and a snippet."""
    nxt = (n + 1) % total
    return (
        f"---\ntitle: Page {n}\n---\n"
        'import Shared from "/snippets/note.mdx";\n\n'
        f"## Section {n}\n\nSee [the next page](/p/page-{nxt}) and ![logo](/logo.png).\n\n"
        "| a | b |\n| - | - |\n| 1 | 2 |\n\n"
        f'```python\nprint({n})\n```\n\n<Shared />\n\n<Card title="c{n}">card</Card>\n'
    )


def site_files(pages: int = PAGES) -> dict[str, str]:
    keys = [f"p/page-{n}" for n in range(pages)]
    files = {
        "docs.json": json.dumps(
            {
                "theme": "mint",
                "name": "Cache",
                "colors": {"primary": "#112233"},
                "navigation": {"pages": ["index", *keys]},
            }
        ),
        "index.mdx": "---\ntitle: Home\n---\nWelcome. [Broken](/nowhere)\n",
        "snippets/note.mdx": "<Note>shared snippet v1</Note>\n",
        "logo.png": "png",
    }
    files.update({f"{key}.mdx": page(n, pages) for n, key in enumerate(keys)})
    return files


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    """Keep each test's page cache in its own folder."""
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def count_mdx(monkeypatch):
    """Count the MDX renders of page bodies (serial builds run in this process)."""
    calls: list[str] = []
    real = docsgen.render.render_mdx

    def counting(body, ctx):
        calls.append(ctx.source)
        return real(body, ctx)

    monkeypatch.setattr(docsgen.render, "render_mdx", counting)
    return calls


def test_second_build_renders_only_the_changed_page(make_site, tmp_path, count_mdx):
    site = make_site(site_files(20))
    first = build(site, tmp_path / "a", cache=True, workers=1)
    assert len(count_mdx) == 20 + 1 and len(cached_keys(site)) == 20 + 1
    assert (
        len(entry_files(site)) == 1
    )  # a serial build writes its entries in packs of 64 pages, not a file each
    keys = set(cached_keys(site))
    assert not any(p.name.startswith(".") for p in site.rglob("*"))  # nothing written into the sources

    count_mdx.clear()
    second = build(site, tmp_path / "b", cache=True, workers=1)
    assert count_mdx == []
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    # warnings of cached pages are still reported (the broken link and the page's own diagnostics)
    assert [d.format() for d in second.diagnostics] == [d.format() for d in first.diagnostics]
    assert any(d.code == "link.broken" for d in second.diagnostics)

    (site / "p/page-7.mdx").write_text(
        page(7, 20).replace("## Section 7", "## Changed seven"), encoding="utf-8"
    )
    count_mdx.clear()
    build(site, tmp_path / "c", cache=True, workers=1)
    assert count_mdx == ["p/page-7.mdx"]
    now = set(cached_keys(site))
    assert len(now) == 20 + 1 and len(now - keys) == 1  # page 7's old entry was dropped, its new one written
    assert len(entry_files(site)) == 2  # the new entry's pack beside the one the other pages still use
    build(site, tmp_path / "fresh", cache=False, workers=1)
    assert snapshot(tmp_path / "c") == snapshot(tmp_path / "fresh")
    assert "Changed seven" in (tmp_path / "c/p/page-7/index.html").read_text(encoding="utf-8")


def test_snippet_config_and_link_target_changes_invalidate(make_site, tmp_path, count_mdx):
    site = make_site(site_files(6))
    build(site, tmp_path / "a", cache=True, workers=1)

    (site / "snippets/note.mdx").write_text("<Note>shared snippet v2</Note>\n", encoding="utf-8")
    count_mdx.clear()
    build(site, tmp_path / "b", cache=True, workers=1)
    assert sorted(count_mdx) == sorted(f"p/page-{n}.mdx" for n in range(6))  # index.mdx has no snippet
    assert "shared snippet v2" in (tmp_path / "b/p/page-2/index.html").read_text(encoding="utf-8")

    # a page that disappears from the site: the page linking to it is rendered again (its link is now broken)
    config = json.loads((site / "docs.json").read_text(encoding="utf-8"))
    config["navigation"]["pages"].remove("p/page-3")
    (site / "p/page-3.mdx").unlink()
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    count_mdx.clear()
    result = build(site, tmp_path / "c", cache=True, workers=1)
    assert len(count_mdx) == 6  # docs.json changed: every page renders again
    assert len({p.parent for p in entry_files(site)}) == 1  # the old configuration's entries are gone
    assert any(d.code == "link.broken" and d.path == "p/page-2.mdx" for d in result.diagnostics)

    (site / "p/page-3.mdx").write_text(
        page(3, 6), encoding="utf-8"
    )  # back as an unlisted page: a link target
    count_mdx.clear()
    result = build(site, tmp_path / "d", cache=True, workers=1)
    assert "p/page-2.mdx" in count_mdx and "p/page-4.mdx" not in count_mdx
    assert not any(d.code == "link.broken" and d.path == "p/page-2.mdx" for d in result.diagnostics)


def test_corrupt_cache_is_ignored(make_site, tmp_path, count_mdx):
    site = make_site(site_files(3))
    build(site, tmp_path / "a", cache=True, workers=1)
    [pack] = entry_files(site)
    entries = json.loads(pack.read_text(encoding="utf-8"))
    assert sorted(entries) == sorted(cached_keys(site)) and len(entries) == 4
    broken = sorted(entries)[0]
    entries[broken] = {"deps": {}, "links": [], "result": {"html": 3}}
    pack.write_text(json.dumps(entries), encoding="utf-8")
    count_mdx.clear()
    build(site, tmp_path / "b", cache=True, workers=1)
    assert len(count_mdx) == 1  # only the page whose entry was broken renders again
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert (
        broken in cached_keys(site) and len(entry_files(site)) == 2
    )  # its entry written anew, in a pack of its own

    for path in entry_files(site):
        path.write_text("{not json", encoding="utf-8")
    count_mdx.clear()
    build(site, tmp_path / "c", cache=True, workers=1)
    assert len(count_mdx) == 4
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "c")
    [pack] = entry_files(site)  # every entry written anew, one pack; the broken ones are gone
    bodies = pack.with_name(body_file(pack.name))  # the bodies beside it, read only to render again
    assert sorted(json.loads(pack.read_text(encoding="utf-8"))) == sorted(cached_keys(site))
    read = BodyPack(bodies.read_bytes())
    assert all(read.get(key)["html"] for key in cached_keys(site))  # type: ignore[index]

    bodies.write_bytes(bodies.read_bytes()[:-10])  # cut short: refused whole, every page renders again
    count_mdx.clear()
    build(site, tmp_path / "d", cache=True, workers=1)
    assert len(count_mdx) == 4 and snapshot(tmp_path / "a") == snapshot(tmp_path / "d")


def test_serial_parallel_and_cached_builds_are_byte_identical(make_site, tmp_path):
    site = make_site(site_files())
    assert worker_count(PAGES + 1, 2) == 2
    build(site, tmp_path / "serial", cache=False, workers=1)
    build(site, tmp_path / "parallel", cache=False, workers=2)
    build(site, tmp_path / "cold", cache=True, workers=2)
    assert len(cached_keys(site)) == PAGES + 1
    assert len(entry_files(site)) <= PAGES // 4  # one pack per chunk a worker rendered, not a file per page
    build(site, tmp_path / "warm", cache=True, workers=2)
    build(site, tmp_path / "warm-serial", cache=True, workers=1)
    serial = snapshot(tmp_path / "serial")
    assert len([k for k in serial if k.startswith("p/page-") and k.endswith("/index.html")]) == PAGES
    for name in ("parallel", "cold", "warm", "warm-serial"):
        assert snapshot(tmp_path / name) == serial, name


def test_small_sites_render_serially():
    assert worker_count(MIN_PAGES_PER_WORKER - 1, 8) == 1
    assert worker_count(10_000, 1) == 1


def test_cli_passes_no_cache_workers_and_prints_timings(make_site, tmp_path, monkeypatch):
    from click.testing import CliRunner

    import docsgen.engine.site_engine
    from docsgen.cli import main

    seen: list[dict] = []
    real = docsgen.engine.site_engine.render_pages

    def spy(job, **kwargs):
        seen.append(kwargs)
        return real(job, **kwargs)

    monkeypatch.setattr(docsgen.engine.site_engine, "render_pages", spy)
    site = make_site(site_files(6))
    runner = CliRunner()
    first = runner.invoke(main, ["build", str(site), "-o", str(tmp_path / "a"), "--workers", "1"])
    assert first.exit_code == 0, first.output
    assert seen[-1]["workers"] == 1 and entry_files(site)
    for path in entry_files(site):
        path.unlink()
    second = runner.invoke(main, ["build", str(site), "-o", str(tmp_path / "b"), "--no-cache", "--timings"])
    assert second.exit_code == 0, second.output
    assert not entry_files(site)  # --no-cache: no cache read, none written
    stages = {line.rsplit(None, 3)[0].strip() for line in second.output.splitlines() if line.endswith("%")}
    assert {"config", "render pages", "write", "search, SEO, agent files"} <= stages
    total = next(line for line in second.output.splitlines() if line.startswith("total"))
    assert float(total.split()[1]) > 0


SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        f"/pets/{n}": {
            "get": {
                "summary": f"Get pet {n}",
                "description": "See [the guide](/guide) and [listing](#operation/get-0).",
                "operationId": f"get-{n}",
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                "responses": {
                    "200": {
                        "description": "OK",
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "properties": {"id": {"type": "integer"}}}
                            }
                        },
                    }
                },
            }
        }
        for n in range(4)
    },
}


def api_site_files(extra_pages: tuple[str, ...] = ()) -> dict[str, str]:
    return {
        "docs.json": json.dumps(
            {
                "theme": "mint",
                "name": "API cache",
                "colors": {"primary": "#112233"},
                "navigation": {
                    "groups": [
                        {"group": "Guides", "pages": ["guide", *extra_pages]},
                        {"group": "API", "openapi": "openapi.json"},
                    ]
                },
            }
        ),
        "guide.mdx": "---\ntitle: Guide\n---\nHello.\n",
        **{f"{p}.mdx": f"---\ntitle: {p}\n---\nText.\n" for p in extra_pages},
        "openapi.json": json.dumps(SPEC),
    }


def test_generated_api_pages_are_cached_by_spec_content_and_site_pages(make_site, tmp_path, monkeypatch):
    import docsgen.openapi.render as api_render

    calls: list[str] = []
    real = api_render.render_operation

    def counting(data, method, path, **kwargs):
        calls.append(f"{method.upper()} {path}")
        return real(data, method, path, **kwargs)

    monkeypatch.setattr(api_render, "render_operation", counting)
    import docsgen.openapi.pages as api_pages

    monkeypatch.setattr(api_pages, "render_operation", counting, raising=False)
    site = make_site(api_site_files())
    build(site, tmp_path / "a", cache=True, workers=1)
    assert len(calls) == 4
    calls.clear()
    build(site, tmp_path / "b", cache=True, workers=1)
    assert calls == []  # nothing changed: every endpoint page comes from the cache
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    page = (tmp_path / "b/api-reference/get-pet-2/index.html").read_text(encoding="utf-8")
    data = json.loads(page.split('<script type="application/json" id="dg-api">')[1].split("</script>")[0])
    assert (data["method"].upper(), data["path"]) == (
        "GET",
        "/pets/{n}".replace("{n}", "2"),
    )  # playground data

    spec = json.loads((site / "openapi.json").read_text(encoding="utf-8"))
    spec["paths"]["/pets/1"]["get"]["summary"] = "Fetch pet one"
    (site / "openapi.json").write_text(json.dumps(spec), encoding="utf-8")
    build(site, tmp_path / "c", cache=True, workers=1)
    assert len(calls) == 4  # the spec changed: its pages render again
    build(site, tmp_path / "c-fresh", cache=False, workers=1)
    assert snapshot(tmp_path / "c") == snapshot(tmp_path / "c-fresh")

    calls.clear()
    build(site, tmp_path / "d", cache=True, workers=1)
    assert calls == []
    (site / "extra.mdx").write_text("---\ntitle: Extra\n---\nMore.\n", encoding="utf-8")  # same docs.json
    build(site, tmp_path / "e", cache=True, workers=1)
    assert len(calls) == 4  # another page appeared: links in the spec's descriptions may now point at it


def test_plain_json_agrees_with_a_json_round_trip():
    """encode_result keeps an MDX result's extra fields only when JSON gives them back unchanged."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from docsgen.engine.cache import _plain_json

    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
    odd = st.tuples(st.integers()) | st.frozensets(st.integers(), max_size=2) | st.binary(max_size=2)
    values = st.recursive(
        leaves | odd,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
        ),
        max_leaves=12,
    )

    def round_trips(value) -> bool:
        try:
            back = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError):
            return False
        return back == value and _same_types(back, value)

    def _same_types(a, b) -> bool:
        if type(a) is not type(b):
            return False
        if isinstance(a, list):
            return all(_same_types(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, dict):
            return all(_same_types(a[k], b[k]) for k in a)
        return True

    @settings(max_examples=400, deadline=None)
    @given(values)
    def check(value):
        assert _plain_json(value) == round_trips(value)

    check()


def test_api_sites_build_the_same_on_one_process_or_several(make_site, tmp_path):
    """Workers send the main process slimmed results for API pages (their HTML is written already): the site,
    its search bundle, twins and llms-full.txt are byte for byte those of a serial build, cold or cached."""
    spec = json.loads(json.dumps(SPEC))
    template = spec["paths"].pop("/pets/0")
    for n in range(2 * MIN_PAGES_PER_WORKER + 2):
        operation = json.loads(json.dumps(template).replace("get-0", f"get-{n}").replace("pet 0", f"pet {n}"))
        operation["get"]["description"] = f"Returns pet number {n} with its `id`. See [the guide](/guide)."
        spec["paths"][f"/pets/{n}"] = operation
    files = api_site_files()
    files["openapi.json"] = json.dumps(spec)
    site = make_site(files)
    build(site, tmp_path / "serial", cache=False, workers=1)
    build(site, tmp_path / "parallel", cache=True, workers=2)
    build(site, tmp_path / "warm", cache=True, workers=2)
    serial = snapshot(tmp_path / "serial")
    assert len([k for k in serial if k.startswith("api-reference/") and k.endswith("/index.html")]) > 96
    assert any(k.startswith("pagefind/fragment/") for k in serial)
    assert "Returns pet number 57" in serial["llms-full.txt"].decode("utf-8")
    assert snapshot(tmp_path / "parallel") == serial
    assert snapshot(tmp_path / "warm") == serial


def test_a_page_rendered_after_a_miss_has_its_key_computed_once(make_site, tmp_path, monkeypatch):
    """restore() computes a page's key; store() of the same page, rendered next, uses it (no second hash of the
    page), and the entries it writes are found by the next build under the keys restore() computes."""
    from docsgen.engine.cache import PageCache

    hashed: list[str] = []
    real = PageCache.key

    def counting(self, page):
        hashed.append(page.key)
        return real(self, page)

    monkeypatch.setattr(PageCache, "key", counting)
    site = make_site(site_files(8))
    build(site, tmp_path / "a", cache=True, workers=1)
    assert sorted(hashed) == sorted(["index", *(f"p/page-{n}" for n in range(8))])  # once a page
    hashed.clear()
    build(site, tmp_path / "b", cache=True, workers=1)
    assert len(hashed) == 9
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert len(cached_keys(site)) == 9
