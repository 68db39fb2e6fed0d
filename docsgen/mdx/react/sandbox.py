"""docsgen's side of the JavaScript sandbox process (docsgen/mdx/react/box.py): start it, talk to it under a deadline.

A call may use the engine's time limit of processor time (QuickJS's interrupt) plus KILL_MARGIN: past that the
kernel ends the page's realm (RLIMIT_CPU), even inside a backtracking regular expression, which never checks the
interrupt. A call still unanswered after WALL_FACTOR times that in wall-clock time (a stopped process) is killed
from here."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from docsgen.mdx.react.box import frame, receive

BOX = Path(__file__).resolve().with_name("box.py")
KILL_MARGIN = 1.0  # seconds of processor time past the engine's time limit before the realm is ended
WALL_FACTOR = 10  # wall-clock seconds per allowed processor second before docsgen kills (a loaded machine)
START_TIMEOUT = 60.0  # seconds for the sandbox to load the bundle (a loaded machine is slow)


class SandboxFailed(RuntimeError):
    """The sandbox process could not start, died, or did not answer in time (and was killed)."""

    def __init__(self, message: str, overdue: bool = False, ended: bool = False):
        super().__init__(message)
        self.overdue = overdue  # no answer by the wall-clock deadline
        self.ended = ended  # the process ended without answering


def _ask(sock: socket.socket, message: Any, deadline: float) -> dict[str, Any]:
    """Send one request and wait for its answer until the deadline (monotonic seconds)."""
    try:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        sock.sendall(frame(message))
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        answer = receive(sock)
    except TimeoutError:
        raise SandboxFailed("no answer in time", overdue=True) from None
    except OSError as exc:
        raise SandboxFailed(f"the JavaScript process failed ({exc})") from None
    if not isinstance(answer, dict):
        raise SandboxFailed("the JavaScript process ended without an answer", ended=True)
    return answer


def _deadline(limit: float) -> float:
    return time.monotonic() + (limit + KILL_MARGIN) * WALL_FACTOR


class Realm:
    """A page's own copy of the loaded engine (a forked process), talked to over its socket."""

    def __init__(self, sock: socket.socket, pid: int):
        self.sock = sock
        self.pid = pid

    def eval(self, codes: list[str], limit: float) -> list[dict[str, Any]]:
        """Evaluate in order, up to the first error: one answer each (one round trip for a page's modules)."""
        message = {"codes": codes, "limit": limit, "kill_after": KILL_MARGIN}
        answer = _ask(self.sock, message, _deadline(limit * len(codes)))
        answers = answer.get("answers")
        if not isinstance(answers, list) or not answers:
            raise SandboxFailed("the JavaScript realm answered nothing")
        return answers

    def close(self) -> None:
        self.sock.close()  # the realm process sees the end of its socket and exits


class Sandbox:
    """The sandbox process of this docsgen process: one QuickJS with the bundle loaded, forked into realms."""

    def __init__(self, bundle: Path, driver: Path, memory: int, stack: int, limit: float):
        self.limit = limit
        self.owner = os.getpid()  # a forked render worker inherits this object: it starts its own sandbox
        ours, theirs = socket.socketpair()
        args = [str(BOX), str(theirs.fileno()), str(bundle), str(driver), str(memory), str(stack), str(limit)]
        try:
            self.process = subprocess.Popen(
                [sys.executable, *args],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C in the terminal is for docsgen, which then closes the socket
            )
        except (OSError, ValueError) as exc:  # ValueError: no file descriptors to pass on this platform
            ours.close()
            raise SandboxFailed(f"cannot start {sys.executable} for the JavaScript engine: {exc}") from exc
        finally:
            theirs.close()
        self.sock = ours
        self.spare: Realm | None = None  # the next page's realm, forked ahead
        self.spare_asked = False  # its answer is still on the socket
        try:
            answer = _ask_reply(ours, time.monotonic() + START_TIMEOUT)
        except SandboxFailed:
            self.kill()
            raise
        if "error" in answer:
            self.kill()
            raise SandboxFailed(str(answer.get("text")))

    def eval(self, code: str, limit: float) -> dict[str, Any]:
        """Evaluate in the sandbox's own realm (no component code runs there: compiling only)."""
        self._settle()
        message = {"op": "eval", "code": code, "limit": limit}
        return _ask(self.sock, message, _deadline(limit))

    def realm(self) -> Realm:
        """A fresh realm for one page. The next page's is asked for at once: forked while this page renders."""
        realm = self.spare or self._receive_realm(asked=self.spare_asked)
        self.spare = None
        try:
            self.sock.sendall(frame({"op": "realm"}))
            self.spare_asked = True
        except OSError:
            pass  # the sandbox is gone: the next call says so
        return realm

    def _settle(self) -> None:
        """Take the realm forked ahead before another request (answers come in order)."""
        if self.spare_asked:
            self.spare = self._receive_realm(asked=True)

    def _receive_realm(self, asked: bool) -> Realm:
        self.spare_asked = False
        try:
            self.sock.settimeout(START_TIMEOUT)
            if not asked:
                self.sock.sendall(frame({"op": "realm"}))
            data, fds, _flags, _addr = socket.recv_fds(self.sock, 4096, 1)
        except OSError as exc:
            raise SandboxFailed(f"cannot start a JavaScript realm ({exc})") from None
        if not fds or len(data) < 4:
            for fd in fds:
                os.close(fd)
            raise SandboxFailed("the JavaScript process ended")
        sock = socket.socket(fileno=fds[0])
        try:
            pid = int(json.loads(data[4:])["value"])
        except (ValueError, KeyError, TypeError):
            sock.close()
            raise SandboxFailed("the JavaScript process sent no realm") from None
        return Realm(sock, pid)

    def kill_realm(self, realm: Realm) -> str:
        """End a realm that failed; return how it ended ("SIGXCPU": past its processor time; "killed": here).

        Through the sandbox, its parent, which has not reaped it yet: never another process that took its pid."""
        realm.close()
        try:
            self._settle()
            answer = _ask(self.sock, {"op": "kill", "pid": realm.pid}, time.monotonic() + START_TIMEOUT)
        except SandboxFailed:
            self.kill()
            return "killed"
        return str(answer.get("value"))

    def kill(self, wait: float = 0.0) -> None:
        """End the sandbox process: at once (overdue, broken), or after `wait` seconds to end on its own."""
        if self.spare is not None:
            self.spare.close()
        self.sock.close()  # the sandbox and its realms end at the end of their sockets
        if os.getpid() != self.owner:
            return
        try:
            self.process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def _ask_reply(sock: socket.socket, deadline: float) -> dict[str, Any]:
    """Wait for a message the sandbox sends unasked (its start)."""
    try:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        answer = receive(sock)
    except (TimeoutError, OSError) as exc:
        raise SandboxFailed(f"the JavaScript process did not start ({exc})") from None
    if not isinstance(answer, dict):
        raise SandboxFailed("the JavaScript process ended while starting")
    return answer
