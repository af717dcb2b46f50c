from django.urls import path

from . import token_api

# Namespaced, like the other apps' APIs: the page routes use short names of their own.
app_name = "accounts-api"

urlpatterns = [
    path("auth/token/", token_api.TokenView.as_view(), name="token"),
]
