from django.contrib import admin

from clubs.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "slug")
    search_fields = ("name", "city")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("admins",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "member_number")
    list_filter = ("club",)
    search_fields = ("name", "member_number")
