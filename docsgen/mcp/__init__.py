"""`docsgen mcp SITE`: a Model Context Protocol server for a built site (search, fetch, llms.txt, feedback)."""
