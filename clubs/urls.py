"""Pages of clubs: club evenings, season rankings, table money, player profiles."""

app_name = "clubs"
urlpatterns: list = []
