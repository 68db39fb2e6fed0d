"""The one error shape of the feedback API: {"error": {"code", "message", "param"?}} with a fitting status."""

from __future__ import annotations

from starlette.responses import JSONResponse


class ApiError(Exception):
    """An error answered to the client as JSON; never a traceback."""

    def __init__(
        self, status: int, code: str, message: str, param: str | None = None, headers: dict | None = None
    ):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.param = param
        self.headers = headers or {}

    def body(self) -> dict:
        """Return the JSON body."""
        error = {"code": self.code, "message": self.message}
        if self.param is not None:
            error["param"] = self.param
        return {"error": error}

    def response(self, extra_headers: dict | None = None) -> JSONResponse:
        """Return the HTTP response for this error."""
        return JSONResponse(
            self.body(), status_code=self.status, headers={**self.headers, **(extra_headers or {})}
        )


def bad_request(message: str, param: str | None = None, code: str = "invalid_parameter") -> ApiError:
    """Build a 400 for a malformed query parameter or body."""
    return ApiError(400, code, message, param)


def unprocessable(message: str, param: str | None = None) -> ApiError:
    """Build a 422 for a well-formed body whose content breaks a rule."""
    return ApiError(422, "validation_failed", message, param)
