"""The login's own pages beside the API tokens: logging out (the browser's caches cleared) and the signing PIN."""

from __future__ import annotations

from django.contrib.auth import views as auth_views


class LogoutView(auth_views.LogoutView):
    """Django's logout, whose answer also tells the browser to drop what it cached of the portal's pages
    (``Clear-Site-Data: "cache"``). Not "storage": the console's outbox of unsent entries (IndexedDB) stays until
    it is sent. The logout button's script (static/logout.js) deletes the console's caches itself too, for
    browsers that ignore the header (it needs a secure context) or keep Cache Storage under "storage"."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response
