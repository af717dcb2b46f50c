"""The language a logged-in person chose (issue 12, "Languages").

Django's ``LocaleMiddleware`` reads the switch's cookie, else the browser's Accept-Language. A person who chose a
language on another browser has no cookie here yet: this middleware (after authentication) activates the choice
stored on their login, so the switch is remembered per person, not only per browser.
"""

from django.conf import settings
from django.utils import translation


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        chosen = _stored_choice(request)
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)


def _stored_choice(request) -> str:
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return ""  # the cookie wins: LocaleMiddleware has applied it already
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "")
    return language if language in dict(settings.LANGUAGES) else ""
