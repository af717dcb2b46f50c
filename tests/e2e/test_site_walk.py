"""The site walk (issue 25): every demo role, in English, French and Spanish, at a phone's and a desktop's width,
opens every page reachable from its home through the portal's own links, and posts each form it finds.

It catches what the journeys forget: an answer >= 500, a JavaScript error or CSP violation, a page that scrolls
sideways (any element: a table too, whose rows are cards on a phone, issue 26), a serious or critical accessibility
violation (axe-core, at the phone's width), a raw value on the screen (NaN, undefined, None, [object Object], a snake_case identifier, an ISO timestamp
with seconds) and a configuration note. Pages are counted once per URL pattern (``/federation/people/7/`` and
``/federation/people/8/`` are one page); the Django admin and the API's own pages (for developers) are outside the
walk; documents (PDF, CSV, XLSX) are downloads, not pages.
"""

from __future__ import annotations

import os
import re
import time
from collections import deque
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest

from tests.e2e.conftest import AXE_JS, FAILING_IMPACTS, LOCAL_HOSTS, site_walk_report

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = tuple(os.environ.get("SITE_WALK_LANGUAGES", "fr es en").split())
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# One login per role of the demo (demo/data.py), and the public (no login). Forms are posted in the English walk only
# (POST_LANGUAGES), and the roles whose forms change the most (staff, the superuser) walk last, so that what one role's
# posts change (a login revoked, records merged) does not hide pages from the walk of another.
ROLES = tuple(
    "" if name == "public" else name
    for name in os.environ.get(
        "SITE_WALK_ROLES", "public ita.manager referee scorer discipline ita.staff firs.staff ihtc.exec admin"
    ).split()
)
# Forms are posted in English only, unless asked (SITE_WALK_POST="fr": the refusals' language in a French walk).
POST_LANGUAGES = tuple(os.environ.get("SITE_WALK_POST", "en").split())
FORMS_PER_PAGE = 3  # a page of one form per row (the officials' assignments) posts its first rows' forms
MAX_PAGES = 45  # URL patterns per role and language: the walk's bound, far above what a role reaches today

OUTSIDE = re.compile(
    r"^/(admin|api|static|media|__debug__)/|/(pdf|csv|xlsx|download|export|template)(/|$)|\.(pdf|csv|xlsx|js|png|ico)$"
    r"|/attachments?/|/scan/|/prescription/|/report/|/logout/|/i18n/|/console-worker"
)
RAW = [
    (re.compile(r"\bNaN\b"), "NaN"),
    (re.compile(r"\bundefined\b"), "undefined"),
    # Python's None; not the English word opening a sentence ("None filed.", "None of your teams' games...").
    (re.compile(r"(?<![\w])None(?![\w.]| [a-z])"), "None"),
    (re.compile(r"\[object Object\]"), "[object Object]"),
    (re.compile(r"(?<![\w@./-])[a-z]+(?:_[a-z0-9]+)+(?![\w@./-])"), "a snake_case identifier"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}"), "an ISO timestamp with seconds"),
    (re.compile(r"parameter with no default|no default\)", re.I), "a configuration note"),
]


@dataclass
class Walk:
    language: str = "en"
    pages: set[str] = field(default_factory=set)
    forms: int = 0
    views: int = 0
    failures: list[str] = field(default_factory=list)


def pattern(path: str) -> str:
    return re.sub(r"\d+", "N", path)


def _links(page) -> list[str]:
    return page.eval_on_selector_all("a[href]", "els => els.filter(a => !a.hasAttribute('download')).map(a => a.href)")


def _raw_values(text: str) -> list[str]:
    found = []
    for regex, name in RAW:
        match = regex.search(text)
        if match:
            start = max(match.start() - 30, 0)
            found.append(f"{name}: …{text[start : match.end() + 30]!r}…")
    return found


# --- English on a French or Spanish page (issue 26) ----------------------------------------------------------------
# A line of at least three words of which two (different) are English function words is an English sentence: a
# message made in code that nobody translated. People's own words (names, notes, a report's text: marked
# ``translate="no"`` or ``class="their-words"`` in the templates) and the rulebook's cited text are not the portal's.
ENGLISH_WORDS = frozenset(
    {
        *("the", "of", "and", "is", "are", "has", "have", "not", "your", "this", "with", "for", "to", "be", "was"),
        *("no", "on", "by", "from", "will", "must", "may", "cannot", "his", "her", "their", "its", "been"),
        *("there", "which", "who", "only", "than", "when"),
    }
)
# Words of the page's own language that look like English function words ("on" peut, "no" hay).
OWN_WORDS = {"fr": {"on"}, "es": {"no"}}
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
OWN_TEXT = "[translate=no], .their-words, script, style, code, pre"


def english_sentences(text: str, language: str) -> list[str]:
    """The lines of ``text`` that read as English sentences on a page in ``language``."""
    if language == "en":
        return []
    skip = OWN_WORDS.get(language, set())
    found = []
    for line in text.splitlines():
        words = [w.lower() for w in WORD.findall(line)]
        english = {w for w in words if w in ENGLISH_WORDS and w not in skip}
        if len(words) >= 3 and len(english) >= 2:
            found.append(line.strip())
    return found


def _visible_portal_text(page) -> str:
    """The page's visible text without people's own words (hidden for the reading, shown again after)."""
    # Through the CSSOM (an element's style property), which the Content-Security-Policy allows; a <style> it refuses.
    return page.evaluate(
        """(selector) => {
          const own = [...document.querySelectorAll(selector)];
          const before = own.map(el => [el.style.getPropertyValue('display'), el.style.getPropertyPriority('display')]);
          own.forEach(el => el.style.setProperty('display', 'none', 'important'));
          const text = document.body.innerText;
          own.forEach((el, i) => el.style.setProperty('display', before[i][0], before[i][1]));
          return text;
        }""",
        OWN_TEXT,
    )


def _visible_text(page) -> str:
    # What a person reads: the page's body text, without code samples (none on these pages) and the hidden.
    return page.evaluate("() => document.body.innerText")


WIDEST = """() => {
  const inner = window.innerWidth;
  // Visually hidden (a card's column headers, kept for screen readers): clipped to 1px, nothing on the screen.
  const hidden = el => { for (let a = el; a; a = a.parentElement) { const c = getComputedStyle(a).clip;
    if (c && c !== 'auto' && getComputedStyle(a).position === 'absolute') return true; } return false; };
  const wide = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > inner + 1)
    .filter(el => !hidden(el))
    .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''));
  return wide.slice(-3).join(' < ');
}"""


def _accessibility(page) -> list[str]:
    """axe-core's serious and critical violations on the page as shown (a phone's width: the menu closed)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text())  # through the debugging protocol: the page's CSP does not govern it
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"axe [{v['impact']}] {v['id']}: {v['help']} -- " + "; ".join(", ".join(n["target"]) for n in v["nodes"][:3])
        for v in violations
        if v["impact"] in FAILING_IMPACTS
    ]


def _check_page(page, url, errors, walk, where, *, after_post=False) -> None:
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        wide = page.evaluate(WIDEST)  # an element past the screen's edge, even inside a scrolling box
        if width > inner + 1 or wide:
            walk.failures.append(f"{where} {url}: {width}px wide at {inner}px ({wide})")
    if after_post:
        # The answer to a refused form is itself a 4xx document: the browser logs it, it is not a script error.
        errors[:] = [e for e in errors if not re.match(r"Failed to load resource: .* status of 4\d\d", e)]
    for problem in _accessibility(page):
        walk.failures.append(f"{where} {url}: {problem}")
    for problem in _raw_values(_visible_text(page)):
        walk.failures.append(f"{where} {url}: {problem}")
    # A posted form may have chosen another language (a profile's): its answer is in that one, rightly.
    language = page.evaluate("document.documentElement.lang") or ""
    for sentence in english_sentences(_visible_portal_text(page), walk.language if language[:2] != "en" else "en"):
        walk.failures.append(f"{where} {url}: English on the page: {sentence[:160]!r}")
    for error in errors:
        walk.failures.append(f"{where} {url}: browser console: {error}")
    errors.clear()


def _open(page, url, errors, walk, where) -> bool:
    try:
        response = page.goto(url, wait_until="load")
    except Exception as error:  # a download or an aborted navigation: not a page
        if "Download is starting" in str(error) or "net::ERR_ABORTED" in str(error):
            return False
        walk.failures.append(f"{where} {url}: {error}")
        return False
    walk.views += 1
    if response is None:
        return False
    if response.status >= 500:
        walk.failures.append(f"{where} {url}: HTTP {response.status}")
        return False
    if response.status >= 400:
        # A link of the portal's own pages that this role may not follow is a dead end.
        walk.failures.append(f"{where} {url}: a link leading to HTTP {response.status}")
        errors.clear()
        return False
    content_type = response.headers.get("content-type", "")
    if "text/html" not in content_type:
        return False
    _check_page(page, url, errors, walk, where)
    return True


FILL = """(form) => {
  form.noValidate = true;
  for (const el of form.elements) {
    if (el.disabled || el.type === 'hidden' || el.name === 'csrfmiddlewaretoken') continue;
    if (el.tagName === 'SELECT') {
      const option = [...el.options].find(o => o.value);
      if (option && !el.value) el.value = option.value;
    } else if (el.type === 'checkbox' || el.type === 'radio' || el.type === 'file' || el.type === 'submit') {
      continue;
    } else if (!el.value) {
      const today = new Date().toISOString().slice(0, 10);
      el.value = {number: '1', date: today, email: 'walk@example.org', 'datetime-local': today + 'T12:00',
                  time: '12:00', url: 'https://example.org/', tel: '+390000000'}[el.type] || 'Walk';
    }
  }
}"""
EMPTY = """(form) => {
  form.noValidate = true;
  for (const el of form.elements) {
    if (el.disabled || el.type === 'hidden' || el.name === 'csrfmiddlewaretoken' || el.type === 'submit') continue;
    if (el.type === 'checkbox' || el.type === 'radio') el.checked = false; else el.value = '';
  }
}"""


def _post_forms(page, url, errors, walk, where, posted: set[str]) -> None:
    """Each POST form of the page, once per (action pattern, form), empty and then filled: never a 500."""
    forms = page.eval_on_selector_all(
        "main form",
        "fs => fs.map((f, i) => [i, (f.getAttribute('method') || 'get').toLowerCase(), f.action])",
    )
    for index, method, action in forms[:FORMS_PER_PAGE]:
        key = f"{pattern(urlsplit(action).path)}#{pattern(urlsplit(url).path)}#{index}"
        if method != "post" or key in posted or OUTSIDE.search(urlsplit(action).path):
            continue
        posted.add(key)
        for filler in (EMPTY, FILL):
            if not _open(page, url, errors, walk, where):
                return
            form = page.locator("main form").nth(index)
            if form.count() == 0:
                break
            form.evaluate(filler)
            try:
                with page.expect_navigation(wait_until="load") as navigation:
                    form.evaluate("f => f.requestSubmit ? f.requestSubmit() : f.submit()")
                response = navigation.value
            except Exception:  # a form handled in the page (scripted), or a download: no navigation to judge
                continue
            walk.forms += 1
            # A posted profile may have chosen another language (the walk fills its select): the walk's stays.
            origin = urlsplit(page.url)
            home = f"{origin.scheme}://{origin.netloc}/"
            page.context.add_cookies([{"name": "django_language", "value": walk.language, "url": home}])
            if response is not None and response.status >= 500:
                walk.failures.append(f"{where} POST {action} (from {url}): HTTP {response.status}")
            elif response is not None and "text/html" in response.headers.get("content-type", ""):
                _check_page(page, page.url, errors, walk, f"{where} after POST", after_post=True)


def walk_role(browser, base_url, username, language, walk) -> None:
    from demo.data import DEMO_PASSWORD

    context = browser.new_context(
        base_url=base_url, viewport=DESKTOP, locale={"en": "en-GB", "fr": "fr-FR", "es": "es-ES"}[language]
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    where = f"[{username or 'public'} {language}]"
    try:
        if username:
            page.goto("/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", DEMO_PASSWORD)
            page.locator("form:has(#id_password) [type=submit]").click()
            page.wait_for_load_state()
            assert "/accounts/login/" not in page.url, f"{where} login failed"
        seen: set[str] = set()
        posted: set[str] = set()
        queue = deque([("/", "/")])
        origin = urlsplit(base_url)
        while queue and len(seen) < MAX_PAGES:
            url, came_from = queue.popleft()
            key = pattern(urlsplit(url).path)
            if key in seen:
                continue
            seen.add(key)
            if not _open(page, url, errors, walk, f"{where} (from {came_from})"):
                continue
            walk.pages.add(key)
            links = _links(page)
            if language in POST_LANGUAGES:  # a form's answer is the same code in every language: posted once
                _post_forms(page, url, errors, walk, where, posted)
            for href in links:
                parts = urlsplit(href)
                if parts.hostname not in LOCAL_HOSTS or parts.port != origin.port or OUTSIDE.search(parts.path):
                    continue
                if pattern(parts.path) not in seen:
                    queue.append((parts.path + (f"?{parts.query}" if parts.query else ""), urlsplit(url).path))
    finally:
        context.close()


# One test per language (issue 25's walk split for CI time): under `pytest -n 2` the languages walk in both processes
# at once (tests/e2e/conftest.py sends them out first, one to each process). Each builds its own demo world (about
# 20 s), so a walk never meets what another language's walk posted: a form's answer is the same code in every
# language, posted in the English walk only (POST_LANGUAGES).
@pytest.mark.timeout(1200)
# The walks that post forms, the longest, first: the first two walks start at once, the third in the process done first.
@pytest.mark.parametrize("language", sorted(LANGUAGES, key=lambda language: language not in POST_LANGUAGES))
def test_every_role_walks_its_site_in_each_language_at_two_widths(browser, asgi_server, language):
    """One demo world, walked by each role in ``language`` at a phone's and a desktop's width."""
    from django.utils import timezone

    from demo.world import build_world

    build_world(timezone.now())
    walk = Walk(language=language)
    for username in ROLES:
        started = time.perf_counter()
        walk_role(browser, asgi_server.url, username, language, walk)
        print(f"  {username or 'public'} {language}: {time.perf_counter() - started:.0f} s, {len(walk.pages)} patterns")
    line = (
        f"site walk [{language}]: {len(ROLES)} roles, {len(walk.pages)} page patterns, {walk.views} page views, "
        f"{walk.forms} form posts, 2 widths (390 px, 1280 px), {len(walk.failures)} failures"
    )
    report = site_walk_report(language)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(
        line + "\n\n" + "\n".join(sorted(walk.pages)) + "\n\nFAILURES\n" + "\n".join(walk.failures) + "\n"
    )
    print("\n" + line)
    # Every language's walk follows the same links (the code is one): each reaches the whole site.
    assert len(walk.pages) >= (40 if len(ROLES) >= 9 else 1)
    assert not walk.failures, f"{len(walk.failures)} failures (all in {report}):\n" + "\n".join(walk.failures[:60])
