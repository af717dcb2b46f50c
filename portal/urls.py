from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from accounts.views import LogoutView
from hub import views

from .api import ApiRootView, api_not_found, redoc_bundle
from .api_versions import ALIAS_NAMESPACE, API_VERSION
from .i18n import javascript_catalogue

# A database that cannot be reached answers 503, not 500 (portal.errors).
handler500 = "portal.errors.server_error"

admin.site.site_header = "IHTC Portal administration"
admin.site.site_title = "IHTC Portal"

# Swagger UI and ReDoc (drf-spectacular-sidecar's bundles) write style attributes and <style> elements as they
# render, which a nonce cannot cover: their pages allow inline styles, never inline scripts. Swagger UI's
# start-up script is served as a file (the "split" view: ?script), ReDoc's by static/api-docs/redoc-init.js.
# ReDoc builds its search worker from a blob: URL.
api_docs_page = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})

# The API's routes, served under both prefixes below: an include of API routes goes here, never under "api/" in
# urlpatterns (tests/portal/test_api_versions.py fails on one that does).
api_patterns = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("", include("accounts.api_urls")),
    path("", include("federation.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("games.api_urls")),
    path("", include("discipline.api_urls")),
    path("", include("reports.api_urls")),
    path("", include("webhooks.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", api_docs_page(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path("redoc/", api_docs_page(SpectacularRedocView.as_view(url_name="schema")), name="api-redoc"),
    path("redoc/redoc.standalone.js", redoc_bundle, name="api-redoc-bundle"),
    # Last: any other URL under the prefix is the API's JSON 404, not the HTML page.
    re_path(r"^.*$", api_not_found),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("notifications/", views.notification_list, name="notifications"),
    path("search/", views.search, name="search"),
    path("notifications/read/", views.notification_mark_read, name="notifications-read"),
    path("i18n/setlang/", views.set_language, name="set_language"),
    # The scripts' strings in one language (portal.i18n): the console keeps its language's copy offline.
    path("jsi18n/<str:language>/", javascript_catalogue, name="javascript-catalogue"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # The browser's caches of the portal's pages are cleared on logout (accounts.views.LogoutView).
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("federation/", include("federation.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("games/", include("games.urls")),
    path("discipline/", include("discipline.urls")),
    path("reports/", include("reports.urls")),
    path("webhooks/", include("webhooks.urls")),
    # The API: documented under /api/v1/, the same views under /api/ as its deprecated aliases (portal.api_versions).
    path(f"api/{API_VERSION}/", include(api_patterns)),
    path("api/", include((api_patterns, ALIAS_NAMESPACE))),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
