"""Settings for the IHTC Portal.

Everything that differs between the embedded default and production is read
from the environment (12-factor). With no variable set the portal runs on a
SQLite file, a Celery worker and beat on kombu's filesystem transport (no
broker server), an in-process channel layer and console e-mail.

- ``DATABASE_URL``: e.g. ``postgres://user@127.0.0.1:5432/portal``.
- ``REDIS_URL``: cache, Celery broker and results, channel layer;
  ``REDIS_KEY_PREFIX`` starts every key the portal writes there.
- ``DJANGO_PRODUCTION=1``: hardened settings; requires ``DJANGO_SECRET_KEY``
  and ``DJANGO_ALLOWED_HOSTS``; static files come from ``collectstatic``'s
  hashed copies (``scripts/production`` collects them).
- ``PORTAL_COLLECTED_STATIC=1``: the same hashed copies outside production;
  ``make run`` sets it (with ``DJANGO_DEBUG=0``) unless run as ``DEBUG=1 make run``.

Static files are served by WhiteNoise in every mode, so DEBUG can be off
without a separate web server for them.
"""

import datetime
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEBUG = env.bool("DJANGO_DEBUG", default=not PRODUCTION)

DATA_DIR = Path(env.str("PORTAL_DATA_DIR", default=str(BASE_DIR / "var")))
# Pages name static files by collectstatic's hashed copies (STATIC_ROOT), served by WhiteNoise, as in production.
COLLECTED_STATIC = env.bool("PORTAL_COLLECTED_STATIC", default=PRODUCTION)

if PRODUCTION:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY")
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
else:
    SECRET_KEY = env.str(
        "DJANGO_SECRET_KEY",
        default="dev-only-insecure-key-do-not-use-in-production-3f9a1c7e5b2d",
    )
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])

CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles: `runserver` leaves static files to WhiteNoise, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the widgets' templates, for the project's form renderer (FORM_RENDERER)
    "rest_framework",
    # API tokens (django-rest-knox); its model is swapped for accounts.ApiToken (named tokens).
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_countries",
    "djmoney",
    "axes",
    "rules.apps.AutodiscoverRulesConfig",
    "channels",
    "portal",
    "accounts",
    "federation",
    "tournaments",
    "games",
    "discipline",
    "reports",
    # Signed events to the federations' own systems (docs/webhooks.md), above every app it hears from.
    "webhooks",
    # The site's top: the home, search and notifications pages, and the demo world (docs/architecture.md).
    "hub",
    "demo",
]

MIDDLEWARE = [
    # A body over PORTAL_MAX_REQUEST_BYTES is a 413 before anything reads it (under ASGI: portal.asgi's wrapper).
    "portal.request_limits.RequestBodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The deprecated /api/... aliases of /api/v1/ say so in every answer (portal.api_versions, docs/api-changelog.md).
    "portal.api_versions.ApiDeprecationMiddleware",
    # Static files, right after the security headers and before anything that touches the session.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the switch's cookie, else the browser's Accept-Language (issue 12, "Languages").
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in person without the switch's cookie (a new browser) gets the language they chose before.
    "portal.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it reads the outcome of authentication.
    "axes.middleware.AxesMiddleware",
    # The Content-Security-Policy header (django-csp), with the live pages' WebSocket host.
    "portal.csp.PortalCSPMiddleware",
]

ROOT_URLCONF = "portal.urls"

# Every form drawn the same way (issue 26): portal/forms.py, templates/portal/form.html.
FORM_RENDERER = "portal.forms.PortalFormRenderer"
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
                "accounts.context_processors.nav",
                "games.context_processors.nav",
                "tournaments.context_processors.nav",
                "discipline.context_processors.nav",
                "federation.context_processors.nav",
                "webhooks.context_processors.nav",
                "portal.context_processors.nav",
            ],
        },
    },
]

WSGI_APPLICATION = "portal.wsgi.application"
ASGI_APPLICATION = "portal.asgi.application"

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'portal.sqlite3'}"),
}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A fresh clone has no var/: SQLite creates the file but not its folder.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # Writers wait for each other instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
elif env.int("DATABASE_POOL_SIZE", default=8 if PRODUCTION else 0) > 0:
    # psycopg's connection pool (Django 5.1+), for an ASGI web node: Django runs each request's view in a thread of
    # its own, and a persistent connection (CONN_MAX_AGE) stays open with each such thread, so under load a node
    # would open connections until PostgreSQL refuses more. The pool holds at most this many; a request waits for
    # one. On by default in production (8 per process; DATABASE_POOL_SIZE=0 turns it off); scripts/topology sets it.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1,
        "max_size": env.int("DATABASE_POOL_SIZE", default=8),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=20.0),
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that is restarting or unreachable fails a request within seconds (a 503, portal/errors.py)
    # instead of holding it until the operating system gives up on the connection.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=5))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

REDIS_URL = env.str("REDIS_URL", default="")
# Every key the portal writes to Redis (cache, Celery queues and results, channel layer) starts with it, so that
# several portals (or test runs: the Makefile derives it from the checkout) share one Redis database safely.
REDIS_KEY_PREFIX = env.str("REDIS_KEY_PREFIX", default="")

# A Redis that hangs (its process stopped, a frozen machine, a network that drops packets) accepts connections and
# never answers: without these, a call waits for redis-py's default 5 s, and a Celery publish for ever. Every client
# of the web processes has a connect and a read timeout; what it does when one expires (the entry is stored, the
# page rendered without the cache, the push and the task left to their sweeps) is docs/operations.md's, "Redis hung
# (SIGSTOP)" (issue 27, "Faults").
REDIS_CONNECT_TIMEOUT = env.float("REDIS_CONNECT_TIMEOUT", default=0.3)
REDIS_READ_TIMEOUT = env.float("REDIS_READ_TIMEOUT", default=0.3)
# The channel layer's receive blocks in Redis for 5 s (channels_redis' BZPOPMIN): its read timeout is longer. A push
# (games.live) has a deadline of its own, a relay's join (games.consumers) too.
CHANNEL_LAYER_READ_TIMEOUT = 8.0
# Celery's Redis broker and results, in the web processes (a task queued after a commit: a report, a webhook, an
# e-mail) and the workers.
CELERY_REDIS_TIMEOUT = env.float("CELERY_REDIS_TIMEOUT", default=0.5)

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            "OPTIONS": {
                "CLIENT_CLASS": "django_redis.client.DefaultClient",
                "SOCKET_CONNECT_TIMEOUT": REDIS_CONNECT_TIMEOUT,
                "SOCKET_TIMEOUT": REDIS_READ_TIMEOUT,
            },
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                        "socket_timeout": CHANNEL_LAYER_READ_TIMEOUT,
                    }
                ],
                "prefix": f"{REDIS_KEY_PREFIX}asgi",
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The public pages' cache (portal.page_cache) is keyed by the data's version; a release that changes how a page
# looks sets a new namespace, so the pages rendered by the release before are not served (docs/operations.md).
PAGE_CACHE_NAMESPACE = env.str("PAGE_CACHE_NAMESPACE", default="1")

# --- The live scoreboard's fan-out (games.live; docs/operations.md, "Topology and load") ----------------------
# "channels": viewers watch over Django Channels' consumers (games.consumers) and entries go through the channel
# layer (in memory on the embedded default, Redis in production). "nchan": viewers subscribe to nginx's nchan
# module at LIVE_NCHAN_SUBSCRIBE_PATH (/games/<id>/, /championships/<id>/), and each entry is published once to
# LIVE_NCHAN_PUBLISH_URL (an nginx location on loopback only), which nchan hands to every subscriber.
LIVE_FANOUT = env.str("LIVE_FANOUT", default="channels")
if LIVE_FANOUT not in ("channels", "nchan"):
    raise ImproperlyConfigured(f"LIVE_FANOUT must be channels or nchan, not {LIVE_FANOUT!r}")
LIVE_NCHAN_PUBLISH_URL = env.str("LIVE_NCHAN_PUBLISH_URL", default="http://127.0.0.1:8079/pub/")
LIVE_NCHAN_SUBSCRIBE_PATH = env.str("LIVE_NCHAN_SUBSCRIBE_PATH", default="/live/nchan/")
# A publish that takes longer is given up (logged): the entry is stored, viewers catch up by their snapshot.
LIVE_NCHAN_TIMEOUT = env.float("LIVE_NCHAN_TIMEOUT", default=0.5)

# --- Celery -----------------------------------------------------------------
CELERY_BROKER_DIR = DATA_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
    CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL)
    # kombu and Celery's Redis backend put the prefix before every queue, binding and result key.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": REDIS_KEY_PREFIX} if REDIS_KEY_PREFIX else {}
    # A task sent is published (the broker) after its result's channel is subscribed to (the results): each call
    # that fails is tried once more, soon, not 20 times a second apart. A hung Redis then costs the request about
    # 1.5 s (the subscribe's two timeouts; it raises before the publish) and the task is left to its sweep
    # (reports, webhooks and e-mails each have one on beat).
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.2,
    }
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
        **CELERY_BROKER_TRANSPORT_OPTIONS,
        "retry_policy": CELERY_TASK_PUBLISH_RETRY_POLICY,
    }
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):  # kombu's Redis transport (not another broker)
        CELERY_BROKER_TRANSPORT_OPTIONS.update(
            socket_connect_timeout=CELERY_REDIS_TIMEOUT, socket_timeout=CELERY_REDIS_TIMEOUT
        )
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = CELERY_REDIS_SOCKET_TIMEOUT = CELERY_REDIS_TIMEOUT
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = True
else:
    # kombu's filesystem transport: a queue is a folder; no broker server.
    # It has no fanout exchange, so remote control (broadcast) is disabled.
    CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
    CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=f"file://{CELERY_BROKER_DIR / 'results'}")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "queue"),
        "data_folder_out": str(CELERY_BROKER_DIR / "queue"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        # Exchange bindings; without it kombu writes a "control" folder in the cwd.
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_BROKER_DIR / "beat-schedule")
CELERY_BEAT_SCHEDULE: dict = {
    # The admin's "Worker heartbeats" list shows when each worker last ran it.
    "heartbeat": {
        "task": "portal.tasks.heartbeat",
        "schedule": env.float("PORTAL_HEARTBEAT_SECONDS", default=60.0),
    },
    "clear-expired-sessions": {"task": "portal.tasks.clear_expired_sessions", "schedule": 24 * 60 * 60.0},
    # Notifications whose e-mail task was lost (broker down, worker killed) are sent by this sweep.
    "send-pending-notifications": {"task": "portal.tasks.send_pending_notifications", "schedule": 60.0},
    # Protest deadlines (9.1, R-51): lapse what is overdue by the database's clock, remind before (discipline.tasks).
    "protest-deadlines": {
        "task": "discipline.tasks.sweep_protest_deadlines",
        "schedule": env.float("PORTAL_DEADLINE_SWEEP_SECONDS", default=60.0),
    },
    # Suspensions for the rest of a tournament that is over (8.2 C) or for a period that ran out end by themselves.
    "end-finished-suspensions": {"task": "discipline.tasks.end_finished_suspensions", "schedule": 15 * 60.0},
    # Documents whose render was lost (a killed worker, a lost message) are queued again (reports.tasks).
    "requeue-stuck-documents": {
        "task": "reports.tasks.requeue_stuck_documents",
        "schedule": env.float("REPORTS_REQUEUE_SECONDS", default=60.0),
    },
    # Webhooks (docs/webhooks.md): deliveries whose attempt was lost are queued again; rosters frozen since the last
    # sweep (3.1.1 B, R-05: the freeze comes with the first game's start) are told to their federations.
    "requeue-lost-webhook-deliveries": {"task": "webhooks.tasks.requeue_lost_deliveries", "schedule": 60.0},
    "announce-frozen-rosters": {"task": "webhooks.tasks.announce_frozen_rosters", "schedule": 60.0},
}
if LIVE_FANOUT == "nchan":
    # nchan cannot beat by itself: one heartbeat a HEARTBEAT_SECONDS (5 s) on the channel every viewer also
    # subscribes to, whatever the number of games or viewers (games.tasks.live_heartbeat).
    CELERY_BEAT_SCHEDULE["live-heartbeat"] = {
        "task": "games.tasks.live_heartbeat",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    }

# --- Webhooks (docs/webhooks.md) -------------------------------------------
# Outside production, plain HTTP to a loopback address and private addresses are allowed (tests, a developer's
# receiver); in production never: HTTPS to public addresses only (server-side request forgery).
WEBHOOKS_ALLOW_LOOPBACK = not PRODUCTION and env.bool("WEBHOOKS_ALLOW_LOOPBACK", default=True)
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = not PRODUCTION and env.bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", default=True)
# Attempts of one delivery (the first and its retries), seconds before the first retry (doubling after each), and
# the time one request may take.
WEBHOOKS_MAX_ATTEMPTS = env.int("WEBHOOKS_MAX_ATTEMPTS", default=6)
WEBHOOKS_RETRY_BASE_SECONDS = env.float("WEBHOOKS_RETRY_BASE_SECONDS", default=30.0)
WEBHOOKS_TIMEOUT_SECONDS = env.float("WEBHOOKS_TIMEOUT_SECONDS", default=10.0)

# --- Auth and login hardening ----------------------------------------------
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses locked-out credentials before any check.
    "axes.backends.AxesStandaloneBackend",
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Two limits (accounts.lockout): failed passwords per login and address, and per login from any address, so that
# changing address (a rotated X-Forwarded-For, many machines) does not escape the lock (issue 23).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_ACCOUNT_FAILURE_LIMIT = env.int("AXES_ACCOUNT_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], ["username"]]  # in this order: accounts.lockout
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = 60 * 60 * 12

# --- i18n / time --------------------------------------------------------------
# English is the authoritative language of the rules; screens, e-mails and documents are also in French and
# Spanish. The catalogues are in locale/ (`make messages` compiles them); rule citations keep their articles.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# English dates and times as the portal writes them (portal/formats/en: day before month, 24-hour clock); French
# and Spanish use Django's own locale formats (issue 26).
FORMAT_MODULE_PATH = ["portal.formats"]
# The currencies offered for fees (ISO 4217; portal.currencies says which federations use them). A championship
# whose fee is in a currency outside the list keeps it.
PORTAL_CURRENCIES = ["USD", "EUR", "CHF", "GBP", "CZK", "ARS", "CAD", "AUD"]

# --- Files --------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = DATA_DIR / "media"
# Passport scans and other confidential documents: outside MEDIA_ROOT and any
# URL; served only through views that check permission.
PRIVATE_MEDIA_ROOT = DATA_DIR / "private"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "private": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(PRIVATE_MEDIA_ROOT), "base_url": None},
    },
    "staticfiles": {
        "BACKEND": (
            # Hashed names, which WhiteNoise serves with far-future cache headers; written by `collectstatic`
            # (scripts/production). Not WhiteNoise's compressed variant: compressing the API docs' source maps
            # takes over a minute here, for files only developers fetch.
            "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
            if COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Without collected files WhiteNoise serves straight from the apps' static folders: no collectstatic needed.
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = DEBUG and not COLLECTED_STATIC
# The whole request body: at most 12 MB, as the topology's nginx (client_max_body_size 12m), refused with 413 before
# it is read also without nginx (portal.request_limits). Below it: form fields at most 10 MB (Django's 400), an
# upload kept in memory up to 5 MB and written to a temporary file beyond, each upload field checked on its own.
PORTAL_MAX_REQUEST_BYTES = env.int("PORTAL_MAX_REQUEST_BYTES", default=12 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# --- E-mail -------------------------------------------------------------------
EMAIL_BACKEND = env.str("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="portal@ihtc.example")
# Where the portal is reached: the links in its e-mails (notifications) start with it.
PORTAL_BASE_URL = env.str("PORTAL_BASE_URL", default="http://127.0.0.1:8000")
EMAIL_HOST = env.str("DJANGO_EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("DJANGO_EMAIL_PORT", default=25)
EMAIL_TIMEOUT = env.int("DJANGO_EMAIL_TIMEOUT", default=20)

# --- REST API -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # API clients send a per-user token ("Authorization: Token ...", made on the "API tokens" page or by
        # POST api/auth/token/); the pages' own calls use the session. No HTTP Basic: no password travels with every
        # request, and a script looping on a wrong password cannot lock its owner out (django-axes).
        # The token first: DRF answers a failed authentication with the first class's header, so an unknown,
        # expired or revoked token is a 401 with "WWW-Authenticate: Token"; a request with no token stays a 403
        # (accounts.authentication, portal.openapi).
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON first (a too-deep body is a 400), then the forms and file uploads DRF parses by default.
    "DEFAULT_PARSER_CLASSES": [
        "portal.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": [
        "portal.filters.FilterBackend",
        "portal.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "portal.openapi.PortalAutoSchema",
    "EXCEPTION_HANDLER": "portal.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "IHTC Portal API",
    "DESCRIPTION": "Federations, people, eligibility, equipment, championships and games "
    "under the FIRS/IHTC Rules of the Game (2017).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No badge image from validator.swagger.io: the docs load nothing from outside.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Only /api/v1/ is documented (its /api/... aliases are not); tags and operation ids leave the version out.
    "PREPROCESSING_HOOKS": ["portal.api_versions.documented_endpoints"],
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "ENUM_NAME_OVERRIDES": {
        "ChampionshipLevelEnum": "tournaments.models.Level",
        "SheetDutyEnum": "games.devices.SHEET_DUTY_CHOICES",
        "OfficialDutyEnum": "games.models.OfficialDuty",
        "ConfidentialKindEnum": "discipline.models.ConfidentialKind",
        "SuspensionKindEnum": "discipline.models.SuspensionKind",
        "SanctionKindEnum": "discipline.api.SANCTION_KINDS",
        "AppealLevelEnum": "discipline.models.AppealLevel",
        "DecisionOutcomeEnum": "discipline.models.DecisionOutcome",
        "AppealOutcomeEnum": "discipline.api.APPEAL_OUTCOMES",
        "ProtestKindEnum": "discipline.models.ProtestKind",
        "ProtestStatusEnum": "discipline.models.ProtestStatus",
        "FeeMethodEnum": "discipline.models.FeeMethod",
        "FeeOutcomeEnum": "discipline.models.FeeOutcome",
        "DeadlineKindEnum": "discipline.models.DeadlineKind",
        "DeadlineStatusEnum": "discipline.models.DeadlineStatus",
        "ProtestOutcomeEnum": "discipline.protest_api.PROTEST_OUTCOMES",
        # Every kind of document shares them (reports.api: a game's report, a championship's documents).
        "DocumentKindEnum": "reports.models.DocumentKind",
        "DocumentStatusEnum": "reports.models.DocumentStatus",
        # The webhooks' event types: an endpoint's, a delivery's, the log's filter (webhooks.models).
        "WebhookEventTypeEnum": "webhooks.models.EventType",
        "WebhookDeliveryStatusEnum": "webhooks.models.DeliveryStatus",
    },
    # The portal's conventions (portal.openapi): refusals with their bodies, closed request bodies.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "portal.openapi.closed_request_bodies"],
}

# --- API tokens and Content-Security-Policy (issue 13, "Bad input and attacks") ------------------
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's own migrations create its `knox_authtoken` table even though the model is swapped
# out, with a foreign key to the user table that Django's flush (TRUNCATE on PostgreSQL)
# does not know about. Without migrations, Django skips the swapped model: no such table.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    # A token made on the page lives as long as its owner chose there (accounts.tokens); this is knox's default.
    "TOKEN_TTL": datetime.timedelta(days=90),
    "AUTH_HEADER_PREFIX": "Token",
}
# django-csp: the header on every response. Scripts only from the portal's own files (no inline script, no
# eval); <style> blocks of the pages carry the request's nonce. The live pages' WebSocket (ws/wss of the same
# host) is added per request by portal.csp.PortalCSPMiddleware.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "connect-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
    },
}
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# --- Production hardening -----------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    if not SECURE_SSL_REDIRECT:
        # Turned off on purpose (a proxy that redirects to https itself, or scripts/topology's loopback http):
        # `check --deploy`'s reminder to turn it on (security.W008) is then that choice, not a finding.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_as_info": {"()": "portal.log_filters.RefusalsAsInfo"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        # WeasyPrint logs each step of every render at INFO; its warnings (a refused URL, a CSS error) still show.
        "weasyprint.progress": {"level": "WARNING"},
        # A refusal (403, 404, 401, 405...) is one INFO line without a traceback; 5xx stay errors with theirs.
        "django.request": {"filters": ["refusals_as_info"]},
    },
}

# --- Documents (reports) ---------------------------------------------------------
# Each PDF render runs in a child process stopped after this many seconds, with this much memory over what it
# inherits (reports.rendering); a document still queued or rendering after REPORTS_STUCK_SECONDS is queued again
# by beat (reports.tasks.requeue_stuck_documents), whatever the broker does with a killed worker's message.
REPORTS_RENDER_SECONDS = env.int("REPORTS_RENDER_SECONDS", default=30)
REPORTS_RENDER_MEMORY_MB = env.int("REPORTS_RENDER_MEMORY_MB", default=512)
REPORTS_STUCK_SECONDS = env.int("REPORTS_STUCK_SECONDS", default=120)
