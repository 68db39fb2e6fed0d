"""The agent-facing Markdown export: audience blocks and comments."""

from __future__ import annotations

from docsgen.mdx.export import agent_markdown


def test_agent_markdown_resolves_visibility_and_comments():
    body = (
        '# Title\n\n{/* editor note */}\n\n<Visibility for="humans">\n  Click the **button**.\n</Visibility>\n\n'
        '<Visibility for="agents">\n  Call `POST /deploy`.\n</Visibility>\n\n'
        '```mdx\n<Visibility for="humans">kept inside code</Visibility>\n```\n'
    )
    text = agent_markdown(body)
    assert "Click the" not in text and "Call `POST /deploy`." in text
    assert "editor note" not in text and "kept inside code" in text
    assert "<Visibility" in text.split("```mdx")[1]  # code samples untouched
