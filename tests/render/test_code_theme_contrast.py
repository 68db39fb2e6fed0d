"""styling.codeblocks themes: every token colour and the code header's muted text read on the theme's background
(WCAG AA 4.5:1), adjusted only where the Pygments style falls short (axe found night-owl comments on spree)."""

from __future__ import annotations

import re

import pytest

from docsgen.common import contrast
from docsgen.mdx.code import code_scope
from docsgen.render.codethemes import SHIKI_TO_PYGMENTS, highlight_css

SCOPES = (code_scope(False), code_scope(True))
PAIRS = [
    ("night-owl", "night-owl"),
    ("solarized-light", "monokai"),
    ("dracula", "dracula"),
    ("gruvbox-light", "nord"),
]


def ratios(css: str) -> list[tuple[str, float]]:
    found = []
    for scope in SCOPES:
        head = next(line for line in css.splitlines() if line.startswith(scope + ","))
        assert (
            code_scope(scope == SCOPES[1], ".dg-api-code") + "{" in head
        )  # API samples share the background
        background = contrast.parse_color(re.search(r"--dg-code-bg:([^;]+);", head).group(1))
        muted = re.search(r"--dg-muted:([^;}]+)", head).group(1)
        found.append((f"{scope} muted", contrast.ratio(contrast.parse_color(muted), background)))
        for line in css.splitlines():
            if line.startswith(scope + " ."):
                for color in re.findall(r"(?<![-\w])color: (#[0-9a-fA-F]{3,8})", line):
                    found.append((line, contrast.ratio(contrast.parse_color(color), background)))
    return found


@pytest.mark.parametrize(("light", "dark"), PAIRS)
def test_every_token_reads_on_the_theme_background(light, dark):
    found = ratios(highlight_css(light, dark))
    assert len(found) > 20
    assert [(what, round(r, 2)) for what, r in found if r < contrast.TEXT_CONTRAST] == []


def test_colours_that_already_read_are_kept():
    css = highlight_css("night-owl", "night-owl")
    assert "color: #C792EA" in css  # night-owl's keyword colour reads on #011627 as it is
    assert "night-owl" in SHIKI_TO_PYGMENTS
