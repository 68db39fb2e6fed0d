"""React components in MDX: run at build time in an embedded JavaScript engine, hydrated in the browser when
interactive. docsgen.mdx calls render_react() for every custom component element (see docs/guides/react-components.mdx)."""

from docsgen.mdx.react.ssr import render_react

__all__ = ["render_react"]
