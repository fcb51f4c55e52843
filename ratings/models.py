from ratings.list_models import RankingList  # noqa: F401
