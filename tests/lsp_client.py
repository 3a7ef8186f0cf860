"""A small LSP client for the end-to-end tests: `wkparse server` in a child process, JSON-RPC
over its stdin and stdout, as an editor speaks it (no pygls on this side)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]


class Client:
    def __init__(
        self,
        cwd: Path | None = None,
        capabilities: Message | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "wkparse", "server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self._next = 0
        #: messages received so far: each message gets its place in line as "_seq"
        self.received = 0
        self._responses: dict[int, queue.Queue[Message]] = {}
        self._lock = threading.Lock()
        self.notifications: queue.Queue[Message] = queue.Queue()
        #: server-to-client requests seen (answered with null)
        self.requests: list[Message] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.capabilities = capabilities or {}

    # ---- wire -------------------------------------------------------------------------------

    def send_raw(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _send(self, message: Message) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None
            message: Message = json.loads(stream.read(length))
            self.received += 1
            message["_seq"] = self.received
            if "id" in message and "method" in message:
                self.requests.append(message)
                self._send({"id": message["id"], "result": None})
            elif "id" in message:
                with self._lock:
                    box = self._responses.setdefault(message["id"], queue.Queue())
                box.put(message)
            else:
                self.notifications.put(message)

    # ---- requests -----------------------------------------------------------------------

    def request_raw(self, method: str, params: object, timeout: float = 60) -> Message:
        """Send a request; the whole response (`result` or `error`)."""
        with self._lock:
            self._next += 1
            ident = self._next
            box = self._responses.setdefault(ident, queue.Queue())
        self._send({"id": ident, "method": method, "params": params})
        return box.get(timeout=timeout)

    def request(self, method: str, params: object, timeout: float = 60) -> Any:
        response = self.request_raw(method, params, timeout)
        assert "error" not in response, response
        return response.get("result")

    def notify(self, method: str, params: object) -> None:
        self._send({"method": method, "params": params})

    def wait_for(
        self, method: str, where: Callable[[Message], bool] = lambda m: True, timeout: float = 60
    ) -> Message:
        """The next notification `method` that `where` accepts (others are dropped)."""
        while True:
            message = self.notifications.get(timeout=timeout)
            if message.get("method") == method and where(message["params"]):
                params: Message = {**message["params"], "_seq": message["_seq"]}
                return params

    # ---- session ------------------------------------------------------------------------

    def initialize(self, root: Path) -> Any:
        result = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": self.capabilities,
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.absolute().as_uri()
        body = path.read_text(encoding="utf-8") if text is None else text
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "plaintext",
                    "version": version,
                    "text": body,
                }
            },
        )
        return uri

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 60) -> list[Any]:
        params = self.wait_for(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and (version is None or p.get("version") == version),
            timeout,
        )
        found: list[Any] = params["diagnostics"]
        return found

    def close(self) -> int:
        """shutdown, exit; the server's exit code."""
        try:
            if self.process.poll() is None:
                self.request("shutdown", None, timeout=30)
                self.notify("exit", None)
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
