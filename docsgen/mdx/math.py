"""LaTeX to MathML at build time (latex2mathml), so pages show math without any JavaScript.

Two ways to call it:
- `render_math(tex, display)` never raises: bad TeX comes back as its escaped source in
  `<code class="math-error">`; ask `math_error(tex, display)` for the message to warn with (both share one
  cached conversion, so calling both costs one conversion).
- `mathml(tex, display)` returns the bare `<math>` element or raises `MathError(message)`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape, unescape
from xml.etree.ElementTree import Element

from latex2mathml import exceptions as l2m
from latex2mathml.converter import convert_to_element

__all__ = ["MathError", "math_error", "mathml", "render_math"]

MATHML_NS = "http://www.w3.org/1998/Math/MathML"


class MathError(ValueError):
    """A formula that cannot be converted; str(error) says why, for a located warning."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_MESSAGES: dict[type[BaseException], str] = {
    l2m.NumeratorNotFoundError: "\\frac is missing its numerator",
    l2m.DenominatorNotFoundError: "\\frac is missing its denominator",
    l2m.ExtraLeftOrMissingRightError: "\\left without a matching \\right",
    l2m.MissingSuperScriptOrSubscriptError: "^ or _ without a superscript or subscript",
    l2m.DoubleSubscriptsError: "double subscript: use braces, as in x_{a_b}",
    l2m.DoubleSuperscriptsError: "double superscript: use braces, as in x^{a^b}",
    l2m.NoAvailableTokensError: "the formula ends too early (a command is missing its argument)",
    l2m.InvalidStyleForGenfracError: "invalid style for \\genfrac",
    l2m.MissingEndError: "\\begin{...} without a matching \\end{...}",
    l2m.InvalidAlignmentError: "invalid column alignment",
    l2m.InvalidWidthError: "invalid width",
    l2m.LimitsMustFollowMathOperatorError: "\\limits must follow an operator such as \\sum",
}

# Environments latex2mathml lays out properly; aligned/alignedat/gathered are rewritten to ones it knows.
_ENVIRONMENTS = {
    "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array", "subarray",
    "align", "align*", "split", "cases", "gather", "gather*", "substack",
}  # fmt: skip
_REWRITES = [
    (re.compile(r"\\(begin|end)\{aligned\}"), r"\\\1{align*}"),
    (re.compile(r"\\begin\{alignedat\}\{\d+\}"), r"\\begin{align*}"),
    (re.compile(r"\\end\{alignedat\}"), r"\\end{align*}"),
    (re.compile(r"\\(begin|end)\{gathered\}"), r"\\\1{gather*}"),
]
# Commands KaTeX knows that latex2mathml lacks: upright Greek capitals that look Latin, and \\arg.
_SYMBOLS = {
    **{g: "{\\text{" + latin + "}}" for g, latin in (
        ("Alpha", "A"), ("Beta", "B"), ("Epsilon", "E"), ("Zeta", "Z"), ("Eta", "H"), ("Iota", "I"),
        ("Kappa", "K"), ("Mu", "M"), ("Nu", "N"), ("Omicron", "O"), ("Rho", "P"), ("Tau", "T"), ("Chi", "X"),
    )},
    "omicron": "{\\text{o}}",
    "arg": "\\operatorname{arg}",
}  # fmt: skip
_SYMBOL = re.compile(r"\\(" + "|".join(_SYMBOLS) + r")(?![A-Za-z])")
_ENV = re.compile(r"\\(?:begin|end)\s*\{([^}]*)\}")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_ESCAPED = re.compile(r"\\.", re.S)

# MathML elements latex2mathml produces; anything else is dropped from the output as a precaution.
_TAGS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "mfrac", "msqrt", "mroot", "msub", "msup",
    "msubsup", "munder", "mover", "munderover", "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom",
    "menclose", "merror", "mfenced", "semantics", "annotation", "mmultiscripts", "mprescripts", "none",
}  # fmt: skip


def _check_braces(tex: str) -> None:
    depth = 0
    for char in _ESCAPED.sub("", tex):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError("unbalanced braces: '}' without '{'")
    if depth:
        raise MathError("unbalanced braces: '{' without '}'")


def _prepare(tex: str) -> str:
    """Reject what latex2mathml would silently mis-render, and rewrite environments it lacks."""
    _check_braces(tex)
    for pattern, replacement in _REWRITES:
        tex = pattern.sub(replacement, tex)
    tex = _SYMBOL.sub(lambda m: _SYMBOLS[m.group(1)], tex)
    for name in _ENV.findall(tex):
        if name.strip() not in _ENVIRONMENTS:
            raise MathError(f"unsupported environment {{{name.strip()}}}")
    return tex


def _serialize(element: Element, out: list[str]) -> None:
    """Write the tree as MathML, escaping all text (latex2mathml leaves \\text{<b>} unescaped) and dropping links."""
    tag = element.tag
    if tag not in _TAGS:
        raise MathError(f"unexpected element <{tag}> in the conversion")
    out.append(f"<{tag}")
    for key, value in element.attrib.items():
        if key == "href" or key.startswith("on") or not re.fullmatch(r"[a-z][a-z-]*", key):
            continue
        out.append(f' {key}="{escape(unescape(value))}"')
    out.append(">")
    text = unescape(element.text or "")
    if tag in ("mi", "mo") and (command := _COMMAND.match(text)):
        raise MathError(f"unknown command {command.group(0)}")
    if tag == "mi" and element.text == "&":  # a literal \& arrives as "&#x00026;"
        raise MathError("'&' outside a matrix or alignment")
    out.append(escape(text, quote=False))
    for child in element:
        _serialize(child, out)
        out.append(escape(unescape(child.tail or ""), quote=False))
    out.append(f"</{tag}>")


@lru_cache(maxsize=4096)
def _convert(tex: str, display: bool) -> tuple[str, str | None]:
    """Return (MathML, None) or ("", error message); cached because pages repeat formulas."""
    mode = "block" if display else "inline"
    source = tex.strip()
    if not source:
        return f'<math xmlns="{MATHML_NS}" display="{mode}"></math>', None
    try:
        root = convert_to_element(_prepare(source), display=mode)
        parts: list[str] = []
        for child in root:
            _serialize(child, parts)
    except MathError as error:
        return "", error.message
    except RecursionError:
        return "", "the formula is nested too deeply"
    except Exception as error:  # noqa: BLE001 - latex2mathml raises many kinds on malformed input
        return "", _MESSAGES.get(type(error), "cannot parse the formula")
    body = "".join(parts)
    if len(root) != 1:
        body = f"<mrow>{body}</mrow>"
    annotation = f'<annotation encoding="application/x-tex">{escape(source, quote=False)}</annotation>'
    return (
        f'<math xmlns="{MATHML_NS}" display="{mode}"><semantics>{body}{annotation}</semantics></math>',
        None,
    )


def mathml(tex: str, display: bool = False) -> str:
    """Return the `<math>` element for a TeX formula, or raise MathError with a readable message."""
    markup, error = _convert(tex, display)
    if error is not None:
        raise MathError(error)
    return markup


def math_error(tex: str, display: bool = False) -> str | None:
    """Return why the formula cannot be rendered, or None when it renders."""
    return _convert(tex, display)[1]


def render_math(tex: str, display: bool = False) -> str:
    """Return the HTML for `$tex$` (inline) or `$$tex$$` (display); never raises."""
    markup, error = _convert(tex, display)
    if error is not None:
        markup = f'<code class="math-error">{escape(tex.strip(), quote=False)}</code>'
    if display:
        return f'<div class="math math-display">{markup}</div>'
    return f'<span class="math math-inline">{markup}</span>'


def latex_enabled(config: object) -> bool:
    """Return False when docs.json `styling.latex` is false: `$...$` then stays text, as written.

    Mintlify loads its LaTeX stylesheets when math is detected, always with `true`, never with `false` (for
    sites whose `$` are prices). docsgen renders math at build time with no stylesheet, so `true` is the
    default behaviour and only `false` changes anything.
    """
    raw = getattr(config, "raw", None)
    styling = raw.get("styling") if isinstance(raw, dict) else None
    return not (isinstance(styling, dict) and styling.get("latex") is False)


def math_as_text(tex: str, display: bool = False) -> str:
    """Return the formula's source with its dollar signs, escaped (styling.latex: false)."""
    fence = "$$" if display else "$"
    text = escape(f"{fence}{tex}{fence}", quote=False)
    return f"<p>{text}</p>\n" if display else text
