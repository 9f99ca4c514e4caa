"""One settings module for every environment, driven by environment variables.

DATABASE_URL  any dj-database-url URL; default: SQLite file db.sqlite3 in the repo root.
              In production the service's own role: it may read and append game events only.
MIGRATE_DATABASE_URL  the tables' owner, the database alias "owner", used by `manage.py migrate
              --database owner` and `manage.py grant_service_role`; default: DATABASE_URL.
REDIS_URL     optional; when set, the channel layer (Redis pub/sub) and the Celery broker use it.
CHANNEL_REDIS_URLS  optional, comma-separated: the channel layer's Redis servers (sharded by
              group); default REDIS_URL. CELERY_BROKER_URL: the broker; default REDIS_URL.
SEJMI_PGBOUNCER  1: DATABASE_URL is a PgBouncer in transaction mode (no prepared statements,
              no server-side cursors, no SEJMI_DB_ROLE).
CHANNEL_PREFIX  the pub/sub channels' prefix (they are global to a Redis server, whatever the DB
              number); default derived from the database's name, so test runs never cross-talk.
NUM_PROXIES   the number of proxies in front (1 behind docker-compose's HAProxy), so throttles
              see the client's address (X-Forwarded-For); default 0: REMOTE_ADDR, header ignored.
SEJMI_DB_POOL_MAX / _TIMEOUT / _MAX_WAITING  the PostgreSQL pool per process: size, wait (s)
              before 503 `unavailable`, how many requests may wait at once.
DATABASE_REPLICA_URLS  optional, comma-separated: streaming replicas for the reads that may lag;
              SEJMI_REPLICA_MAX_LAG_S (5) the lag past which one is skipped.
CACHE_URL     optional; a Redis for the cache every web worker shares (websocket tickets).
EMAIL_HOST, EMAIL_PORT, ...  notification mail over SMTP; the console backend when unset.
SEJMI_BASE_URL  the site's address, for the links in mails.
SECRET_KEY, DEBUG, ALLOWED_HOSTS  as usual; the defaults suit local development only.
"""

import logging
import os
from pathlib import Path

from celery.schedules import crontab

from sejmi.env import env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get("SECRET_KEY", "django-insecure-dev-only-change-me")
# The key that signs games' heads (games.core.signing): the private seed as hex, or a file
# holding it; the database never sees it. Default: `signing.key` beside manage.py, made once.
SEJMI_SIGNING_KEY = os.environ.get("SEJMI_SIGNING_KEY", "")
SEJMI_SIGNING_KEY_FILE = os.environ.get("SEJMI_SIGNING_KEY_FILE", str(BASE_DIR / "signing.key"))
# The witness of signed ends outside PostgreSQL (games.core.witness): a directory of this node
# the database's operators cannot write.
SEJMI_WITNESS_DIR = os.environ.get("SEJMI_WITNESS_DIR", str(BASE_DIR / "witness"))
# Off unless DEBUG=1 (README): `make run` shows the friendly error pages, not tracebacks.
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

INSTALLED_APPS = [
    # First: its createsuperuser takes the place of django.contrib.auth's (it writes the
    # account's folded name: games.accounts.services). It has no templates, static files or
    # translations that this order could shadow.
    "games",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served locally, no CDN
    "channels",
    "replays",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.api.handlers.BodyLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "sejmi.middleware.ContentSecurityPolicy",  # the pages' CSP (issue 32)
    "sejmi.middleware.SyncViewsInOneHop",  # last: see its docstring
]

ROOT_URLCONF = "sejmi.urls"
WSGI_APPLICATION = "sejmi.wsgi.application"
ASGI_APPLICATION = "sejmi.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The primary, the owner's alias, the pool, the role, PgBouncer and the read replicas.
from sejmi.databases import (  # noqa: E402, F401 (settings Django reads)
    DATABASE_REPLICAS,
    DATABASE_ROUTERS,
    DATABASES,
    SEJMI_PGBOUNCER,
    SEJMI_REPLICA_CHECK_S,
    SEJMI_REPLICA_MAX_LAG_S,
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("cs", "Čeština")]
LOCALE_PATHS = [BASE_DIR / "frontend" / "locale"]
LOGIN_URL = "/login/"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.accounts.tokens.TokenAuthentication",  # DRF's, in one plain statement
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.handlers.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [
        # DRF's, failing open while the cache's Redis is away (games.api.throttles)
        "games.api.throttles.AnonRateThrottle",
        "games.api.throttles.UserRateThrottle",
        "games.api.throttles.ScopedRateThrottle",
    ],
    # Behind a load balancer (docker-compose's HAProxy) every request comes from the balancer's
    # address: with NUM_PROXIES=1 the throttles take the client's from X-Forwarded-For, as the
    # one proxy in front appended it. 0 (the default): REMOTE_ADDR, the header ignored (DRF's
    # own default, None, would trust the whole header: a client could throttle itself as anyone).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES") or 0),
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("SEJMI_THROTTLE_ANON", "600/min"),
        "user": os.environ.get("SEJMI_THROTTLE_USER", "6000/min"),
        "commands": os.environ.get("SEJMI_THROTTLE_COMMANDS", "3000/min"),
        "register": os.environ.get("SEJMI_THROTTLE_REGISTER", "300/min"),
    },
}
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024  # games.api.handlers.BodyLimitMiddleware answers 413

# Rigged games (API.md) exist only for tests and demos.
SEJMI_ALLOW_RIGGED = env_bool("SEJMI_ALLOW_RIGGED", False)
# A cap (API.md, Conventions: 429 `too_many`): bots-only games a user may create per hour (each
# plays ~160 events at once).
SEJMI_BOT_GAMES_PER_HOUR = int(os.environ.get("SEJMI_BOT_GAMES_PER_HOUR", "10"))
# Another: open sockets per user in one web process (games.live.guard.SocketCap: 4429 past it).
SEJMI_SOCKETS_PER_USER = int(os.environ.get("SEJMI_SOCKETS_PER_USER", "20"))
# `make run` sweeps deadlines in a thread of the web process instead of using Celery; the ASGI
# app starts it at the server's startup (sejmi.asgi.lifespan).
SEJMI_INPROCESS_RUNNER = env_bool("SEJMI_INPROCESS_RUNNER", False)
# Away from a seat: the vacation days each player may declare per calendar year, and the days
# without a human act after which a running game ends as abandoned.
SEJMI_VACATION_DAYS_PER_YEAR = int(os.environ.get("SEJMI_VACATION_DAYS_PER_YEAR", "30"))
SEJMI_ABANDON_AFTER_DAYS = int(os.environ.get("SEJMI_ABANDON_AFTER_DAYS", "30"))
# Chat (games/chat/services.py): at most this many messages per user and game in this many
# seconds, counted from the stored messages (so every web worker counts the same).
CHAT_RATE = tuple(int(x) for x in os.environ.get("SEJMI_CHAT_RATE", "5/10").split("/", 1))

SPECTACULAR_SETTINGS = {
    "TITLE": "Sejmi je API",
    "DESCRIPTION": "Online home of the Czech card game Sejmi je.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

REDIS_URL = os.environ.get("REDIS_URL", "")
# The live stream over several Redis servers: CHANNEL_REDIS_URLS (comma-separated; default
# REDIS_URL alone). channels_redis hashes each group's channel name onto one of them, and
# games.core.pubsub publishes with the same hash: every process must list the same servers in
# the same order (a process with another list publishes where nobody listens).
CHANNEL_REDIS_URLS = env_list("CHANNEL_REDIS_URLS", REDIS_URL)
# A game socket whose client does not take a frame within this many seconds, or with more than
# this many batches waiting for it in its process, is closed 1013 and resyncs when it comes
# back (games.live.outbox): one stalled client holds no memory or handler for long. A ping sent
# after frames and unanswered for SEJMI_WS_PONG_TIMEOUT_S (default: the same) closes it too: the
# kernel's buffers may take a whole game for a client that never reads (issue 32 item 5).
SEJMI_WS_SEND_TIMEOUT_S = float(os.environ.get("SEJMI_WS_SEND_TIMEOUT_S", "10"))
SEJMI_WS_PONG_TIMEOUT_S = float(os.environ.get("SEJMI_WS_PONG_TIMEOUT_S")
                                or SEJMI_WS_SEND_TIMEOUT_S)  # fmt: skip
SEJMI_WS_BACKLOG = int(os.environ.get("SEJMI_WS_BACKLOG", "64"))

# Every Redis client gives up on a Redis that takes the connection and never answers (a network
# partition, not a crash) after these many seconds, connecting and per call: the cache's, the
# channel layer's, the blocking publish's and Celery's (issue 21: the site froze for minutes).
REDIS_TIMEOUT_S = float(os.environ.get("SEJMI_REDIS_TIMEOUT_S", "1"))


def redis_cache(url: str) -> dict:
    """A Django cache on the Redis at `url`, with the timeouts above."""
    return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT_S,
                        "socket_timeout": REDIS_TIMEOUT_S}}  # fmt: skip


# Websocket tickets (games/live/tickets.py) and throttle counters live in the cache: with several
# web workers it must be one they share, a Redis (CACHE_URL, e.g. redis://redis:6379/1 — not the
# channel layer's database: a cache may be cleared whole). Default: each process's memory. While
# it is away throttles let requests through and tickets answer 503 (games.api.throttles).
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {"default": redis_cache(CACHE_URL)}


def _channel_prefix() -> str:
    """Redis pub/sub channels are global to a Redis server, whatever its DB number: two
    deployments or test runs on one Redis would hear each other's games. CHANNEL_PREFIX, or one
    derived from the database's name (each test run and browser server has its own)."""
    if os.environ.get("CHANNEL_PREFIX"):
        return os.environ["CHANNEL_PREFIX"]
    return f"sejmi.{Path(str(DATABASES['default'].get('NAME') or 'default')).name}."


CHANNEL_PREFIX = _channel_prefix()
if CHANNEL_REDIS_URLS:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub, not channels_redis.core: a group here is one subscription per process,
            # which redis-py subscribes again when it reconnects, so membership survives a Redis
            # restart and never expires (core keeps it in Redis keys, lost in a restart and gone
            # after `group_expiry`, a day: a correspondence socket would fall silent). Delivery
            # is at most once: a message published while a process is disconnected is lost, and
            # each socket's queue is in its process's memory (no capacity, nothing dropped for
            # a slow socket). Sockets heal gaps by seq (games.live.consumer, docs/LIVE_STREAM.md).
            # games.core.pubsub: one decode per received message per process, and a blocking
            # publish for synchronous code.
            "BACKEND": "games.core.pubsub.PubSubLayer",
            # A subscriber waits for messages as long as it likes: only connecting is timed.
            "CONFIG": {
                "hosts": [
                    {"address": url, "socket_connect_timeout": REDIS_TIMEOUT_S}
                    for url in CHANNEL_REDIS_URLS
                ],
                "prefix": CHANNEL_PREFIX,
            },  # fmt: skip
        },
    }
else:  # `make run`: one process, no external service
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Celery's broker: CELERY_BROKER_URL, a Redis of its own in docker-compose (its queues away from
# the live stream's traffic); default REDIS_URL.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "memory://"

# Whether the service sends Celery tasks at all (games.core.task_queue): deadlines and bot moves
# at commit, notifications' derive, remind and mail (fast paths), with beat's sweeps as the
# guarantee. `make run` has no Celery: the deadline runner's one loop does it all in a thread
# of the web process (games.clock.runner).
SEJMI_SEND_TASKS = CELERY_BROKER_URL != "memory://" and not SEJMI_INPROCESS_RUNNER
# SEJMI_DEADLINE_RUNNER=1: `manage.py run_deadlines` runs beside the workers (docker-compose, the
# bench stack) and applies every clock's deadline from PostgreSQL within 0.2 s, so no Celery ETA
# task is sent for those: one per move, held by the worker until due and then mostly finding the
# game moved on (a sixth of the workers' CPU and one publish per move in bench-load). Bot moves
# still go to Celery at once. Unset: the ETA tasks are the fast path, beat's sweep the guarantee.
SEJMI_DEADLINE_RUNNER = os.environ.get("SEJMI_DEADLINE_RUNNER") == "1"
# How the features that follow the games' logs (notifications, ratings, stats, tournaments:
# games.core.followers) are woken after a command's COMMIT: "queue" (a Redis list that the
# follower process drains: `manage.py run_deadlines`, outside the web), "thread" (`make run`:
# the runner thread of the web process), "inline" (right after COMMIT in the committing
# thread: the tests' default, and a service with neither Redis nor a runner).
SEJMI_FOLLOW = os.environ.get("SEJMI_FOLLOW") or (
    "thread" if SEJMI_INPROCESS_RUNNER else "queue" if REDIS_URL else "inline"
)
CELERY_TASK_SERIALIZER = CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# Every task sent touches the app's result backend (the disabled one: no result is kept).
# Celery makes one per thread unless told it is thread-safe, and making one scans every
# installed package's entry points; under ASGI each request's sync code runs in a thread of
# its own, so every commit paid that scan (bench-load: 6 % of a web worker's CPU).
CELERY_RESULT_BACKEND_THREAD_SAFE = True
# Reconnect to the broker for ever, at startup too, and give up a task whose broker connection
# was lost (acks_late: it is redelivered; `advance` is idempotent). Redis PINGed every 10 s
# so a dead connection is noticed. Deadlines do not depend on this: `manage.py run_deadlines`
# sweeps from PostgreSQL alone (docs/PRODUCTION.md).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"health_check_interval": 10, "socket_keepalive": True,
                                   "socket_connect_timeout": REDIS_TIMEOUT_S,
                                   "socket_timeout": 5 * REDIS_TIMEOUT_S}  # fmt: skip
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep", "schedule": 5.0},
    # Notifications (games.notifications.runner): the sweeper behind each fast path, and the
    # daily digest of the day before (UTC).
    "sweep-notifications": {"task": "games.notifications.sweep", "schedule": 5.0},
    "mail-digest": {
        "task": "games.notifications.digest",
        "schedule": crontab(minute=5, hour=0),
    },  # fmt: skip
}
# The queue of the notification tasks ("celery": the one every worker consumes); the tests
# give theirs to a worker of their own.
SEJMI_NOTIFY_QUEUE = os.environ.get("SEJMI_NOTIFY_QUEUE", "celery")

# Mail (notifications): SMTP at EMAIL_HOST:EMAIL_PORT when EMAIL_HOST is set, else the
# console. SEJMI_BASE_URL makes the links in mails absolute.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 20
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sejmi je <noreply@localhost>")
SEJMI_BASE_URL = os.environ.get("SEJMI_BASE_URL", "http://127.0.0.1:8000")

# Web Push (games.webpush, docs/NOTIFICATIONS.md "Push"). The VAPID key: SEJMI_VAPID_PRIVATE_KEY
# (the raw P-256 private key, base64url) or the file SEJMI_VAPID_KEY_FILE, made once beside
# signing.key (git-ignored) when unset. Only endpoints on SEJMI_PUSH_HOSTS are stored or called
# (https; "*.x" names x's subdomains; a loopback host named there may be plain http: tests).
SEJMI_VAPID_PRIVATE_KEY = os.environ.get("SEJMI_VAPID_PRIVATE_KEY", "")
SEJMI_VAPID_KEY_FILE = os.environ.get("SEJMI_VAPID_KEY_FILE", str(BASE_DIR / "vapid.key"))
SEJMI_VAPID_SUBJECT = os.environ.get("SEJMI_VAPID_SUBJECT", "mailto:admin@localhost")
SEJMI_PUSH_HOSTS = env_list(
    "SEJMI_PUSH_HOSTS",
    ",".join(
        [
            "fcm.googleapis.com",
            "android.googleapis.com",  # Chrome, Edge on Android, Opera, Brave
            "updates.push.services.mozilla.com",
            "*.push.services.mozilla.com",  # Firefox
            "*.notify.windows.com",  # Edge on Windows (WNS)
            "web.push.apple.com",
            "*.push.apple.com",  # Safari
        ]
    ),
)
SEJMI_PUSH_TIMEOUT_S = float(os.environ.get("SEJMI_PUSH_TIMEOUT_S", "5"))
SEJMI_PUSH_TRIES = int(os.environ.get("SEJMI_PUSH_TRIES", "3"))
SEJMI_PUSH_BACKOFF_S = float(os.environ.get("SEJMI_PUSH_BACKOFF_S", "2"))
SEJMI_PUSH_WORKERS = int(os.environ.get("SEJMI_PUSH_WORKERS", "2"))

# Every handler redacts `token=` / `ticket=` values (sejmi.log_redaction). uvicorn's loggers
# are configured here too: Django configures logging after uvicorn has, so these handlers
# replace uvicorn's own in every server that loads sejmi.asgi. Its --no-access-log (make run)
# has left the access logger without handlers and not propagating by now: that is kept
# (SEJMI_ACCESS_LOG=0/1 overrides); the websocket lines of uvicorn.error are logged either way.
_access = logging.getLogger("uvicorn.access")
_ACCESS_LOG = env_bool("SEJMI_ACCESS_LOG", bool(_access.handlers or _access.propagate))
_REDACT = {"filters": ["redact_secrets"]}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "sejmi.log_redaction.RedactSecrets"}},
    "formatters": {
        "uvicorn": {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"},
        "uvicorn_access": {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", **_REDACT},
        "uvicorn": {
            "class": "logging.StreamHandler",
            "formatter": "uvicorn",
            "stream": "ext://sys.stderr",
            **_REDACT,
        },
        "uvicorn_access": {
            "class": "logging.StreamHandler",
            "formatter": "uvicorn_access",
            "stream": "ext://sys.stdout",
            **_REDACT,
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        # Levels stay uvicorn's (--log-level); only the handlers are ours.
        "uvicorn": {"handlers": ["uvicorn"], "propagate": False},
        "uvicorn.access": {
            "handlers": ["uvicorn_access"] if _ACCESS_LOG else [],
            "propagate": False,
        },
    },
}
