"""Many scoreboard viewers in one process (asyncio), for tests/bench/test_scoreboard_bench.py.

    python tests/bench/scoreboard_viewers.py --transport ws --count 1000 --out times.json URL [URL...]

Opens ``count`` viewers spread over the URLs (WebSocket ``ws://...`` or the SSE stream ``http://...``), waits
for every snapshot (``--first none``: for every handshake, as nchan's subscriptions send no snapshot), prints ``READY``, then notes the wall-clock time each viewer receives each delta. After a
delta reached every viewer it prints ``ALL <sequence>``. On ``DONE`` (standard input) or after ``--seconds`` it
writes {sequence: [receive times]} to ``--out`` and exits. Heartbeats are counted, not timed.

With viewers of several games (tests/bench/load/run.py) the sequences of different games share the keys of
``received``; ``by_game`` counts each game's deltas and ``delays`` holds, for every delta, its receipt time less
the server's time in it (when the entry was stored): one machine, one clock.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import os
import re
import resource
import sys
import time
from collections import defaultdict
from datetime import datetime
from urllib.parse import urlsplit

received: dict[int, list[float]] = defaultdict(list)
by_game: dict[int, int] = defaultdict(int)
delays: list[float] = []
heartbeats = 0


# The head of a message: games.live writes kind, game and sequence first. Reading only the head keeps the
# client's own work per message small, so the times measure the server more than this process.
HEAD = re.compile(r'^\{"kind":"(\w+)"(?:,"game":(\d+),"sequence":(\d+))?')
SERVER_TIME = re.compile(r'"server_time":"([^"]+)"')


def _note(text: str, count: int) -> None:
    global heartbeats
    now = time.time()
    head = HEAD.match(text)
    kind = head.group(1) if head else json.loads(text)["kind"]
    if kind == "delta":
        by_game[int(head.group(2))] += 1
        stored = SERVER_TIME.search(text)
        if stored:
            delays.append(now - datetime.fromisoformat(stored.group(1).replace("Z", "+00:00")).timestamp())
        sequence = int(head.group(3))
        times = received[sequence]
        times.append(now)
        if len(times) == count:
            print(f"ALL {sequence}", flush=True)
    elif kind == "heartbeat":
        heartbeats += 1


FIRST = "snapshot"  # what a viewer waits for before it counts as connected (--first)


def _connected(connected: list, count: int, ready: asyncio.Event) -> None:
    connected.append(1)
    if len(connected) == count:
        ready.set()


async def ws_viewer(url: str, count: int, ready: asyncio.Event, connected: list, gate: asyncio.Semaphore):
    """A WebSocket viewer reading frames itself (RFC 6455: the server's frames are unmasked text, pings answered).

    Lighter than a full client library per message, so 1,000 of them in one process measure the server more
    than themselves; the handshake is checked (101 and the accept key), as a browser checks it.
    """
    parts = urlsplit(url)
    key = base64.b64encode(os.urandom(16)).decode()
    async with gate:
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write((f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      f"Origin: http://127.0.0.1\r\n\r\n").encode())  # fmt: skip
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
    assert head.startswith("HTTP/1.1 101") and accept.decode() in head, head
    first = FIRST == "snapshot"
    if not first:
        _connected(connected, count, ready)
    while True:
        byte1, byte2 = await reader.readexactly(2)
        length = byte2 & 0x7F
        if length == 126:
            length = int.from_bytes(await reader.readexactly(2), "big")
        elif length == 127:
            length = int.from_bytes(await reader.readexactly(8), "big")
        payload = await reader.readexactly(length)
        opcode = byte1 & 0x0F
        if opcode == 0x9:  # ping: a masked pong with the same payload
            mask = os.urandom(4)
            writer.write(
                bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            )
            continue
        if opcode == 0x8:
            return
        text = payload.decode()
        if first:
            first = False
            assert text.startswith('{"kind":"snapshot"'), text[:80]
            _connected(connected, count, ready)
            continue
        _note(text, count)


async def sse_viewer(url: str, count: int, ready: asyncio.Event, connected: list, gate: asyncio.Semaphore):
    parts = urlsplit(url)
    async with gate:
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # the headers; the body is chunked
    buffer, first = b"", FIRST == "snapshot"
    if not first:
        _connected(connected, count, ready)
    while True:
        size = int((await reader.readline()).strip() or b"0", 16)
        if size == 0:
            return
        buffer += (await reader.readexactly(size + 2))[:-2]
        *events, buffer = buffer.split(b"\n\n")
        for chunk in events:
            data = [line for line in chunk.split(b"\n") if line.startswith(b"data: ")]
            if not data:
                continue  # a comment (": hi") or an id alone
            text = data[0].removeprefix(b"data: ").decode()
            if first:
                first = False
                _connected(connected, count, ready)
                continue
            _note(text, count)


async def main(args) -> None:
    ready = asyncio.Event()
    connected: list[int] = []
    gate = asyncio.Semaphore(50)  # connections opened at once
    viewer = ws_viewer if args.transport == "ws" else sse_viewer
    tasks = [
        asyncio.ensure_future(viewer(args.urls[n % len(args.urls)], args.count, ready, connected, gate))
        for n in range(args.count)
    ]
    started = time.monotonic()
    waiting = asyncio.ensure_future(ready.wait())
    await asyncio.wait([waiting, *tasks], timeout=args.seconds, return_when=asyncio.FIRST_COMPLETED)
    while not ready.is_set():
        failed = [t for t in tasks if t.done()]
        if failed:
            failed[0].result()  # raises the first viewer's error
        if int(time.monotonic() - started) % 10 == 0:
            print(f"CONNECTED {len(connected)}", file=sys.stderr, flush=True)
        if time.monotonic() - started > args.seconds:
            raise SystemExit(f"only {len(connected)} of {args.count} viewers connected")
        await asyncio.sleep(1)
    print(f"READY {time.monotonic() - started:.1f}", flush=True)
    loop = asyncio.get_running_loop()
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:  # "COUNT": how many deltas so far; "DONE" (or the end of input): write, exit
        line = loop.run_in_executor(None, sys.stdin.readline)
        await asyncio.wait([line], timeout=deadline - time.monotonic())
        if not line.done() or line.result().strip() != "COUNT":
            break
        print(f"COUNT {sum(by_game.values())}", flush=True)
    with open(args.out, "w") as out:
        games: dict[int, int] = defaultdict(int)  # viewers per game, by the game's id in its URL
        for n in range(args.count):
            found = re.search(r"/games/(\d+)/", args.urls[n % len(args.urls)])
            games[int(found.group(1)) if found else 0] += 1
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        json.dump({"received": received, "heartbeats": heartbeats, "viewers": len(connected), "by_game": by_game,
                   "delays": delays, "games": games, "cpu_s": cpu.ru_utime + cpu.ru_stime}, out)  # fmt: skip
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--transport", choices=["ws", "sse"], default="ws")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument(
        "--first",
        choices=["snapshot", "none"],
        default="snapshot",
        help="none: a viewer is connected at its handshake (nchan sends no snapshot)",
    )
    arguments = parser.parse_args()
    FIRST = arguments.first
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets in one process
    asyncio.run(main(arguments))
