"""What the readers' browser suites check on every page, at each width and mode (one place for both suites)."""

from __future__ import annotations

from playwright.sync_api import Page

OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > w + 1 && getComputedStyle(el).position !== "fixed") {
      let inScroller = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") { inScroller = true; break; }
      }
      if (!inScroller) out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: w, culprits: out.slice(0, 6)};
}"""
FILLED_OUTLINES = """() => [...document.querySelectorAll('svg[fill="none"]')]
  .filter((s) => s.getClientRects().length && getComputedStyle(s).fill !== "none")
  .map((s) => s.dataset.icon || s.outerHTML.slice(0, 80))"""
# known: [rule id, CSS selector] pairs naming a site's own defect exactly (only those nodes of that rule are left out)
AXE = """(known) => axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => ({...v, nodes: v.nodes.filter((n) => !(known || []).some(([rule, selector]) =>
    rule === v.id && n.target.length === 1 && document.querySelector(n.target[0])?.matches(selector)))}))
  .filter((v) => v.nodes.length)
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`))"""


def rgb_hex(value: str) -> str:
    """Normalise a computed colour ('rgb(250, 250, 200)', '#abc', '#aabbcc') to upper-case #RRGGBB."""
    value = value.strip()
    if value.startswith("rgb"):
        parts = [int(float(p)) for p in value[value.index("(") + 1 : value.index(")")].split(",")[:3]]
        return "#" + "".join(f"{p:02X}" for p in parts)
    if len(value) == 4 and value.startswith("#"):
        value = "#" + "".join(c * 2 for c in value[1:])
    return value.upper()


def page_problems(
    page: Page,
    where: str,
    mode: str,
    accent: str,
    axe: str,
    errors: list[str],
    known: tuple[tuple[str, str], ...] = (),
) -> list[str]:
    """Return what is wrong with the loaded page: sideways scroll, page errors, accent, dark class, icons, axe
    (but the site's own defects named in `known` as (axe rule id, CSS selector of the elements))."""
    problems: list[str] = []
    box = page.evaluate(OVERFLOW)
    if box["scroll"] > box["width"]:
        problems.append(f"{where}: page is {box['scroll']} px wide: {box['culprits']}")
    problems += [f"{where}: page error {e}" for e in errors]
    found = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--dg-primary')")
    if rgb_hex(found) != rgb_hex(accent):
        problems.append(f"{where}: accent {found!r}, expected {accent}")
    has_dark = page.evaluate("document.documentElement.classList.contains('dark')")
    if has_dark != (mode == "dark"):
        problems.append(f"{where}: <html> class 'dark' is {has_dark}")
    filled = page.evaluate(FILLED_OUTLINES)
    if filled:
        problems.append(f"{where}: outline icons drawn filled: {filled[:5]}")
    page.add_script_tag(content=axe)
    problems += [f"{where}: axe {v}" for v in page.evaluate(AXE, [list(k) for k in known])]
    return problems
