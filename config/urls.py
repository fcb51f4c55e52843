"""Top-level routes: admin, the API with its schema and docs, health, i18n."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from clublife.urls import me_urlpatterns
from clubs.login_throttle import throttled_login
from config.health import healthz, readyz
from prizes import urls as prize_urls
from signup import urls as signup_urls
from tournaments.pages import urls as page_urls
from tournaments.pages.board import landing
from tournaments.pages.urls import console_urlpatterns

urlpatterns = [
    path("admin/login/", throttled_login(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # Django's language switch, without a CSRF token: the form is on every page, and a
    # token in it would make each page its reader's own, never shared by the proxy (the
    # board and its print, at a championship). A forged switch changes only a language,
    # and set_language follows no ``next`` to another host.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("accounts/login/", throttled_login(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("console/", include((console_urlpatterns + prize_urls.console_urlpatterns
                               + signup_urls.console_urlpatterns, "console"))),
    path("clubs/", include("clublife.urls")),
    path("leagues/", include("leagues.urls")),
    path("", include("ratings.urls")),
    # the tournaments' pages and the player's own pages that need club life: one namespace
    path("", include((page_urls.urlpatterns + signup_urls.urlpatterns + me_urlpatterns,
                       "pages"))),
    path("", landing, name="landing"),
]
