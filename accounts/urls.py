from django.urls import path

from . import tokens

app_name = "accounts"

urlpatterns = [
    path("tokens/", tokens.token_list, name="tokens"),
    path("tokens/<str:key>/revoke/", tokens.token_revoke, name="token-revoke"),
]
