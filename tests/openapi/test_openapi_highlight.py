"""Code samples and examples of API pages are coloured at build time by the code blocks' highlighter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.mdx.code import highlight_lines
from docsgen.openapi.render.highlight import json_lines
from tests.htmldom import parse
from tests.openapi_real import github_spec

SPEC = {
    "openapi": "3.0.0",
    "info": {"title": "T", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        "/pets": {
            "post": {
                "summary": "Create a pet",
                "x-codeSamples": [{"lang": "Shell", "label": "Mine", "source": "# hi\necho 'hello <b>'"}],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"name": {"type": "string", "example": "Rex <&>"}},
                            }
                        }
                    }
                },
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"example": {"id": 1, "ok": True, "tags": ["a"]}}},
                    }
                },
            }
        }
    },
}


def _site(make_site) -> Path:
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "api": {"examples": {"languages": ["curl", "python", "javascript"]}},
        "navigation": {"groups": [{"group": "API", "openapi": "spec.json"}]},
    }
    return make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(SPEC)})


def test_samples_and_examples_are_coloured_and_keep_their_text(make_site, tmp_path):
    out = tmp_path / "o"
    build(_site(make_site), out)
    page = next(p for p in out.rglob("index.html") if "<title>Create a pet" in p.read_text())
    dom = parse(page.read_text())
    cards = {c.attrs["data-tabs"]: c for c in dom.find_all("div", cls="dg-api-card")}
    panels = {p.attrs["data-key"]: p for p in cards["lang"].find_all("div", cls="dg-api-panel")}
    assert list(panels) == ["bash", "python", "javascript"]  # the spec's own Shell sample replaces cURL
    for key, panel in panels.items():
        code = panel.find("pre", cls="dg-api-code").find("code")
        assert "dg-code" in code.attrs["class"].split(), key  # token colours of highlight.css apply
        assert code.find_all("span"), f"{key} sample has no highlighted tokens"
    python = panels["python"].find("code")
    assert python.find("span", cls="kn") is not None  # `import` keyword
    assert "Rex <&>" in python.text  # text unchanged: copy buttons copy pre.textContent
    mine = panels["bash"].find("code")
    assert mine.text == "# hi\necho 'hello <b>'"
    assert mine.find("span", cls="c1") is not None  # the comment
    response = cards["response"].find("code")
    assert json.loads(response.text) == {"id": 1, "ok": True, "tags": ["a"]}
    assert [s.text for s in response.find_all("span", cls="nt")] == ['"id"', '"ok"', '"tags"']
    assert response.find("span", cls="kc").text == "true"


def test_json_fast_path_matches_the_code_block_highlighter():
    cases = [
        {"a": [1, 2.5, -3e5, True, None, "x\"y\\ <b>&'é"], "b": {}, "c": [], "d": {"e": {"f": 0}}},
        [],
        "just a string",
        [{"k": -0.5e-3, "": ""}],
    ]
    for value in cases:
        for indent in (2, None):
            text = json.dumps(value, indent=indent, ensure_ascii=False)
            assert json_lines(text) == highlight_lines(text, "json"), text


def test_json_fast_path_leaves_what_is_not_json_to_the_highlighter():
    assert json_lines("{'single': quotes}") is None
    assert json_lines('{"a": 1}\n…') is None  # a truncated example


def test_json_coloured_line_by_line_matches_the_code_block_highlighter():
    """Lines are coloured one at a time (and remembered): hand-written layouts still colour as a whole text."""
    from docsgen.openapi.render.highlight import _json_lines_whole

    cases = [
        '{\n  "key"\n  : "a key whose colon is on the next line",\n  "b": 1\n}',
        '{"a"  \r\n\t:\r\n [1,\r\n 2]  \n}',  # CRLF, tabs, trailing spaces
        '[\n  "not a key"\n  ,\n  "x"\n]',
        '{\n  "login": "octocat",\n  "id": 1\n}',
        '{\n  "login": "octocat",\n  "id": 1\n}',  # the same lines again (remembered)
        "\n\n{}\n\n",
        '{"a": "x\\"y\\\\"}',
    ]
    for text in cases:
        assert json_lines(text) == _json_lines_whole(text), text
        if "\r" not in text:  # Pygments turns CRLF into LF before lexing; the fast path keeps the text as is
            assert json_lines(text) == highlight_lines(text, "json"), text
    assert json_lines("{\"a\": 1}\n{'b': 2}") is None  # one line that is not JSON: the whole text is not


def test_json_line_by_line_equals_whole_text_on_random_layouts():
    import random

    from docsgen.openapi.render.highlight import _json_lines_whole

    pieces = ['"a"', '"b c"', ":", " ", "\n", "\r", "\t", "{", "}", "[", "]", ",", "1", "-2.5e3", "true", "x"]
    rng = random.Random(22)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        assert json_lines(text) == _json_lines_whole(text), repr(text)


@pytest.mark.parametrize("fetch", [github_spec], ids=["github"])
def test_json_fast_path_matches_on_real_examples(fetch):
    """Every example value of a real spec, pretty-printed as the pages do, colours as the code blocks would."""
    raw = fetch()
    if raw.suffix == ".json":
        data = json.loads(raw.read_text())
    else:
        import yaml

        data = yaml.safe_load(raw.read_text())
    values: list = []

    def walk(node, depth=0):
        if depth > 40 or len(values) >= 300:
            return
        if isinstance(node, dict):
            for key, val in node.items():
                if key in ("example", "value") and isinstance(val, (dict, list)):
                    values.append(val)
                walk(val, depth + 1)
        elif isinstance(node, list):
            for val in node:
                walk(val, depth + 1)

    walk(data)
    assert len(values) > 20
    for value in values:
        text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
        assert json_lines(text) == highlight_lines(text, "json")


def generated_samples(data: dict, limit: int = 400) -> dict[str, list[str]]:
    """The generated request samples of a spec's first `limit` operations, by highlight language."""
    from docsgen.openapi.render import ApiSettings
    from docsgen.openapi.render.aside import build_request, code_samples
    from docsgen.openapi.render.context import get_context
    from docsgen.openapi.render.operation_view import operation_view

    ctx = get_context(data, ApiSettings(), lambda text: text)
    found: dict[str, list[str]] = {}
    count = 0
    for path, item in data.get("paths", {}).items():
        for method in ("get", "put", "post", "delete", "patch"):
            if not isinstance(item, dict) or not isinstance(item.get(method), dict) or count >= limit:
                continue
            count += 1
            view = operation_view(ctx, "paths", path, method)
            alts = view.security.alternatives
            request = build_request(ctx, view, alts[0] if alts else ())
            for _key, _label, hl, code in code_samples(ctx, view, request)[len(view.code_samples) :]:
                found.setdefault(hl, []).append(code)
    return found


def test_generated_samples_highlighted_line_by_line_match_the_whole_sample():
    from docsgen.openapi.render.highlight import generated_lines, highlight_uncached

    bodies = [
        "plain",
        'it\'s "quoted" `back` \\ <b>&',
        "line one\n\nline three after a blank line",  # a raw multi-line string stays in one piece
        "/* not a comment */ <<EOS\n\nEOS",
    ]
    found = 0
    for text in bodies:
        spec = {
            "openapi": "3.0.0",
            "info": {"title": "T", "version": "1"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": {
                "/a": {
                    "post": {
                        "parameters": [{"name": "X-Key", "in": "header", "example": text}],
                        "requestBody": {"content": {"text/plain": {"example": text}}},
                        "responses": {"200": {"description": "ok"}},
                    },
                    "put": {
                        "requestBody": {
                            "content": {"application/json": {"example": {"text": text, "list": [1, text]}}}
                        },
                        "responses": {"200": {"description": "ok"}},
                    },
                }
            },
        }
        for hl, codes in generated_samples(spec).items():
            for code in codes:
                lines = generated_lines(code, hl)
                found += lines is not None
                assert lines is None or lines == highlight_uncached(code, hl), (hl, code)
    assert found > 10  # most samples are split


@pytest.mark.slow
@pytest.mark.parametrize("fetch", [github_spec], ids=["github"])
def test_piecewise_highlighting_matches_on_real_specs(fetch):
    """Every generated sample of a real spec's operations: piece by piece == whole, line for line."""
    from docsgen.openapi.render.highlight import generated_lines, highlight_uncached

    data = json.loads(fetch().read_text())
    split = 0
    for hl, codes in generated_samples(data, limit=300).items():
        for code in codes:
            lines = generated_lines(code, hl)
            if lines is not None:
                split += 1
                assert lines == highlight_uncached(code, hl), (hl, code)
    assert split > 600


def test_json_examples_shown_on_many_pages_are_highlighted_once():
    from docsgen.openapi.render.highlight import _MEMO_CHARS, _json_code, _json_html, highlighted

    small = json.dumps({"id": 1, "name": "shared example"}, indent=2)
    large = json.dumps({"items": ["x" * 100] * (_MEMO_CHARS // 100)}, indent=2)
    before = _json_code.cache_info()
    assert highlighted(small, "json") == highlighted(small, "json") == _json_html(small)
    after = _json_code.cache_info()
    assert after.hits >= before.hits + 1 and after.misses <= before.misses + 1
    assert highlighted(large, "json") == _json_html(large)
    assert _json_code.cache_info().currsize == after.currsize  # large examples are not kept
    assert '<span class="nt">"id"</span>' in highlighted(small, "json")  # still coloured
