# IHTC Portal. The README's two commands: `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

VENV ?= .venv
PY := $(VENV)/bin/python
# Evaluated only when the virtualenv has to be created.
PYTHON = $(shell scripts/find-python)

HOST ?= 127.0.0.1
PORT ?= 8000
# `DEBUG=1 make run` (or `make run DEBUG=1`): Django's DEBUG on; off by default, as in production.
DEBUG ?= 0
DEMO_COMMAND ?= $(PY) manage.py demo

# The integration tests' PostgreSQL and Redis (this machine's; `scripts/services` starts them).
# pytest-django creates and drops the test database test_<name> beside it.
# Database names carry a short hash of this checkout's path: two clones on one machine never share them.
CHECKOUT_ID := $(shell printf '%s' "$(CURDIR)" | md5sum | cut -c1-8)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/portal_$(CHECKOUT_ID)
TEST_REDIS_URL ?= redis://127.0.0.1:6379/9
# Redis databases are few and shared: every key of this checkout's runs starts with this prefix, and the
# integration tests delete only those keys (never FLUSHDB), so two checkouts' `make test` never collide.
TEST_REDIS_KEY_PREFIX ?= portal_$(CHECKOUT_ID):
TEST_PG_SUITE_URL ?= postgres://postgres@127.0.0.1:5432/portalsuite_$(CHECKOUT_ID)
# Under `make test` a missing service or browser fails the run instead of skipping tests.
PYTEST := PORTAL_TESTS_STRICT=1 $(PY) -m pytest

.PHONY: help run test lint format migrate demo worker beat bench services chromium pdf-tools production messages makemessages \
	nginx topology loadtest api-release

help:
	@echo "make run      set up (.venv, requirements), migrate, load the demo, start web + Celery worker + beat"
	@echo "make test     lint, then unit tests (PostgreSQL; the embedded default part again on SQLite), integration tests (PostgreSQL, Redis, real worker), browser tests"
	@echo "make lint     ruff check, ruff format --check, mypy (strict) on the pure cores, scripts/audit (secrets, pip-audit)"
	@echo "make format   ruff format and ruff check --fix"
	@echo "make migrate  apply database migrations"
	@echo "make demo     load the demo world (python manage.py demo)"
	@echo "make worker   a Celery worker in the foreground"
	@echo "make beat     Celery beat in the foreground"
	@echo "make production  check --deploy, migrate, collectstatic, serve with uvicorn, ASGI (DJANGO_PRODUCTION=1)"
	@echo "make bench    the benchmarks under tests/bench (not part of make test)"
	@echo "make topology start scripts/topology: 2 web nodes behind nginx, 2 workers, beat (scripts/topology stop)"
	@echo "make loadtest the load test: 1,000, 5,000, 10,000 viewers, a few minutes (scripts/loadtest; not part of make test)"
	@echo "make makemessages  extract marked strings into locale/{fr,es}; make messages compiles them"
	@echo "make api-release  write the code's API schema as the released v1 (docs/api/openapi-v1.json) once docs/api-changelog.md names every breaking change"

# Stamps: reinstall when a requirements file changes.
$(VENV)/.installed-run: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run messages
	PY=$(PY) HOST=$(HOST) PORT=$(PORT) DEBUG=$(DEBUG) DEMO_COMMAND="$(DEMO_COMMAND)" scripts/run

# The unit suite runs ONCE, on PostgreSQL, the production database: row locks (select_for_update), constraints and
# TRUNCATE behave there as in production, and the concurrency tests (tests/games/test_*_concurrency.py) run only there.
# Its test databases are made from the models (`--nomigrations`: about 20 s of CPU less in each process than
# migrating); tests/test_project_files.py checks that the migrations make the same schema, and the tests that move
# along the migrations turn them back on (tests/conftest.py, migrations_applied). The other runs migrate.
UNIT_TESTS := DATABASE_URL=$(TEST_PG_SUITE_URL) env -u REDIS_URL $(PYTEST) -n 2 --nomigrations -m "not integration and not browser and not bench"
# Run twice on purpose: the tests marked `sqlite` (the demo world, the migrations, the smoke pages) again on SQLite,
# the embedded default of `make run` (no server). The rest of the embedded default is the browser tests' (below) and
# the SQLite integration tests' (the filesystem broker, a backup, a killed worker).
# `--dist loadscope`: a class's tests (and a module's functions) go to one process, so the demo world the class
# builds once (tests/test_demo.py) is built once; handed out by single tests it was built three times (split over
# both processes, and again when a process's queue ran dry): 159 s of CPU then, 142 s now.
SQLITE_TESTS := env -u DATABASE_URL -u REDIS_URL $(PYTEST) -n 2 --dist loadscope -m "sqlite and not integration and not browser and not bench"
INTEGRATION_TESTS := DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) REDIS_KEY_PREFIX=$(TEST_REDIS_KEY_PREFIX) $(PYTEST) -m integration tests/integration
# On SQLite, the embedded default, in two processes: each has its own live server and test database. The site walk is
# one test per language (each about a third of the old single walk, the run's long pole); `--maxschedchunk 1` hands
# tests out one at a time, so the walks start one in each process and the third goes to the first free one
# (tests/e2e/conftest.py orders them).
BROWSER_TESTS := env -u DATABASE_URL -u REDIS_URL $(PYTEST) -n 2 --maxschedchunk 1 -m browser tests/e2e

# Lint and the four runs go on after a failure, so one run shows every failure; any failure
# (or a run that collected no test: pytest's exit code 5) fails the target at the end.
# One after the other. The integration tests ran in the background beside the unit run for a while (8 December):
# their servers, workers and topology took the cores from the unit run (unit 8:49 alone, 17:19 beside them; the
# integration tests 5:18 alone, 9:00 beside), so the overlap cost about 3 minutes instead of saving any.
# Nothing runs twice but the `-m sqlite` subset (its reason is beside SQLITE_TESTS).
test: $(VENV)/.installed-dev chromium nginx messages services
	@failed=""; \
	echo "== Lint (ruff, mypy) ($$(date +%T))"; \
	$(MAKE) --no-print-directory lint || failed="$$failed lint"; \
	echo "== Unit tests (PostgreSQL, 2 processes) ($$(date +%T))"; \
	env $(UNIT_TESTS) || failed="$$failed unit"; \
	echo "== The embedded default's tests again on SQLite (-m sqlite, 2 processes) ($$(date +%T))"; \
	env $(SQLITE_TESTS) || failed="$$failed unit-sqlite"; \
	echo "== Integration tests (PostgreSQL, Redis, real Celery worker and beat) ($$(date +%T))"; \
	$(INTEGRATION_TESTS) || failed="$$failed integration"; \
	echo "== Browser tests (Playwright, Debian's chromium, 2 processes) ($$(date +%T))"; \
	$(BROWSER_TESTS) || failed="$$failed browser"; \
	echo "== Done ($$(date +%T))"; \
	if [ -n "$$failed" ]; then echo "make test: failed runs:$$failed" >&2; exit 1; fi

# mypy reads its files (the pure cores) and strict mode from [tool.mypy] in pyproject.toml.
lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	@# No secret in the tracked files (detect-secrets), no known vulnerability in the pins (pip-audit).
	$(PY) scripts/audit

format: $(VENV)/.installed-dev
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

migrate: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput

demo: migrate
	$(DEMO_COMMAND)

worker: $(VENV)/.installed-run
	$(PY) -m celery -A portal worker --pool=solo --concurrency=1 -Q celery --without-mingle --without-gossip -l info

beat: $(VENV)/.installed-run
	$(PY) -m celery -A portal beat -l info

production: $(VENV)/.installed-run messages
	PY=$(PY) scripts/production

# The benchmarks of real workers (tests/bench/test_championship_reports_bench.py) use the integration tests' stores.
bench: $(VENV)/.installed-dev messages
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) REDIS_KEY_PREFIX=$(TEST_REDIS_KEY_PREFIX) \
		$(PY) -m pytest tests/bench -m bench -s

services:
	scripts/services

chromium:
	scripts/chromium

# Debian's nginx, the reverse proxy of scripts/topology, with apt-get when missing.
nginx:
	scripts/nginx

# The production topology on this machine (README, "Production topology"); `scripts/topology stop` stops it.
topology: $(VENV)/.installed-run messages nginx services
	PY=$(PY) scripts/topology start

# The load test (docs/operations.md, "Topology and load"): a few minutes; its table goes to var/loadtest/results.md.
loadtest: $(VENV)/.installed-dev messages nginx services
	PY=$(PY) scripts/loadtest

# The documents' fonts (fonts-dejavu-core) and the tests' PDF readers (poppler-utils), with apt-get when missing.
pdf-tools:
	scripts/pdf-tools

# The French and Spanish catalogues (locale/*/LC_MESSAGES/django.po, and djangojs.po for the scripts' strings, in the
# repository) compiled to .mo files, which are not: every run and test run compiles them first (gettext's msgfmt,
# installed by scripts/pdf-tools).
messages: $(VENV)/.installed-run pdf-tools
	$(PY) manage.py compilemessages --ignore=.venv --verbosity 0

# After marking new strings: extract them into the catalogues (translate them; tests/portal/test_translations.py
# fails on any string left untranslated or fuzzy).
makemessages: $(VENV)/.installed-run pdf-tools
	$(PY) manage.py makemessages --locale fr --locale es --ignore .venv --ignore tests --ignore var --no-obsolete --no-location
	$(PY) manage.py makemessages --domain djangojs --locale fr --locale es --ignore .venv --ignore tests --ignore var \
		--ignore node_modules --ignore 'static/vendor' --no-obsolete --no-location

# The released API schema (docs/api-changelog.md, "Releasing"): refused while a breaking change is not named there.
api-release: $(VENV)/.installed-run
	$(PY) manage.py api_release
