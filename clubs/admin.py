"""Admin for clubs and players. A club's defaults (game, house rules, table money, season
ranking) are shown, not edited, here: the club's settings page checks them with the game's
engine."""

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.engines import get_engine
from games.forms import rules_in_words

CLUB_DEFAULTS = ("default_game", "default_house_rules", "loss_fee_cents", "loss_fee_from",
                 "loss_fee_high_cents", "season_best_n", "season_min_evenings")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "slug", "default_game")
    search_fields = ("name", "city")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("admins",)
    readonly_fields = CLUB_DEFAULTS
    exclude = ("default_rules",)

    @admin.display(description=_("default house rules"))
    def default_house_rules(self, obj):
        if obj is None or not obj.pk or not obj.default_game:
            return "–"
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}: {}</li>", rules_in_words(
            get_engine(obj.default_game), obj.default_rules)))


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "member_number")
    list_filter = ("club",)
    search_fields = ("name", "member_number")
