"""The renderer: offline (the project's static files only), bounded in time and memory, in a child process."""

from __future__ import annotations

import pytest
from weasyprint.urls import FatalURLFetchingError

from reports.rendering import RenderError, StaticFilesFetcher, render_pdf, static_file_url


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/logo.png",
        "http://127.0.0.1:8000/static/portal.css",
        "ftp://example.com/font.ttf",
        "data:text/css,body{color:red}",
        "file:///etc/passwd",
        "file://otherhost/static/reports/documents.css",
    ],
)
def test_the_url_fetcher_refuses_anything_but_the_projects_static_files(url):
    with pytest.raises(FatalURLFetchingError, match="Refused"):
        StaticFilesFetcher().fetch(url)


def test_the_url_fetcher_refuses_a_path_that_climbs_out_of_the_static_folders():
    inside = static_file_url("reports/documents.css")
    with pytest.raises(FatalURLFetchingError, match="not one of the project's static files"):
        StaticFilesFetcher().fetch(inside.replace("reports/documents.css", "../../../../../../etc/hostname"))


def test_the_url_fetcher_serves_the_projects_own_stylesheet():
    response = StaticFilesFetcher().fetch(static_file_url("reports/documents.css"))
    assert response.content_type == "text/css"
    assert b"@page" in response.read()


def test_a_document_that_asks_for_an_outside_url_is_not_rendered():
    with pytest.raises(RenderError, match=r"Refused 'https://example\.com/track\.png'"):
        render_pdf('<p>Report</p><img src="https://example.com/track.png">')


def test_a_plain_document_renders_to_one_pdf_page():
    rendered = render_pdf("<p>The official game report</p>")
    assert rendered.pdf.startswith(b"%PDF-") and rendered.pages == 1


def test_a_render_over_its_time_bound_is_stopped():
    rows = "".join(f"<tr><td>{n}</td><td>{'x ' * 40}</td></tr>" for n in range(4000))
    with pytest.raises(RenderError, match="longer than 0.2 s and was stopped"):
        render_pdf(f"<table>{rows}</table>", seconds=0.2)


def test_a_render_over_its_memory_bound_fails_without_harming_this_process():
    # Big enough that the render cannot fit in the free memory the child inherits from this process's earlier
    # renders (other tests render in-process first; their freed heap needs no new address space).
    rows = "".join(f"<tr><td>{n}</td><td>{'x ' * 40}</td></tr>" for n in range(12000))
    with pytest.raises(RenderError):  # MemoryError, or whatever WeasyPrint's C libraries say without memory
        render_pdf(f"<table>{rows}</table>", seconds=60, memory_mb=1)
    assert render_pdf("<p>still here</p>").pages == 1
