"""docs.json `appearance` and `seo` reach the renderer as typed views (docsgen.config.sections), read once."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.config import load_config
from docsgen.config.sections import Appearance, Seo, SeoPathRule
from tests.conftest import write_tree


def _config(tmp_path: Path, **sections: object):
    docs = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#112233"},
        "navigation": {"pages": ["index"]},
    }
    write_tree(tmp_path, {"docs.json": json.dumps({**docs, **sections}), "index.mdx": "# Home\n"})
    config, diagnostics = load_config(tmp_path)
    assert config is not None, diagnostics
    return config


def test_appearance_and_seo_are_typed_fields(tmp_path):
    config = _config(
        tmp_path,
        appearance={"default": "dark", "strict": True},
        seo={
            "indexing": "all",
            "metatags": {"canonical": "https://docs.example.com", "og:site_name": "S"},
            "paths": [{"path": "/guides/", "metatags": {"robots": "noindex", "rating": "general"}}],
        },
    )
    assert config.appearance == Appearance("dark", True)
    assert config.seo.index_all and config.seo.trailing_slash
    assert config.seo.metatags["canonical"] == "https://docs.example.com"
    assert config.seo.paths == (SeoPathRule("guides", {"robots": "noindex", "rating": "general"}),)
    assert config.seo.paths[0].applies_to("guides/setup") and not config.seo.paths[0].applies_to("guidesx")


def test_missing_sections_give_the_defaults(tmp_path):
    config = _config(tmp_path)
    assert config.appearance == Appearance("system", False)
    assert config.seo == Seo() and not config.seo.index_all and config.seo.organization is None


def test_shapes_the_renderer_cannot_use_are_left_out():
    seo = Seo.from_json(
        {
            "metatags": ["not", "a", "mapping"],
            "paths": [
                7,
                {"path": "a", "metatags": "x"},
                {"path": "b", "metatags": {"k": {"n": 1}, "n": 5, "ok": "y"}},
            ],
            "trailingSlash": False,
            "organization": {},
        }
    )
    assert seo.metatags == {} and seo.paths == (SeoPathRule("b", {"n": "5", "ok": "y"}),)
    assert not seo.trailing_slash and seo.organization is None
    assert Appearance.from_json({"default": 3, "strict": 1}) == Appearance("system", True)
