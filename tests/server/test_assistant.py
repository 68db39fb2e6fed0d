"""The assistant against a real server on SQLite and PostgreSQL, a built site and a stand-in model server on
127.0.0.1: retrieval, streamed and non-streamed completions, model failures, no model, limits, storage, ratings
and the admin listings in the shapes of Mintlify's analytics API."""

from __future__ import annotations

import json
import os
import secrets
from types import SimpleNamespace

import httpx
import pytest

from docsgen.server.app import create_app
from docsgen.server.assistant_api import AssistantOptions
from docsgen.server.db import open_database
from docsgen.server.model import ModelConfig
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database
from tests.server.fake_model import fake_model
from tests.server.insights_site import build_site
from tests.server.test_server_mintlify_contract import validator

ORIGIN = "http://docs.example.test"
KEY = "sk-test-" + secrets.token_hex(8)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("asite")
    build_site(root / "docs", root / "out", "http://127.0.0.1:9", "x")
    return root / "out"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def stack(request, site, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'a.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    with fake_model() as (model_url, script):
        os.environ["DOCSGEN_MODEL_API_KEY"] = KEY
        config = ModelConfig.from_options(model_url, "tiny", timeout=10)
        os.environ.pop("DOCSGEN_MODEL_API_KEY")
        with_model = create_app(engine=engine, rate_limit=0, assistant=AssistantOptions(config, rate=0))
        without = create_app(engine=engine, rate_limit=0, assistant=AssistantOptions(None, rate=3))
        with LiveServer(with_model) as live, LiveServer(without) as bare:
            yield SimpleNamespace(engine=engine, url=live.url, bare=bare.url, script=script, site=site)
    engine.dispose()


@pytest.fixture
def project(stack):
    pid = "a" + secrets.token_hex(4)
    key = seed_project(stack.engine, pid, [ORIGIN], docs_dir=stack.site.parent / "docs", out_dir=stack.site)
    return SimpleNamespace(id=pid, key=key, auth={"Authorization": f"Bearer {key}"})


def ask(base: str, project, question: str, **extra) -> dict:
    """POST a question as the widget does; return the parsed stream: sources, text, done (and the raw events)."""
    body = json.dumps({"question": question, **extra})
    headers = {"content-type": "text/plain;charset=UTF-8", "origin": ORIGIN}
    r = httpx.post(f"{base}/v1/assistant/{project.id}/messages", content=body, headers=headers, timeout=30)
    if r.status_code != 200:
        return {"status": r.status_code, "json": r.json()}
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["access-control-allow-origin"] == ORIGIN
    out: dict = {"status": 200, "text": "", "deltas": 0}
    for block in r.text.split("\n\n"):
        if not block.strip():
            continue
        name = block.split("\n")[0].removeprefix("event: ")
        data = json.loads(block.split("\n", 1)[1].removeprefix("data: "))
        if name == "delta":
            out["text"] += data["text"]
            out["deltas"] += 1
        else:
            out[name] = data
    return out


def test_a_streamed_answer_cites_the_pages_it_was_given(stack, project):
    stack.script.replies.append(
        ("stream", ["Refunds take ", "**five business days**", " ([Billing](/billing))."])
    )
    answer = ask(stack.url, project, "How long do refunds take?", path="/guide")
    assert (
        answer["text"] == "Refunds take **five business days** ([Billing](/billing))."
        and answer["deltas"] == 3
    )
    assert answer["sources"]["sources"][0] == {"title": "Billing", "url": "/billing"}
    assert answer["done"]["answered"] is True
    sent = stack.script.requests[-1]
    assert sent["headers"]["authorization"] == f"Bearer {KEY}" and sent["body"]["stream"] is True
    assert sent["body"]["model"] == "tiny" and "five business days" in sent["body"]["messages"][-1]["content"]
    # the thread continues with its history; the admin API lists both turns
    stack.script.replies.append(("json", "Invoices come by e-mail."))
    second = ask(stack.url, project, "And invoices?", threadId=answer["done"]["threadId"])
    assert (
        second["text"] == "Invoices come by e-mail."
        and second["done"]["threadId"] == answer["done"]["threadId"]
    )
    assert [m["role"] for m in stack.script.requests[-1]["body"]["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
    ]
    listing = httpx.get(f"{stack.url}/v1/analytics/{project.id}/assistant", headers=project.auth).json()
    validator("AssistantConversationsResponse").validate(listing)
    assert [c["query"] for c in listing["conversations"]] == ["And invoices?", "How long do refunds take?"]
    assert listing["conversations"][1]["pageUrl"] == ORIGIN + "/guide"
    thread = httpx.get(
        f"{stack.url}/v1/analytics/{project.id}/assistant/threads/{answer['done']['threadId']}",
        headers=project.auth,
    ).json()
    validator("AssistantThreadResponse").validate(thread)
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant", "user", "assistant"]
    stats = httpx.get(
        f"{stack.url}/v1/analytics/{project.id}/assistant/caller-stats", headers=project.auth
    ).json()
    validator("AssistantCallerStatsResponse").validate(stats)
    assert stats == {"web": 2, "api": 0, "other": 0, "total": 2}
    assert KEY not in json.dumps([listing, thread])


@pytest.mark.parametrize(
    "reply", [("error", 500), ("error", 429), ("cut", ["Refunds ", "take"]), ("json", "x" * 1_100_000)]
)
def test_model_failures_fall_back_to_the_pages(stack, project, reply):
    stack.script.replies.append(reply)
    answer = ask(stack.url, project, "How long do refunds take?")
    assert answer["done"]["answered"] is True and answer["sources"]["sources"][0]["url"] == "/billing"
    if reply[0] == "cut":
        assert answer["text"].startswith("Refunds take") and "cut off" in answer["text"]
    else:
        assert "model is unavailable" in answer["text"] and "(/billing)" in answer["text"]


def test_without_a_model_the_best_passages_answer(stack, project):
    answer = ask(stack.bare, project, "How long do refunds take?")
    assert "[Billing - Refunds](/billing)" in answer["text"] and "five business days" in answer["text"]
    nothing = ask(stack.bare, project, "zzqqxx")
    assert nothing["done"]["answered"] is False and nothing["sources"]["sources"] == []
    listing = httpx.get(f"{stack.bare}/v1/analytics/{project.id}/assistant", headers=project.auth).json()
    assert [c["resolutionStatus"] for c in listing["conversations"]] == ["unanswered", "answered"]
    stats = httpx.get(
        f"{stack.url}/v1/analytics/{project.id}/assistant/caller-stats", headers=project.auth
    ).json()
    assert stats["web"] == 2


def test_questions_are_bounded_and_rate_limited(stack, project):
    assert ask(stack.url, project, "x" * 2001)["status"] == 422
    assert ask(stack.url, project, "   ")["status"] == 422
    assert ask(stack.url, project, "hi", threadId="not-a-ulid")["status"] == 422
    assert ask(stack.url, project, "hi", threadId="01ARZ3NDEKTSV4RRFFQ69G5FAV")["status"] == 404
    r = httpx.post(
        f"{stack.url}/v1/assistant/{project.id}/messages",
        json={"question": "hi"},
        headers={"origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "access-control-allow-origin" not in r.headers
    codes = [ask(stack.bare, project, "refunds")["status"] for _ in range(4)]  # 3 a minute on this server
    assert codes.count(429) >= 1


def test_a_rating_joins_the_feedback_list_once(stack, project):
    stack.script.replies.append(("stream", ["Five days."]))
    answer = ask(stack.url, project, "How long do refunds take?", path="/billing")
    rate = {"messageId": answer["done"]["messageId"], "helpful": False, "comment": "Too short"}
    r = httpx.post(f"{stack.url}/v1/assistant/{project.id}/ratings", json=rate, headers={"origin": ORIGIN})
    assert r.status_code == 201
    again = httpx.post(f"{stack.url}/v1/assistant/{project.id}/ratings", json=rate)
    assert again.status_code == 409
    [entry] = httpx.get(f"{stack.url}/v1/analytics/{project.id}/feedback", headers=project.auth).json()[
        "feedback"
    ]
    assert entry["path"] == "/billing" and entry["helpful"] is False and entry["source"] == "contextual"
    assert "How long do refunds take?" in entry["comment"] and entry["comment"].endswith("Too short")


def test_admin_listings_need_the_key_and_validate_parameters(stack, project):
    base = f"{stack.url}/v1/analytics/{project.id}/assistant"
    assert httpx.get(base).status_code == 401
    for params in (
        {"limit": "0"},
        {"limit": "1001"},
        {"cursor": "nope"},
        {"dateFrom": "2026-13-01"},
        {"x": "1"},
    ):
        assert httpx.get(base, params=params, headers=project.auth).status_code == 400
    assert httpx.get(base + "/threads/nope", headers=project.auth).status_code == 400
    assert httpx.get(base + "/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV", headers=project.auth).status_code == 404
    for i in range(5):
        stack.script.replies.append(("json", f"answer {i}"))
        ask(stack.url, project, f"refunds question {i}")
    seen, cursor = [], None
    while True:
        body = httpx.get(
            base, params={"limit": "2", **({"cursor": cursor} if cursor else {})}, headers=project.auth
        ).json()
        validator("AssistantConversationsResponse").validate(body)
        seen += [c["query"] for c in body["conversations"]]
        cursor = body["nextCursor"]
        if not body["hasMore"]:
            assert cursor is None
            break
    assert seen == [f"refunds question {i}" for i in range(4, -1, -1)]


def test_retention_deletes_old_threads_with_their_messages(stack, project):
    from docsgen.server import events

    ask(stack.url, project, "zzqqxx")
    auth = project.auth
    assert httpx.get(f"{stack.bare}/v1/analytics/{project.id}/assistant", headers=auth).json()[
        "conversations"
    ]
    with stack.engine.begin() as conn:
        events.prune(conn, 1, events.now_ms() + 2 * 86_400_000)
    assert (
        httpx.get(f"{stack.bare}/v1/analytics/{project.id}/assistant", headers=auth).json()["conversations"]
        == []
    )
