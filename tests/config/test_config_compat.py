"""docs.json that published Mintlify sites use and the spec is stricter about: built like Mintlify does.

Where the interface spec and published sites disagree, a plain `build` warns (located) and does what Mintlify does,
while `validate` and `build --strict` report the spec's rule as a located error.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from docsgen.cli import main
from tests.htmldom import Node, parse

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def config(navigation: dict, **more: object) -> str:
    return json.dumps({**BASE, **more, "navigation": navigation}, indent=2)


def where(site: Path, needle: str) -> str:
    """Return 'docs.json:LINE:COL:' of the first occurrence of needle in the site's docs.json."""
    for number, line in enumerate((site / "docs.json").read_text().splitlines(), 1):
        if needle in line:
            return f"docs.json:{number}:{line.index(needle) + 1}:"
    raise AssertionError(needle)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def built(out: Path, rel: str) -> Node:
    return parse((out / rel).read_text(encoding="utf-8"))


def sidebar_of(out: Path, doc: Node) -> Node:
    src = doc.find("nav", cls="dg-sidebar-nav").attrs["data-src"].split("?")[0]
    return parse((out / src).read_text(encoding="utf-8"))


def icons_in(node: Node) -> list[str]:
    return [n.attrs["data-icon"] for n in node.find_all("svg") if n.attrs.get("data-icon")]


def test_empty_group_title_builds_its_pages_without_a_heading(make_site, tmp_path):
    nav = {"groups": [{"group": "", "pages": ["index", "setup"]}, {"group": "More", "pages": ["more"]}]}
    site = make_site(
        {"docs.json": config(nav), "index.mdx": "# Home\n", "setup.mdx": "# S\n", "more.mdx": "# M\n"}
    )
    code, output = run("build", str(site), "-o", str(tmp_path / "out"))
    assert code == 0, output
    side = sidebar_of(tmp_path / "out", built(tmp_path / "out", "index.html"))
    assert [p.text.strip() for p in side.find_all("p", cls="dg-nav-group-title")] == ["More"]
    assert [a.attrs["data-key"] for a in side.find_all("a") if "data-key" in a.attrs] == [
        "index",
        "setup",
        "more",
    ]


def test_icon_objects_and_capitalised_names_render_the_named_icon(make_site, tmp_path):
    nav = {
        "global": {"anchors": [{"anchor": "Blog", "href": "https://b.example", "icon": {"name": "rss"}}]},
        "tabs": [
            {
                "tab": "Guides",
                "icon": {"name": "book", "style": "solid"},
                "groups": [
                    {"group": "Start", "icon": {"name": "rocket", "library": "lucide"}, "pages": ["index"]}
                ],
            },
            {"tab": "Code", "icon": "GitHub", "pages": ["code"]},
        ],
    }
    navbar = {
        "links": [
            {
                "label": "Source",
                "href": "https://github.com/x",
                "icon": {"library": "lucide", "name": "git-branch"},
            }
        ]
    }
    site = make_site({"docs.json": config(nav, navbar=navbar), "index.mdx": "# Home\n", "code.mdx": "# C\n"})
    out = tmp_path / "out"
    code, output = run("build", str(site), "-o", str(out))
    assert code == 0, output
    assert "config.schema" not in output
    doc = built(out, "index.html")
    assert icons_in(doc.find("nav", cls="dg-navbar")) == ["lucide:git-branch"]
    tabs = doc.find("nav", cls="dg-tabs")
    assert icons_in(tabs) == ["fontawesome:solid:book", "fontawesome:brands:github"]
    assert icons_in(doc.find("ul", cls="dg-anchors")) == ["fontawesome:solid:rss"]
    assert icons_in(sidebar_of(out, doc)) == ["lucide:rocket"]


def test_language_global_anchors_replace_the_root_ones_on_that_languages_pages(make_site, tmp_path):
    nav = {
        "global": {"anchors": [{"anchor": "Forum", "href": "https://forum.example"}]},
        "languages": [
            {"language": "en", "groups": [{"group": "G", "pages": ["index"]}]},
            {
                "language": "fr",
                "global": {"anchors": [{"anchor": "Forum FR", "href": "https://forum.example/fr"}]},
                "groups": [{"group": "G", "pages": ["fr/index"]}],
            },
        ],
    }
    site = make_site({"docs.json": config(nav), "index.mdx": "# Home\n", "fr/index.mdx": "# Accueil\n"})
    out = tmp_path / "out"
    code, output = run("build", str(site), "-o", str(out))
    assert code == 0, output
    assert "unknown-field" not in output
    fr = built(out, "fr/index.html").find("ul", cls="dg-anchors").find_all("a")
    assert [(a.text.strip(), a.attrs["href"]) for a in fr] == [("Forum FR", "https://forum.example/fr")]
    en = built(out, "index.html").find("ul", cls="dg-anchors").find_all("a")
    assert [a.text.strip() for a in en] == ["Forum"]


def _versions_and_tabs(make_site):
    nav = {
        "versions": [
            {"version": "v2", "default": True, "groups": [{"group": "G", "pages": ["v2/index"]}]},
            {"version": "v1", "groups": [{"group": "G", "pages": ["v1/index"]}]},
        ],
        "tabs": [{"tab": "Ignored", "pages": ["other"]}],
    }
    files = {"v2/index.mdx": "# Two\n", "v1/index.mdx": "# One\n", "other.mdx": "# O\n"}
    return make_site({"docs.json": config(nav), **files})


def test_versions_and_tabs_at_the_root_build_with_versions_and_a_located_warning(make_site, tmp_path):
    site = _versions_and_tabs(make_site)
    at = where(site, '"tabs"')
    code, output = run("build", str(site), "-o", str(tmp_path / "out"))
    assert code == 0, output
    assert f"{at} warning: navigation mixes versions, tabs at its root" in output
    assert "uses 'versions' and ignores 'tabs'" in output and "[nav.several-patterns]" in output
    doc = built(tmp_path / "out", "v2/index.html")
    assert [a.text.strip() for a in doc.find("details", cls="dg-switch-version").find_all("a")] == [
        "v2",
        "v1",
    ]
    assert doc.find("nav", cls="dg-tabs") is None
    # validate and --strict hold the spec's rule
    code, output = run("validate", str(site))
    assert code == 1 and f"{at} error: navigation mixes versions, tabs" in output
    code, output = run("build", "--strict", str(site), "-o", str(tmp_path / "strict"))
    assert code == 1 and f"{at} error: navigation mixes versions, tabs" in output


def test_menu_item_holding_other_divisions_warns_in_build_and_fails_validate(make_site, tmp_path):
    menu = [
        {"item": "Ok", "groups": [{"group": "G", "pages": ["index"]}]},
        {"item": "Odd", "anchors": [{"anchor": "A", "pages": ["other"]}]},
    ]
    site = make_site(
        {
            "docs.json": config({"tabs": [{"tab": "T", "menu": menu}]}),
            "index.mdx": "# H\n",
            "other.mdx": "# O\n",
        }
    )
    at = where(site, '"anchors"')
    code, output = run("build", str(site), "-o", str(tmp_path / "out"))
    assert code == 0, output
    message = "a menu item holds 'anchors'; expected only groups, pages and an external link (href)"
    assert f"{at} warning: {message} (at navigation.tabs[0].menu[1].anchors)" in output
    assert (tmp_path / "out" / "other" / "index.html").is_file()
    code, output = run("validate", str(site))
    assert code == 1 and f"{at} error: {message}" in output


def test_tab_and_dropdown_with_pages_and_groups_list_pages_then_groups_with_a_warning(make_site, tmp_path):
    nav = {
        "tabs": [
            {
                "tab": "Guides",
                "groups": [{"group": "G", "pages": ["grouped"]}],
                "pages": ["index", "loose"],
            },
            {
                "tab": "More",
                "dropdowns": [
                    {
                        "dropdown": "D",
                        "pages": ["d-page"],
                        "groups": [{"group": "DG", "pages": ["d-grouped"]}],
                    }
                ],
            },
        ]
    }
    files = {f"{name}.mdx": f"# {name}\n" for name in ("index", "loose", "grouped", "d-page", "d-grouped")}
    site = make_site({"docs.json": config(nav), **files})
    at = where(site, '"groups"')
    code, output = run("build", str(site), "-o", str(tmp_path / "out"))
    assert code == 0, output
    assert f"{at} warning: a tab holds both pages and groups" in output and "[nav.mixed-children]" in output
    assert "a dropdown holds both pages and groups" in output
    sidebar = sidebar_of(tmp_path / "out", built(tmp_path / "out", "index.html"))
    assert [a.text.strip() for a in sidebar.find_all("a")] == ["Index", "Loose", "Grouped"]
    sidebar = sidebar_of(tmp_path / "out", built(tmp_path / "out", "d-page/index.html"))
    assert [a.text.strip() for a in sidebar.find_all("a")] == ["D page", "D grouped"]
    # validate and --strict hold the spec's rule
    code, output = run("validate", str(site))
    assert code == 1 and f"{at} error: a tab holds both pages and groups" in output
    code, output = run("build", "--strict", str(site), "-o", str(tmp_path / "strict"))
    assert code == 1 and "error: a dropdown holds both pages and groups" in output


def test_group_of_only_sdk_or_graphql_pages_warns_and_is_left_out(make_site, tmp_path):
    groups = [
        {"group": "Guides", "pages": ["index"]},
        {"group": "SDK", "sdk": {"format": "typedoc", "source": "sdk/typedoc.json"}},
        {"group": "GraphQL", "graphql": "schema.graphql"},
    ]
    site = make_site({"docs.json": config({"groups": groups}), "index.mdx": "# Home\n"})
    at = where(site, '"sdk"')
    code, output = run("build", str(site), "-o", str(tmp_path / "out"))
    assert code == 0, output
    assert f"{at} warning: group 'SDK' has only 'sdk' pages, which docsgen does not generate" in output
    assert "group 'GraphQL' has only 'graphql' pages" in output and "[nav.not-generated]" in output
    titles = sidebar_of(tmp_path / "out", built(tmp_path / "out", "index.html")).find_all("p")
    assert [p.text.strip() for p in titles] == ["Guides"]


def test_mintlify_cn_and_jp_codes_are_written_as_bcp47_tags_and_kept_in_urls(make_site, tmp_path):
    nav = {
        "languages": [
            {"language": "en", "groups": [{"group": "G", "pages": ["index"]}]},
            {"language": "cn", "groups": [{"group": "G", "pages": ["cn/index"]}]},
            {"language": "jp", "groups": [{"group": "G", "pages": ["jp/index"]}]},
        ]
    }
    files = {"index.mdx": "# Home\n", "cn/index.mdx": "# 首页\n", "jp/index.mdx": "# ホーム\n"}
    site = make_site({"docs.json": config(nav), **files})
    out = tmp_path / "out"
    code, output = run("build", str(site), "-o", str(out))
    assert code == 0, output
    assert built(out, "cn/index.html").find("html").attrs["lang"] == "zh-Hans"
    doc = built(out, "jp/index.html")
    assert doc.find("html").attrs["lang"] == "ja"
    links = {a.attrs["hreflang"]: a.attrs["href"] for a in doc.find_all("a") if "hreflang" in a.attrs}
    assert links == {"en": "../", "zh-Hans": "../cn/", "ja": "../jp/"}  # URLs keep Mintlify's codes
