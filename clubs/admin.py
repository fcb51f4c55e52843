"""Admin for clubs and players. A club's defaults (game, house rules, table money, season
ranking) are shown, not edited, here: the club's settings page checks them with the game's
engine. Seasons and merges are records, read only."""

from django.contrib import admin

from clubs.models import Club, Player, PlayerMerge, Season

CLUB_DEFAULTS = ("default_game", "default_rules", "loss_fee_cents", "loss_fee_from",
                 "loss_fee_high_cents", "season_best_n", "season_min_evenings")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "slug", "default_game")
    search_fields = ("name", "city")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("admins",)
    readonly_fields = CLUB_DEFAULTS


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "member_number")
    list_filter = ("club",)
    search_fields = ("name", "member_number")


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
