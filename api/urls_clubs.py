"""API routes for club evenings, season rankings, table money, player histories and
imports/exports (issue 8); included from ``api/urls.py``."""

urlpatterns: list = []
