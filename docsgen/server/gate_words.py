"""The words of the site gate's own pages (sign in, failed sign-in) in the language of the page the reader was
going to: the language the build gave that page (its `<html lang>`, set from the site's navigation), else the
language of its first folder (a language's home, `/de/`), else the site's default language (the home page's).
Only the head of a page is read; the words come from the interface strings (themes/base/strings.json)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from docsgen.config.model import RTL_LANGUAGES
from docsgen.render.strings import catalogue_code, interface_strings

HEAD_BYTES = 4096  # `<html lang>` is in the first line of every built page
_HTML_LANG = re.compile(rb"<html\b[^>]*?\blang=\"([A-Za-z0-9-]{1,35})\"", re.IGNORECASE)


@dataclass(frozen=True)
class GateWords:
    """A gate page's language (its `lang` attribute), its direction and its words."""

    lang: str
    words: dict[str, str]

    @property
    def rtl(self) -> bool:
        return catalogue_code(self.lang) in RTL_LANGUAGES

    def __getitem__(self, key: str) -> str:
        return self.words[key]


ENGLISH = GateWords("en", interface_strings("en"))


def words_for(root: Path | None, target: str) -> GateWords:
    """Return the gate's words for a reader going to the site path `target` of the build in `root`."""
    lang = _target_language(root, target) if root is not None else None
    if not lang:
        return ENGLISH
    return GateWords(lang, interface_strings(lang))


def _target_language(root: Path, target: str) -> str | None:
    parts = [p for p in target.split("?")[0].split("#")[0].split("/") if p]
    if any(p in (".", "..") or "\x00" in p or "\\" in p for p in parts):
        parts = []
    rel = "/".join(parts)
    candidates = [f"{rel}/index.html", f"{rel}.html", rel] if rel else []
    if parts:
        candidates.append(f"{parts[0]}/index.html")  # a language's home: /de/
    candidates.append("index.html")  # the default language's home page
    real_root = root.resolve()
    for candidate in candidates:
        lang = _page_language(real_root, candidate)
        if lang:
            return lang
    return None


def _page_language(real_root: Path, rel: str) -> str | None:
    if not rel.endswith(".html"):
        return None
    try:
        path = (real_root / rel).resolve()
        path.relative_to(real_root)
        if not path.is_file():
            return None
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except (OSError, ValueError):
        return None
    found = _HTML_LANG.search(head)
    return found.group(1).decode("ascii") if found else None
