"""docs.json `styling.codeblocks.languages.custom`: TextMate grammar files, read and compiled once per build.

Each path names a JSON grammar inside the docs folder. A grammar is known by its `name` and `aliases` (any case,
as fence languages are), or the last part of its `scopeName` when it has no name; a custom language wins over a
built-in one of the same name. A file that is missing, outside the docs folder, too big, too deeply nested, not
JSON, or whose rules cannot be compiled is a located warning (the file, line, column and JSON path of the
problem) and its code blocks stay plain text. A block that passes a bound while it is tokenized (time, tokens,
nesting, line length: docsgen.mdx.tmtokenize) is a warning located at the block, and shows as plain text.

The compiled grammars are kept per process, keyed by the docs folder and the list, and read again only when a
file's size or modification time changes: the main process loads them before the render pool forks (the workers
inherit them) and the page cache fingerprint includes the files' bytes (grammar_files).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsgen.common.errors import Diagnostic, info, warning
from docsgen.common.jsonpos import PositionIndex, format_path
from docsgen.config.analytics import where_in_config

if TYPE_CHECKING:  # the TextMate engine (and the `regex` module it needs) loads with the first custom grammar
    from docsgen.mdx.state import RenderState
    from docsgen.mdx.textmate import Grammar
    from docsgen.mdx.tmtokenize import Overrun

MAX_GRAMMAR_BYTES = 2_000_000
MAX_GRAMMARS = 50
MAX_JSON_DEPTH = 100  # nesting of objects and arrays in a grammar file
MAX_NAMES = 20  # names and aliases per grammar
_JSON_TOKEN = re.compile(r'[\[\]{}"\\]')


@dataclass
class CustomLanguages:
    """The site's custom grammars: language name (lowercase) -> grammar (None: listed but unusable)."""

    grammars: dict[str, Grammar | None] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # language name -> its grammar file (docs-relative)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fingerprint: str = ""  # changes with any grammar file's bytes
    stamps: tuple = ()  # (file, size, mtime_ns) of each file read: the memo is valid while they hold


_MEMO: dict[tuple[str, str], CustomLanguages] = {}
PAGE_SECONDS = 5.0  # time for all the blocks of one page in custom languages
_PAGE_SPENT: weakref.WeakKeyDictionary[RenderState, float] = weakref.WeakKeyDictionary()
_BLOCKS: dict[tuple[str, str, str], tuple[tuple[str, ...], Overrun | None]] = {}


def listed(config: Any) -> list[Any]:
    """Return `styling.codeblocks.languages.custom` as written ([] when absent or not a list)."""
    raw = getattr(config, "raw", None)
    styling = raw.get("styling") if isinstance(raw, dict) else None
    blocks = styling.get("codeblocks") if isinstance(styling, dict) else None
    languages = blocks.get("languages") if isinstance(blocks, dict) else None
    files = languages.get("custom") if isinstance(languages, dict) else None
    return files[:MAX_GRAMMARS] if isinstance(files, list) else []


def _resolve(docs_dir: Path, rel: Any) -> Path | None:
    """Return the file a listed path names when it is inside the docs folder (None otherwise)."""
    if not isinstance(rel, str) or not rel.strip():
        return None
    path = (docs_dir / rel.replace("\x00", "").strip().lstrip("/")).resolve()
    return path if path.is_relative_to(docs_dir.resolve()) else None


def grammar_files(config: Any, docs_dir: Path) -> list[str]:
    """Return the docs-relative grammar files inside the docs folder (for the page cache fingerprint)."""
    root = docs_dir.resolve()
    found = (_resolve(docs_dir, rel) for rel in listed(config))
    return [
        p.relative_to(root).as_posix()
        for p in found
        if p is not None
        and p.is_file()
        and p.stat().st_size <= MAX_GRAMMAR_BYTES  # (bigger ones are not read)
    ]


def _stamps(config: Any, docs_dir: Path) -> tuple:
    out = []
    for rel in listed(config):
        path = _resolve(docs_dir, rel)
        try:
            stat = path.stat() if path is not None else None
        except OSError:
            stat = None
        out.append((str(path), stat.st_size if stat else -1, stat.st_mtime_ns if stat else -1))
    return tuple(out)


def custom_languages(config: Any, docs_dir: Path) -> CustomLanguages:
    """Return the site's custom grammars, compiled once and kept while their files do not change."""
    files = listed(config)
    if not files:
        return CustomLanguages()
    key = (str(docs_dir.resolve()), json.dumps(files, default=str))
    stamps = _stamps(config, docs_dir)
    known = _MEMO.get(key)
    if known is not None and known.stamps == stamps:
        return known
    loaded = _load(config, docs_dir, files)
    loaded.stamps = stamps
    if len(_MEMO) > 8:
        _MEMO.clear()
    _MEMO[key] = loaded
    return loaded


def json_depth(text: str) -> tuple[int, int]:
    """Return the deepest nesting of a JSON text and the offset where it is first reached (one pass)."""
    depth = deepest = where = 0
    in_string, skip = False, -1
    for m in _JSON_TOKEN.finditer(text):
        at, ch = m.start(), m.group()
        if at == skip:  # the character after a backslash in a string
            continue
        if in_string:
            if ch == "\\":
                skip = at + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, at
        elif ch in "]}":
            depth -= 1
    return deepest, where


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _load(config: Any, docs_dir: Path, files: list[Any]) -> CustomLanguages:
    out = CustomLanguages()
    digest = hashlib.sha256()
    root = docs_dir.resolve()
    loaded: list[tuple[str, PositionIndex, Grammar | None, list[str], Any]] = []
    for index, rel in enumerate(files):
        json_path = f"styling.codeblocks.languages.custom[{index}]"
        located = where_in_config(config, ("styling", "codeblocks", "languages", "custom", index))

        def listed_problem(
            problem: str, rel: Any = rel, located: tuple[str, int, int] = located, json_path: str = json_path
        ) -> None:
            out.diagnostics.append(
                warning(
                    "styling.custom-language",
                    f"custom language file {str(rel)[:120]!r} {problem}",
                    *located,
                    json_path=json_path,
                )
            )

        if not isinstance(rel, str) or not rel.strip():
            listed_problem("is not a path: expected the path of a JSON TextMate grammar in the docs folder")
            continue
        path = _resolve(docs_dir, rel)
        if path is None:
            listed_problem("is outside the docs folder: expected a path inside it")
            continue
        if not path.is_file():
            listed_problem("does not exist: expected a JSON TextMate grammar file")
            continue
        if path.stat().st_size > MAX_GRAMMAR_BYTES:
            listed_problem(f"is over {MAX_GRAMMAR_BYTES // 1_000_000} MB: expected a smaller grammar")
            continue
        file = path.relative_to(root).as_posix()
        try:
            data = path.read_bytes()
            text = data.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            listed_problem(f"cannot be read as UTF-8 text ({str(exc)[:80]})")
            continue
        digest.update(file.encode() + b"\0" + hashlib.sha256(data).digest())
        positions = PositionIndex(text)  # (found when first asked)
        grammar, names, problem, data = _compile(text, file, positions)
        if problem is not None:
            out.diagnostics.append(problem)
        loaded.append((file, positions, grammar, names, data))
    _embed_others(loaded)
    for file, positions, grammar, names, _data in loaded:
        if grammar is not None:
            for message, where in grammar.notes[:10]:
                out.diagnostics.append(_in_file(info, positions, file, where, message))
            if not names:
                message = (
                    "custom language grammar has no `name`: expected the language name its code blocks use"
                )
                out.diagnostics.append(_in_file(warning, positions, file, ("name",), message))
        for name in names:
            if name in out.grammars:
                message = f"custom language {name!r} is also named by {out.files[name]}: that grammar is used"
                out.diagnostics.append(_in_file(info, positions, file, ("name",), message))
                continue
            out.grammars[name] = grammar
            out.files[name] = file
    out.fingerprint = digest.hexdigest()
    return out


def _embed_others(loaded: list[tuple[str, PositionIndex, Grammar | None, list[str], Any]]) -> None:
    """Compile again the grammars whose includes name another listed grammar (`source.x`), with its rules."""
    from docsgen.mdx.textmate import GrammarError, compile_grammar

    others = {g.scope_name: data for _, _, g, _, data in loaded if g is not None and g.scope_name}
    for index, (file, positions, grammar, names, data) in enumerate(loaded):
        if grammar is not None and set(grammar.external) & set(others):
            try:
                loaded[index] = (file, positions, compile_grammar(data, others), names, data)
            except (GrammarError, RecursionError):  # (more rules than allowed together: each alone, as noted)
                continue


def _in_file(make: Any, index: PositionIndex, file: str, where: tuple, message: str) -> Diagnostic:
    """Return a diagnostic (`make`: info or warning) located at a JSON path of a grammar file."""
    line, column = index.locate(where)
    if make is info:
        return info("styling.custom-language", message, file, line, column, json_path=format_path(where))
    return warning("styling.custom-language", message, file, line, column, json_path=format_path(where))


def _compile(
    text: str, file: str, index: PositionIndex
) -> tuple[Grammar | None, list[str], Diagnostic | None, Any]:
    """Return (grammar or None, its language names, the problem that made it unusable, the parsed JSON)."""
    from docsgen.mdx.textmate import GrammarError, compile_grammar

    deepest, offset = json_depth(text)
    if deepest > MAX_JSON_DEPTH:
        line, column = _line_col(text, offset)
        message = f"custom language grammar nested {deepest} levels deep: expected at most {MAX_JSON_DEPTH}"
        message += "; its code blocks show as plain text"
        return None, [], warning("styling.custom-language", message, file, line, column), None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line, column = getattr(exc, "lineno", 0), getattr(exc, "colno", 0)
        message = f"custom language grammar is not JSON ({getattr(exc, 'msg', str(exc))[:80]}): expected a JSON object"
        return None, [], warning("styling.custom-language", message, file, line, column), None
    names = _names(data)
    try:
        grammar = compile_grammar(data)
    except GrammarError as exc:
        message = f"custom language grammar: {exc.message}; its code blocks show as plain text"
        return None, names, _in_file(warning, index, file, exc.path, message), data
    except RecursionError:
        message = "custom language grammar nested too deeply"
        return None, names, warning("styling.custom-language", message, file, 1, 1), data
    return grammar, names, None, data


def _names(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return []
    aliases = data.get("aliases")
    names: list[Any] = [data.get("name"), *(aliases if isinstance(aliases, list) else [])]
    if not isinstance(data.get("name"), str) and isinstance(data.get("scopeName"), str):
        names.append(data["scopeName"].rsplit(".", 1)[-1])
    out = [n.strip().lower() for n in names if isinstance(n, str) and n.strip()]
    return list(dict.fromkeys(out))[:MAX_NAMES]


def _tokenized(grammar: Grammar, code: str, seconds: float) -> tuple[tuple[str, ...], Overrun | None]:
    """Return a block's HTML lines, or the bound it passed."""
    from docsgen.mdx.tmtokenize import Overrun, html_lines, tokenize

    try:
        return tuple(html_lines(tokenize(grammar, code, seconds))), None
    except Overrun as exc:
        return (), exc
    except (RecursionError, MemoryError, ValueError, LookupError, TypeError) as exc:  # a docsgen bug
        return (), Overrun(f"highlighting failed ({type(exc).__name__}; please report this)", 1, 1)


def custom_lines(code: str, lang: str, state: RenderState, line: int = 0) -> list[str] | None:
    """Return a code block's HTML lines when its language is a custom one (None when it is not).

    A grammar that could not be loaded gives plain lines (the grammar's own warning says why); a block that
    passes a bound gives plain lines and a warning at the block. A page's blocks share PAGE_SECONDS: past it,
    the page's other blocks in custom languages are plain too.
    """
    languages = (
        custom_languages(state.ctx.config, state.ctx.docs_dir) if state.ctx.config is not None else None
    )
    if languages is None or lang.lower() not in languages.grammars:
        return None
    grammar = languages.grammars[lang.lower()]
    plain = [html.escape(text, quote=False) for text in code.split("\n")]
    if grammar is None:
        return plain
    from docsgen.mdx.tmtokenize import BLOCK_SECONDS, Overrun

    key = (languages.fingerprint, lang.lower(), code)
    cached = _BLOCKS.get(key)
    if cached is None:
        spent = _PAGE_SPENT.get(state, 0.0)
        budget = min(BLOCK_SECONDS, PAGE_SECONDS - spent)
        if budget <= 0:
            message = f"the page's blocks in custom languages took over {PAGE_SECONDS:g} s"
            cached = ((), Overrun(message, 1, 1))
        else:
            started = time.monotonic()
            cached = _tokenized(grammar, code, budget)
            _PAGE_SPENT[state] = spent + time.monotonic() - started
            if cached[1] is None or budget == BLOCK_SECONDS:  # (not when the page's budget cut it short)
                if len(_BLOCKS) > 4096:
                    _BLOCKS.clear()
                _BLOCKS[key] = cached
    lines, overrun = cached
    if overrun is None:
        return list(lines)
    file = languages.files.get(lang.lower(), "")
    rule = f"; the rule is in {file[:120]}" if overrun.where else f" (grammar {file[:120]})"
    state.add(
        warning(
            "mdx.custom-language",
            f"code block in custom language {lang[:40]!r} shown as plain text: {overrun.message} at line "
            f"{overrun.line}, column {overrun.column} of the block{rule}",
            state.frame.path,
            line + overrun.line if line else 0,
            overrun.column if line else 0,
            json_path=overrun.where,
        )
    )
    return plain
