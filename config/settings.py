"""Settings of Stichliste, read from the environment (see the table in docs/operations.md).

With nothing set the app runs on a SQLite file in the project and Celery tasks run in
process right after the transaction commits, so the quick start needs no service.
"""

from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    env_site_url,
    env_str,
    parse_database_url,
    parse_redis_url,
    redis_cache,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Where tablets reach the app (table cards, QR codes, the API's entry_url); unset: the
# address the request came in on. `make venue` sets it to the laptop's LAN address.
SITE_URL = env_site_url("SITE_URL")
# The proxy's publisher (deploy/nginx: its push port, reached by the app only), e.g.
# http://proxy:8001; unset: no push, the players' pages poll (tournaments/push.py).
PUSH_URL = env_site_url("PUSH_URL")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "games",
    "clubs",
    "tournaments",
    "prizes",
    "signup",
    "archive",
    "clublife",
    "ratings",
    "leagues",
    "api",
]

MIDDLEWARE = [
    "config.request_log.RequestIdMiddleware",
    "api.middleware.ApiErrorsMiddleware",
    "config.client_gone.ClientGoneMiddleware",
    "config.compression.SharedGZipMiddleware",
    # above Django's SecurityMiddleware: it sees the headers that adds (config/csp.py)
    "config.csp.ConstantPolicyCSPMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournaments.links.RequestOriginMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": parse_database_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3"), BASE_DIR)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# German first: most clubs, directors and players are German-speaking.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# where collectstatic writes and production serves from (the image: /app/staticfiles)
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production serves hashed, compressed files made by collectstatic; debug runs and the
# tests serve straight from the source folders so no collectstatic is needed there.
STATIC_COLLECTED = env_bool("STATIC_COLLECTED", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.static_storage.StaticFilesStorage"
        if STATIC_COLLECTED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_COLLECTED
WHITENOISE_AUTOREFRESH = not STATIC_COLLECTED

# ---------------------------------------------------------------- Redis, cache, Celery

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    parse_redis_url(REDIS_URL)
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 2}
CELERY_TIMEZONE = TIME_ZONE
# A recompute is idempotent; a task of a worker that died is redelivered after this.
CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] = env_int("CELERY_VISIBILITY_TIMEOUT",
                                                                 300)
STANDINGS_SWEEP_SECONDS = env_int("STANDINGS_SWEEP_SECONDS", 15)
# How often beat sends the mail outbox's due and left-behind mails (signup.mails).
MAIL_SWEEP_SECONDS = env_int("MAIL_SWEEP_SECONDS", 60)
CELERY_BEAT_SCHEDULE = {
    "sweep-standings": {
        "task": "tournaments.recompute.tasks.sweep_standings",
        "schedule": STANDINGS_SWEEP_SECONDS,
    },
    "sweep-seasons": {
        "task": "clublife.tasks.sweep_seasons",
        "schedule": STANDINGS_SWEEP_SECONDS,
    },
    "sweep-leagues": {
        "task": "leagues.tasks.sweep_leagues",
        "schedule": STANDINGS_SWEEP_SECONDS,
    },
    "sweep-ratings": {
        "task": "ratings.tasks.sweep_ratings",
        "schedule": STANDINGS_SWEEP_SECONDS,
    },
    "prune-idempotency-keys": {
        "task": "tournaments.tasks.prune_idempotency_keys",
        "schedule": 3600,
    },
    "sweep-mails": {
        "task": "signup.tasks.sweep_mails",
        "schedule": MAIL_SWEEP_SECONDS,
    },
    "release-registrations": {
        "task": "signup.tasks.registrations_release_due",
        "schedule": 60,
    },
}
# E-mail to registrants (sign-up, waiting list, moved up, cancelled, drawn): the console
# in debug (``make run``), SMTP from the environment in production.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
                        if DEBUG else "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
# a mail server named in the environment: mails go out (see tournaments.checks)
EMAIL_HOST_CONFIGURED = bool(env_str("EMAIL_HOST", ""))
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "stichliste@localhost")
# The mail outbox tries a failed send again, with backoff, for this long, then gives up.
MAIL_RETRY_HOURS = env_int("MAIL_RETRY_HOURS", 24)
if MAIL_RETRY_HOURS < 24:
    raise ImproperlyConfigured("MAIL_RETRY_HOURS must be at least 24")
# Its backoff: the first retry after this, doubling, at most this far apart (a mail
# waits at most that long after the server is back).
MAIL_FIRST_RETRY_SECONDS = env_int("MAIL_FIRST_RETRY_SECONDS", 30)
MAIL_LONGEST_RETRY_SECONDS = env_int("MAIL_LONGEST_RETRY_SECONDS", 600)
# A mail left "sending" this long (and at least three EMAIL_TIMEOUTs) lost its sender (a
# killed worker): the sweep sends it again and notes the possible double.
MAIL_SENDING_STALE_SECONDS = env_int("MAIL_SENDING_STALE_SECONDS", 600)
if min(MAIL_FIRST_RETRY_SECONDS, MAIL_LONGEST_RETRY_SECONDS, MAIL_SENDING_STALE_SECONDS) < 1:
    raise ImproperlyConfigured("the MAIL_*_SECONDS settings must be at least 1")
# Self-registrations per client address (``api.throttling.RegistrationRateThrottle``).
REGISTRATION_RATE = env_rate("REGISTRATION_RATE", "30/min")
# Stored answers of Idempotency-Keys older than this are deleted (hourly, by beat).
IDEMPOTENCY_KEY_MAX_AGE_HOURS = env_int("IDEMPOTENCY_KEY_MAX_AGE_HOURS", 48)
if IDEMPOTENCY_KEY_MAX_AGE_HOURS < 1:
    raise ImproperlyConfigured("IDEMPOTENCY_KEY_MAX_AGE_HOURS must be at least 1")
# Fault injection for the worker-failure tests only: seconds a recompute waits while
# holding its lock. Never set in production.
STANDINGS_FAULT_INJECTION_PAUSE = env_int("STANDINGS_FAULT_INJECTION_PAUSE", 0)

# ---------------------------------------------------------------- API

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "api.authentication.TableTokenAuthentication",
        "api.authentication.PlayerTokenAuthentication",
        "api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # says who may call each operation (anonymous callers too) in the schema
    "DEFAULT_SCHEMA_CLASS": "api.openapi.ApiAutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # OPTIONS on an action without a body describes it without fields, never a 500
    "DEFAULT_METADATA_CLASS": "api.metadata.ApiMetadata",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.BoundedLimitOffsetPagination",
    # proxies in front of the app that append to X-Forwarded-For: with 0 the client is
    # REMOTE_ADDR (a client cannot pick its address for the throttles then)
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "PAGE_SIZE": 100,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Bodies: every request at most MAX_BODY_BYTES (413 above), which only whole files and
# documents need; every other write 64 KB unless its view says (api.parsers). The
# anonymous scorer at most SCORER_MAX_BODY_BYTES and SCORER_RATE requests per address.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_BODY_BYTES", 2_621_440)
SCORER_MAX_BODY_BYTES = env_int("SCORER_MAX_BODY_BYTES", 262_144)
# a request without credentials (a login) at most this, unless its endpoint says (the
# scorer above, the sign-up form: api.registrations.SIGN_UP_MAX_BODY_BYTES)
ANONYMOUS_MAX_BODY_BYTES = env_int("ANONYMOUS_MAX_BODY_BYTES", 16_384)
SCORER_RATE = env_rate("SCORER_RATE", "120/min")
# Objections and calls for the director per token (a table's or a player's), together.
VOICE_RATE = env_rate("VOICE_RATE", "20/hour")

# Failed logins (API token and login page), counted in the cache (clubs/login_throttle.py):
# a username stopped from one address, an address stopped, a username only slowed down.
LOGIN_FAILURES_PER_USERNAME = env_int("LOGIN_FAILURES_PER_USERNAME", 10)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 900)
LOGIN_SLOWDOWN_SECONDS = env_int("LOGIN_SLOWDOWN_SECONDS", 2)
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", 30)
for _name in ("DATA_UPLOAD_MAX_MEMORY_SIZE", "SCORER_MAX_BODY_BYTES", "ANONYMOUS_MAX_BODY_BYTES",
              "LOGIN_FAILURES_PER_USERNAME",
              "LOGIN_FAILURES_PER_ADDRESS", "LOGIN_FAILURE_WINDOW_SECONDS",
              "LOGIN_KNOWN_ADDRESS_DAYS"):
    if globals()[_name] < 1:
        raise ImproperlyConfigured(f"{_name} must be at least 1")
if not 0 <= LOGIN_SLOWDOWN_SECONDS <= 10:  # a worker is held that long: keep it bounded
    raise ImproperlyConfigured("LOGIN_SLOWDOWN_SECONDS must be between 0 and 10")

SPECTACULAR_SETTINGS = {
    "TITLE": "Stichliste API",
    "DESCRIPTION": "Card-game clubs and tournaments: Skat, Schafkopf, Baptistenskat, "
    "Basler and La Bâtarde.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # without deep links an operation's path is plain text inside its toggle button, not a
    # link nested in a button (axe's nested-interactive; issue #23)
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {"TournamentStatusEnum": "tournaments.models.Tournament.Status",
                            "SheetStatusEnum": ["open", "submitted"],
                            "MemberLineStatusEnum": ["new", "unchanged", "exists"],
                            "ObjectionStatusEnum": ["open", "resolved"],
                            "CallStatusEnum": "tournaments.models.DirectorCall.Status",
                            "CallUpdateStatusEnum": ["seen", "closed"],
                            "GameEnum": "games.choices.game_choices",
                            "LeagueGameEnum": "games.choices.league_game_choices",
                            "RegistrationStatusEnum": "tournaments.models.RegistrationStatus",
                            "SignUpStatusEnum": ["registered", "waiting"]},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "api.openapi.add_components_and_errors"],
}

# ---------------------------------------------------------------- security (production)

# X-Forwarded-Proto says "this came in over HTTPS" only when a proxy we run sets it (and
# drops the client's own); without one any client could claim HTTPS (secure cookies,
# no redirect). `make venue` forces it off. NUM_PROXIES (X-Forwarded-For) is separate.
TRUSTED_PROXY = env_bool("TRUSTED_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXY else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# /healthz is probed over plain HTTP by the container's health check.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
# No inline script or style anywhere (django-csp); the API docs load their script by URL.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# the policy of what is never a document of its own (config/csp.py): every JSON answer, and
# these views' parts of a page, fetched by its script (the board's standings, a player's
# live part, a sheet's list, the console's voice panel)
CSP_PART_DIRECTIVES = {"default-src": [NONE], "frame-ancestors": [NONE]}
CSP_PART_VIEWS = frozenset({"pages:board-standings", "pages:me-live", "pages:card",
                            "pages:me-card", "pages:sheet-list", "pages:me-sheet-list",
                            "pages:staff-sheet-list", "console:voice"})

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:home"
LOGOUT_REDIRECT_URL = "login"

# One JSON object per line (time, level, logger, message, request id, user, table), or
# LOG_FORMAT=text for a person reading a terminal.
LOG_FORMAT = env_choice("LOG_FORMAT", "json", {"json", "text"})
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request": {"()": "config.request_log.RequestContextFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(user)s "
                   "%(table)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s user=%(user)s "
                      "table=%(table)s] %(message)s",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                    "filters": ["request"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # one line per task is noise when tasks run in process after every deal
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}

# Errors to Sentry only when SENTRY_DSN is set; no personal data is sent.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk

    try:
        sentry_sdk.init(dsn=SENTRY_DSN, environment=env_str("SENTRY_ENVIRONMENT", "production"),
                        send_default_pii=False, traces_sample_rate=0.0)
    except Exception as exc:  # a malformed DSN stops the start with its name
        raise ImproperlyConfigured(f"SENTRY_DSN is not a valid Sentry DSN: {exc}") from None
