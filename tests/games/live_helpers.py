"""A scoreboard viewer in a unit test: the ASGI application driven through asgiref's communicator.

(channels.testing needs daphne, which the portal does not use: uvicorn serves it.)
"""

from __future__ import annotations

import json

from asgiref.testing import ApplicationCommunicator

from portal.asgi import application


def keep_test_connection(monkeypatch) -> None:
    """Let the consumers' database calls share the test's transaction.

    They run on the test's thread (``async_to_sync``), where channels' ``close_old_connections`` would close a
    connection inside a transaction (Django drops one whose autocommit differs from the settings), ending the
    test's transaction on PostgreSQL (SQLite's in-memory test database ignores the close).
    """
    import channels.db

    monkeypatch.setattr(channels.db, "close_old_connections", lambda: None)


SITE = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


class Viewer(ApplicationCommunicator):
    """A WebSocket to ``path`` as a browser on the portal's own pages opens it (``user``: who the session is)."""

    def __init__(self, path: str, *, user=None, headers=None):
        scope = {
            "type": "websocket",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": SITE if headers is None else headers,
            "subprotocols": [],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        if user is not None:
            scope["user"] = user  # as the session middleware finds it
        super().__init__(application, scope)

    async def connect(self, timeout: float = 2) -> tuple[bool, object]:
        """Return (accepted, subprotocol) or (False, the close code)."""
        await self.send_input({"type": "websocket.connect"})
        answer = await self.receive_output(timeout)
        if answer["type"] == "websocket.accept":
            return True, answer.get("subprotocol")
        return False, answer.get("code", 1000)

    async def receive(self, timeout: float = 2) -> dict:
        message = await self.receive_output(timeout)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])

    async def send(self, message: dict) -> None:
        await self.send_input({"type": "websocket.receive", "text": json.dumps(message)})

    async def close(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(2)
