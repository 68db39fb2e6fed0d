"""Stage `pages`: frontmatter + body -> Page, navigation-time frontmatter, the Markdown export."""
