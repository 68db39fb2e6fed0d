"""Stage `sources`: walk the docs folder (pages, snippets, static files, specs)."""
