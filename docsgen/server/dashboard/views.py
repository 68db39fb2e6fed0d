"""The dashboard's pages: sign-in, feedback triage, API keys, deployments."""

from __future__ import annotations

import hmac
import re
from datetime import UTC, datetime
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from docsgen.server import feedback as fb
from docsgen.server.apierror import ApiError
from docsgen.server.dashboard import charts, reports, sessions
from docsgen.server.dashboard.keyuse import record_key_use
from docsgen.server.dashboard.web import (
    PRE_COOKIE,
    clear_session_cookie,
    highlight_code,
    read_form,
    render,
    same_origin,
    set_session_cookie,
    set_signin_cookie,
    signin_token,
    templates,
)
from docsgen.server.keys import create_key, revoke_key
from docsgen.server.projects import get_project

PAGE_SIZE = 25
FILTERS = ("dateFrom", "dateTo", "source", "status")
KEY_ID_RE = re.compile(r"^[A-Za-z0-9]{1,16}$")
DEP_ID_RE = re.compile(r"^dep_[0-9a-f]{1,32}$")


class Forbidden(Exception):
    """A state change without a valid CSRF token or from another site."""


class Dashboard:
    """The dashboard's request handlers, sharing the feedback server's database and secrets."""

    def __init__(self, server, prefix: str = "/dashboard"):
        self.server = server
        self.prefix = prefix
        self.env = templates()
        self.env.globals["prefix"] = prefix
        self.limiter = sessions.SignInLimiter()

    # Sessions ---------------------------------------------------------------------------------------------

    async def session(self, request: Request) -> sessions.Session | None:
        """Return the request's live session, or None."""
        return await self.server.db(sessions.lookup, request.cookies.get(sessions.COOKIE))

    async def form(self, request: Request, session: sessions.Session):
        """Read a state-changing form after checking its origin and CSRF token."""
        form = await read_form(request)
        token = form.get("csrf")  # read_form holds text only
        if not same_origin(request) or not session.csrf_ok(token if isinstance(token, str) else None):
            raise Forbidden
        return form

    def page(self, request: Request, name: str, session: sessions.Session | None, **context) -> Response:
        """Render a signed-in page with the navigation and the session's CSRF token."""
        status = context.pop("status", 200)
        return render(self.env, name, status=status, session=session, path=request.url.path, **context)

    def go(self, where: str, query: dict | None = None) -> Response:
        """Redirect (303) to a dashboard path after a form post."""
        url = self.prefix + where + ("?" + urlencode(query) if query else "")
        return RedirectResponse(url, status_code=303)

    async def home(self, request: Request) -> Response:
        """GET /dashboard/: the feedback page when signed in, else the sign-in form."""
        session = await self.session(request)
        return self.go("/feedback" if session else "/signin")

    async def signin_form(self, request: Request, error: str = "", status: int = 200) -> Response:
        """GET /dashboard/signin: the form that exchanges an admin key for a session."""
        token = signin_token(request)
        headers = {"Retry-After": request.state.retry} if getattr(request.state, "retry", None) else None
        response = render(
            self.env, "signin.html", status=status, headers=headers, session=None, token=token, error=error
        )
        set_signin_cookie(response, request, token, self.prefix)
        return response

    async def signin(self, request: Request) -> Response:
        """POST /dashboard/signin: check the key (rate-limited per client) and set the session cookie."""
        client = self.server.client_id(request)
        wait = self.limiter.wait(client)
        if wait:
            request.state.retry = str(max(1, int(wait + 0.999)))
            message = (
                f"Too many failed sign-ins from this address. Try again in {request.state.retry} seconds."
            )
            return await self.signin_form(request, message, 429)
        form = await read_form(request)
        cookie = request.cookies.get(PRE_COOKIE, "")
        submitted = str(form.get("token") or "")
        if (
            not same_origin(request)
            or not cookie
            or not hmac.compare_digest(cookie.encode(), submitted.encode())
        ):
            return await self.signin_form(request, "The form expired. Please sign in again.", 403)
        session = await self.server.db(sessions.sign_in, str(form.get("key") or ""), write=True)
        if session is None:
            self.limiter.failed(client)
            return await self.signin_form(request, "That admin key is unknown, revoked or mistyped.", 401)
        await run_in_threadpool(record_key_use, self.server.engine, session.key_id, True)
        response = self.go("/feedback")
        set_session_cookie(response, request, session, self.prefix)
        response.delete_cookie(PRE_COOKIE, path=self.prefix)
        return response

    async def signout(self, request: Request) -> Response:
        """POST /dashboard/signout: delete the session and its cookie."""
        session = await self.session(request)
        if session is not None:
            try:
                await self.form(request, session)
            except Forbidden:
                message = "This form is out of date or came from another site. Reload the page and try again."
                return self.page(request, "error.html", session, status=403, message=message)
            await self.server.db(sessions.sign_out, session.token, write=True)
        response = self.go("/signin")
        clear_session_cookie(response, request, self.prefix)
        return response

    # Feedback ---------------------------------------------------------------------------------------------

    def filters_of(self, request: Request) -> dict[str, str]:
        """Collect the filter fields of the feedback form (several status boxes become one comma list)."""
        params = request.query_params
        values = {name: params.get(name, "").strip() for name in ("dateFrom", "dateTo", "source")}
        statuses = [s.strip() for item in params.getlist("status") for s in item.split(",") if s.strip()]
        values["status"] = ",".join(dict.fromkeys(statuses))
        return {name: value for name, value in values.items() if value}

    def parse(self, filters: dict[str, str], project_id: str, cursor: str | None = None) -> fb.ListQuery:
        """Validate filters exactly as the listing API does."""
        params = (
            list(filters.items()) + [("limit", str(PAGE_SIZE))] + ([("cursor", cursor)] if cursor else [])
        )
        return fb.parse_list_query(params, self.server.secret, project_id)

    async def feedback(self, request: Request, session: sessions.Session) -> Response:
        """GET /dashboard/feedback: charts, the per-page summary and one page of entries."""
        filters = self.filters_of(request)
        cursor = request.query_params.get("cursor") or None
        error = ""
        try:
            query = self.parse(filters, session.project_id, cursor)
        except ApiError as exc:
            error, filters = exc.message, {}
            query = self.parse({}, session.project_id)
            cursor = None
        page = await self.server.db(fb.list_page, session.project_id, query, self.server.secret)
        pages = await self.server.db(reports.by_page, session.project_id, query)
        daily = await self.server.db(reports.per_day, session.project_id, query)
        entries = []
        for entry in page["feedback"]:
            item = dict(entry, created_ms=fb.parse_time(entry["createdAt"], "createdAt"))
            item["transitions"] = sorted(fb.TRANSITIONS[entry["status"]], key=fb.STATUSES.index)
            if entry["source"] == "code_snippet" and entry.get("code"):
                item["code_html"], item["language"] = highlight_code(
                    entry["code"], entry.get("lang"), entry.get("filename")
                )
            entries.append(item)
        next_url = None
        if page["nextCursor"]:
            next_url = "?" + urlencode({**filters, "cursor": page["nextCursor"]})
        flash = {
            k: int(v) for k, v in request.query_params.items() if k in ("changed", "refused") and v.isdigit()
        }
        return self.page(
            request,
            "feedback.html",
            session,
            entries=entries,
            filters=filters,
            statuses=fb.STATUSES,
            sources=fb.SOURCES,
            source_labels=charts.SOURCE_LABELS,
            chosen_status=set(filters.get("status", "").split(",")) - {""},
            query_string=urlencode(filters),
            next_url=next_url,
            paged=cursor is not None,
            pages=pages,
            daily=daily,
            day_chart=charts.per_day_chart(daily["days"]),
            ratio_chart=charts.helpful_chart(daily["helpful"], daily["notHelpful"]),
            error=error,
            flash=flash,
            status=400 if error else 200,
        )

    async def change_status(self, request: Request, session: sessions.Session) -> Response:
        """POST /dashboard/feedback/status: move one entry, or every selected entry, to a new status."""
        form = await self.form(request, session)
        one = str(form.get("one") or "")
        if one:
            entry_id, _, target = one.partition(":")
            changes = [(entry_id, target)]
        else:
            target = str(form.get("status") or "")
            changes = [(str(entry_id), target) for entry_id in form.getlist("id")]
        changed = refused = 0
        for entry_id, to in changes:
            try:
                await self.server.db(
                    fb.change_status, session.project_id, entry_id, {"status": to}, session.key_id, write=True
                )
                changed += 1
            except ApiError:  # not this project's entry, or a transition the rules do not allow
                refused += 1
        back = {k: v for k, v in form.multi_items() if k.startswith("f_")}
        query = {k[2:]: str(v) for k, v in back.items() if k[2:] in FILTERS}
        return self.go("/feedback", {**query, "changed": changed, "refused": refused})

    async def export(self, request: Request, session: sessions.Session) -> Response:
        """GET /dashboard/feedback/export.csv: every entry of the current filter as CSV."""
        try:
            query = self.parse(self.filters_of(request), session.project_id)
        except ApiError as exc:
            return PlainTextResponse(exc.message, status_code=400)
        text = await self.server.db(reports.export_csv, session.project_id, query, self.server.secret)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        disposition = f'attachment; filename="feedback-{session.project_id}-{stamp}.csv"'
        return Response(
            text.encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": disposition},
        )

    # Keys -------------------------------------------------------------------------------------------------

    async def keys(self, request: Request, session: sessions.Session, new_key: str = "") -> Response:
        """GET /dashboard/keys: the project's keys by prefix, creation and last use."""
        rows = await self.server.db(reports.keys_with_use, session.project_id)
        revoked = request.query_params.get("revoked", "")
        return self.page(
            request,
            "keys.html",
            session,
            keys=rows,
            new_key=new_key,
            revoked=revoked if KEY_ID_RE.match(revoked) else "",
        )

    async def create_key(self, request: Request, session: sessions.Session) -> Response:
        """POST /dashboard/keys: create a key and show it this once."""
        await self.form(request, session)
        key = await self.server.db(create_key, session.project_id, write=True)
        return await self.keys(request, session, new_key=key)

    async def revoke_key(self, request: Request, session: sessions.Session) -> Response:
        """POST /dashboard/keys/{id}/revoke: revoke one of this project's keys."""
        await self.form(request, session)
        ident = request.path_params["id"]
        rows = await self.server.db(reports.keys_with_use, session.project_id)
        if not any(row["id"] == ident for row in rows):
            return self.page(
                request, "error.html", session, status=404, message="No such key in this project."
            )
        await self.server.db(revoke_key, ident, write=True)
        return self.go("/keys", {"revoked": ident})

    # Deployments ------------------------------------------------------------------------------------------

    async def deployments(self, request: Request, session: sessions.Session, error: str = "") -> Response:
        """GET /dashboard/deployments: trigger form and history."""
        project = await self.server.db(get_project, session.project_id)
        history = await self.server.db(reports.deployment_history, session.project_id)
        previews = await run_in_threadpool(self.server.previews.all, project) if project else []
        return self.page(
            request,
            "deployments.html",
            session,
            project=project,
            history=history,
            previews=previews,
            active=any(d["status"] in ("queued", "running") for d in history),
            error=error,
            status=409 if error else 200,
        )

    async def deploy(self, request: Request, session: sessions.Session) -> Response:
        """POST /dashboard/deployments: start a rebuild in the background."""
        form = await self.form(request, session)
        project = await self.server.db(get_project, session.project_id)
        try:
            deployment = await run_in_threadpool(
                self.server.deployer.start, project, form.get("strict") == "on"
            )
        except ApiError as exc:
            return await self.deployments(request, session, error=exc.message)
        return self.go(f"/deployments/{deployment['id']}")

    async def deployment(self, request: Request, session: sessions.Session) -> Response:
        """GET /dashboard/deployments/{id}: one deployment's status, summary and located errors."""
        dep_id = request.path_params["id"]
        try:
            if not DEP_ID_RE.match(dep_id):
                raise ApiError(404, "not_found", "no such deployment")
            deployment = await run_in_threadpool(self.server.deployer.get, session.project_id, dep_id)
        except ApiError:
            return self.page(request, "error.html", session, status=404, message="No such deployment.")
        return self.page(
            request,
            "deployment.html",
            session,
            dep=deployment,
            active=deployment["status"] in ("queued", "running"),
        )
