"""TextMate grammars (the JSON form Shiki and VS Code read) compiled into rules docsgen's tokenizer runs.

A grammar is compiled once: every rule (top-level `patterns`, each `repository` entry at any level, nested
`patterns`) gets an id and its patterns compiled (docsgen.mdx.tmregex); `include`s (`#name`, `$self`, `$base`)
are resolved to rule ids afterwards, by lookup, so a chain of includes never recurses. Includes of other grammars
(`source.x`, `source.x#name`) are left out with a note. Each problem names the JSON path where it is
(`repository.string.patterns[2].match`). The compiled grammar is plain data (picklable).

What a rule matches at a position is decided by docsgen.mdx.tmtokenize.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docsgen.common.jsonpos import JsonPath, format_path
from docsgen.mdx.tmregex import (
    Pattern,
    PatternError,
    compile_pattern,
    has_backreferences,
    substitute_backreferences,
)

MAX_RULES = 5_000
MAX_CAPTURE_INDEX = 99


class GrammarError(ValueError):
    """A grammar that cannot be used: what was found at `path` (a JSON path), and what was expected."""

    def __init__(self, message: str, path: JsonPath, offset: int | None = None):
        super().__init__(message)
        self.message, self.path, self.offset = message, path, offset


@dataclass
class Capture:
    """A capture group's scope names, and the rule whose patterns retokenize its text (when it has patterns)."""

    scopes: tuple[str, ...]
    rule: int | None = None


@dataclass
class Rule:
    """One grammar rule: a `match`, a `begin`/`end` or `begin`/`while` pair, or only `patterns` (a container)."""

    id: int
    where: str  # its JSON path
    scopes: tuple[str, ...] = ()  # `name`
    content_scopes: tuple[str, ...] = ()  # `contentName`
    match: Pattern | None = None
    begin: Pattern | None = None
    end_source: str = ""  # `end` or `while` as written (may refer to the begin match: \1)
    end: Pattern | None = None  # compiled when it has no back-references
    end_where: str = ""
    is_while: bool = False
    apply_end_last: bool = False
    captures: dict[int, Capture] = field(default_factory=dict)  # `captures` / `beginCaptures`
    end_captures: dict[int, Capture] = field(default_factory=dict)
    children: list[int] = field(default_factory=list)  # rule ids, includes resolved

    @property
    def leaf(self) -> bool:
        return self.match is not None or self.begin is not None


@dataclass
class Grammar:
    """A compiled grammar: its rules, the root rule (`$self`), and notes about what was left out."""

    name: str
    scope_name: str
    rules: list[Rule]
    root: int
    notes: list[tuple[str, JsonPath]] = field(default_factory=list)  # (message, JSON path)
    external: tuple[str, ...] = ()  # scope names of other grammars its includes name, left out
    _flat: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)

    def candidates(self, rule_id: int) -> tuple[int, ...]:
        """Return the match/begin rules tried inside a rule, in order: includes expanded, each rule once."""
        cached = self._flat.get(rule_id)
        if cached is not None:
            return cached
        out: list[int] = []
        seen: set[int] = set()
        stack = list(reversed(self.rules[rule_id].children))
        while stack:
            rid = stack.pop()
            if rid in seen:
                continue
            seen.add(rid)
            rule = self.rules[rid]
            if rule.leaf:
                out.append(rid)
            else:
                stack.extend(reversed(rule.children))
        self._flat[rule_id] = result = tuple(out)
        return result


def _scopes(value: Any) -> tuple[str, ...]:
    return tuple(value.split()[:8]) if isinstance(value, str) else ()


@dataclass(frozen=True)
class _Context:
    """The grammar whose rules are being compiled: its root (`$self`), scope name and top repository."""

    root: int
    scope: str
    repository: JsonPath


class _Compiler:
    def __init__(self, data: dict, others: dict[str, dict]):
        self.data = data
        self.others = others  # other grammars an include may name, by scope name
        self.rules: list[Rule] = []
        self.notes: list[tuple[str, JsonPath]] = []
        self.external: list[str] = []  # scope names of other grammars left out
        # repository path -> {entry name: rule id}
        self.repos: dict[JsonPath, dict[str, int]] = {}
        # (rule id, JSON path of the include, its text, the repositories in scope, innermost first, grammar)
        self.includes: list[tuple[int, JsonPath, str, tuple[JsonPath, ...], _Context]] = []
        self.context = _Context(0, str(data.get("scopeName") or ""), ("repository",))
        self.embedded: dict[str, _Context] = {}

    def new_rule(self, path: JsonPath) -> Rule:
        if len(self.rules) >= MAX_RULES:
            raise GrammarError(f"more than {MAX_RULES} rules", path)
        rule = Rule(len(self.rules), format_path(path))
        self.rules.append(rule)
        return rule

    def pattern(self, value: Any, path: JsonPath) -> Pattern:
        if not isinstance(value, str):
            raise GrammarError(
                f"found {type(value).__name__}, expected a regular expression (a string)", path
            )
        try:
            return compile_pattern(value, format_path(path))
        except PatternError as exc:
            where = f" at character {exc.offset + 1}" if exc.offset is not None else ""
            shown = value if len(value) <= 80 else value[:77] + "..."
            raise GrammarError(
                f"the pattern {shown!r} cannot be compiled ({exc.message}{where}): expected an Oniguruma "
                "regular expression that the Python `regex` module reads",
                path,
                exc.offset,
            ) from None

    def captures(self, value: Any, path: JsonPath, repos: tuple[JsonPath, ...]) -> dict[int, Capture]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise GrammarError(f"found {type(value).__name__}, expected an object of capture groups", path)
        out: dict[int, Capture] = {}
        for key, spec in value.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) <= MAX_CAPTURE_INDEX):
                continue  # (named captures are not used by TextMate; Shiki ignores them too)
            if not isinstance(spec, dict):
                raise GrammarError(f"found {type(spec).__name__}, expected an object", path + (key,))
            rule = None
            if isinstance(spec.get("patterns"), list):
                rule = self.rule(spec, path + (key,), repos).id
            out[int(key)] = Capture(_scopes(spec.get("name")), rule)
        return out

    def repository(self, value: Any, path: JsonPath, repos: tuple[JsonPath, ...]) -> tuple[JsonPath, ...]:
        """Compile a `repository` object's entries; return the repositories in scope with it first."""
        if value is None:
            return repos
        if not isinstance(value, dict):
            raise GrammarError(f"found {type(value).__name__}, expected an object of named rules", path)
        table: dict[str, int] = {}
        self.repos[path] = table
        scope = (path, *repos)
        for name, entry in value.items():
            table[name] = self.rule(entry, path + (name,), scope).id
        return scope

    def rule(self, node: Any, path: JsonPath, repos: tuple[JsonPath, ...]) -> Rule:
        if not isinstance(node, dict):
            raise GrammarError(f"found {type(node).__name__}, expected a rule (an object)", path)
        rule = self.new_rule(path)
        repos = self.repository(node.get("repository"), path + ("repository",), repos)
        rule.scopes = _scopes(node.get("name"))
        rule.content_scopes = _scopes(node.get("contentName"))
        if "include" in node:
            self.include(rule, node["include"], path + ("include",), repos)
        elif "match" in node:
            rule.match = self.pattern(node["match"], path + ("match",))
            rule.captures = self.captures(node.get("captures"), path + ("captures",), repos)
        elif "begin" in node:
            rule.begin = self.pattern(node["begin"], path + ("begin",))
            key = "while" if "while" in node else "end"
            rule.is_while = key == "while"
            source = node.get(key)
            if source is None:
                source = "\uffff"  # (Shiki: a begin without end runs to the end of the block)
            backrefs = isinstance(source, str) and has_backreferences(source)
            # compiled once to report errors, even with \1 (then with each reference standing for "")
            end = self.pattern(substitute_backreferences(source, ()) if backrefs else source, path + (key,))
            rule.end_source, rule.end_where = str(source), format_path(path + (key,))
            rule.end = None if backrefs else end
            rule.apply_end_last = bool(node.get("applyEndPatternLast"))
            both = self.captures(node.get("captures"), path + ("captures",), repos)
            rule.captures = self.captures(node.get("beginCaptures"), path + ("beginCaptures",), repos) or both
            second = f"{key}Captures"
            rule.end_captures = self.captures(node.get(second), path + (second,), repos) or both
        elif "end" in node or "while" in node:
            raise GrammarError("found `end` without `begin`; expected both", path)
        patterns = node.get("patterns")
        if patterns is not None and "include" not in node and "match" not in node:
            if not isinstance(patterns, list):
                raise GrammarError(
                    f"found {type(patterns).__name__}, expected a list of rules", path + ("patterns",)
                )
            for index, child in enumerate(patterns):
                rule.children.append(self.rule(child, path + ("patterns", index), repos).id)
        return rule

    def include(self, rule: Rule, value: Any, path: JsonPath, repos: tuple[JsonPath, ...]) -> None:
        if not isinstance(value, str) or not value:
            raise GrammarError(
                "found an empty or non-string include, expected `#name`, `$self` or `$base`", path
            )
        self.includes.append((rule.id, path, value, repos, self.context))

    def embed(self, scope: str) -> _Context:
        """Compile another grammar's rules into this one (once), for includes that name it."""
        found = self.embedded.get(scope)
        if found is None:
            data, outer = self.others[scope], self.context
            prefix: JsonPath = (f"<{scope}>",)
            root = self.new_rule(prefix)
            self.context = found = self.embedded[scope] = _Context(root.id, scope, prefix + ("repository",))
            repos = self.repository(data.get("repository"), prefix + ("repository",), ())
            for index, child in enumerate(data.get("patterns") or []):
                root.children.append(self.rule(child, prefix + ("patterns", index), repos).id)
            self.context = outer
        return found

    def resolve(self) -> None:
        index = 0
        while index < len(self.includes):  # (embedding a grammar adds its includes)
            rule_id, path, target, repos, context = self.includes[index]
            index += 1
            children = self.rules[rule_id].children
            if target == "$base":
                children.append(0)
                continue
            if target == "$self":
                children.append(context.root)
                continue
            if target.startswith("#"):
                name = target[1:]
                found = next((self.repos[r][name] for r in repos if name in self.repos[r]), None)
                if found is None:
                    raise GrammarError(
                        f"found include {target!r}, expected the name of a `repository` entry in scope", path
                    )
                children.append(found)
                continue
            scope, _, entry = target.partition("#")
            grammar = context if scope == context.scope else None
            if grammar is None and scope in self.others:
                grammar = self.embed(scope)
            table = self.repos.get(grammar.repository, {}) if grammar else {}
            if grammar is not None and (not entry or entry in table):
                children.append(table[entry] if entry else grammar.root)
                continue
            self.external.append(scope)
            self.notes.append(
                (
                    f"include {target[:80]!r} names a grammar that is not in `languages.custom` (or a rule it "
                    "does not have): left out",
                    path,
                )
            )


def compile_grammar(data: Any, others: dict[str, dict] | None = None) -> Grammar:
    """Compile a parsed grammar; GrammarError (located by JSON path) when it cannot be used.

    `others`: other grammars (by scope name) whose rules an include may name (`source.x`, `source.x#rule`).
    """
    if not isinstance(data, dict):
        raise GrammarError("found a JSON " + type(data).__name__ + ", expected a grammar object", ())
    if not isinstance(data.get("patterns"), list):
        raise GrammarError("found no `patterns` list, expected the grammar's top-level rules", ("patterns",))
    compiler = _Compiler(data, others or {})
    root = compiler.new_rule(())
    repos = compiler.repository(data.get("repository"), ("repository",), ())
    for index, child in enumerate(data["patterns"]):
        root.children.append(compiler.rule(child, ("patterns", index), repos).id)
    compiler.resolve()
    for key in ("injections", "injectionSelector"):
        if key in data:
            compiler.notes.append((f"`{key}` is not run: injected rules do not apply", (key,)))
    name, scope = data.get("name"), data.get("scopeName")
    return Grammar(
        name if isinstance(name, str) else "",
        scope if isinstance(scope, str) else "",
        compiler.rules,
        root.id,
        compiler.notes,
        external=tuple(dict.fromkeys(compiler.external)),
    )
