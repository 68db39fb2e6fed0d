"""Request code samples in the docs.json languages, from one language-neutral description of the request."""

from __future__ import annotations

from collections.abc import Callable

from docsgen.openapi.render.sample_request import BOUNDARY, SampleRequest
from docsgen.openapi.render.samples_compiled import (
    c,
    cpp,
    csharp,
    dart,
    dotnet,
    go,
    java,
    kotlin,
    rust,
    swift,
)
from docsgen.openapi.render.samples_scripting import (
    curl,
    javascript,
    node,
    php,
    powershell,
    python,
    ruby,
    typescript,
)

GENERATORS: dict[str, tuple[str, str, Callable[[SampleRequest], str]]] = {
    # key: (label, highlight language, generator)
    "bash": ("cURL", "bash", curl),
    "python": ("Python", "python", python),
    "javascript": ("JavaScript", "javascript", javascript),
    "node": ("Node.js", "javascript", node),
    "php": ("PHP", "php", php),
    "go": ("Go", "go", go),
    "java": ("Java", "java", java),
    "ruby": ("Ruby", "ruby", ruby),
    "powershell": ("PowerShell", "powershell", powershell),
    "swift": ("Swift", "swift", swift),
    "csharp": ("C#", "csharp", csharp),
    "dotnet": (".NET", "csharp", dotnet),
    "typescript": ("TypeScript", "typescript", typescript),
    "c": ("C", "c", c),
    "cpp": ("C++", "cpp", cpp),
    "kotlin": ("Kotlin", "kotlin", kotlin),
    "rust": ("Rust", "rust", rust),
    "dart": ("Dart", "dart", dart),
}


def generate(request: SampleRequest, languages: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    """Return (key, label, highlight language, code) for each known language, in order."""
    out = []
    for lang in languages:
        entry = GENERATORS.get(lang)
        if entry:
            label, hl, fn = entry
            out.append((lang, label, hl, fn(request)))
    return out


__all__ = ["BOUNDARY", "GENERATORS", "SampleRequest", "generate"]
