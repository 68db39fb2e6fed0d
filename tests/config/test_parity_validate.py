"""`docsgen validate -v` lists exactly the docs.json fields docsgen ignores, from one table checked against the schema."""

from __future__ import annotations

import json

from click.testing import CliRunner

from docsgen.cli import main
from docsgen.config.honoured import FIELDS, classify, schema_fields
from docsgen.config.schema import load_schema


def test_every_schema_field_is_classified_and_every_row_names_a_schema_field():
    fields = schema_fields(load_schema())
    assert len(fields) > 300
    assert [f for f in fields if classify(f) is None] == []
    known = set(fields)
    stale = [row for row in FIELDS if row != "#node" and not row.startswith("#node.") and row not in known]
    assert stale == []


def _verbose(make_site, extra: dict) -> str:
    config = {
        "name": "V",
        "theme": "mint",
        "colors": {"primary": "#0a7"},
        "navigation": {"pages": ["index"]},
        **extra,
    }
    root = make_site({"docs.json": json.dumps(config, indent=2), "index.mdx": "---\ntitle: Home\n---\nHi\n"})
    result = CliRunner().invoke(main, ["validate", str(root), "-v"])
    assert result.exit_code == 0, result.output
    return result.output


def test_fields_that_work_are_not_listed_and_ignored_ones_are(make_site):
    out = _verbose(
        make_site,
        {
            "background": {"decoration": "grid"},
            "fonts": {"family": "Inter"},
            "contextual": {"options": ["copy"]},
            "integrations": {"ga4": {"measurementId": "G-1"}, "intercom": {"appId": "x"}},
            "markdown": {"instructions": "be nice"},
            "thumbnails": {"appearance": "dark"},
            "styling": {
                "codeblocks": {"theme": "dracula", "languages": {"custom": ["g.json"]}},
                "eyebrows": "section",
            },
            "variations": {"options": [{"id": "a", "label": "A"}]},
            "theme": "willow",
        },
    )
    ignored = [
        line for line in out.splitlines() if "config.ignored" in line or "accepted but not used" in line
    ]
    text = "\n".join(ignored)
    for used in (
        "'background'",
        "'fonts'",
        "'contextual'",
        "'markdown'",
        "'integrations'",
        "ga4",
        "eyebrows",
        "'thumbnails'",
        "'styling.codeblocks'",
        "intercom",
    ):
        assert used not in text, used
    for path in ("variations",):
        assert f"'{path}'" in text, (path, out)
    assert "'styling.codeblocks.languages.custom'" not in text  # TextMate grammars are run
    assert "'variations.options" not in text  # inside an ignored field: listed once
    assert "docs.json:" in text  # located
