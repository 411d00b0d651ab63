# Two commands matter: `make run` and `make test`. Everything else is a helper they call.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
STORAGE_PORT ?= 8001
MEMORY_PORT ?= 8002

.PHONY: run run-storage run-memory test test-shared test-storage test-memory lint format \
	install setup-storage setup-memory bench bench-storage bench-usage bench-memory bench-extraction \
	bench-overhead scale-out-check fuzz clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# Each service gets its own secret, made once and kept under var/ (git-ignored).
var/%.secret:
	@mkdir -p var
	@umask 077 && $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(48))" > $@

setup-storage: install var/storage.secret
	@SECRET_KEY=$$(cat var/storage.secret) $(BIN)/python -m storage_service migrate --noinput -v 0
	@SECRET_KEY=$$(cat var/storage.secret) $(BIN)/python -m storage_service demo

setup-memory: install var/memory.secret
	@SECRET_KEY=$$(cat var/memory.secret) $(BIN)/python -m memory_service migrate --noinput -v 0
	@SECRET_KEY=$$(cat var/memory.secret) $(BIN)/python -m memory_service demo

STORAGE_SERVE = SECRET_KEY=$$(cat var/storage.secret) $(BIN)/gunicorn \
	-c deploy/storage/gunicorn.conf.py -b 127.0.0.1:$(STORAGE_PORT) storage_service.wsgi:application
MEMORY_SERVE = SECRET_KEY=$$(cat var/memory.secret) $(BIN)/gunicorn \
	-c deploy/memory/gunicorn.conf.py -b 127.0.0.1:$(MEMORY_PORT) memory_service.wsgi:application

run: setup-storage setup-memory
	@echo "storage: http://127.0.0.1:$(STORAGE_PORT)/v1/files (with the key)   memory: http://127.0.0.1:$(MEMORY_PORT)/api/v1/health   (Ctrl-C stops both)"
	@# Stop both servers on Ctrl-C or when either exits; only this shell's own jobs are signalled
	@# (``kill 0`` would signal the shell too, and its trap would run again, without end). Ctrl-C
	@# itself reaches every gunicorn process (they share the terminal's process group): each
	@# worker gets SIGINT and its master's SIGQUIT, which shared/gunicorn_worker.py makes safe.
	@trap 'trap - INT TERM EXIT; kill $$(jobs -p) 2>/dev/null; wait' INT TERM EXIT; \
		$(STORAGE_SERVE) & $(MEMORY_SERVE) & wait -n

run-storage: setup-storage
	@$(STORAGE_SERVE)

run-memory: setup-memory
	@$(MEMORY_SERVE)

# pytest-django loads one settings module per run, so each suite is its own run.
test: test-shared test-storage test-memory

test-shared: install
	$(BIN)/pytest tests/shared --ds tests.shared.settings

test-storage: install
	$(BIN)/pytest tests/storage --ds tests.storage.settings

test-memory: install
	$(BIN)/pytest tests/memory --ds tests.memory.settings

# Benchmarks against gunicorn and PostgreSQL on this machine (see tests/bench/storage.py and
# tests/bench/memory.py).
bench: bench-storage bench-memory

bench-storage: install
	$(BIN)/python -m tests.bench.storage $(BENCH_ARGS)

# GET /billing/usage over a year of hourly rollups, and what request accounting costs GET /files
# (tests/bench/usage.py).
bench-usage: install
	$(BIN)/python -m tests.bench.usage $(BENCH_ARGS)

bench-memory: install
	$(BIN)/python -m tests.bench.memory $(BENCH_ARGS)

bench-overhead: install
	@command -v wrk >/dev/null || apt-get install -y -q wrk
	$(BIN)/python -m tests.bench.overhead $(BENCH_ARGS)

# The rules extractor on 20,000-character messages shaped to be slow (tests/bench/extraction.py).
bench-extraction: install
	$(BIN)/python -m tests.bench.extraction $(BENCH_ARGS)

# Two gunicorn instances of each service sharing PostgreSQL, Redis and an object store (moto):
# what one instance does holds on the other (tests/scale_out/). Needs both servers up, as in CI.
scale-out-check: install
	$(BIN)/python -m tests.scale_out

# schemathesis against both services under gunicorn on PostgreSQL and Redis, bounded in time:
# no 500 and no answer their OpenAPI description does not allow (tests/fuzz/).
fuzz: install
	$(BIN)/python -m tests.fuzz $(FUZZ_ARGS)

# Types: mypy with the django-stubs and DRF plugins over the code and the tests' helpers; its
# settings module (tests/typecheck_settings.py) holds both services' apps ([tool.mypy]).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache *.egg-info
