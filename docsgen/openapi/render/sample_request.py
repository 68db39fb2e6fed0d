"""The language-neutral description of a sample request, and string-literal helpers for the generators."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

BOUNDARY = "---011000010111000001101001"


@dataclass
class SampleRequest:
    """What every generator needs: method, full URL, headers and the body in a few shapes."""

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body_kind: str = ""  # "" | "json" | "form" | "multipart" | "binary" | "text"
    content_type: str = ""
    json_value: Any = None  # for "json"
    text: str = ""  # "form": urlencoded string; "text": the raw text
    form: list[tuple[str, str, bool]] = field(default_factory=list)  # multipart (name, value, is_file)
    # the JSON body as text by `pretty`: most generators ask for it, and a large body costs milliseconds to dump
    _json_texts: dict[bool, str] = field(default_factory=dict, repr=False, compare=False)

    def all_headers(self) -> list[tuple[str, str]]:
        """Headers including the Content-Type of the body (multipart with its boundary)."""
        out = list(self.headers)
        if self.body_kind == "multipart":
            out.append(("Content-Type", f"multipart/form-data; boundary={BOUNDARY}"))
        elif self.content_type:
            out.append(("Content-Type", self.content_type))
        return out

    def body_text(self, pretty: bool = True) -> str:
        """The body as one string (multipart spelled out with its boundary; files as placeholders)."""
        if self.body_kind == "json":
            text = self._json_texts.get(pretty)
            if text is None:
                text = json.dumps(self.json_value, indent=2 if pretty else None, ensure_ascii=False)
                self._json_texts[pretty] = text
            return text
        if self.body_kind == "multipart":
            parts = []
            for name, value, is_file in self.form:
                disp = f'form-data; name="{name}"' + (f'; filename="{value}"' if is_file else "")
                parts.append(
                    f"--{BOUNDARY}\r\nContent-Disposition: {disp}\r\n\r\n{'' if is_file else value}\r\n"
                )
            return "".join(parts) + f"--{BOUNDARY}--\r\n"
        if self.body_kind == "binary":
            return "<binary data>"
        return self.text


# -- string literals ---------------------------------------------------------------------------------------
def dq(text: str) -> str:
    """A double-quoted string literal understood by C-like languages (JSON escaping)."""
    return json.dumps(text, ensure_ascii=False)


def sq_shell(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def sq_php(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def sq_ps(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def dq_dollar(text: str) -> str:
    """Kotlin/Dart double-quoted literal: `$` starts interpolation there."""
    return dq(text).replace("$", "\\$")


def pyrepr(value: Any, indent: int = 0) -> str:
    """A Python literal for a JSON value (True/False/None), indented like json.dumps."""
    pad, inner = "    " * indent, "    " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{dq(str(k))}: {pyrepr(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(f"{inner}{pyrepr(v, indent + 1)}" for v in value) + f"\n{pad}]"
    if value is True:
        return "True"
    if value is False:
        return "False"
    if value is None:
        return "None"
    if isinstance(value, str):
        return dq(value)
    return json.dumps(value)


def indent_lines(text: str, pad: str) -> str:
    return text.replace("\n", "\n" + pad)
