"""Hostile or broken docs.json: located errors (never a traceback), nothing written outside the output folder,
and no script URL reaching a built page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsgen.cli import main
from tests.htmldom import parse

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}
NAV = {"groups": [{"group": "G", "pages": ["index"]}]}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def both_fail_with(site: Path, out: Path, expected: str) -> None:
    for args in (("validate", str(site)), ("build", str(site), "-o", str(out))):
        code, output = run(*args)
        assert code == 1, output
        assert expected in output, output
        assert "0 error(s)" not in output


def test_redirect_source_with_dot_dot_is_a_located_error_and_nothing_is_written(make_site, tmp_path):
    config = {
        **BASE,
        "navigation": NAV,
        "redirects": [{"source": "/../../escaped/owned", "destination": "/"}],
    }
    site = make_site({"docs.json": json.dumps(config, indent=2), "index.mdx": "# Home\n"})
    out = tmp_path / "deep" / "out"
    both_fail_with(
        site,
        out,
        "docs.json:19:17: error: redirect source '/../../escaped/owned' has '.', '..' or '\\' path segments",
    )
    assert not (tmp_path / "escaped").exists() and not out.exists()


def test_config_nested_600_deep_is_a_located_error(make_site, tmp_path):
    text = json.dumps({**BASE, "navigation": NAV})[:-1] + ',\n"x": ' + "[" * 600 + "]" * 600 + "}"
    site = make_site({"docs.json": text, "index.mdx": "# Home\n"})
    both_fail_with(site, tmp_path / "out", "docs.json:2:69: error: JSON nested more than 64 levels deep")


def test_deep_nesting_through_ref_files_is_a_located_error(make_site, tmp_path):
    files = {"docs.json": json.dumps({**BASE, "navigation": {"$ref": "n0.json"}}), "index.mdx": "# Home\n"}
    for i in range(5):
        files[f"n{i}.json"] = "[" * 30 + json.dumps({"$ref": f"n{i + 1}.json"}) + "]" * 30
    files["n5.json"] = "[]"
    site = make_site(files)
    both_fail_with(site, tmp_path / "out", "error: configuration nested more than 64 levels deep")


def test_lone_surrogate_is_a_located_error(make_site, tmp_path):
    text = '{\n  "theme": "mint", "name": "X\\ud800", "colors": {"primary": "#112233"},\n  "navigation": '
    site = make_site({"docs.json": text + json.dumps(NAV) + "\n}\n", "index.mdx": "# Home\n"})
    both_fail_with(site, tmp_path / "out", "docs.json:2:28: error: string holds an unpaired UTF-16 surrogate")
    code, output = run("validate", str(site))
    assert "(at name) [config.encoding]" in output


def test_null_config_is_a_located_error(make_site, tmp_path):
    site = make_site({"docs.json": "null\n", "index.mdx": "# Home\n"})
    both_fail_with(
        site, tmp_path / "out", "docs.json:1:1: error: docs.json holds null; expected a JSON object"
    )


def test_ref_fragment_must_name_a_value(make_site, tmp_path):
    nav_file = json.dumps({"main": NAV}, indent=2)
    site = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"$ref": "nav.json#/nope"}}, indent=2),
            "nav.json": nav_file,
            "index.mdx": "# Home\n",
        }
    )
    both_fail_with(
        site, tmp_path / "out", "docs.json:8:13: error: $ref 'nav.json#/nope': nav.json has no value at"
    )
    (site / "docs.json").write_text(json.dumps({**BASE, "navigation": {"$ref": "nav.json#/main"}}))
    code, output = run("build", str(site), "-o", str(tmp_path / "ok"))
    assert code == 0, output
    assert (tmp_path / "ok" / "index.html").is_file()


SCRIPT_URLS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(2)",
    " java\tscript:alert(3)",
    "data:text/html,x",
    "vbscript:x",
]


def hostile_site(make_site) -> Path:
    js = SCRIPT_URLS
    config = {
        **BASE,
        "logo": {"light": "/logo.svg", "dark": "/logo.svg", "href": js[0]},
        "navbar": {
            "links": [{"label": "Evil", "href": js[1]}, {"label": "Good", "href": "https://good.example"}],
            "primary": {"type": "button", "label": "Go", "href": js[2]},
        },
        "footer": {
            "socials": {"github": js[3], "x": "https://x.example/me"},
            "links": [
                {
                    "header": "More",
                    "items": [{"label": "Bad", "href": js[4]}, {"label": "Ok", "href": "/index"}],
                }
            ],
        },
        "navigation": {
            "global": {
                "anchors": [
                    {"anchor": "Evil anchor", "href": js[0]},
                    {"anchor": "Blog", "href": "https://b.example"},
                ]
            },
            "tabs": [
                {"tab": "Docs", "groups": [{"group": "G", "pages": ["index", "linked"]}]},
                {"tab": "Evil tab", "href": js[1]},
            ],
        },
        "redirects": [
            {"source": "/old", "destination": js[0]},
            {"source": "/moved", "destination": "/index"},
        ],
    }
    return make_site(
        {
            "docs.json": json.dumps(config, indent=2),
            "index.mdx": "# Home\n",
            "linked.mdx": f"---\ntitle: Linked\nurl: {js[0]}\n---\nBody.\n",
            "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
        }
    )


def test_script_urls_in_docs_json_and_frontmatter_are_refused_and_never_emitted(make_site, tmp_path):
    site = hostile_site(make_site)
    out = tmp_path / "out"
    code, output = run("build", str(site), "-o", str(out))
    assert code == 0, output
    refused = re.findall(r"^(\S+): warning: (?:frontmatter url|link target) .*$", output, re.M)
    assert len(refused) == 9, output
    assert all(re.fullmatch(r"(docs\.json|linked\.mdx):\d+:\d+", where) for where in refused), refused
    assert "docs.json:10:13: warning: link target 'javascript:alert(1)'" in output  # logo.href
    assert "(at navbar.links[0].href) [config.unsafe-url]" in output
    assert "(at footer.socials.github) [config.unsafe-url]" in output
    assert "(at redirects[0].destination) [config.unsafe-url]" in output
    assert "linked.mdx:1:1: warning: frontmatter url 'javascript:alert(1)'" in output
    pattern = re.compile(r"(?:java\s*script|vbscript|data):", re.I)
    for html in out.rglob("*.html"):
        doc = parse(html.read_text(encoding="utf-8"))
        for node in doc.iter():
            for attr in ("href", "src", "action", "content"):
                value = node.attrs.get(attr) or ""
                assert not pattern.search(value), (html, node.tag, attr, value)
    assert "javascript" not in (out / "_redirects").read_text().lower()
    doc = parse((out / "index.html").read_text(encoding="utf-8"))
    assert [a.text.strip() for a in doc.find("nav", cls="dg-navbar").find_all("a")] == ["Good"]
    assert [a.text.strip() for a in doc.find("ul", cls="dg-anchors").find_all("a")] == ["Blog"]
    footer = doc.find("footer")
    assert [a.attrs["href"] for a in footer.find("ul", cls="dg-socials").find_all("a")] == [
        "https://x.example/me"
    ]
    side = parse((out / doc.find("nav", cls="dg-sidebar-nav").attrs["data-src"].split("?")[0]).read_text())
    linked = [a for a in side.find_all("a") if a.attrs.get("data-key") == "linked"]
    assert linked and linked[0].attrs["href"].endswith("linked/")


@pytest.mark.parametrize("value", ["https://x.example/a", "/guides/x", "mailto:a@b.example", "datasets/x"])
def test_ordinary_links_are_not_refused(value):
    from docsgen.config.safety import is_unsafe_url

    assert not is_unsafe_url(value)
    assert all(is_unsafe_url(u) for u in SCRIPT_URLS)


def test_a_docs_json_text_of_20_mb_is_a_located_error(tmp_path):
    """A 20 MB `name` was written into every page (268 MB of output for two pages, 2.4 GB of memory)."""
    import json as _json

    from click.testing import CliRunner

    from docsgen.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    config = {"theme": "mint", "name": "n" * 20_000_000, "colors": {"primary": "#112233"}}
    (docs / "docs.json").write_text(
        _json.dumps({**config, "navigation": {"pages": ["index"]}}), encoding="utf-8"
    )
    (docs / "index.mdx").write_text("# Home\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(docs), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "docs.json:1:27: error: a text of 20,000,000 characters" in result.output
    assert "(at name) [config.too-long]" in result.output
    assert not (tmp_path / "out").exists()
