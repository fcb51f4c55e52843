"""``{% club_ranking_lists club %}``: the club's ranking lists as links, for its page
(one query). A template tag, so the club page below the ratings app names no module of
it."""

from django import template

from ratings.list_models import RankingList

register = template.Library()


@register.inclusion_tag("ratings/_club_lists.html")
def club_ranking_lists(club):
    return {"lists": list(RankingList.objects.filter(club=club).order_by("-last", "id"))}
