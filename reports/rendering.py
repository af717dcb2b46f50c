"""HTML to PDF with WeasyPrint, offline and bounded: the project's static files only, a time and a memory limit.

``render_pdf`` renders in a forked child process: the parent waits at most ``REPORTS_RENDER_SECONDS`` and kills
the child after that; the child's address space is capped at ``REPORTS_RENDER_MEMORY_MB`` over what it inherited
(``RLIMIT_AS``), and its CPU time at the time bound (a child whose parent was killed ends by itself). The child
touches no database connection and leaves with ``os._exit``: nothing of the parent's is closed or flushed.

``StaticFilesFetcher`` is the only url_fetcher: a ``file:`` URL inside the project's static folders is read; any
other URL (http, https, ftp, data, a file elsewhere) stops the render, so a document never waits on the network
and never embeds a file from outside the project.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import resource
import select
import signal
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint import CSS, HTML
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

DEFAULT_SECONDS = 30
DEFAULT_MEMORY_MB = 512


class RenderError(Exception):
    """A document could not be rendered: the message says why (kept on the document's row)."""


class RefusedURL(FatalURLFetchingError):
    """The render asked for a resource outside the project's static files (stops the render)."""


def static_roots() -> list[Path]:
    """The folders the project's static files come from: the apps' and STATICFILES_DIRS (finders), STATIC_ROOT."""
    roots: list[Path] = []
    for finder in finders.get_finders():
        for storage in getattr(finder, "storages", {}).values():
            location = getattr(storage, "location", None)
            if location:
                roots.append(Path(location).resolve())
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT).resolve())
    return roots


def static_file_url(name: str) -> str:
    """The ``file:`` URL of the project's static file ``name`` (e.g. ``reports/game_report.css``)."""
    found = finders.find(name)
    if not found:
        raise RenderError(f"The static file {name!r} is missing.")
    return Path(found).resolve().as_uri()


class StaticFilesFetcher(URLFetcher):
    """WeasyPrint's url_fetcher that serves the project's static files and refuses everything else."""

    def __init__(self, roots: list[Path] | None = None):
        super().__init__(timeout=1, allowed_protocols=("file",), allow_redirects=False, fail_on_errors=True)
        self.roots = static_roots() if roots is None else roots

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise RefusedURL(f"Refused {url[:200]!r}: a document uses the project's static files only, no network.")
        path = Path(unquote(parts.path)).resolve()
        if not any(path.is_relative_to(root) for root in self.roots) or not path.is_file():
            raise RefusedURL(f"Refused {url[:200]!r}: not one of the project's static files.")
        content_type = "text/css" if path.suffix == ".css" else None
        headers = {"Content-Type": content_type} if content_type else {}
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), headers)


@dataclass(frozen=True)
class Rendered:
    pdf: bytes
    pages: int
    milliseconds: int  # wall-clock time, fork to answer
    cpu_milliseconds: int  # the child's CPU time (user + system): the render's own cost, whatever the load


class DocumentHTML(HTML):
    """WeasyPrint's HTML with the documents' own user-agent stylesheet (``reports/document-ua.css``).

    WeasyPrint's covers every HTML element, form fields and both writing directions; the documents use a few
    elements, and matching its rules against every cell of a game report's tables was about a third of the render.
    The stylesheet is parsed once per process (the warm-up's), and the render children inherit it.
    """

    def _ua_stylesheets(self, forms=False):
        return [_document_ua()]


@functools.cache
def _document_ua() -> CSS:
    path = finders.find("reports/document-ua.css")
    return CSS(filename=path, url_fetcher=StaticFilesFetcher())


def _write_pdf(html: str) -> tuple[bytes, int]:
    document = DocumentHTML(string=html, base_url=None, url_fetcher=StaticFilesFetcher()).render()
    return document.write_pdf(), len(document.pages)


def _virtual_memory_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(write_fd: int, html: str, seconds: float, memory_mb: int) -> None:
    """In the forked child: bound CPU and memory, render, write ``OK`` + pages + PDF (or ``ER`` + why), exit."""
    status = 0
    # No garbage collection in the short-lived child: a collection would walk (and copy, page by page) every
    # object inherited from the parent; the memory bound still stops a runaway document.
    gc.disable()
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        cpu = int(seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        with contextlib.suppress(OSError, ValueError):  # no /proc: the time bound still holds
            limit = _virtual_memory_bytes() + memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            pdf, pages = _write_pdf(html)
            payload = b"OK" + struct.pack(">I", pages) + pdf
        except MemoryError:
            payload = f"ER{memory_mb} MB of memory was not enough for this document.".encode()
        except BaseException as error:  # noqa: BLE001 - whatever stopped the render is the document's error
            payload = f"ER{type(error).__name__}: {error}".encode()[:4000]
        view = memoryview(payload)
        while view:
            written = os.write(write_fd, view)
            view = view[written:]
    except BaseException:  # noqa: BLE001 - the child never returns into the parent's code
        status = 1
    finally:
        os._exit(status)


_warm = False


WARM_UP = """<link rel="stylesheet" href="{stylesheet}"><h1>IHTC</h1><h2>Line-ups</h2>
<table><tr><th class="w10">No.</th><th>Name</th></tr><tr><td class="n">9</td><td>ROSSI Marco</td></tr></table>
<p class="version-top">0123456789 - P1 20:00</p>"""


def _warm_up() -> None:
    """Render a small document with the documents' stylesheet once in this process: the children it forks inherit
    WeasyPrint's and fontconfig's loaded fonts (regular and bold) and caches instead of loading them each time."""
    global _warm
    if not _warm:
        _write_pdf(WARM_UP.format(stylesheet=static_file_url("reports/documents.css")))
        _warm = True


def render_pdf(html: str, *, seconds: float | None = None, memory_mb: int | None = None) -> Rendered:
    """Render ``html`` to PDF in a child process bounded in time and memory; raise RenderError if it fails."""
    _warm_up()
    seconds = seconds or getattr(settings, "REPORTS_RENDER_SECONDS", DEFAULT_SECONDS)
    memory_mb = memory_mb or getattr(settings, "REPORTS_RENDER_MEMORY_MB", DEFAULT_MEMORY_MB)
    started = time.perf_counter()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child process
        os.close(read_fd)
        _child(write_fd, html, seconds, memory_mb)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = started + seconds
    try:
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                raise RenderError(f"The render took longer than {seconds:g} s and was stopped.")
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if ready:
                chunk = os.read(read_fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.close(read_fd)
        _, status, usage = os.wait4(pid, 0)
    payload = b"".join(chunks)
    if payload.startswith(b"OK") and len(payload) > 6:
        (pages,) = struct.unpack(">I", payload[2:6])
        cpu = round((usage.ru_utime + usage.ru_stime) * 1000)
        return Rendered(payload[6:], pages, round((time.perf_counter() - started) * 1000), cpu)
    if payload.startswith(b"ER"):
        raise RenderError(payload[2:].decode(errors="replace"))
    if os.WIFSIGNALED(status):
        raise RenderError(f"The render stopped (signal {os.WTERMSIG(status)}: time or memory bound).")
    raise RenderError("The render stopped without a document.")
