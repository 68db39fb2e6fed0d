"""Rules about `$ref`s: external ones, ones pointing nowhere or at the whole document, loops, and chains too long.

Every internal reference is followed once: the result for each reference string is remembered, so a chain of
10,000 references costs 10,000 steps, not 10,000² (each reference of the chain reuses what the next one found).
"""

from __future__ import annotations

from typing import Any

from docsgen.common.errors import Diagnostic, error, warning
from docsgen.openapi.limits import MAX_REF_HOPS
from docsgen.openapi.messages import where
from docsgen.openapi.resolve import RefError, resolve_ref
from docsgen.openapi.spec import Spec

_SHOWN = 6  # references shown in a loop's message (the rest are counted)


def external_ref_errors(spec: Spec) -> list[Diagnostic]:
    """Error for each external reference: docsgen resolves references inside one document only."""
    external, _ = spec.ref_report()
    return [
        error(
            "openapi.external-ref",
            f"external reference {ref!r} is not supported: only references inside the document ('#/...') are",
            hint="bundle the spec into one file first, e.g. `redocly bundle`",
            **where(spec, (*p, "$ref")),
        )
        for p, ref in external
    ]


def _follow(spec: Spec, refs: list[str]) -> dict[str, tuple[str, int, list[str]]]:
    """Return ref -> (outcome, hops to a value, loop) for every reference, following each chain once.

    outcome is "value" (the chain reaches a value), "broken" (it reaches a reference that points nowhere; reported
    on its own) or "loop" (it only reaches references: `loop` is the chain, ending with the repeated one).
    """
    known: dict[str, tuple[str, int, list[str]]] = {}
    for start in refs:
        if start in known:
            continue
        walk: list[str] = []
        position: dict[str, int] = {}
        ref: str | None = start
        outcome: tuple[str, int, list[str]] = ("value", 0, [])
        while ref is not None:
            if ref in known:
                outcome = known[ref]
                break
            if ref in position:
                outcome = ("loop", 0, [*walk[position[ref] :], ref])
                break
            position[ref] = len(walk)
            walk.append(ref)
            try:
                node: Any = resolve_ref(ref, spec.data)
            except RefError:
                outcome = ("broken", 0, [])
                break
            nxt = node.get("$ref") if isinstance(node, dict) else None
            ref = nxt if isinstance(nxt, str) and nxt.startswith("#") else None
        kind, hops, tail = outcome
        closed = position.get(tail[-1]) if kind == "loop" and tail else None  # the loop closed in this walk
        size = _SHOWN + 2
        for i in range(len(walk) - 1, -1, -1):  # the chain's end first: each step is one hop more
            hops += 1
            chain = walk[i : i + size]
            if kind == "loop" and len(chain) < size:
                if closed is None:
                    after = tail
                elif i <= closed:
                    after = [walk[closed]]
                else:
                    after = walk[closed : i + 1]
                chain = [*chain, *after[: size - len(chain)]]
            known[walk[i]] = (kind, hops, chain if kind == "loop" else [])
    return known


def ref_warnings(spec: Spec) -> list[Diagnostic]:
    """Report references that point nowhere or only to references in a loop (warnings), and ones docsgen
    cannot follow: the whole document, or a chain longer than it follows (errors in openapi-check, warnings in
    a build)."""
    _, broken = spec.ref_report()
    problems = [
        warning(
            "openapi.unresolved-ref",
            f"reference {ref!r} cannot be resolved: {reason}",
            **where(spec, (*p, "$ref")),
        )
        for p, ref, reason in broken
    ]
    internal = [(path, ref) for path, ref in spec.scan().refs if ref.startswith("#")]
    broken_refs = {b[1] for b in broken}
    whole = {ref for _, ref in internal if ref in ("#", "#/")}
    known = _follow(spec, [ref for _, ref in internal if ref not in broken_refs and ref not in whole])
    # A long chain is reported once, where it starts: not at the references that are themselves links of it.
    linked = {_pointer(path) for path, ref in internal if ref in known and known[ref][1] > MAX_REF_HOPS}
    linked &= {ref for _, ref in internal}
    for path, ref in internal:
        if ref in whole:
            problems.append(
                error(
                    "openapi.ref-to-document",
                    f"reference {ref!r} points at the whole document, which contains this reference itself",
                    hint="point at a definition, like '#/components/schemas/Pet'",
                    **where(spec, (*path, "$ref")),
                )
            )
            continue
        if ref in broken_refs:
            continue
        kind, hops, loop = known[ref]
        if kind == "loop":
            shown = " -> ".join(loop[: _SHOWN + 1]) + (" -> ..." if len(loop) > _SHOWN + 1 else "")
            problems.append(
                warning(
                    "openapi.ref-cycle",
                    f"references loop without reaching a value: {shown}",
                    **where(spec, (*path, "$ref")),
                )
            )
        elif hops > MAX_REF_HOPS and _pointer(path) not in linked:
            problems.append(
                error(
                    "openapi.ref-chain",
                    f"reference {ref!r} reaches a value only after {hops:,} references in a row; "
                    f"docsgen follows at most {MAX_REF_HOPS}",
                    hint="point the reference at the definition itself",
                    **where(spec, (*path, "$ref")),
                )
            )
    return problems


def _pointer(path: tuple) -> str:
    """Return the internal reference naming a JSON path: ("components", "schemas", "a/b") -> "#/components/..."."""
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)
