from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Federation


@admin.register(Federation)
class FederationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "country", "level", "parent", "firs_affiliated", "good_standing"]
    list_filter = ["level", "firs_affiliated", "good_standing"]
    search_fields = ["name", "short_name"]
