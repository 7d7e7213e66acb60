"""Settings, read from the environment.

With nothing set the service runs on its embedded default: SQLite in ``db.sqlite3``, Celery tasks
run eagerly in-process, a local-memory cache. Set ``DATABASE_URL`` and ``REDIS_URL`` and the same
code runs on PostgreSQL and Redis with real workers. README.md lists every variable.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from chickenfoot.email_settings import CONSOLE, DUMMY, SMTP, email_settings_from_url
from chickenfoot.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_networks,
    env_rate,
    env_str,
)
from chickenfoot.i18n.languages import DEFAULT_LANGUAGE, add_lang_info
from chickenfoot.i18n.languages import LANGUAGES as SERVICE_LANGUAGES
from chickenfoot.secret_key import local_secret_key, production_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------------------

# DJANGO_ENV=production (docker-compose sets it) refuses to start without a real SECRET_KEY and
# turns on the HTTPS settings below; "development" (the default) is the embedded default, where a
# key is generated once and kept in SECRET_KEY_FILE (chickenfoot/secret_key.py).
DJANGO_ENV = env_choice("DJANGO_ENV", ("development", "production"), default="development")
PRODUCTION = DJANGO_ENV == "production"
if PRODUCTION:
    SECRET_KEY = production_secret_key(env_str("SECRET_KEY"))
else:
    SECRET_KEY = env_str("SECRET_KEY") or local_secret_key(
        Path(env_str("SECRET_KEY_FILE", str(BASE_DIR / ".secret_key")))
    )
DEBUG = env_bool("DEBUG", default=False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DJANGO_ENV=production refuses to start with DEBUG on.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS (README.md, "Production") ----------------------------------------------------------

# On by default in production, off otherwise; each can be set on its own. TLS ends at the reverse
# proxy (deploy/nginx/), which sets X-Forwarded-Proto on every request it passes on: the app
# believes that header only when SECURE_PROXY_SSL_HEADER is on, so the app server must be
# reachable through the proxy alone.
if env_bool("SECURE_PROXY_SSL_HEADER", default=PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
# Health is answered over plain HTTP too: container and load-balancer probes call the app directly.
SECURE_REDIRECT_EXEMPT = [r"^api/health(/live|/ready)?$", r"^metrics$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=PRODUCTION)
# Strict-Transport-Security: browsers use HTTPS only, for this long (a year), on every subdomain,
# and the header allows the domain onto the browsers' preload list (a step the owner takes at
# hstspreload.org; leaving a preload list takes months, so decide before that step).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)

INSTALLED_APPS = [
    # First: `runserver` then serves ASGI (HTTP and the /ws/ sockets) through Daphne.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "csp",
    "push_notifications",
    "games",
    "scoring",
]

MIDDLEWARE = [
    # First: every answer, a problem from any middleware below too, carries its X-Request-ID.
    "chickenfoot.request_id_middleware.RequestIdMiddleware",
    # Then: the answer's language (the django_language cookie, else Accept-Language, else
    # English; the API's token authentication then puts the player's saved one first:
    # chickenfoot/i18n/choice.py), and its Content-Language and Vary: Accept-Language: Django's
    # LocaleMiddleware, its choices remembered (chickenfoot/i18n/middleware.py).
    "chickenfoot.i18n.middleware.LocaleMiddleware",
    # Then: counts and times every answer, by route (docs/operations.md, "Metrics").
    "chickenfoot.metrics.requests.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "chickenfoot.csp_middleware.StaticPolicyCSPMiddleware",
    # Sessions as Django has them (its deploy checks of the session cookie look for this one).
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's authentication and messages, which the API's requests with a token pass by
    # (games/accounts/token_requests.py).
    "games.accounts.token_requests.TokenAwareAuthenticationMiddleware",
    "games.accounts.token_requests.TokenAwareMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The request being answered, for the absolute avatar URLs of the players its answer shows.
    "games.avatars.urls.AvatarBaseMiddleware",
    "games.middleware.SweepOnRequestMiddleware",
    # A log-in refused for too many password checks at once, in the admin's form: its problem.
    "chickenfoot.hashing.BusyMiddleware",
    # Last: turns a log-in refused for too many failed ones into its problem response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "chickenfoot.urls"
WSGI_APPLICATION = "chickenfoot.wsgi.application"
ASGI_APPLICATION = "chickenfoot.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "chickenfoot" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "chickenfoot.i18n.context.languages",
            ],
        },
    },
]

# --- Content-Security-Policy (django-csp; docs/web.md, "What a page may run") -------------------

# On every response: scripts and styles come from the service's own files only (no inline script,
# no inline style, no eval), so a name that slipped into a page as markup still could not run.
# Pictures may be data: URIs (Swagger UI's icons); fetches and the
# match's socket go to the service itself. The API docs loosen it for their own page only
# (chickenfoot/api_docs.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Database ---------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", default=60),
        # Off by default: a check is one more round trip (SELECT 1) on every request. A
        # connection that broke (the database restarted) fails one request and is then replaced.
        conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", default=False),
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Fail fast (health answers 503) instead of hanging when the server is unreachable.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault(
        "connect_timeout", env_int("DB_CONNECT_TIMEOUT", default=3)
    )
    # Server-side parameter binding, so that a query run twice on a connection becomes a
    # prepared statement (parsed and planned once per connection). DB_PREPARE_THRESHOLD=0 turns
    # that off, e.g. behind a transaction-pooling proxy that cannot keep prepared statements.
    DATABASES["default"]["OPTIONS"].setdefault("server_side_binding", True)
    DATABASES["default"]["OPTIONS"].setdefault(
        "prepare_threshold", env_int("DB_PREPARE_THRESHOLD", default=2) or None
    )
    # QuerySet.iterator() reads through a server-side cursor, declared WITH HOLD outside a
    # transaction: behind a transaction-pooling proxy its next fetch may reach another server
    # connection. DB_SERVER_SIDE_CURSORS=false makes it read the whole result at once instead.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = not env_bool(
        "DB_SERVER_SIDE_CURSORS", default=True
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several clients at once on the embedded default. The write-ahead log lets readers go on
    # while one connection writes; a writer that finds the database busy waits up to
    # DB_SQLITE_TIMEOUT seconds instead of failing with "database is locked"; and every
    # transaction takes the write lock when it begins (BEGIN IMMEDIATE), so two transactions
    # that read and then write cannot both hold a read lock and fail to upgrade it.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", env_int("DB_SQLITE_TIMEOUT", default=20))
    DATABASES["default"]["OPTIONS"].setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"
    )

# A streaming replica of the primary for reads that may lag a second (chickenfoot/db_router.py:
# leaderboards, history, statistics, standings). Unset: every read goes to the primary.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **dj_database_url.parse(
            DATABASE_REPLICA_URL,
            conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
            conn_health_checks=DATABASES["default"]["CONN_HEALTH_CHECKS"],
        ),
        "OPTIONS": dict(DATABASES["default"].get("OPTIONS", {})),
        "DISABLE_SERVER_SIDE_CURSORS": DATABASES["default"].get(
            "DISABLE_SERVER_SIDE_CURSORS", False
        ),
    }
    DATABASE_ROUTERS = ["chickenfoot.db_router.ReplicaRouter"]

# Where `make backup` writes a backup when given no file (chickenfoot/backups.py; git-ignored).
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(BASE_DIR / "backups")))

# A request that finds the database out of reach is answered 503 with this Retry-After.
DATABASE_RETRY_AFTER_SECONDS = env_int("DATABASE_RETRY_AFTER_SECONDS", default=5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker and result backend, and the cache -----------------------------------

REDIS_URL = env_str("REDIS_URL")
# The cache's Redis (request limits, the password-hash count), if not the broker's.
CACHE_REDIS_URL = env_str("CACHE_REDIS_URL") or REDIS_URL

# Nothing a request needs to be right lives only in the cache (docs/reliability.md, "Redis
# down"): with Redis out of reach the request limits fail open, and a socket ticket (the one
# operation the cache holds for) answers 503 cache_unavailable. A cache command takes well under
# a millisecond, so a Redis that does not answer within a second is given up on (each cache
# command waits at most that).
if CACHE_REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# A request that needs the cache and finds it out of reach is answered 503 with this Retry-After.
CACHE_RETRY_AFTER_SECONDS = env_int("CACHE_RETRY_AFTER_SECONDS", default=5)

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
# Without a broker, tasks run in-process, right after the commit that queued them. A task that
# fails is retried at once, in-process, as its retry policy allows (a bot turn that found SQLite
# locked plays again); an error left after that is logged by Celery and never reaches the request
# that committed. (The tests make eager errors propagate, so that they fail the test.)
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = False
# Lets several deployments (or CI runs) share one Redis without taking each other's tasks.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
# The bots' turns of matches no person plays (games/bot_matches.py) go to a queue of their own,
# consumed by a worker of its own at a lower CPU priority (docs/reliability.md, "Bots under
# load"), so that they never delay a bot a person waits on. A worker started without -Q
# consumes both queues.
BOTS_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.bots"
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE, BOTS_QUEUE)
)
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
# Every task finishes well inside its limits (a bot run hands over to a fresh task after a few
# seconds): the hard limit bounds how long the broker must wait before redelivering (below).
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", default=15)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", default=20)
# A worker holds one message at a time and acknowledges it only when the task has finished;
# a task whose worker died is redelivered. Tasks must therefore be idempotent.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The Redis transport (docs/reliability.md). A message taken by a worker that then died (SIGKILL,
# lost host) goes back to its queue once it has been unacknowledged for the visibility timeout;
# that must exceed the longest task (the hard time limit), or a task still running would be
# delivered twice. Workers look for such messages every 5 seconds. Sending fails fast when Redis
# is unreachable: a short connect timeout and one retry, so a request that enqueues after commit
# answers at once (the enqueue is logged; the sweeper re-queues the work).
CELERY_VISIBILITY_TIMEOUT = env_int(
    "CELERY_VISIBILITY_TIMEOUT", default=CELERY_TASK_TIME_LIMIT + 10
)
# A task sent with a countdown is held, unacknowledged, by the worker that took it until it has
# run: a countdown plus the task's run past the visibility timeout would be handed out again,
# every visibility timeout until it runs. No task is sent with a longer countdown than this;
# work due later is found by the sweeper (turn clocks: games/services/clock.py).
COUNTDOWN_MAX_SECONDS = max(0, CELERY_VISIBILITY_TIMEOUT - CELERY_TASK_TIME_LIMIT)
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": 1,
    "socket_timeout": 2,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0.1,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 2
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0.1, "interval_step": 0.1}
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- The sweeper (games/sweeps.py, docs/reliability.md) --------------------------------------

# Work that should have happened and did not is queued again, and turn clocks that are due are
# warned and played for: each sweep, by name. The interval bounds how late a clock can be.
SWEEPS = {
    "bot_turns": "games.sweeps.bot_turns",
    "turn_clocks": "games.services.timeouts.clock_sweep",
    "match_results": "games.sweeps.match_results",
    "match_recomputes": "games.sweeps.match_recomputes",
    "invitations": "games.sweeps.invitations",
    "quick_play": "games.sweeps.quick_play",
    "analyses": "games.analysis.sweeps.analysis_stale",
}
SWEEP_INTERVAL_SECONDS = env_int("SWEEP_INTERVAL_SECONDS", default=5)
# A bot to move for longer than this has its turn queued again.
BOT_TURN_STALE_SECONDS = env_int("BOT_TURN_STALE_SECONDS", default=10)
# A finished match still without results this long after its end-of-match task was queued has
# the task queued again.
RESULTS_STALE_SECONDS = env_int("RESULTS_STALE_SECONDS", default=30)
# The times a match's end-of-match task is queued before the sweeper gives up (docs/scoring.md).
RESULTS_MAX_ATTEMPTS = env_int("RESULTS_MAX_ATTEMPTS", default=10)
# Celery beat sends the sweep; a sweep not started within one interval is dropped (the next
# one does its work), so sweeps never pile up while workers are away.
CELERY_BEAT_SCHEDULE = {
    "sweep": {
        "task": "games.tasks.sweep",
        "schedule": float(SWEEP_INTERVAL_SECONDS),
        "options": {"expires": float(SWEEP_INTERVAL_SECONDS)},
    },
}
# Without a broker no beat runs: requests run the sweeps instead (games/middleware.py).
SWEEP_ON_REQUEST = env_bool("SWEEP_ON_REQUEST", default=not REDIS_URL)

# --- Bots -------------------------------------------------------------------------------------

# The strong bot's (level 4) thinking time per move, wall clock; it plays one move per task.
BOT_STRONG_BUDGET_MS = env_int("BOT_STRONG_BUDGET_MS", default=100)
# Post-game analysis (games/analysis/, docs/engine.md "Analysis"): sampled deals per valued move,
# the worker CPU one task spends before queuing the next slice, whether a match is analysed as
# it finishes (else when first asked for: on the embedded default, whose tasks run in the
# request, the last move is not held up by it), and how long a running analysis may go untouched
# before the sweeper queues it again.
ANALYSIS_DEALS = env_int("ANALYSIS_DEALS", default=40)
ANALYSIS_SLICE_SECONDS = env_int("ANALYSIS_SLICE_SECONDS", default=2)
ANALYSIS_ON_FINISH = env_bool("ANALYSIS_ON_FINISH", default=bool(REDIS_URL))
ANALYSIS_STALE_SECONDS = env_int("ANALYSIS_STALE_SECONDS", default=120)
# Hints (docs/api.md, "Hints"): sampled deals of a hint's search.
HINT_DEALS = env_int("HINT_DEALS", default=24)
# Matches of bots only (every seat a bot) a player may have open or in play at once; creating
# one more is refused (409 bot_match_limit) until one finishes or is abandoned.
BOT_ONLY_MATCHES_PER_PLAYER = env_int("BOT_ONLY_MATCHES_PER_PLAYER", default=3)
# How long an invitation to a seat holds it (docs/api.md, "Invitations and rematch").
INVITATION_TTL_HOURS = env_int("INVITATION_TTL_HOURS", default=72)
#: The most friend requests a player may have waiting for an answer at once.
FRIEND_REQUESTS_PENDING_MAX = env_int("FRIEND_REQUESTS_PENDING_MAX", default=100)
# Without a broker (tasks run eagerly, in the request) the turns of a match of bots only play in
# a background thread of the serving process instead (games/bot_thread.py): its start answers at
# once. With REDIS_URL the bots' worker plays them and this has no effect.
BOTS_IN_BACKGROUND = env_bool("BOTS_IN_BACKGROUND", default=not REDIS_URL)

# --- Live events (Django Channels) -------------------------------------------------------------

# Sockets on /ws/ get each match's events after every commit (games/live/). The channel layer
# carries "match X changed" from the process that committed to every process holding a socket:
# Redis when REDIS_URL (or CHANNELS_REDIS_URL, a Redis of its own) is set, else an in-memory
# layer (one process: `make run`).
CHANNELS_REDIS_URL = env_str("CHANNELS_REDIS_URL") or REDIS_URL
if CHANNELS_REDIS_URL:
    # Publish/subscribe: a group's message is one PUBLISH, received by the processes whose
    # sockets are in the group (games/live/publish.py). Nothing is queued for a socket that is
    # not connected: a socket reads what it missed from the database.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "chickenfoot.channel_layer.BatchedRedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": CHANNELS_REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 2,
                    }
                ],
                # Lets several deployments (or CI runs) share one Redis.
                "prefix": env_str("CHANNELS_PREFIX", "chickenfoot-asgi"),
            },
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
#: Seconds between a socket's heartbeats (each also checks the token is still valid).
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", default=25)
#: Threads per serving process for the sockets' database and cache calls (games/live/threads.py);
#: 0: Channels' one thread (the default on SQLite).
LIVE_DB_THREADS = env_int(
    "LIVE_DB_THREADS",
    default=4 if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else 0,
)
#: Sockets a serving process lets connect at once, the others waiting in order (games/live/gate.py);
#: 0: no limit.
LIVE_CONNECTING = env_int("LIVE_CONNECTING", default=64)
#: Seconds between the full collections of the sockets' processes (with a young one every
#: second between), 0: when Python's rule says (chickenfoot/heap.py, ``old_on_a_clock``;
#: deploy/serve_sockets.py runs with 300).
ASGI_OLD_COLLECTION_SECONDS = env_int("ASGI_OLD_COLLECTION_SECONDS", default=0)
#: Turn clocks without a broker (the embedded default): timers in the serving process, since an
#: eager countdown would run at once. With REDIS_URL, the sweep (SWEEPS["turn_clocks"]) warns
#: and plays for the seats whose time has come, and a countdown (COUNTDOWN_MAX_SECONDS at most)
#: is sent for a warning or an expiry due sooner than that.
CLOCK_IN_PROCESS = env_bool("CLOCK_IN_PROCESS", default=not REDIS_URL)
#: Seconds a ticket from POST /api/matches/{id}/ticket stays valid (it is good for one connection).
LIVE_TICKET_SECONDS = env_int("LIVE_TICKET_SECONDS", default=60)

# --- Push notifications (docs/api.md, "Notifications and push") ----------------------------------

#: Web Push (VAPID, RFC 8292): the server's key pair (the private key as PEM or base64url DER/raw,
#: the public key base64url, uncompressed point: what browsers take as applicationServerKey)
#: and the contact the push services may write to ("mailto:..." or an https URL). No private
#: key: nothing is sent by Web Push (the inbox and the socket still get every notification).
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:admin@localhost")
#: Seconds a push service may hold a Web Push for a device that is offline.
WEBPUSH_TTL_SECONDS = env_int("WEBPUSH_TTL_SECONDS", default=3600)
#: Outside addresses (chickenfoot/outside_addresses.py: Web Push endpoints) may be loopback, by
#: name or address, over http too: for the tests' own push services only. Every other address
#: inside a network stays refused; production refuses to start with it on.
OUTSIDE_LOOPBACK_FOR_TESTS = env_bool("OUTSIDE_LOOPBACK_FOR_TESTS", default=False)
if PRODUCTION and OUTSIDE_LOOPBACK_FOR_TESTS:
    raise ImproperlyConfigured(
        "DJANGO_ENV=production refuses to start with OUTSIDE_LOOPBACK_FOR_TESTS on: it lets "
        "the server post to its own machine."
    )
#: APNs and FCM through django-push-notifications, configured from the environment; a channel
#: without its settings sends nothing. APNs signs its tokens (JWT, ES256) with the .p8 key at
#: APNS_AUTH_KEY_PATH: the library hands its setting of that name to aioapns, which takes the
#: key itself, so the setting holds the file's text, read here at start-up.
APNS_AUTH_KEY_PATH = env_str("APNS_AUTH_KEY_PATH")
PUSH_NOTIFICATIONS_SETTINGS = {
    "APNS_AUTH_KEY_PATH": Path(APNS_AUTH_KEY_PATH).read_text() if APNS_AUTH_KEY_PATH else None,
    "APNS_AUTH_KEY_ID": env_str("APNS_AUTH_KEY_ID") or None,
    "APNS_TEAM_ID": env_str("APNS_TEAM_ID") or None,
    "APNS_TOPIC": env_str("APNS_TOPIC") or None,
    "APNS_USE_SANDBOX": env_bool("APNS_USE_SANDBOX", default=False),
    "UPDATE_ON_DUPLICATE_REG_ID": True,
}
#: FCM: the path of a Firebase service account's JSON (firebase-admin's credentials).
FCM_CREDENTIALS_FILE = env_str("FCM_CREDENTIALS_FILE")

# --- Auth -------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

#: API tokens (django-rest-knox): one per login, stored as a SHA-512 digest, expiring
#: AUTH_TOKEN_TTL_HOURS after the login (0: never). docs/api.md, "Accounts and tokens".
KNOX_TOKEN_MODEL = "games.DeviceToken"
#: knox's own migrations would create the table of its default token model, which ours swaps
#: out: an orphan table whose key to auth_user stops PostgreSQL from truncating users (flush).
MIGRATION_MODULES = {"knox": None}
AUTH_TOKEN_TTL_HOURS = env_int("AUTH_TOKEN_TTL_HOURS", default=24 * 30)
#: Seconds a process keeps what a token's lookup found (games/accounts/token_cache.py): the
#: longest a token revoked through another process still works here. 0: no keeping.
TOKEN_CACHE_SECONDS = env_int("TOKEN_CACHE_SECONDS", default=5)
if not 0 <= TOKEN_CACHE_SECONDS <= 5:
    raise ImproperlyConfigured(
        f"TOKEN_CACHE_SECONDS={TOKEN_CACHE_SECONDS} is out of range: a revoked token must stop "
        "within 5 s in every process (0 to 5)."
    )
REST_KNOX = {
    "TOKEN_MODEL": KNOX_TOKEN_MODEL,
    "TOKEN_TTL": timedelta(hours=AUTH_TOKEN_TTL_HOURS) if AUTH_TOKEN_TTL_HOURS > 0 else None,
    "AUTH_HEADER_PREFIX": "Token",
}

# --- E-mail (docs/api.md, "E-mail, password reset and your data") ------------------------------

# EMAIL_URL (smtp://user:password@host:587?tls=1, smtp+ssl://..., console://, locmem://) or
# EMAIL_HOST and its kin pick the backend (chickenfoot/email_settings.py). With neither, the
# embedded default prints each mail on the console (its links included: for development only)
# and production drops them.
EMAIL_URL = env_str("EMAIL_URL")
if EMAIL_URL:
    globals().update(email_settings_from_url(EMAIL_URL))
elif env_str("EMAIL_HOST"):
    EMAIL_BACKEND = SMTP
    EMAIL_HOST = env_str("EMAIL_HOST")
    EMAIL_PORT = env_int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
else:
    EMAIL_BACKEND = DUMMY if PRODUCTION else CONSOLE
# An SMTP server that does not answer is given up on after this many seconds (the mail task
# then retries: games/accounts/mail.py).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Chickenfoot <noreply@localhost>")
# Where the links in account mails point: <ACCOUNT_LINK_BASE_URL>/account/verify-email?token=...
# and /account/reset-password?uid=...&token=... (a small page of this service, which an app
# may claim as its own link). Empty: the host the request that sent the mail came to.
ACCOUNT_LINK_BASE_URL = env_str("ACCOUNT_LINK_BASE_URL", "")
# How long a verification link works, and a password-reset link (Django's own setting).
EMAIL_VERIFY_HOURS = env_int("EMAIL_VERIFY_HOURS", default=48)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_MINUTES", default=60) * 60

# --- Metrics (docs/operations.md, "Metrics") ---------------------------------------------------

# GET /metrics answers a bearer of this token (unset: no token is accepted) ...
METRICS_TOKEN = env_str("METRICS_TOKEN")
# ... or a connection from one of these networks (its own peer address, REMOTE_ADDR); else 404.
METRICS_ALLOW_NETWORKS = env_networks("METRICS_ALLOW_NETWORKS")

# --- Request limits and log-in lockout (docs/reliability.md, "Limits") -------------------------

# Trusted reverse proxies in front of the app server. 0: the client's address is REMOTE_ADDR and
# X-Forwarded-For is ignored (a client could write anything there). Behind one proxy (nginx)
# that sets X-Forwarded-For, 1.
NUM_PROXIES = env_int("NUM_PROXIES", default=0)
# Per scope, at most this many requests per period (chickenfoot/throttles.py); "off" for none.
# Reads (polling a match, the lobby) are not limited; bots play inside the server, unlimited.
RATE_LIMITS = env_bool("RATE_LIMITS", default=True)
THROTTLE_RATES: dict[str, str | None] = (
    {
        "register": env_rate("THROTTLE_REGISTER", "20/hour"),  # per address
        "login": env_rate("THROTTLE_LOGIN", "20/min"),  # per address
        "match_create": env_rate("THROTTLE_MATCH_CREATE", "60/hour"),  # per player
        "match_create_address": env_rate("THROTTLE_MATCH_CREATE_ADDRESS", "300/hour"),
        "move": env_rate("THROTTLE_MOVE", "120/min"),  # per player
        "entrant_add": env_rate("THROTTLE_ENTRANT_ADD", "120/min"),  # per organiser
        "move_address": env_rate("THROTTLE_MOVE_ADDRESS", "600/min"),
        "scorer_guess": env_rate("THROTTLE_SCORER_GUESS", "20/min"),  # failed codes, per address
        # failed claim codes and invite links' codes (404s), per player and per address
        "code_guess": env_rate("THROTTLE_CODE_GUESS", "20/min"),
        "code_guess_address": env_rate("THROTTLE_CODE_GUESS_ADDRESS", "20/min"),
        # accounts by e-mail (docs/api.md, "E-mail, password reset and your data")
        "password_reset": env_rate("THROTTLE_PASSWORD_RESET", "10/hour"),  # per address
        # per account named (an e-mail address or a username, whether it exists or not)
        "password_reset_account": env_rate("THROTTLE_PASSWORD_RESET_ACCOUNT", "3/hour"),
        "password_reset_confirm": env_rate("THROTTLE_PASSWORD_RESET_CONFIRM", "20/hour"),
        "password_change": env_rate("THROTTLE_PASSWORD_CHANGE", "10/hour"),  # per player
        "password_change_address": env_rate("THROTTLE_PASSWORD_CHANGE_ADDRESS", "20/min"),
        "email_send": env_rate("THROTTLE_EMAIL_SEND", "5/hour"),  # verification mails, per player
        "email_verify": env_rate("THROTTLE_EMAIL_VERIFY", "20/hour"),  # per player
        "player_search": env_rate("THROTTLE_PLAYER_SEARCH", "60/min"),  # per player
        "avatar_upload": env_rate("THROTTLE_AVATAR_UPLOAD", "10/hour"),  # uploads, per player
        "chat": env_rate("THROTTLE_CHAT", "5/10s"),  # phrases, per player and match
        "friend_request": env_rate("THROTTLE_FRIEND_REQUEST", "60/hour"),  # per player
    }
    if RATE_LIMITS
    else {}
)

# django-axes: LOGIN_FAILURE_LIMIT failed log-ins for one username, or from one address, within
# LOGIN_COOLOFF_MINUTES lock that username or address out for LOGIN_COOLOFF_MINUTES: a log-in
# (the API's or the admin's) is then refused before any password is hashed, and not counted.
# A successful log-in clears that account's failures (games/accounts/lockout.py).
AXES_ENABLED = env_bool("LOGIN_LOCKOUT", default=True)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", default=15))
# Per username and per address; but a username's lock does not hold at an address it has logged
# in from within LOGIN_KNOWN_ADDRESS_DAYS (0: none is known), where only the address's own does.
AXES_LOCKOUT_PARAMETERS = "games.accounts.lockout.lockout_parameters"
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", default=30)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = False  # the handler clears the account's failures (not the address's)
AXES_HANDLER = "games.accounts.lockout.LockoutHandler"
AXES_LOCKOUT_CALLABLE = "games.accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "games.accounts.lockout.client_address"
AXES_USERNAME_CALLABLE = "games.accounts.lockout.attempted_username"
# Failures are kept for the cool-off; successful log-ins (the known addresses) for
# LOGIN_KNOWN_ADDRESS_DAYS. Both are shown in the admin.
AXES_DISABLE_ACCESS_LOG = False
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out attempt
    "chickenfoot.hashing.BoundedModelBackend",  # ModelBackend, within the hashing bounds
]

# Known devices (games/accounts/devices.py, docs/reliability.md): a successful log-in gives its
# client a signed device credential for the account, valid LOGIN_KNOWN_DEVICE_DAYS (0: none is
# given or accepted); a log-in presenting it is not refused by the account's lockout (the
# device has a lock of its own) and hashes from the known devices' reserve below.
LOGIN_KNOWN_DEVICE_DAYS = env_int("LOGIN_KNOWN_DEVICE_DAYS", default=90)

# Password hashing under floods (chickenfoot/hashing.py, docs/reliability.md): at most this many
# password hashes (log-ins, registrations) start each second across every process (counted in
# the cache), and at most this many run at once in one process; past either, 429 busy at once.
# Of each, the KNOWN_DEVICES share is reserved for log-ins from known devices; everyone else
# shares the rest. 0: no bound (no reserve). RATE_LIMITS=off turns them off unless they are set.
PASSWORD_HASHES_PER_SECOND = env_int("PASSWORD_HASHES_PER_SECOND", default=2 if RATE_LIMITS else 0)
PASSWORD_HASHES_AT_ONCE = env_int("PASSWORD_HASHES_AT_ONCE", default=2 if RATE_LIMITS else 0)


def _reserve(name: str, *, of: int) -> int:
    """The known devices' reserve ``name`` of a bound of ``of`` (default 1; 0 with the bound
    off): less than the bound, so that everyone else keeps a share."""
    reserve = env_int(name, default=1 if of > 0 else 0)
    if of > 0 and not 0 <= reserve < of:
        raise ImproperlyConfigured(
            f"{name}={reserve} must be at least 0 and less than the bound it is reserved from "
            f"({of}): the rest is everyone else's share."
        )
    return reserve


PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND = _reserve(
    "PASSWORD_HASHES_KNOWN_DEVICES_PER_SECOND", of=PASSWORD_HASHES_PER_SECOND
)
PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE = _reserve(
    "PASSWORD_HASHES_KNOWN_DEVICES_AT_ONCE", of=PASSWORD_HASHES_AT_ONCE
)
# Django's hashers, PBKDF2-SHA256 first (new hashes), computed at this lower CPU priority (Linux
# niceness of the hashing thread; 0: at the request's own), so that serving comes first.
PASSWORD_HASH_NICENESS = env_int("PASSWORD_HASH_NICENESS", default=10)
PASSWORD_HASHERS = [
    "chickenfoot.hashing.NicePBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

# --- Internationalisation, static files ---------------------------------------------------------

# The languages (chickenfoot/i18n/languages.py, docs/web.md, "Languages"): the player's saved
# preference, then the django_language cookie (the pages' picker), then Accept-Language, then
# English. The catalogs live in locale/; `make install` compiles them (`make messages` extracts).
LANGUAGE_CODE = DEFAULT_LANGUAGE
LANGUAGES = SERVICE_LANGUAGES
LOCALE_PATHS = [BASE_DIR / "locale"]
add_lang_info()
TIME_ZONE = "UTC"
CELERY_TIMEZONE = TIME_ZONE
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts them, for nginx to serve (docker-compose.yml: a volume shared with it).
# Where a scorer link's page lives (the QR code's URL: <SCORER_LINK_BASE_URL>/score/<code>/);
# empty: the host the request that made the link came to.
SCORER_LINK_BASE_URL = env_str("SCORER_LINK_BASE_URL", "")

STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))

# --- Stored files: players' avatars (docs/operations.md, "Avatars") ---------------------------

# Uploaded files live under MEDIA_ROOT on the embedded default (the API serves them itself:
# nothing there is served as a directory). AVATAR_STORAGE=s3 keeps the avatars in any
# S3-compatible bucket instead (django-storages): AVATAR_S3_BUCKET, AVATAR_S3_ENDPOINT_URL (empty:
# AWS itself), AVATAR_S3_REGION, and the credentials as boto3 reads them (AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY, or the machine's role).
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
AVATAR_STORAGE = env_str("AVATAR_STORAGE", "filesystem")
if AVATAR_STORAGE not in ("filesystem", "s3"):
    raise ImproperlyConfigured(f"AVATAR_STORAGE must be filesystem or s3, not {AVATAR_STORAGE!r}")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "avatars": (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": env_str("AVATAR_S3_BUCKET"),
                "endpoint_url": env_str("AVATAR_S3_ENDPOINT_URL") or None,
                "region_name": env_str("AVATAR_S3_REGION") or None,
                "location": "avatars",
                "file_overwrite": True,  # a name is its content's hash: the same bytes again
                "default_acl": None,
                "querystring_auth": False,
            },
        }
        if AVATAR_STORAGE == "s3"
        else {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": MEDIA_ROOT / "avatars", "allow_overwrite": True},
        }
    ),
}

# --- API --------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # The games API's token authentication (the token's user and player in one query), named
    # here so that apps which never import games (scoring) authenticate the same way.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.accounts.authentication.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["chickenfoot.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["chickenfoot.parsers.DepthLimitedJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "chickenfoot.negotiation.RememberingNegotiation",
    "DEFAULT_SCHEMA_CLASS": "games.api.contract_schema.ContractSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "chickenfoot.query.DefaultPages",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "chickenfoot.problems.problem_exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Bad input (docs/reliability.md, "Bad input"). A body over this many bytes is refused with 413
# before it is read (Django's limit, the admin's forms included). The API's JSON bodies are
# smaller still (no request it takes is over a few hundred bytes): one over API_MAX_JSON_BYTES is
# 413, one nested deeper than API_MAX_JSON_DEPTH or with an array or object longer than
# API_MAX_JSON_ITEMS is 400 (chickenfoot/parsers.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_BODY_BYTES", default=1024 * 1024)
API_MAX_JSON_BYTES = env_int("API_MAX_JSON_BYTES", default=64 * 1024)
API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", default=32)
API_MAX_JSON_ITEMS = env_int("API_MAX_JSON_ITEMS", default=1000)

SPECTACULAR_SETTINGS = {
    "TITLE": "Chickenfoot API",
    "DESCRIPTION": (
        "Play Chicken Foot and Mexican Train dominoes over HTTP. Errors are RFC 9457 problem "
        "documents (`application/problem+json`); a broken game rule names its rule id."
    ),
    "VERSION": "0.1.0",
    "CONTACT": {
        "name": "The server's operators",
        "email": env_str("API_CONTACT_EMAIL", "webmaster@localhost.localdomain"),
    },
    # The host that serves the schema serves the API: clients are given their base URL.
    "SERVERS": [{"url": "/", "description": "This server (the one serving this schema)."}],
    "TAGS": [
        {
            "name": "accounts",
            "description": "Sign up, log in and out, the caller's tokens; an e-mail address, "
            "password reset and change, the caller's data (export, deletion).",
        },
        {
            "name": "matches",
            "description": "Create, join, start and leave matches; the lists, "
            "a match's view, its rounds and its pictures.",
        },
        {
            "name": "invitations",
            "description": "Seats held for invited players or an invite link; accepting, "
            "declining, withdrawing; a rematch of a finished match.",
        },
        {
            "name": "quick play",
            "description": "A queue per game, table size and preset that seats players of a "
            "like rating together (docs/api.md, Quick play).",
        },
        {
            "name": "friends",
            "description": "Friend requests, friends and their presence, and blocking a player.",
        },
        {"name": "play", "description": "A turn: the legal moves, submitting one, the move log."},
        {
            "name": "tables",
            "description": "Matches played at a table with real tiles: each round's scores, "
            "guests' claim codes (docs/tables.md).",
        },
        {"name": "live", "description": "A ticket for the match's WebSocket (/ws/matches/{id})."},
        {
            "name": "notifications",
            "description": "The caller's inbox, its preferences, its socket (/ws/me/) and the "
            "devices pushed to (Web Push, APNs, FCM).",
        },
        {
            "name": "history",
            "description": "Finished matches: results, records, a player's "
            "history, stats, head-to-head, rating chart and the leaderboards.",
        },
        {
            "name": "competitions",
            "description": "Tournaments and leagues: registration, stages and standings.",
        },
        {"name": "health", "description": "Is the service usable now (its database, its broker)?"},
    ],
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema_hooks.postprocess_problems",
    ],
    # Swagger UI and ReDoc come from the project's own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.Match.Status",
        "NotificationKindEnum": "games.notifications.models.KINDS",
        "PushDeviceKindEnum": "games.notifications.models.DEVICE_KINDS",
        "PlayerKindEnum": "games.models.Player.Kind",
        "ProfileVisibilityEnum": "games.models.Player.Visibility",
        "RatedPlayerKindEnum": "scoring.api.leaderboard.PLAYER_KINDS",
        "MatchPlayEnum": "games.models.Match.Play",
        "CompetitionPlayEnum": "scoring.models.Competition.Play",
        "MoveKindEnum": "games.models.Move.Kind",
        "SeatKindEnum": "games.api.common.SEAT_KIND_CHOICES",
        "SeatRequestKindEnum": "games.api.common.SEAT_REQUEST_KIND_CHOICES",
        "VariantEnum": "games.models.Match.Variant",
        "InvitationStateEnum": "games.invitations.models.Invitation.State",
        "InvitationClosedStateEnum": "chickenfoot.openapi.INVITATION_CLOSED_STATES",
        "QueueStatusEnum": "games.quick_play.models.QueueEntry.Status",
        "QueuePresetEnum": "games.quick_play.presets.PRESET_NAMES",
        "ChickenFootVariantEnum": ["chickenfoot"],
        "MexicanTrainVariantEnum": ["mexican_train"],
        "ChickenFootMaxPipEnum": [(n, n) for n in (6, 9, 12, 15, 18)],
        "MexicanTrainMaxPipEnum": [(n, n) for n in (9, 12, 15, 18)],
        "StateStatusEnum": ["playing", "over"],
        "LanguageEnum": "chickenfoot.i18n.languages.LANGUAGES",
        "FootStatusEnum": ["open", "completed", "released"],
        "RoundEndEnum": ["out", "blocked"],
        "ProblemCodeEnum": "chickenfoot.openapi.PROBLEM_CODES",
        "DecidedByEnum": ["total", "zero_rounds", "lowest_round", "shared"],
        "CompetitionKindEnum": "scoring.competition_models.Competition.Kind",
        "CompetitionStatusEnum": "scoring.competition_models.Competition.Status",
        # A round's status and a stage's have the same values (playing, finished); the round's
        # labels differ, so each is an enum of its own.
        "StageStatusEnum": "scoring.competition_models.Stage.Status",
        "RoundStatusEnum": "games.api.rounds.ROUND_STATUS_CHOICES",
        # A table match's status after a score entry or a correction.
        "RoundScoresEnteredStatusEnum": ["playing", "finished"],
        "RoundReviewStatusEnum": "games.tables.api_types.ROUND_REVIEW_STATUSES",
        "ConfirmationEnum": "games.tables.models.TableSettings.Confirmation",
        "EntrantKindEnum": "scoring.competitions.entrants_read.ENTRANT_KINDS",
        "SeatingChangeKindEnum": "scoring.seating_models.SeatingChange.Kind",
        "ChatPhraseEnum": "games.chat.phrases.PHRASE_IDS",
        "ChatPhraseKindEnum": "games.chat.phrases.PHRASE_KINDS",
    },
}

# --- Logging ----------------------------------------------------------------------------------

# LOG_FORMAT=json: one JSON object a line (python-json-logger), for a log collector; the default
# is plain lines, for a person at a terminal. Either way every line carries its request id.
LOG_FORMAT = env_choice("LOG_FORMAT", ("plain", "json"), default="plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "chickenfoot.request_id.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # django-axes logs each successful log-in at INFO; failures and lockouts are warnings.
    "loggers": {"axes": {"level": "WARNING"}},
}
