"""The dev server's theme reset compiles only the themes in use, and keeps globals other modules installed."""

from __future__ import annotations

from docsgen.common.theme import environment, forget_environments, loaded_environments
from docsgen.dev.themes import reset_theme_caches


def test_reset_compiles_again_only_the_themes_this_process_loaded():
    saved = forget_environments()
    try:
        environment("mint")
        reset_theme_caches()
        # a docs.json edit in `docsgen dev` waited for every installed theme (nine) to compile before it reloaded
        assert set(loaded_environments()) == {"mint"}
    finally:
        forget_environments()
        for name in saved:
            environment(name)


def test_reset_keeps_globals_installed_on_a_loaded_environment():
    environment("maple").globals["dg_test_marker"] = "kept"
    reset_theme_caches()
    fresh = environment("maple")
    assert fresh.globals["dg_test_marker"] == "kept"
    assert fresh is loaded_environments()["maple"]
    del fresh.globals["dg_test_marker"]
