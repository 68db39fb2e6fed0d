"""Schema trees as HTML and Markdown: nested rows, switchable alternatives, anchors, bounded and cached.

Fragments are cached per (schema object, direction). Anchor ids inside a fragment are written
relative to a placeholder token (NUL) that the caller replaces with the parent's path, so one cached fragment
serves every place the schema appears. The Markdown form (nested list items, for the agents' twin of the page)
is made and cached alongside, indented relative to the fragment's own level.

A page must not depend on the pages rendered before it in the same process. A fragment's rows depend on which
of the schemas it meets are its ancestors (those are shown as "Recursive"), so each fragment records the schemas
it asked about (`deps`) and a cached one is reused only where the ancestors among them are the same. A subtree
over the row limit is only counted up to the limit, so every caller sees the same count however it was made.
The nesting level matters only where a row asks whether a nested schema is still within MAX_LEVEL: each fragment
records the deepest such question answered "yes" and the shallowest answered "no" (relative to its own level), and
is reused at any level where both answers stay the same (a schema met at several depths is rendered once).

The work of a page is bounded too (`ctx.budget`, MAX_TREE_WORK): each expanded object costs 1 + its properties and
alternatives, and a cached fragment costs what it cost to make, so a page spends the same whatever was cached
before it. Once the budget is spent, further subtrees are shown collapsed and the page gets one warning.
"""

from __future__ import annotations

from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.enum_notes import described, enum_notes
from docsgen.openapi.render.field_facts import FACT_KEYS, alternatives_label, facts_of
from docsgen.openapi.render.fmt import esc, slug, type_label, without_deprecated_lead
from docsgen.openapi.render.mdtext import code, inline, item
from docsgen.openapi.render.pills import pill_html, pills
from docsgen.openapi.render.schema_model import Flat, flatten, unwrap_single
from docsgen.openapi.render.tree_fragments import (
    EMPTY,
    MAX_LEVEL,
    NEVER,
    Fragment,
    Levels,
    cached_fragment,
    store,
)

TOKEN = "\x00"
FRAGMENT_ROWS = 250  # a nested subtree larger than this is shown collapsed to its type name
RECURSIVE, NOT_SHOWN = "Recursive: {name} (see above)", "{name}: nested fields not shown"  # notes, translated
TOO_LARGE = "{name}: nested fields not shown (this page's schemas are too large)"
MORE_THAN = "{name}: more than {n} nested fields not shown"
TREE_ROWS = 600  # rows one object (or one set of alternatives) may hold before further subtrees collapse


class TreeRenderer:
    """Render schema trees for one direction: "request" hides readOnly, "response" hides writeOnly."""

    def __init__(self, ctx: RenderContext, direction: str) -> None:
        self.ctx = ctx
        self.direction = direction
        self.open = " open" if getattr(ctx.settings, "params_expanded", False) else ""
        self.show = esc(ctx.word("show_child_attributes", "Show child attributes"))  # a subtree's summary

    # -- public ------------------------------------------------------------------------------------------
    def flat(self, schema: Any) -> Flat:
        return unwrap_single(self.ctx, flatten(self.ctx, schema))

    def items_of(self, flat: Flat) -> Flat | None:
        """The item schema of an array (None for non-arrays)."""
        if "array" not in flat.types or flat.items is None:
            return None
        return self.flat(flat.items)

    def label(self, flat: Flat) -> str:
        return type_label(flat, self.items_of(flat))

    def hidden(self, flat: Flat) -> bool:
        """readOnly properties are not sent in requests; writeOnly ones are not returned."""
        return (self.direction == "request" and flat.read_only) or (
            self.direction == "response" and flat.write_only
        )

    def root(self, schema: Any) -> Fragment:
        """Rows for a body/response/model root: its children, or the innermost array item's children."""
        flat = self.flat(schema)
        stack: tuple[int, ...] = ()
        node = flat
        for _ in range(8):  # arrays of arrays
            stack = (*stack, id(node.raw))
            inner = self.items_of(node)
            if node.has_children() or inner is None:
                break
            node = inner
        if not node.has_children():
            return EMPTY
        return self.children(node, stack, 0)

    def field(
        self,
        name: str,
        schema: Any,
        *,
        required: bool = False,
        extra: dict | None = None,
        stack: tuple[int, ...] = (),
        level: int = 0,
    ) -> Fragment:
        """One row (parameter or property) with its nested rows; `extra` adds parameter-level keywords."""
        flat = self.flat(schema)
        return self._row(name, slug(name), flat, required, extra or {}, stack, level)

    # -- rows --------------------------------------------------------------------------------------------
    def _row(
        self,
        name: str,
        rid: str,
        flat: Flat,
        required: bool,
        extra: dict,
        stack: tuple[int, ...],
        level: int,
        collapse: bool = False,
    ) -> Fragment:
        kw = {**flat.kw, **{k: v for k, v in extra.items() if v is not None}}
        anchor = TOKEN + rid
        label = self.label(flat)
        head = [
            f'<a class="dg-api-name" href="#{anchor}">{esc(name)}</a>',
            f'<span class="dg-api-type">{esc(label)}</span>',
        ]
        bits = [code(label)]
        if flat.name and label != flat.name:
            head.append(f'<span class="dg-api-typename">{esc(flat.name)}</span>')
            bits.append(flat.name)
        word = self.ctx.word
        if required:
            head.append(
                f'<span class="dg-api-pill dg-api-required">{esc(word("required", "required"))}</span>'
            )
            bits.append(word("required", "required"))
        if kw.get("deprecated") is True:
            text = word("deprecated_pill", "deprecated")
            head.append(f'<span class="dg-api-pill dg-api-deprecated">{esc(text)}</span>')
            bits.append(text)
            kw["description"] = without_deprecated_lead(kw.get("description"))
        if flat.read_only:
            head.append(f'<span class="dg-api-pill">{esc(word("read_only", "read-only"))}</span>')
            bits.append(word("read_only", "read-only"))
        if flat.write_only:
            head.append(f'<span class="dg-api-pill">{esc(word("write_only", "write-only"))}</span>')
            bits.append(word("write_only", "write-only"))
        pre, post = pills(self.ctx, flat.raw, getattr(self.ctx.settings, "params_post", ()))
        if pre or post:
            head[:0] = [pill_html(p) for p in pre]
            head += [pill_html(p) for p in post]
            bits = [*pre, *bits, *post]
        body, desc_md, lines = self.meta_both(kw)
        children_md = ""
        ids = {rid}
        hits: frozenset[int] = frozenset()
        rows = 1
        node, inner_stack = flat, stack
        items = self.items_of(flat)
        for _ in range(8):
            if node.has_children() or items is None:
                break
            inner_stack = (*inner_stack, id(node.raw))
            node = items
            items = self.items_of(node)
        deps: frozenset[int] = frozenset()
        shown, hidden = 0, NEVER
        if node.has_children():
            step = 1 if node.ref else 0
            note = ""
            deps = frozenset({id(node.raw)})
            if id(node.raw) in stack or id(node.raw) in inner_stack:
                note = self.ctx.filled("recursive_see_above", RECURSIVE, name=node.name or "object")
                hits = frozenset({id(node.raw)})
            elif collapse or level + step > MAX_LEVEL:
                hidden = NEVER if collapse else step  # collapsed: not shown at any level
                note = self.ctx.filled("nested_not_shown", NOT_SHOWN, name=node.name or "object")
            else:
                pushed = (*inner_stack, id(node.raw))
                child = self.children(node, pushed, level + step, FRAGMENT_ROWS)
                shown, hidden = max(step, step + child.shown), step + child.hidden
                hits = child.hits - set(pushed[len(stack) :])
                deps |= child.deps
                if child.cut:
                    note = self.ctx.filled("nested_too_large", TOO_LARGE, name=node.name or "object")
                elif child.rows > FRAGMENT_ROWS:
                    note = self.ctx.filled(
                        "nested_more_than", MORE_THAN, name=node.name or "object", n=FRAGMENT_ROWS
                    )
                elif child.rows:
                    children_md = child.md
                    html = child.html.replace(TOKEN, anchor + ".")
                    ids |= {rid + "." + i for i in child.ids}
                    rows += child.rows
                    body += (
                        f'<details class="dg-api-children"{self.open}><summary>{self.show}</summary>'
                        f'<div class="dg-api-fields">{html}</div></details>'
                    )
            if note:
                body += self._note(note, node)
                lines.append(note)
        html = (
            f'<div class="dg-api-field" id="{anchor}"><div class="dg-api-field-head">{" ".join(head)}</div>'
            f"{body}</div>"
        )
        md = item(f"{code(name)} ({', '.join(bits)})", desc_md, lines, children_md)
        return Fragment(html, rows, frozenset(ids), hits, md, deps, shown=shown, hidden=hidden)

    def _note(self, text: str, flat: Flat) -> str:
        return f'<p class="dg-api-note" data-type="{esc(flat.name or "")}">{esc(text)}</p>'

    def meta(self, kw: dict) -> str:
        """Description, enum values, default, const, constraints and examples of a field (html)."""
        return self.meta_both(kw)[0]

    def meta_both(self, kw: dict) -> tuple[str, str, list[str]]:
        """A field's description and facts as (html, Markdown description, Markdown fact lines)."""
        parts: list[str] = []
        desc = self.ctx.md(kw.get("description")).replace(TOKEN, "")
        if desc:
            parts.append(f'<div class="dg-api-desc">{desc}</div>')
        lines: list[str] = []
        if described(kw):
            enum_html, enum_lines = enum_notes(self.ctx, kw)
            parts.append(enum_html)
            lines += enum_lines
            kw = {k: v for k, v in kw.items() if k != "enum"}
        if not FACT_KEYS.isdisjoint(kw):
            facts: list[str] = []
            for label, values, more in facts_of(kw, self.ctx.word):
                if values is None:
                    facts.append(f"<li>{esc(label)}</li>")
                    lines.append(label)
                else:
                    shown = ", ".join(f"<code>{esc(v)}</code>" for v in values)
                    facts.append(f"<li>{esc(label)}: {shown}{esc(more)}</li>")
                    lines.append(f"{label}: {', '.join(code(v) for v in values)}{more}")
            if facts:
                parts.append(f'<ul class="dg-api-facts">{"".join(facts)}</ul>')
        return "".join(parts), self.ctx.mdt(kw.get("description")), lines

    # -- children ----------------------------------------------------------------------------------------
    def children(self, flat: Flat, stack: tuple[int, ...], level: int, limit: int | None = None) -> Fragment:
        """Rows below an object: properties, additional properties, then alternatives (cached).

        With a `limit`, rendering stops as soon as the rows exceed it (the caller shows the subtree collapsed
        anyway), which keeps mutually recursive schemas cheap; the rows are then reported as `limit + 1`.
        """
        key = (id(flat.raw), self.direction, flat.ref)
        budget = self.ctx.budget
        cached = cached_fragment(self.ctx, key, stack, limit, level)
        cost = cached.cost if cached is not None else 1 + len(flat.props) + len(flat.alternatives)
        if cost > budget.left:
            budget.left, budget.cut = 0, True
            return Fragment("", 0 if limit is None else limit + 1, frozenset(), frozenset(), cut=True)
        if cached is not None:
            budget.left -= cost
            return cached
        start, was_cut = budget.left, budget.cut
        budget.left -= cost
        parts: list[str] = []
        mds: list[str] = []
        ids: set[str] = set()
        hits: set[int] = set()
        deps: set[int] = set()
        levels = Levels()
        rows = 0
        used: set[str] = set()
        for name, schema in flat.props.items():
            child = self.flat(schema)
            if self.hidden(child):
                continue
            rid = base = slug(name)
            n = 1
            while rid in used:  # distinct names can share a slug ("a b" / "a-b")
                n += 1
                rid = f"{base}-{n}"
            used.add(rid)
            frag = self._row(str(name), rid, child, name in flat.required, {}, stack, level)
            if rows + frag.rows > TREE_ROWS and frag.rows > 1:
                deps |= frag.deps
                levels.add(frag)
                frag = self._row(str(name), rid, child, name in flat.required, {}, stack, level, True)
            levels.add(frag)
            parts.append(frag.html)
            mds.append(frag.md)
            ids |= frag.ids
            hits |= frag.hits
            deps |= frag.deps
            rows += frag.rows
            if limit is not None and rows > limit:
                over = levels.of(Fragment("", limit + 1, frozenset(), frozenset(hits)))
                return store(self.ctx, key, stack, limit, id(flat.raw), over, deps, start, was_cut)
        add = flat.additional
        if isinstance(add, dict) and add:
            child = self.flat(add)
            if not self.hidden(child):
                rid = (
                    "additionalProperties" if "additionalProperties" not in used else "additionalProperties-"
                )
                frag = self._row("{key}", rid, child, False, {}, stack, level)
                levels.add(frag)
                parts.append(frag.html)
                mds.append(frag.md)
                ids |= frag.ids
                hits |= frag.hits
                deps |= frag.deps
                rows += frag.rows
        elif add is True or add == {}:
            parts.append('<p class="dg-api-note">Additional properties are allowed.</p>')
            mds.append("- *Additional properties are allowed.*")
        if flat.alternatives:
            frag = self._alternatives(flat, stack, level, ids, None if limit is None else limit - rows)
            levels.add(frag)
            parts.append(frag.html)
            mds.append(frag.md)
            ids |= frag.ids
            hits |= frag.hits
            deps |= frag.deps
            rows += frag.rows
        if limit is not None and rows > limit:
            over = levels.of(Fragment("", limit + 1, frozenset(), frozenset(hits)))
            return store(self.ctx, key, stack, limit, id(flat.raw), over, deps, start, was_cut)
        fragment = levels.of(
            Fragment("".join(parts), rows, frozenset(ids), frozenset(hits), "\n".join(m for m in mds if m))
        )
        return store(self.ctx, key, stack, None, id(flat.raw), fragment, deps, start, was_cut)

    def _alternatives(
        self, flat: Flat, stack: tuple[int, ...], level: int, taken: set[str], limit: int | None
    ) -> Fragment:
        rendered: list[tuple[str, Flat, Fragment]] = []
        hits: set[int] = set()
        deps: set[int] = set()
        levels = Levels()
        total = 0
        for label, schema in flat.alternatives:
            alt = self.flat(schema)
            frag = EMPTY
            step = 1 if alt.ref else 0
            deps.add(id(alt.raw))
            if id(alt.raw) in stack:
                hits.add(id(alt.raw))
            elif alt.has_children() and level + step > MAX_LEVEL:
                levels.hidden = min(levels.hidden, step)
            elif alt.has_children():
                frag = self.children(alt, (*stack, id(alt.raw)), level + step, FRAGMENT_ROWS)
                levels.add(frag, step)
                hits |= frag.hits
                deps |= frag.deps
                if frag.rows > FRAGMENT_ROWS or total + frag.rows > TREE_ROWS:
                    frag = EMPTY
            total += frag.rows
            rendered.append((label, alt, frag))
            if limit is not None and total > limit:
                over = Fragment("", total, frozenset(), frozenset(hits), deps=frozenset(deps))
                return levels.of(over)
        # Alternatives usually share property names: give each its own anchor segment when they clash.
        seen = set(taken)
        clash = False
        for _, _, frag in rendered:
            if seen & frag.ids:
                clash = True
            seen |= frag.ids
        label_html, label_md = alternatives_label(self.ctx.word, flat.alt_kind, flat.discriminator)
        parts = [
            f'<div class="dg-api-alts" data-kind="{esc(flat.alt_kind)}"><p class="dg-api-alts-label">{label_html}</p>'
        ]
        mds: list[str] = []
        ids: set[str] = set()
        rows = 0
        segs: set[str] = set()
        for index, (label, alt, frag) in enumerate(rendered):
            seg = slug(label)
            while seg in segs:
                seg = f"{seg}-{index + 1}"
            segs.add(seg)
            prefix = seg + "." if clash else ""
            html = frag.html.replace(TOKEN, TOKEN + prefix) if prefix else frag.html
            ids |= {prefix + i for i in frag.ids}
            rows += frag.rows
            body = self.meta({"description": alt.kw.get("description")}) if alt.kw.get("description") else ""
            note = ""
            if id(alt.raw) in stack:
                note = self.ctx.filled("recursive_see_above", RECURSIVE, name=alt.name or label)
            elif alt.has_children() and not frag.rows:
                note = self.ctx.filled("nested_not_shown", NOT_SHOWN, name=alt.name or label)
            if note:
                body += self._note(note, alt)
            alt_label = self.label(alt)
            mds.append(
                item(
                    f"**{inline(label)}** ({code(alt_label)})",
                    self.ctx.mdt(alt.kw.get("description")),
                    [note] if note else [],
                    frag.md,
                )
            )
            parts.append(
                f'<div class="dg-api-alt" data-title="{esc(label)}"><p class="dg-api-alt-title">{esc(label)}'
                f' <span class="dg-api-type">{esc(alt_label)}</span></p>{body}'
                f'<div class="dg-api-fields">{html}</div></div>'
            )
        parts.append("</div>")
        md = item(f"{label_md}:", children="\n".join(mds))
        made = Fragment("".join(parts), rows, frozenset(ids), frozenset(hits), md, frozenset(deps))
        return levels.of(made)
