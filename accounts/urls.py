from django.urls import path

from . import tokens, views

app_name = "accounts"

urlpatterns = [
    path("tokens/", tokens.token_list, name="tokens"),
    path("tokens/<str:key>/revoke/", tokens.token_revoke, name="token-revoke"),
    path("signing-pin/", views.signing_pin, name="signing-pin"),
]
