"""Theme caches in a long-running process: forget loaded themes without losing installed template globals."""

from __future__ import annotations

from docsgen.common.theme import environment, forget_environments


def reset_theme_caches() -> None:
    """Forget loaded themes and load anew the ones in use, keeping the template globals other modules installed.

    Only themes this process had loaded are compiled again (one in a dev server): compiling every installed
    theme made each docs.json or theme edit wait for all nine themes' templates.
    """
    for name, saved in forget_environments().items():
        try:
            fresh = environment(name).globals
        except (FileNotFoundError, OSError, ValueError):
            continue
        fresh.update({key: value for key, value in saved.items() if key not in fresh})
