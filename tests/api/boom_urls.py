"""The site's routes plus two that fail on purpose, for the tests of error answers."""

from django.http import HttpResponse
from django.urls import path
from rest_framework.decorators import api_view

from config.urls import urlpatterns as site


def boom(request):
    raise RuntimeError("a bug")


@api_view(["GET"])
def drf_boom(request):
    raise RuntimeError("a bug in a DRF view")


def plain_error(request):
    return HttpResponse("<h1>Gone</h1>", status=410)


urlpatterns = [
    path("api/v1/boom/", boom),
    path("api/v1/drf-boom/", drf_boom),
    path("api/v1/gone/", plain_error),
    path("boom/", boom),
    *site,
]
