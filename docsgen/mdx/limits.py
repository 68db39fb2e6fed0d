"""Limits on the work one page may cause: each bounds a hostile or careless input, with a located message.

Every limit lives here so docs/security.md can list them; the messages name the constant's value.
"""

from __future__ import annotations

MAX_PAGE_BYTES = (
    10 * 1024 * 1024
)  # a page or snippet file larger than this is not read (largest real page: ~1 MB)
MAX_FRONTMATTER_BYTES = 256 * 1024  # YAML frontmatter larger than this is not parsed
MAX_YAML_NODES = 10_000  # frontmatter nodes after expanding aliases (billion laughs)
MAX_YAML_ALIASES = 100  # `*alias` references in one frontmatter
MAX_YAML_DEPTH = 64  # nesting of mappings and sequences in frontmatter
MAX_SNIPPET_DEPTH = 20  # snippets importing snippets importing snippets...
MAX_SNIPPET_EXPANSIONS = 2_000  # snippet renders in one page (a 2^20 fan-out stops here)
MAX_EXPANDED_CHARS = 20 * 1024 * 1024  # source characters rendered for one page, snippets included
MAX_JSX_NESTING = 64  # nested components/elements (markdown-it maxNesting)
MAX_EXPRESSION_DEPTH = 100  # arrays, objects and parentheses nested in one `{expression}`
MAX_PAGE_DIAGNOSTICS = 200  # problems reported per page; one more line says the rest are not shown
