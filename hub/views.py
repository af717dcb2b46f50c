from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from portal.filters import id_or_none
from portal.notifications import mark_read, notifications_of

from .home import sections_for
from .search import LIMIT as SEARCH_LIMIT
from .search import site_search

NOTIFICATIONS_PER_PAGE = 50


def home(request):
    """The public page for visitors; after login, one section per role the person holds (hub/home.py)."""
    return render(request, "home.html", {"sections": sections_for(request.user)})


@require_http_methods(["GET", "HEAD"])
@cache_control(public=True, max_age=24 * 3600)
def favicon(request):
    """``/favicon.ico``, which browsers ask of every site whatever the page names: the icon in static (its hashed
    copy, cached for good, where static files are collected), the one ``<link rel="icon">`` of base.html names."""
    return redirect(static("favicon.ico"))


@login_required
@require_http_methods(["GET", "HEAD"])
def notification_list(request):
    """The person's own notifications, newest first (issue 10: "each person also sees their notifications")."""
    page = Paginator(notifications_of(request.user), NOTIFICATIONS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "notifications.html", {"page": page})


@require_POST
def set_language(request):
    """The language switch (issue 12): Django's cookie for this browser, and the person's choice for the next one.

    A language the portal does not speak changes nothing (Django's view ignores it); the e-mails of a logged-in
    person follow the stored choice (``portal.notifications.notify``).
    """
    response = django_set_language(request)
    chosen = request.POST.get("language", "")
    if request.user.is_authenticated and translation.check_for_language(chosen) and chosen in _languages():
        # request.user is a lazy proxy (SimpleLazyObject): its type has no manager; the user model does.
        get_user_model().objects.filter(pk=request.user.pk).update(language=chosen)
    return response


def _languages() -> set[str]:
    from django.conf import settings

    return {code for code, _name in settings.LANGUAGES}


@login_required
@require_POST
def notification_mark_read(request):
    """Mark one notification (``id``) or all of the person's own read; another person's id changes nothing."""
    raw = request.POST.get("id", "")
    if not raw:
        mark_read(request.user)
    elif (number := id_or_none(raw)) is not None:
        mark_read(request.user, ids=[number])
    else:
        messages.error(
            request,
            gettext("id: %(value)s is not a notification's number; nothing was marked read.") % {"value": raw[:20]},
        )
    return redirect("notifications")


@login_required
@require_http_methods(["GET", "HEAD"])
def search(request):
    """Search people, teams, games and championships: each list through its app's access layer (hub.search)."""
    results = site_search(request.user, request.GET.get("q", ""))
    return render(request, "search.html", {"results": results, "limit": SEARCH_LIMIT})
