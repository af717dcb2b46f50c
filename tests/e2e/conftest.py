"""Browser tests: Playwright's sync API driving Debian's chromium against pytest-django's live server."""

import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live_servers import failing_on_async_to_sync_in_a_loop

# Playwright's sync API runs an event loop in this thread; Django's ORM would
# otherwise refuse to run from it (SynchronousOnlyOperation).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# As this machine's probe runs chromium: no sandbox as root, and no background
# connections to Google's hosts (the network is closed; they would only fail).
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _require(condition, reason):
    """Skip on a developer's machine without chromium; fail under `make test` (PORTAL_TESTS_STRICT=1)."""
    if condition:
        return
    if os.environ.get("PORTAL_TESTS_STRICT") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items):
    """Mark every test in this folder `browser`, before `-m` selects; then place the site walk's languages.

    The walks, by far the longest tests, go at places 1, 3 and 5 of the run: under `pytest -n 2 --maxschedchunk 1`
    (the Makefile) xdist hands each process two tests to start with and then one at a time as tests end, so walk,
    other, walk, other, walk... starts a walk in each process and gives the third walk to the first process done with
    its own, while the other tests fill the time around them. This comes after pytest-django's order (the tests in a
    transaction before the transactional ones), in a run of the browser tests alone (`-m browser`): the one browser
    test in a transaction (the API guide's schema check) may then follow a walk's flush in its process; it reads no
    stored row.
    """
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
    result = yield
    if not all(item.get_closest_marker("browser") for item in items):
        return result  # a run of more than the browser tests keeps pytest-django's order
    walks = [item for item in items if item.path.name == "test_site_walk.py"]
    others = [item for item in items if item.path.name != "test_site_walk.py"]
    ordered = []
    while walks or others:
        ordered += walks[:1] + others[:1]
        walks, others = walks[1:], others[1:]
    items[:] = ordered
    return result


@pytest.fixture(scope="session")
def browser():
    executable = shutil.which("chromium")
    _require(executable, "Debian's chromium is not installed: `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def outside_requests():
    """URLs the page asked of any host but this machine: a page must not need the internet (no CDN)."""
    return []


@pytest.fixture
def page(browser, live_server, transactional_db, outside_requests):
    """A fresh browser tab on the live server; relative URLs resolve against it."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)

    def _record(request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            outside_requests.append(request.url)

    context.on("request", _record)
    page = context.new_page()
    try:
        with failing_on_async_to_sync_in_a_loop("the live server"):
            yield page
    finally:
        context.close()


def log_in(page, *, username, password, admin=False):
    """Log in through the site's login form (or the admin's), as a person would."""
    page.goto("/admin/login/" if admin else "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("form:has(#id_password) [type=submit]").click()
    page.wait_for_load_state()


@pytest.fixture
def login_as(page):
    """Return a function that logs ``user`` in on the tab (password: tests.factories.TEST_PASSWORD)."""
    from tests.factories import TEST_PASSWORD

    def _login_as(user):
        log_in(page, username=user.username, password=TEST_PASSWORD)
        assert "/accounts/login/" not in page.url, f"login of {user.username} failed"
        return page

    return _login_as


@pytest.fixture
def superuser():
    from tests.factories import SuperuserFactory

    return SuperuserFactory(username="root-e2e")


@pytest.fixture
def admin_page(page, superuser):
    """A tab logged in to the admin as a superuser."""
    from tests.factories import TEST_PASSWORD

    log_in(page, username=superuser.username, password=TEST_PASSWORD, admin=True)
    assert page.url.endswith("/admin/"), f"login failed, still at {page.url}"
    return page


ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "artifacts" / "screenshots"


def site_walk_report(language: str) -> Path:
    """The report of one language's site walk (tests/e2e/test_site_walk.py): its figures, patterns and failures."""
    return ARTIFACTS / f"site-walk-{language}.txt"


def _site_walk_reports() -> dict[Path, float]:
    return {path: path.stat().st_mtime for path in ARTIFACTS.glob("site-walk-*.txt")}


def pytest_sessionstart(session):
    session.config._site_walk_since = _site_walk_reports()


def pytest_terminal_summary(terminalreporter, config):
    """The site walks' figures (each report's first line), also when they ran in other processes (`pytest -n 2`)."""
    if getattr(config, "workerinput", None) is not None:
        return
    before = getattr(config, "_site_walk_since", {})
    written = sorted(path for path, mtime in _site_walk_reports().items() if before.get(path) != mtime)
    if not written:
        return  # no walk in this run
    terminalreporter.write_sep("-", "site walk")
    for path in written:
        figures = path.read_text().split("\n\n", 1)[0]
        terminalreporter.write_line(f"{figures}\n(every pattern and failure: {path})")


@pytest.fixture
def screenshot(request):
    """Save a full-page PNG of a journey's step as a test artifact and return its path.

    The files go to $E2E_SCREENSHOTS (default var/artifacts/screenshots), one folder per test, numbered in the
    order taken, so a reviewer reads each journey's steps in order.
    """
    folder = Path(os.environ.get("E2E_SCREENSHOTS") or ARTIFACTS) / request.node.module.__name__.rsplit(".", 1)[-1]
    folder = folder / re.sub(r"[^\w.-]+", "_", request.node.name)[:100]
    if folder.exists():
        for old in folder.glob("*.png"):
            old.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    taken = []

    def take(page, name):
        taken.append(name)
        path = folder / f"{len(taken):02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
FAILING_IMPACTS = {"serious", "critical"}


def check_accessible(page, name):
    """Run axe-core on the tab's page; fail listing each serious or critical violation, print the lesser ones."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the browser's debugging protocol, which the page's Content-Security-Policy does not govern
        # (an added <script> tag would be inline script, which it forbids).
        page.evaluate(AXE_JS.read_text())
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    lines, failing = [], False
    for violation in violations:
        targets = "; ".join(", ".join(node["target"]) for node in violation["nodes"][:5])
        lines.append(f"  [{violation['impact']}] {violation['id']}: {violation['help']} -- {targets}")
        failing = failing or violation["impact"] in FAILING_IMPACTS
    if lines:
        print(f"axe on {name} ({page.url}):\n" + "\n".join(lines))
    assert not failing, f"axe: serious or critical violations on {name} ({page.url}):\n" + "\n".join(
        line for line in lines if line.split("]")[0][3:] in FAILING_IMPACTS
    )


@pytest.fixture
def accessible():
    """Return check_accessible(page, name): axe-core finds no serious or critical violation on the page."""
    return check_accessible


@pytest.fixture
def asgi_server(transactional_db, settings):
    """The portal on uvicorn in a thread (tests.e2e.live_helpers.ThreadedAsgiServer): WebSockets, in-memory layer."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from channels.layers import channel_layers

    from tests.e2e.live_helpers import ThreadedAsgiServer

    channel_layers.backends.clear()
    try:
        with ThreadedAsgiServer() as server, failing_on_async_to_sync_in_a_loop("the ASGI server"):
            yield server
    finally:
        channel_layers.backends.clear()


@pytest.fixture
def viewer_tab(browser, asgi_server, outside_requests):
    """Return open_tab(path, before=None, **context options): a tab in a browser context of its own on the ASGI server.

    ``before(tab)`` runs before the first navigation (a clock to install, a route to set).
    """
    contexts = []

    def open_tab(path, *, before=None, **options):
        context = browser.new_context(base_url=asgi_server.url, **options)
        context.set_default_timeout(15_000)
        context.on("request", lambda r: outside_requests.append(r.url) if "127.0.0.1" not in r.url else None)
        contexts.append(context)
        tab = context.new_page()
        if before is not None:
            before(tab)
        tab.goto(path)
        return tab

    yield open_tab
    for context in contexts:
        context.close()
