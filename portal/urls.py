from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from accounts.views import LogoutView
from hub import views

from .api import ApiRootView, api_not_found, redoc_bundle

# A database that cannot be reached answers 503, not 500 (portal.errors).
handler500 = "portal.errors.server_error"

admin.site.site_header = "IHTC Portal administration"
admin.site.site_title = "IHTC Portal"

# Swagger UI and ReDoc (drf-spectacular-sidecar's bundles) write style attributes and <style> elements as they
# render, which a nonce cannot cover: their pages allow inline styles, never inline scripts. Swagger UI's
# start-up script is served as a file (the "split" view: ?script), ReDoc's by static/api-docs/redoc-init.js.
# ReDoc builds its search worker from a blob: URL.
api_docs_page = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("notifications/", views.notification_list, name="notifications"),
    path("search/", views.search, name="search"),
    path("notifications/read/", views.notification_mark_read, name="notifications-read"),
    path("i18n/setlang/", views.set_language, name="set_language"),
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
    path("api/", ApiRootView.as_view(), name="api-root"),
    path("api/", include("federation.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("discipline.api_urls")),
    path("api/", include("reports.api_urls")),
    path("api/", include("webhooks.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs_page(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path("api/redoc/", api_docs_page(SpectacularRedocView.as_view(url_name="schema")), name="api-redoc"),
    path("api/redoc/redoc.standalone.js", redoc_bundle, name="api-redoc-bundle"),
    # Last under api/: any other URL there is the API's JSON 404.
    re_path(r"^api/", api_not_found),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
