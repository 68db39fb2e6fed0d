"""Theme caches in a long-running process: forget loaded themes without losing installed template globals."""

from __future__ import annotations

from docsgen.resources import themes_dir
from docsgen.theme import environment, load_theme


def reset_theme_caches() -> None:
    """Forget loaded themes, keeping the template globals other modules installed in their environments."""
    root = themes_dir()
    if not root.is_dir():
        return
    names = [
        f.name for f in sorted(root.iterdir()) if (f / "templates").is_dir() or (f / "theme.json").is_file()
    ]
    installed: dict[str, dict] = {}
    for name in names:
        try:
            installed[name] = dict(environment(name).globals)
        except (FileNotFoundError, OSError, ValueError):
            continue
    load_theme.cache_clear()
    environment.cache_clear()
    for name, saved in installed.items():
        try:
            fresh = environment(name).globals
        except (FileNotFoundError, OSError, ValueError):
            continue
        fresh.update({key: value for key, value in saved.items() if key not in fresh})
