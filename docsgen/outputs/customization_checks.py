"""Site-wide checks of the owners' customisation: fonts that cannot load, Node.js scripts, unknown analytics."""

from __future__ import annotations

from docsgen.common.errors import warning
from docsgen.config import analytics
from docsgen.engine.write import SiteFiles
from docsgen.render import SiteContext
from docsgen.render.custom import _SKIPPED_SCRIPTS, font_diagnostics, node_script


def add_customization_checks(ctx: SiteContext, files: SiteFiles) -> None:
    """Report customisation settings that cannot work (fonts that cannot load, unknown analytics)."""
    present = set(ctx.site.sources.static)
    files.diagnostics.extend(font_diagnostics(ctx, present))
    feedback = ctx.config.feedback if isinstance(ctx.config.feedback, dict) else {}
    asked = [k for k in ("suggestEdit", "raiseIssue") if feedback.get(k) is True]
    if asked and ctx.repository is None:
        files.diagnostics.append(
            warning(
                "feedback.no-repository",
                f"feedback.{asked[0]} is on but the docs' repository is unknown (no feedback.repository and no "
                "GitHub, GitLab or Bitbucket git remote 'origin'): no edit or issue links are drawn",
                "docs.json",
                json_path=f"feedback.{asked[0]}",
                hint='add "feedback": {"repository": "https://github.com/OWNER/REPO"} to docs.json',
            )
        )
    docs_dir = ctx.site.docs_dir
    for rel in sorted(present):
        if rel.endswith(".js") and not _SKIPPED_SCRIPTS.search(rel) and node_script(docs_dir / rel):
            files.diagnostics.append(
                warning(
                    "customize.node-script",
                    f"'{rel}' is a Node.js script (shebang or require()), not browser JavaScript: "
                    "not included in pages",
                    rel,
                    1,
                    1,
                    hint="move build tools out of the docs folder, or into a scripts folder listed in .mintignore",
                )
            )
    files.diagnostics.extend(analytics.diagnostics(ctx.config))
