# Targets work on a fresh machine with python3 and make; each is safe to run again.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Reinstall only when requirements.txt changes.
STAMP := $(VENV)/.installed-requirements.txt
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint migrate worker clean

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	cp requirements.txt $(STAMP)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

# Serves the API on the embedded default unless DATABASE_URL / REDIS_URL are set.
# --insecure serves the admin's static files even though DEBUG is off.
run: migrate
	$(BIN)/python manage.py runserver --insecure $(HOST):$(PORT)

test: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# A Celery worker for REDIS_URL (not needed on the embedded default).
worker: $(STAMP)
	$(BIN)/celery -A chickenfoot worker --loglevel=INFO

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
