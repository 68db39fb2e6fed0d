"""Our own documentation (docs/): builds with --strict, generated references in sync, every component live."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
import yaml

from docsgen.build import build
from docsgen.commands.broken_links import check_site
from tests.conftest import REPO
from tests.htmldom import parse

DOCS = REPO / "docs"


def _generator():
    spec = importlib.util.spec_from_file_location(
        "generate_reference", DOCS / "scripts" / "generate_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs-site") / "out"
    result = build(DOCS, out, strict=True)
    return out, result


def _h2(out, rel: str) -> list[str]:
    doc = parse((out / rel).read_text(encoding="utf-8"))
    return [h.text.strip().rstrip("#").strip() for h in doc.find("div", cls="dg-prose").find_all("h2")]


def test_generated_pages_are_up_to_date():
    generator = _generator()
    for path, make in generator.GENERATED.items():
        assert path.read_text(encoding="utf-8") == make(), (
            f"{path.relative_to(REPO)} is out of date: run python docs/scripts/generate_reference.py"
        )


def test_builds_strictly_without_warnings(site):
    out, result = site
    assert result.warnings == []
    assert result.pages >= 35
    assert (out / "index.html").is_file() and (out / "404.html").is_file()


def test_docs_json_reference_lists_every_schema_property(site):
    out, _ = site
    schema = json.loads((REPO / "schemas" / "docs.schema.json").read_text(encoding="utf-8"))
    assert _h2(out, "reference/docs-json/index.html") == list(schema["properties"])


def test_cli_reference_lists_every_command_and_option(site):
    out, _ = site
    import click

    from docsgen.cli import main

    expected, options = [], []

    def walk(group: click.Group, prefix: str) -> None:
        ctx = click.Context(group)
        for name in sorted(group.list_commands(ctx)):
            command = group.get_command(ctx, name)
            expected.append(f"{prefix} {name}")
            options.extend(o for p in command.params if isinstance(p, click.Option) for o in p.opts)
            if isinstance(command, click.Group):
                walk(command, f"{prefix} {name}")

    walk(main, "docsgen")
    assert _h2(out, "reference/cli/index.html") == expected
    text = (out / "reference/cli/index.html").read_text(encoding="utf-8")
    assert all(f"<code>{o}</code>" in text for o in options if o not in ("-h", "--help"))


def test_every_operation_of_the_feedback_api_has_a_page(site):
    out, _ = site
    spec = yaml.safe_load((REPO / "schemas" / "feedback-api.yaml").read_text(encoding="utf-8"))
    summaries = {
        op["summary"]
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete", "options", "head")
    }
    docs = [parse(p.read_text(encoding="utf-8")) for p in (out / "api-reference").rglob("index.html")]
    # Folders of generated pages without an index of their own are redirect pages to their first page.
    titles = {d.find("h1", cls="dg-title").text.strip() for d in docs if d.find("h1", cls="dg-title")}
    assert all(d.find("h1", cls="dg-title") or d.find("meta", http_equiv="refresh") for d in docs)
    assert summaries <= titles


def _live_text(mdx: str) -> str:
    """Return MDX without fenced code blocks (examples shown as source do not count as live)."""
    return re.sub(r"^(`{3,}).*?^\1\s*$", "", mdx, flags=re.S | re.M)


def test_every_component_has_a_live_example():
    import pkgutil

    import docsgen.mdx.components as package

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"docsgen.mdx.components.{module.name}")
    live = "".join(_live_text(p.read_text(encoding="utf-8")) for p in (DOCS / "components").glob("*.mdx"))
    used = {name for name in package.COMPONENTS if re.search(rf"<{re.escape(name)}[\s/>]", live)}
    missing = [
        name
        for name, renderer in package.COMPONENTS.items()
        if name not in used and not any(package.COMPONENTS[u] is renderer for u in used)  # aliases
    ]
    assert missing == []


def test_no_broken_links_or_anchors():
    assert check_site(DOCS, anchors=True).findings == []


def test_topics_the_issue_asks_for_are_covered(site):
    out, _ = site
    pages = {
        "quickstart/index.html": "docsgen init",
        "deploy/static-hosts/index.html": "Cloudflare Pages",
        "guides/migrate-from-mintlify/index.html": "mint.json",
        "api/playground/index.html": "playground",
        "api/feedback-server/index.html": "admin key",
        "guides/redirects/index.html": "_redirects",
        "guides/links/index.html": "docsgen broken-links",
        "vendored/index.html": "Vendored",
    }
    for rel, phrase in pages.items():
        assert phrase in (out / rel).read_text(encoding="utf-8"), rel
    for host in ("Netlify", "Cloudflare Pages", "GitHub Pages", "Amazon S3", "nginx"):
        assert host in (out / "deploy/static-hosts/index.html").read_text(encoding="utf-8")
    assert "/cli /reference/cli/ 308" in (out / "_redirects").read_text().splitlines()
