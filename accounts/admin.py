"""Admin of logins and their roles: kept by IHTC executives (and superusers).

Django's model permissions are not used; who may do what comes from the
access layer (``accounts.roles.can_manage_accounts``, through the
``accounts.*`` rules of ``accounts/rules.py`` that ``portal.admin`` asks). An executive cannot
raise anyone (themselves included) to superuser or touch a superuser's
account: those stay with superusers.
"""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import ngettext
from knox.models import AuthToken

from portal.admin import AccessAdmin, AccessPermissionsMixin, ListRowsMixin

from .models import RoleAssignment, User


class RoleAssignmentInline(AccessPermissionsMixin, admin.TabularInline):
    model = RoleAssignment
    extra = 0
    autocomplete_fields = ["federation"]


# Only a superuser grants or edits what makes a superuser.
_SUPERUSER_ONLY_FIELDS = ["is_superuser", "groups", "user_permissions"]


@admin.register(User)
class UserAdmin(ListRowsMixin, AccessPermissionsMixin, BaseUserAdmin):
    inlines = [RoleAssignmentInline]
    list_filter = [*BaseUserAdmin.list_filter, "role_assignments__role"]

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly += _SUPERUSER_ONLY_FIELDS
        return readonly

    def get_queryset(self, request):
        users = super().get_queryset(request)
        return users if request.user.is_superuser else users.filter(is_superuser=False)

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_delete_permission(request, obj)

    def log_change(self, request, obj, message):
        # The "change password" page saves the new password, then logs the change: the tokens it revoked
        # (User.save, issue 23) are said there.
        if obj.revoked_api_tokens:
            messages.warning(request, revoked_tokens_message(obj))
        return super().log_change(request, obj, message)


def revoked_tokens_message(user: User) -> str:
    count = user.revoked_api_tokens
    return ngettext(
        "The new password revoked %(count)d API token of %(user)s: a program that used it needs a new one.",
        "The new password revoked %(count)d API tokens of %(user)s: programs that used them need new ones.",
        count,
    ) % {"count": count, "user": user.get_username()}


@admin.register(RoleAssignment)
class RoleAssignmentAdmin(AccessAdmin):
    list_display = ["user", "role", "federation", "created_at"]
    list_filter = ["role", "federation"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "federation__name"]
    autocomplete_fields = ["user", "federation"]
    list_select_related = ["user", "federation"]


# knox registers its own token model, swapped here for ApiToken (settings.KNOX_TOKEN_MODEL), which has no table:
# tokens are made and revoked by their owners on the "API tokens" page; deactivating a login refuses its tokens.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)
