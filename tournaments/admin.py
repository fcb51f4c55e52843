from django.contrib import admin

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
