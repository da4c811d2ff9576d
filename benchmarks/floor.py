"""The floor under the server bench's CPU figures: a bare ASGI app on the same HTTP stack.

``python -m benchmarks.floor PORT`` serves :func:`app` with uvicorn, speaking the
protocol ``fivehundred serve`` speaks (httptools and uvloop where installed, the
same head and connection guards). Every request is answered at once with a
fixed JSON body of the size of a seat's view, so the CPU a request costs this
process is what the HTTP stack and the kernel cost, with no application in it:
no server built on this stack answers a request for less.
"""

from __future__ import annotations

import sys
from typing import Any

#: The answer: a JSON body of about a seat's view's size (5 kB).
BODY = b'{"floor": "' + b"x" * 5000 + b'"}'
HEAD: list[tuple[bytes, bytes]] = [
    (b"content-type", b"application/json"),
    (b"content-length", str(len(BODY)).encode()),
]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answer every HTTP request with :data:`BODY`; nothing else is served."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEAD})
    await send({"type": "http.response.body", "body": BODY})


def main(argv: list[str]) -> None:  # pragma: no cover - runs until killed, in a child
    import uvicorn

    from fivehundred.server.serve import http_protocol

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=int(argv[0]),
        http=http_protocol(),
        loop="auto",
        lifespan="off",
        access_log=False,
        log_level="warning",
        server_header=False,
        date_header=False,
    )


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
