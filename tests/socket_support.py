"""Helpers of the in-process WebSocket tests (Starlette's test client): a message read
with a deadline, so that a test never waits for ever on a socket."""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.websockets import WebSocketDisconnect

#: Seconds any one socket message may take to arrive, by default.
WAIT = 10.0


def receive(ws: Any, timeout: float = WAIT) -> dict[str, Any]:
    """The next message of a test socket within ``timeout`` seconds (else TimeoutError);
    a close is raised as :class:`~starlette.websockets.WebSocketDisconnect`."""

    async def bounded() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()  # the session's own queue, read with a deadline

    message = ws.portal.call(bounded)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    body: dict[str, Any] = json.loads(message["text"])
    return body
