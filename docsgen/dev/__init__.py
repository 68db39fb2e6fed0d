"""docsgen dev: local preview with incremental rebuilds, live reload, in-browser errors and an API proxy."""
