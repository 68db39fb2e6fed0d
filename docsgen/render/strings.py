"""The interface's own words ("On this page", "Was this page helpful?", search, pagination, 404 ...) in every
language Mintlify supports: themes/base/strings.json, one object per language code, English the fallback.
docs.json `strings` overrides them: {"*": {...}} for every language, {"de": {...}} for one.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from docsgen.common.resources import themes_dir
from docsgen.common.theme import register_template_globals

# Codes real sites use for the languages of the catalogue (BCP 47 and Mintlify's own).
ALIASES = {
    "ja": "jp", "ja-JP": "jp", "ja-jp": "jp", "zh": "cn", "zh-CN": "cn", "zh-Hans": "cn", "zh-TW": "zh-Hant",
    "uk": "ua", "pt": "pt-BR", "fr-CA": "fr", "fr-ca": "fr", "nb": "no", "en-US": "en", "en-GB": "en",
}  # fmt: skip


@functools.cache
def catalogue() -> dict[str, dict[str, str]]:
    """Return every language's interface strings (read once)."""
    return json.loads((themes_dir() / "base" / "strings.json").read_text(encoding="utf-8"))


def catalogue_code(lang: str | None) -> str:
    """Return the catalogue's code for a page language ('en' when it has none of its own)."""
    if not lang:
        return "en"
    known = catalogue()
    if lang in known:
        return lang
    if lang in ALIASES:
        return ALIASES[lang]
    base = lang.split("-")[0].lower()
    return base if base in known else ALIASES.get(base, "en")


def interface_strings(lang: str | None, overrides: Any = None) -> dict[str, str]:
    """Return the interface strings of a language: English, the language's, then docs.json `strings` ("*" and the
    page's own code)."""
    known = catalogue()
    out = dict(known["en"]) | known.get(catalogue_code(lang), {})
    if isinstance(overrides, dict):
        for key in ("*", lang or "en"):
            value = overrides.get(key)
            if isinstance(value, dict):
                out.update({k: str(v) for k, v in value.items() if isinstance(v, str | int | float)})
    return out


# The words the theme's scripts write (search counts, copy feedback, the playground, the assistant ...). A page
# carries the ones its language (or docs.json) changes from English in <html data-strings>, read by window.dgT
# (partials/theme-init.js); each script passes the English text along, so an English page carries nothing.
SCRIPT_KEYS = (
    "try_it", "send", "cancel", "yes", "no", "results_one", "results", "no_results_for", "browse_section",
    "zoom_image", "copy", "copied", "copy_failed", "install_copied", "show_more", "show_less", "copy_image",
    "download_image", "feedback_thanks", "feedback_unreachable", "comment_snippet", "snippet_question",
    "send_comment", "comment_first", "build_request", "close_playground", "sending", "path_params", "query_params",
    "headers", "cookies", "server", "base_url", "authorization", "auth_method", "none", "username", "password",
    "body", "required", "content_type", "add_item", "request_sample", "no_response_body", "show_all", "download",
    "request_cancelled", "credentials_hint", "use_proxy", "fix_fields", "ask_ai", "close", "your_question",
    "ask_placeholder", "answer_helpful", "rating_failed", "sources", "assistant_busy", "assistant_failed",
    "assistant_unreachable", "ask_ai_question", "mcp_copied", "option_n", "assistant_hint", "assistant_searching",
    "pages_used", "too_many_messages", "server_answered", "feedback_failed", "comment_snippet_named",
    "snippet_thanks", "remove_item", "example", "body_editor", "form", "body_fields", "cookie_hint", "bearer_token",
    "access_token", "file_of_type", "showing_chars", "response_image", "api_playground", "cookies_hint",
    "request_only", "no_server", "valid_json", "valid_email", "env", "env_name", "env_placeholder", "save", "delete", "env_applied",
    "env_name_first", "env_saved", "env_deleted", "env_hint", "history", "clear_history", "rerun", "not_set",
    # the OAuth box, the WebSocket console, failure explanations, validation messages, diagrams, search, feedback
    "explain_page", "comment_failed", "zoom_in", "zoom_out", "reset_view", "signing_in", "callback_error",
    "callback_done", "callback_lost", "oauth_code_flow", "oauth_client_flow", "token_answered", "token_failed",
    "token_cors", "signin_closed", "auth_server_error", "no_code", "oauth_flow", "client_id", "client_secret",
    "client_secret_optional", "scopes", "get_token", "authorize", "client_id_first", "requesting_token",
    "waiting_signin", "token_received", "token_valid_for", "token_scopes", "token_tab_only", "no_token",
    "popup_blocked", "bad_auth_url", "val_not_null", "val_one_of", "val_equal", "val_integer", "val_number",
    "val_string", "val_boolean", "val_array", "val_object", "val_gt", "val_min", "val_lt", "val_max",
    "val_multiple", "val_min_length", "val_max_length", "val_pattern", "val_min_items", "val_max_items",
    "val_required", "val_json", "val_file", "via_proxy", "exposed_headers", "binary_response", "unknown_type",
    "mixed_title", "mixed_hint", "cut_title", "cut_limit", "cut_api", "cors_title", "cors_origin",
    "cors_preflight", "cors_tick_proxy", "cors_proxy_hint", "unreachable_title", "the_server",
    "unreachable_hint", "unreachable_cors", "browser_message", "ws_console", "connect", "server_url",
    "not_connected", "message", "message_to_send", "clear", "messages", "ws_sent", "ws_received", "disconnect",
    "cannot_connect", "connecting", "connected_to", "ws_connected", "ws_binary", "ws_failed",
    "disconnected_reason", "disconnected", "ws_disconnected", "field_error", "search_needs_http",
    "search_unavailable", "ai_prompt",
)  # fmt: skip


def script_strings(words: dict[str, str]) -> dict[str, str]:
    """Return the script words of a page's interface strings that differ from English (empty for English).

    Worked out once per words object: the pages of a language share theirs (docsgen.render.html.page_strings),
    and this walk of 200 keys was 0.04 ms of every page's template. The object is held with its answer, so its
    id cannot be reused by another one while remembered; the words are never changed after they are made.
    """
    return _script_entry(words)[1]


def script_strings_attr(words: dict[str, str]) -> Markup:
    """Return the `<html data-strings>` value of these words (their script words as JSON, escaped for an
    attribute; empty for English): what `script_strings(t)|tojson|forceescape` gives, made once per words object
    (dumping and escaping ~100 translated words was 18 % of a translated page's template)."""
    return _script_entry(words)[2]


def _script_entry(words: dict[str, str]) -> tuple[dict[str, str], dict[str, str], Markup]:
    found = _SCRIPT_MEMO.get(id(words))
    if found is not None and found[0] is words:
        return found
    english = catalogue()["en"]
    chosen = {key: words[key] for key in SCRIPT_KEYS if key in words and words[key] != english.get(key)}
    # as Jinja's tojson filter dumps (sort_keys, its default policy) and forceescape escapes again
    attr = escape(str(htmlsafe_json_dumps(chosen, sort_keys=True))) if chosen else Markup("")
    if len(_SCRIPT_MEMO) >= 64:
        _SCRIPT_MEMO.clear()
    entry = _SCRIPT_MEMO[id(words)] = (words, chosen, attr)
    return entry


_SCRIPT_MEMO: dict[int, tuple[dict[str, str], dict[str, str], Markup]] = {}


# Templates rendered without a page language (redirect pages, a theme's own) get the English words.
register_template_globals(
    {
        "t": dict(catalogue()["en"]),
        "script_strings": script_strings,
        "script_strings_attr": script_strings_attr,
    }
)
