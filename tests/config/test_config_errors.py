"""A table of invalid docs.json files and the exact located error each must produce, through the CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from docsgen.cli import main

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def docs(**nav) -> str:
    return json.dumps({**BASE, "navigation": nav}, indent=2)


CASES = [
    # (id, files, expected substring of the output: file:line:col, message and JSON path)
    (
        "malformed-json",
        {"docs.json": '{\n  "name": "X",\n  "theme": "mint",\n}\n'},
        "docs.json:4:1: error: invalid JSON: trailing comma before '}'",
    ),
    ("empty-file", {"docs.json": ""}, "docs.json:1:1: error: file is empty"),
    (
        "mixed-children",
        {
            "docs.json": docs(
                tabs=[
                    {
                        "tab": "A",
                        "anchors": [{"anchor": "x", "pages": ["index"]}],
                        "groups": [{"group": "G", "pages": ["index"]}],
                    }
                ]
            )
        },
        "docs.json:19:9: error: a tab holds both anchors and groups; expected one kind of child element per level (at navigation.tabs[0].groups)",
    ),
    (
        "two-default-versions",
        {
            "docs.json": docs(
                versions=[
                    {"version": "1", "default": True, "pages": ["index"]},
                    {"version": "2", "default": True, "pages": ["index"]},
                ]
            )
        },
        "docs.json:18:20: error: more than one version has default: true (already '1'); expected at most one (at navigation.versions[1].default)",
    ),
    (
        "unknown-language",
        {
            "docs.json": docs(
                languages=[
                    {"language": "en", "pages": ["index"]},
                    {"language": "klingon", "pages": ["index"]},
                ]
            )
        },
        'docs.json:16:21: error: found "klingon", expected one of: "ar", "ca"',
    ),
    (
        "group-without-pages",
        {"docs.json": docs(groups=[{"group": "Empty"}])},
        "group 'Empty' has neither 'pages' nor an 'openapi' field to generate them (at navigation.groups[0])",
    ),
    (
        "bad-theme",
        {"docs.json": json.dumps({**BASE, "theme": "oak", "navigation": {"pages": ["index"]}}, indent=2)},
        'docs.json:2:12: error: found "oak", expected one of: "mint", "maple"',
    ),
    (
        "bad-color",
        {
            "docs.json": json.dumps(
                {**BASE, "colors": {"primary": "green"}, "navigation": {"pages": ["index"]}}, indent=2
            )
        },
        "(at colors.primary)",
    ),
    (
        "missing-name",
        {
            "docs.json": json.dumps(
                {"theme": "mint", "colors": {"primary": "#123456"}, "navigation": {"pages": ["index"]}},
                indent=2,
            )
        },
        "docs.json:1:1: error: missing required field 'name'",
    ),
    (
        "ref-cycle",
        {
            "docs.json": docs(languages=[{"$ref": "a.json"}]),
            "a.json": '{"language": "en", "pages": [{"$ref": "b.json"}]}',
            "b.json": '{"$ref": "a.json"}',
        },
        "b.json:1:10: error: $ref cycle: docs.json -> a.json -> b.json -> a.json",
    ),
    (
        "ref-outside",
        {"docs.json": docs(languages=[{"$ref": "../outside.json"}])},
        "error: $ref '../outside.json' points outside the docs folder (at navigation.languages[0].$ref)",
    ),
    (
        "error-in-ref-file",
        {
            "docs.json": docs(languages=[{"$ref": "fr.json"}]),
            "fr.json": '{\n  "language": "fr",\n  "tabs": [{"tab": 5, "pages": ["index"]}]\n}\n',
        },
        "fr.json:3:20: error: found integer 5, expected string (at navigation.languages[0].tabs[0].tab)",
    ),
    (
        "top-level-ref-to-an-array",
        {"docs.json": '{"$ref": "other.json"}', "other.json": "[1, 2]"},
        "docs.json:1:10: error: docs.json must hold a JSON object, its $ref includes array (at $ref)",
    ),
    (
        "top-level-ref-missing",
        {"docs.json": '{"$ref": "missing.json"}'},
        "docs.json:1:10: error: $ref 'missing.json' names a file that does not exist (missing.json) (at $ref)",
    ),
]


@pytest.mark.parametrize("case_id,files,expected", CASES, ids=[c[0] for c in CASES])
def test_invalid_config_is_located(case_id, files, expected, make_site, tmp_path):
    site = make_site({**files, "index.mdx": "# Home\n"})
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["validate", str(site)])
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "Traceback" not in result.output
    build = CliRunner().invoke(main, ["build", str(site), "-o", str(out)])
    assert build.exit_code == 1 and expected in build.output
    assert not out.exists()


def test_every_error_is_reported_at_once(make_site):
    bad = {
        **BASE,
        "theme": "oak",
        "navigation": {
            "versions": [
                {"version": "1", "default": True, "pages": ["index"]},
                {"version": "2", "default": True, "pages": ["index"]},
            ]
        },
    }
    site = make_site({"docs.json": json.dumps(bad, indent=2), "index.mdx": "x"})
    result = CliRunner().invoke(main, ["validate", str(site)])
    assert result.exit_code == 1
    assert 'found "oak"' in result.output and "more than one version" in result.output
    assert "2 error(s)" in result.output


def test_missing_page_is_a_warning_and_strict_makes_it_an_error(make_site):
    site = make_site({"docs.json": docs(pages=["index", "nowhere"]), "index.mdx": "# Home\n"})
    ok = CliRunner().invoke(main, ["validate", str(site)])
    assert ok.exit_code == 0
    assert (
        "docs.json:10:7: warning: page 'nowhere' does not exist (no nowhere.mdx or nowhere.md) (at navigation.pages[1])"
        in ok.output
    )
    assert ok.output.splitlines()[-1] == f"{site}: valid with 1 warning (1 page; --strict makes them errors)"
    strict = CliRunner().invoke(main, ["validate", str(site), "--strict"])
    assert strict.exit_code == 1 and "docs.json:10:7: error: page 'nowhere' does not exist" in strict.output


def test_schema_url_and_ignored_fields_are_accepted(make_site):
    data = {
        "$schema": "https://mintlify.com/docs.json",
        **BASE,
        "navigation": {"pages": ["index"]},
        "integrations": {"ga4": {"measurementId": "G-1"}},
        "feedback": {"suggestEdit": True},
        "public": True,
    }
    site = make_site({"docs.json": json.dumps(data, indent=2), "index.mdx": "x"})
    result = CliRunner().invoke(main, ["validate", "--verbose", str(site)])
    assert result.exit_code == 0, result.output
    assert "'public' is accepted but not used by docsgen" in result.output
    # feedback.suggestEdit draws "Edit this page" since the edit links landed: no longer listed as unused
    assert "feedback.suggestEdit" not in result.output
    assert "'integrations" not in result.output  # ga4 works


def test_frontmatter_yaml_error_is_located(make_site, tmp_path):
    site = make_site({"docs.json": docs(pages=["index"]), "index.mdx": "---\ntitle: [unclosed\n---\nbody\n"})
    result = CliRunner().invoke(main, ["build", str(site), "-o", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output  # a problem confined to one page: the site is built
    assert "index.mdx:3:1: warning: invalid YAML frontmatter" in result.output
    assert "body" in (tmp_path / "o" / "index.html").read_text(encoding="utf-8")
    strict = CliRunner().invoke(main, ["build", str(site), "-o", str(tmp_path / "s"), "--strict"])
    assert strict.exit_code == 1 and "index.mdx:3:1: error: invalid YAML frontmatter" in strict.output


def test_unknown_field_warns_with_a_suggestion_and_strict_rejects_it(make_site):
    data = {**BASE, "navigation": {"pages": ["index"]}, "navbarr": {}}
    site = make_site({"docs.json": json.dumps(data, indent=2), "index.mdx": "x"})
    result = CliRunner().invoke(main, ["validate", str(site)])
    assert result.exit_code == 0, result.output
    assert "docs.json:12:3: warning: unknown field 'navbarr' (ignored) (at navbarr)" in result.output
    assert "hint: did you mean 'navbar'?" in result.output
    strict = CliRunner().invoke(main, ["validate", "--strict", str(site)])
    assert strict.exit_code == 1


def _mutations(value, path=()):
    """Yield (path, wrong value) pairs: every node of a config replaced by a value of another JSON type."""
    if len(path) > 6:
        return
    wrong = {dict: "not an object", list: {"not": "a list"}, str: 12345, bool: "yes", int: [1], float: [1.5]}
    yield path, wrong.get(type(value), {"x": 1})
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _mutations(child, (*path, key))
        yield path, {**value, "noSuchField": True}
    elif isinstance(value, list):
        for index, child in enumerate(value[:3]):
            yield from _mutations(child, (*path, index))


def _replace(root, path, new):
    if not path:
        return new
    copy = dict(root) if isinstance(root, dict) else list(root)
    copy[path[0]] = _replace(root[path[0]], path[1:], new)
    return copy


def test_fast_validity_check_agrees_with_the_detailed_validator():
    # Every build asks the compiled validator first and only imports jsonschema for invalid files: the two must
    # agree on valid/invalid for real configurations and for thousands of broken variants of them.
    from jsonschema import Draft202012Validator

    from docsgen.config.schema import _fast_validator, load_schema
    from tests.conftest import CORPUS, FIXTURES, REPO

    detailed = Draft202012Validator(load_schema())
    configs = [
        p
        for p in [*FIXTURES.rglob("docs.json"), REPO / "docs" / "docs.json", CORPUS / "docs.json"]
        if p.is_file()
    ]
    assert len(configs) >= 10
    checked = invalid = 0
    for path in configs:
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("$schema", None)
        for where, wrong in [((), data), *_mutations(data)]:
            variant = _replace(data, where, wrong) if where or wrong is not data else data
            if not isinstance(variant, dict):
                continue
            expected = not any(True for _ in detailed.iter_errors(variant))
            assert _fast_validator().is_valid(variant) is expected, (path, where)
            checked += 1
            invalid += not expected
    assert checked > 800 and invalid > checked // 2, (checked, invalid)


def test_a_valid_site_builds_without_importing_jsonschema(tmp_path):
    import subprocess
    import sys

    from tests.conftest import FIXTURES

    code = (
        "import sys; from pathlib import Path; from docsgen.build import build;"
        f"build(Path({str(FIXTURES / 'example')!r}), Path({str(tmp_path / 'out')!r}), cache=False);"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'referencing')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
    assert (tmp_path / "out" / "index.html").is_file()
