from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from simple_history.admin import SimpleHistoryAdmin

from .models import RoleAssignment, User


class RoleAssignmentInline(admin.TabularInline):
    model = RoleAssignment
    extra = 0
    autocomplete_fields = ["federation"]


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [RoleAssignmentInline]
    list_filter = [*BaseUserAdmin.list_filter, "role_assignments__role"]


@admin.register(RoleAssignment)
class RoleAssignmentAdmin(SimpleHistoryAdmin):
    list_display = ["user", "role", "federation", "created_at"]
    list_filter = ["role", "federation"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "federation__name"]
    autocomplete_fields = ["user", "federation"]
