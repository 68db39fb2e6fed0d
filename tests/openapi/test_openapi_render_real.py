"""Real third-party specs render every operation, fast, with sound anchors (GitHub, Figma, Blockfrost)."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from functools import cache
from html import escape

import pytest
import yaml

from docsgen.openapi.render import ApiSettings, render_operation, render_schema_page, render_webhook
from tests.openapi_real import oas_examples, real_spec

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_ID = re.compile(r'\sid="([^"]*)"')
_HREF = re.compile(r'\shref="#([^"]*)"')


def markdown(text: str) -> str:
    """A cheap safe renderer: the timing measures our code, not markdown-it."""
    return "<p>" + escape(text) + "</p>"


@cache
def load(name: str) -> dict:
    path = real_spec(name)
    text = path.read_text(encoding="utf-8")
    return (
        json.loads(text)
        if path.suffix == ".json"
        else yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    )


def check_anchors(html: str, where: str) -> None:
    ids = _ID.findall(html)
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"{where}: duplicate ids {dupes[:5]}"
    assert all(i and not re.search(r"\s", i) for i in ids), where
    known = set(ids)
    missing = [h for h in _HREF.findall(html) if h not in known]
    assert not missing, f"{where}: links without target {missing[:5]}"


def render_all(data: dict, settings: ApiSettings) -> tuple[int, float, int]:
    """Render every operation; return (count, wall seconds, largest page) and print the CPU seconds too."""
    count, size = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    for path, item in data.get("paths", {}).items():
        for method in METHODS:
            if isinstance(item, dict) and isinstance(item.get(method), dict):
                page = render_operation(data, method, path, settings=settings, markdown=markdown)
                json.dumps(page.playground)
                check_anchors(page.html, f"{method.upper()} {path}")
                count += 1
                size = max(size, len(page.html) + len(page.aside_html))
    print(f"\n  ({time.process_time() - cpu:.2f}s CPU, including the anchor checks)", end="")
    return count, time.perf_counter() - start, size


def test_github_renders_every_operation_quickly():
    data = load("github")
    settings = ApiSettings(example_languages=("bash", "python", "javascript", "go", "java", "ruby", "php"))
    count, seconds, biggest = render_all(data, settings)
    print(f"\nGitHub: {count} operations rendered in {seconds:.2f}s; largest page {biggest / 1e3:.0f} kB")
    assert count >= 1200
    assert biggest < 1_000_000  # bounded trees even for GitHub's highly connected schemas
    assert seconds < 60  # about 4 s on a laptop core; generous for slow CI machines


@pytest.mark.parametrize("name", ["figma", "blockfrost"])
def test_other_public_specs_render_every_operation(name):
    data = load(name)
    count, seconds, biggest = render_all(data, ApiSettings())
    print(f"\n{name}: {count} operations rendered in {seconds:.2f}s; largest page {biggest / 1e3:.0f} kB")
    assert count > 10


def test_real_schema_and_webhook_pages():
    data = load("github")
    for name in list(data["components"]["schemas"])[:150]:
        page = render_schema_page(data, name, settings=ApiSettings(), markdown=markdown)
        check_anchors(page.html, name)
    figma = load("figma")
    for name in figma.get("webhooks", {}) or {}:
        page = render_webhook(figma, name, settings=ApiSettings(), markdown=markdown)
        check_anchors(page.html, name)


def test_readme_example_specs_render_every_operation_webhook_and_schema():
    """ReadMe's oas-examples (3.0 and 3.1 edge cases: callbacks, polymorphism, circular refs, odd types)."""
    languages = ApiSettings(
        example_languages=("bash", "python", "javascript", "go", "rust", "dart", "csharp")
    )
    count = 0
    root = oas_examples()
    files = sorted(root.glob("3.*/json/*.json"))
    assert len(files) > 40
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "openapi" not in data:
            continue
        for path, item in (data.get("paths") or {}).items():
            for method in METHODS:
                if isinstance(item, dict) and isinstance(item.get(method), dict):
                    page = render_operation(data, method, path, settings=languages, markdown=markdown)
                    json.dumps(page.playground)
                    check_anchors(page.html, f"{file.name} {method.upper()} {path}")
                    count += 1
        for name in data.get("webhooks") or {}:
            check_anchors(render_webhook(data, name, settings=languages, markdown=markdown).html, name)
        for name in (data.get("components") or {}).get("schemas") or {}:
            check_anchors(render_schema_page(data, name, settings=languages, markdown=markdown).html, name)
    assert count > 500
