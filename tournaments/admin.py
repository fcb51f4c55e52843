"""The Django admin for tournaments.

The house rules are shown in words and changed on the console's form, which renders every
option from the engine's description (label, help, bounds, choices), so nobody types JSON
here. The game is read-only once a round is drawn: scores already entered were computed
under it.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games.engines import get_engine
from games.forms import rules_in_words
from tournaments.models import Participant, Tournament


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "date", "status", "published")
    list_filter = ("game", "status", "published")
    search_fields = ("name",)
    filter_horizontal = ("directors",)
    inlines = [ParticipantInline]

    exclude = ("rules",)
    readonly_fields = ("house_rules",)

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and obj.rounds.exists():
            fields += ("game",)
        return fields

    @admin.display(description=_("house rules"))
    def house_rules(self, obj):
        """The rules in words; they are changed on the console's form, which shows every
        option with its label, help and bounds (never JSON to type)."""
        if obj is None or not obj.pk:
            return _("The game's defaults; change them on the console after saving.")
        rows = format_html_join("", "<li>{}: {}</li>", rules_in_words(
            get_engine(obj.game), obj.rules))
        link = reverse("console:rules", args=[obj.pk])
        return format_html('<ul>{}</ul><a href="{}">{}</a>', rows, link,
                           _("Change the house rules"))
