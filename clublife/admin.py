"""Admin of club life: seasons and merges are records, read only."""

from django.contrib import admin

from clublife.models import PlayerMerge, Season


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("club", "year", "game", "best_n", "min_evenings", "evenings", "computed_at")
    list_filter = ("game", "year")


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin):
    list_display = ("at", "removed_name", "removed_id", "kept_name", "participations", "by")
    search_fields = ("removed_name", "kept_name")
