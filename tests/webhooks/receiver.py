"""A real receiving server on loopback for the webhook tests: a federation's system in a thread
(``http.server``), recording each request and answering the statuses it is told, in turn (then 200)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # statuses to answer in turn, then 200


def start_receiver(path: str = "/hooks") -> tuple[Receiver, ThreadingHTTPServer]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
                status = receiver.answers.pop(0) if receiver.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}{path}")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server
