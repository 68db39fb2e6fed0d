"""The JavaScript sandbox process: QuickJS with the vendored Preact renderer, run apart from docsgen so it can be killed.

Started by docsgen.mdx.react.sandbox as `python box.py FD BUNDLE DRIVER MEMORY STACK TIME` (imports nothing of
docsgen). It loads the bundle once, then answers requests on the socket FD, one at a time:

- `{"op": "eval", "code": ..., "limit": seconds}` evaluates in this process's own realm, which component code never reaches
  (docsgen compiles JSX here, with no user code running);
- `{"op": "realm"}` forks a copy of the freshly loaded realm for one page and hands the parent a socket to it (a
  clean realm per page: whatever one page's components change, globals or built-in prototypes, dies with it);
- `{"op": "kill", "pid": N}` kills one of those copies and says how it ended (SIGXCPU: past its processor time).

QuickJS's regular expression engine never checks the interrupt handler, so a backtracking pattern can only be
stopped from outside: each realm runs under RLIMIT_CPU (its time limit plus a margin), and the parent kills it
past a wall-clock deadline as well.

Messages are a 4-byte big-endian length and UTF-8 JSON. Replies: `{"value": string or null}`, or
`{"error": "interrupted" | "memory" | "stack" | "js", "text": ...}`."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import struct
import sys
import time
from typing import Any

_HEADER = struct.Struct(">I")


def receive(sock: socket.socket) -> Any:
    """One message, or None when the other end closed."""
    header = _exactly(sock, _HEADER.size)
    if header is None:
        return None
    body = _exactly(sock, _HEADER.unpack(header)[0])
    return None if body is None else json.loads(body)


def _exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        try:
            chunk = sock.recv(min(size, 1 << 20))
        except ConnectionResetError:  # the other end closed with an answer unread
            return None
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode("utf-8", "surrogatepass")
    return _HEADER.pack(len(body)) + body


def evaluate(quickjs: Any, context: Any, code: str, time_limit: float) -> dict[str, Any]:
    """Evaluate within the engine's time limit; the value when it is a string, else a classified error."""
    context.set_time_limit(time_limit)
    try:
        value = context.eval(code)
        return {"value": value if isinstance(value, str) else None}
    except quickjs.StackOverflow:
        return {"error": "stack", "text": "stack overflow"}
    except quickjs.JSException as exc:
        text = str(exc)
        kind = "interrupted" if "interrupted" in text else "memory" if "out of memory" in text else "js"
        return {"error": kind, "text": text}
    except Exception as exc:  # noqa: BLE001 - a value the binding cannot convert: an engine error, not a crash
        return {"error": "js", "text": f"{type(exc).__name__}: {exc}"}
    finally:
        context.set_time_limit(-1)


def serve_realm(quickjs: Any, context: Any, sock: socket.socket, time_limit: float) -> None:
    """A page's realm: answer evaluations (`{"codes": [...]}`, in order, up to the first error) until the parent
    closes the socket, then exit.

    Each evaluation may use its time limit plus `kill_after` seconds of processor time: past that the kernel
    ends the process (RLIMIT_CPU, SIGXCPU), wherever it is, in a regular expression too."""
    import resource  # POSIX: imported here, so that importing this module works everywhere

    try:
        context.gc()  # touch the heap now, while the parent is busy: copied here, not during the page's first call
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file when SIGXCPU ends it
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        while (request := receive(sock)) is not None:
            limit = float(request.get("limit") or time_limit)
            answers = []
            for code in request.get("codes") or []:  # a page's module definitions, then a render
                allowed = int(time.process_time() + limit + float(request.get("kill_after") or 1)) + 1
                if hard != resource.RLIM_INFINITY:
                    allowed = min(allowed, hard)
                resource.setrlimit(resource.RLIMIT_CPU, (allowed, hard))
                before = time.process_time()
                answers.append(evaluate(quickjs, context, str(code), limit))
                answers[-1]["cpu"] = time.process_time() - before  # the React budget counts processor time
                if "error" in answers[-1]:
                    break  # what follows needed it
            sock.sendall(frame({"answers": answers}))
    finally:
        os._exit(0)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def main(argv: list[str]) -> None:
    fd, bundle, driver, memory, stack, time_limit = argv
    control = socket.socket(fileno=int(fd))
    try:
        import quickjs

        context = quickjs.Context()
        context.set_memory_limit(int(memory))
        context.set_max_stack_size(int(stack))
        for path in (bundle, driver):
            with open(path, encoding="utf-8") as handle:
                context.eval(handle.read())
    except Exception as exc:  # noqa: BLE001 - the parent says why components cannot run
        control.sendall(frame({"error": "start", "text": f"{type(exc).__name__}: {exc}"}))
        return
    control.sendall(frame({"value": "ready"}))
    limit = float(time_limit)
    realms: set[int] = set()  # realms not reaped yet
    ended: dict[int, str] = {}  # realms ended by a signal, reaped: how (until the parent asks)
    while (request := receive(control)) is not None:
        for pid in list(realms):  # an unreaped realm keeps its pid: killing it never hits another process
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                realms.discard(pid)
                if os.WIFSIGNALED(status) and len(ended) < 1000:
                    ended[pid] = _signal_name(os.WTERMSIG(status))
        op = request.get("op")
        if op == "realm":
            mine, theirs = socket.socketpair()
            pid = os.fork()
            if pid == 0:
                control.close()
                theirs.close()
                serve_realm(quickjs, context, mine, limit)
            mine.close()
            realms.add(pid)
            socket.send_fds(control, [frame({"value": str(pid)})], [theirs.fileno()])
            theirs.close()
        elif op == "kill":  # a realm that ended (how?) or is past the parent's deadline
            pid = int(request.get("pid", 0))
            how = ended.pop(pid, "gone")
            if pid in realms:
                done, status = os.waitpid(pid, os.WNOHANG)
                if not done:
                    os.kill(pid, signal.SIGKILL)
                    done, status = os.waitpid(pid, 0)
                    how = "killed"
                elif os.WIFSIGNALED(status):
                    how = _signal_name(os.WTERMSIG(status))
                realms.discard(pid)
            control.sendall(frame({"value": how}))
        else:
            code = str(request.get("code", ""))
            control.sendall(frame(evaluate(quickjs, context, code, float(request.get("limit") or limit))))


if __name__ == "__main__":
    with contextlib.suppress(OSError, KeyboardInterrupt):  # docsgen went away: so does the sandbox, quietly
        main(sys.argv[1:])
