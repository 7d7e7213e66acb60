# Targets work on a fresh machine with python3 and make; each is safe to run again.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Reinstall only when requirements.txt changes.
STAMP := $(VENV)/.installed-requirements.txt
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint lint-migrations schema migrate worker superuser verify verify-all \
	backup restore clean messages

# The message catalogs Django reads (locale/<lang>/LC_MESSAGES/*.mo, not kept in git), compiled
# from the .po files with Babel (pure Python: no GNU gettext needed).
CATALOGS := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))

install: $(STAMP) $(CATALOGS)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	cp requirements.txt $(STAMP)

locale/%.mo: locale/%.po | $(STAMP)
	$(BIN)/python -m chickenfoot.i18n compile $<

# The messages the code, the templates and the pages' scripts mark, written into each
# language's catalogs (locale/<lang>/LC_MESSAGES/django.po and djangojs.po); their
# translations stay, a message gone from the code goes from them (docs/web.md, "Languages").
messages: $(STAMP)
	$(BIN)/python -m chickenfoot.i18n extract

migrate: $(STAMP) $(CATALOGS)
	$(BIN)/python manage.py migrate --noinput

# Serves the API on the embedded default unless DATABASE_URL / REDIS_URL are set.
# --insecure serves the admin's static files even though DEBUG is off.
run: migrate
	$(BIN)/python manage.py runserver --insecure $(HOST):$(PORT)

test: $(STAMP) $(CATALOGS)
	$(BIN)/pytest $(PYTEST_ARGS)

lint: lint-migrations
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# Migrations newer than chickenfoot/released_migrations.txt, checked by django-migration-linter
# for what would lock a big table or break the release still running (docs/operations.md).
lint-migrations: $(STAMP)
	$(BIN)/python manage.py lint_migrations

# The OpenAPI schema, written to docs/openapi.yaml (or SCHEMA_FILE=...): the snapshot
# tests/foundation/test_schema_snapshot.py compares with the schema the code generates. It is
# generated in an empty environment (the embedded default), so no variable of this shell shows in it.
SCHEMA_FILE ?= docs/openapi.yaml
schema: $(STAMP)
	env -i PATH="$$PATH" $(BIN)/python manage.py spectacular --fail-on-warn --file $(SCHEMA_FILE)

# A Celery worker for REDIS_URL (not needed on the embedded default).
worker: $(STAMP)
	$(BIN)/celery -A chickenfoot worker --loglevel=INFO

# An admin account for /admin/: asks for a username, an e-mail address and a password, or asks
# nothing when DJANGO_SUPERUSER_USERNAME, DJANGO_SUPERUSER_EMAIL and DJANGO_SUPERUSER_PASSWORD are set.
superuser: migrate
	$(BIN)/python manage.py createsuperuser $(if $(DJANGO_SUPERUSER_USERNAME),--noinput)

# Replay matches from their seeds and move logs and compare what was stored: make verify MATCH=7
# (or MATCH='7 8 9'); make verify-all checks every finished match. Non-zero exit on a difference.
verify: $(STAMP)
	@test -n "$(MATCH)" || { echo "make verify needs a match id: make verify MATCH=7" >&2; exit 2; }
	$(BIN)/python manage.py verify_match $(MATCH)

verify-all: $(STAMP)
	$(BIN)/python manage.py verify_match --all

# A backup of the database (pg_dump custom format on PostgreSQL, SQLite's online backup otherwise):
# make backup, or make backup FILE=path; make restore FILE=path (FORCE=1 replaces a database
# that is not empty). docs/operations.md, "Backups and restore".
backup: $(STAMP)
	$(BIN)/python manage.py backup $(if $(FILE),--file $(FILE)) $(if $(FORCE),--force)

restore: $(STAMP)
	@test -n "$(FILE)" || { echo "make restore needs a backup file: make restore FILE=backups/x.dump" >&2; exit 2; }
	$(BIN)/python manage.py restore --file $(FILE) $(if $(FORCE),--force)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
