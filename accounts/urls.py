from django.urls import path

from . import invitation_views, login_views, password_reset, profile, tokens, views

app_name = "accounts"

urlpatterns = [
    path("tokens/", tokens.token_list, name="tokens"),
    path("tokens/<str:key>/revoke/", tokens.token_revoke, name="token-revoke"),
    path("signing-pin/", views.signing_pin, name="signing-pin"),
    path("profile/", profile.profile, name="profile"),
    path("password/", profile.PasswordChangeView.as_view(), name="password-change"),
    path("password/done/", profile.PasswordChangeDoneView.as_view(), name="password-change-done"),
    path("password-reset/", password_reset.PasswordResetView.as_view(), name="password-reset"),
    path("password-reset/sent/", password_reset.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path(
        "password-reset/<uidb64>/<token>/",
        password_reset.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "password-reset/complete/", password_reset.PasswordResetCompleteView.as_view(), name="password-reset-complete"
    ),
    path("invitations/<str:token>/", invitation_views.invitation, name="invitation"),
    path("team-access/", login_views.login_list, name="logins"),
    path("team-access/roles/<int:pk>/revoke/", login_views.role_revoke, name="role-revoke"),
]
