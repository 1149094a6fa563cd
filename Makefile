# The README's two commands: `make run` (service with demo data) and `make test` (the suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The largest WebSocket message uvicorn takes (`--ws-max-size`, bytes; its default is 16 MiB, read
# in full before the consumer sees it, and before any authentication). The largest legitimate
# client frame is the `kimlik` frame with a JWT or a visitor token, well under the consumers' own
# limit (CANLI_MAKS_CERCEVE_BAYT, 4096 bytes, answered with `hata` and 4429); 64 KiB leaves that
# answer to the consumers and has uvicorn cut anything bigger (close 1009) before buffering it.
# The README's production command and the live-server test fixture use the same value.
WS_MAX_SIZE ?= 65536
# WebSocket keepalive (issue 39.6): a browser that crashed or lost its network closes nothing, so
# the server learns it only when its ping goes unanswered. Every WS_PING_INTERVAL seconds a ping;
# no pong within WS_PING_TIMEOUT and uvicorn drops the connection, which the consumers count as
# lost (not closed): presence then ends after CANLI_KOPMA_PENCERESI (5 s) and the next sweep
# (CANLI_TARAMA_ARALIGI, 5 s) hands the operator's chats back. At worst 10 + 5 + 5 + 5 = 25 s from
# the last pong, inside the 30 s issue 39 allows; uvicorn's own 20 + 20 took up to 50 s. The
# Procfile, compose.yaml and the live-server test fixture use the same figures.
WS_PING_INTERVAL ?= 10
WS_PING_TIMEOUT ?= 5
# Links in mails sent outside a request (ticket notifications, transcripts, unsubscribe links) are
# built from SITE_URL: `make run` points it at the address it serves (`PORT=8100 make run`), unless
# SITE_URL is set in the environment.
SITE_URL ?= http://$(HOST):$(PORT)
# What `make` itself prints follows the shell's language: Turkish under a tr_* LANG (or
# LANGUAGE/LC_ALL), English otherwise. The demo data's mails use SITE_URL too (`make run`).
TR := $(filter tr%,$(firstword $(LC_ALL) $(LANGUAGE) $(LANG)))
# The reloader watches the project's own folders only (the apps, settings, templates, static files,
# translations), never .venv, media/ or tmp/; with watchfiles (requirements.txt) it waits on inotify
# instead of polling every file.
RELOAD_DIRS := supportdesk templates static locale $(patsubst %/apps.py,%,$(wildcard */apps.py))
# Development settings (DEBUG=true, a random SECRET_KEY), written once and read by
# supportdesk/settings.py, so a bare `python manage.py ...` works in a checkout. Never deployed
# (.gitignore); production sets its variables in the environment.
ENV_FILE ?= .env

# Dependencies (requirements/README.md): requirements/base.in (runtime) and requirements/dev.in
# (tests, tools) are the source; `make lock` compiles them with hashes into requirements/base.txt
# (what the Docker image installs) and requirements/dev.txt (everything; what this virtualenv gets).
# To add a package: one `name==version` line in the right .in file, then `make lock`.

.PHONY: install env run test ekran-goruntuleri browser worker beat prod lint lock bench bench-canli bench-karma clean mesajlar derle

$(BIN)/.installed: requirements/dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r requirements/dev.txt
	touch $@

install: $(BIN)/.installed

$(ENV_FILE):
	@$(PYTHON) -c 'import secrets, sys; open(sys.argv[1], "x").write("# Development settings written by make env; never used in production.\nDEBUG=true\nSECRET_KEY=" + secrets.token_urlsafe(50) + "\n")' $@
	@echo "$(if $(TR),$@ yazıldı: geliştirme ayarları (DEBUG=true, rastgele SECRET_KEY),$@ written: development settings (DEBUG=true, a random SECRET_KEY))"

env: $(ENV_FILE)

run: install $(ENV_FILE) derle
	$(BIN)/python manage.py migrate --noinput
	SITE_URL=$(SITE_URL) $(BIN)/python manage.py demo_verisi
ifdef TR
	@echo "Gelen e-posta adresleri (python manage.py eposta_al < ileti.eml ile bir e-posta alınır):"
else
	@echo "Incoming mail addresses (python manage.py eposta_al < message.eml receives a mail):"
endif
	@$(BIN)/python manage.py eposta_adresi
ifdef TR
	@echo "Giden e-postalar $(CURDIR)/tmp/eposta/ klasörüne yazılır (EMAIL_URL ile SMTP'ye gönderilir)."
	@echo "Servis: http://$(HOST):$(PORT)/  (portal /portal/, API belgeleri /api/v1/docs/, demo sayfası /demo/)"
	@echo "Operatör konsolu: http://$(HOST):$(PORT)/panel/  (demo operatörleriyle giriş: yukarıdaki e-posta ve şifre)"
else
	@echo "Outgoing mails are written to $(CURDIR)/tmp/eposta/ (EMAIL_URL sends them over SMTP)."
	@echo "Service: http://$(HOST):$(PORT)/  (portal /portal/, API docs /api/v1/docs/, demo page /demo/)"
	@echo "Operator console: http://$(HOST):$(PORT)/panel/  (log in as a demo operator: the e-mail and password above)"
endif
	SITE_URL=$(SITE_URL) $(BIN)/uvicorn supportdesk.asgi:application --host $(HOST) --port $(PORT) --ws-max-size $(WS_MAX_SIZE) \
	  --ws-ping-interval $(WS_PING_INTERVAL) --ws-ping-timeout $(WS_PING_TIMEOUT) \
	  --reload $(addprefix --reload-dir ,$(RELOAD_DIRS)) --reload-include '*.html' --lifespan off

# Headless Chromium for the browser tests comes from Debian's packages (Playwright may not
# download its own browser here): chromium-headless-shell, the same release built as Chromium's
# headless shell, which the tests run (a third of the full browser's CPU; supportdesk/testing/
# tarayici.py), and chromium, which they fall back to where the shell cannot be installed.
browser:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell fonts-dejavu-core >/dev/null; \
	  elif ! command -v chromium >/dev/null 2>&1; then echo "$(if $(TR),chromium yok: tarayıcı testleri atlanacak,no chromium: the browser tests will be skipped)"; fi; }

# Screenshots in docs/screenshots/ (console, widget on desktop and phone, the portal's privacy and
# canned-response pages) taken by the day suite (portal/tests/test_bir_gun_e2e.py) on the embedded
# default; a plain test run writes them to its tmp dir only.
ekran-goruntuleri: install browser derle
	BIR_GUN_EKRAN_KAYDET=1 $(BIN)/pytest portal/tests/test_bir_gun_e2e.py -k gomulu

# The suite runs on the machine's PostgreSQL and Redis when they answer (as CI does), on SQLite and
# in-memory stand-ins otherwise; DATABASE_URL / REDIS_URL win. Its summary names what it used
# (supportdesk/testing/altyapi.py).
# In parallel (pytest-xdist): TEST_WORKERS processes, one more than the cores and at most 4 (each
# worker's Redis database is REDIS_URL's plus its index plus one and must stay below the fixed 12-14). A
# fifth of a two-worker run on two cores is waiting (sockets, polls, servers starting) with a core
# idle: three workers fill it (9 min 54 s -> 8 min 31 s, docs/performance.md). `--dist loadfile`
# keeps a test file on one worker, so a module's live server, Celery worker or browser starts once.
# `TEST_WORKERS=0 make test` runs it in one process.
TEST_WORKERS ?= $(shell n=$$(( $$(nproc 2>/dev/null || echo 1) + 1 )); [ $$n -gt 4 ] && n=4; echo $$n)
test: install browser derle
	$(BIN)/python manage.py makemigrations --check --dry-run --settings=supportdesk.test_settings >/dev/null
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --durations=15

worker: install
	$(BIN)/celery -A supportdesk worker -l info

beat: install
	$(BIN)/celery -A supportdesk beat -l info

# The production topology on this machine, without Docker (docs/production.md): the database made
# when missing (ops/veritabani.py), migrations first,
# static files, then supervisord runs the Procfile's processes: PROD_WEB gunicorn processes (ports
# PROD_PORT, +1, ...), PROD_SOCKETS uvicorn processes (PROD_PORT+100, +101, ...), PROD_WORKERS Celery
# workers and one beat, each restarted if it dies. Needs PostgreSQL (DATABASE_URL) and Redis
# (REDIS_URL); DEBUG is off, plain http on 127.0.0.1 unless BIND_HOST / SECURE_SSL_REDIRECT say otherwise.
# One machine: every process shares MEDIA_ROOT and the web processes serve /media/ (MEDIA_PAYLASIMLI).
# `check --deploy` runs before anything starts: a configuration it refuses never serves.
PROD_PORT ?= 8000
PROD_WEB ?= 2
PROD_SOCKETS ?= 2
PROD_WORKERS ?= 2
PROD_DIR ?= tmp/prod
PROD_ENV = env PATH="$(CURDIR)/$(BIN):$$PATH" DEBUG="$${DEBUG:-false}" SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-false}" \
	BIND_HOST="$${BIND_HOST:-127.0.0.1}" \
	MEDIA_PAYLASIMLI="$${MEDIA_PAYLASIMLI:-true}"
prod: install
	@case "$$DATABASE_URL" in postgres*) ;; *) echo "make prod: DATABASE_URL=postgres://... gerekli (PostgreSQL)"; exit 2;; esac
	@test -n "$$REDIS_URL" || { echo "make prod: REDIS_URL=redis://... gerekli"; exit 2; }
	$(BIN)/python ops/veritabani.py
	$(PROD_ENV) $(BIN)/python manage.py migrate --noinput
	$(PROD_ENV) $(BIN)/python manage.py compilemessages $(MESAJ_ATLA) -v 0
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput -v 0
	$(PROD_ENV) $(BIN)/python manage.py check --deploy
	$(BIN)/python ops/supervisor.py --dizin $(PROD_DIR) --port $(PROD_PORT) --web $(PROD_WEB) --sockets $(PROD_SOCKETS) --worker $(PROD_WORKERS)
	$(PROD_ENV) $(BIN)/supervisord -c $(PROD_DIR)/supervisord.conf

# Chat benchmark (gunicorn on PostgreSQL, 16 clients); see docs/performance.md.
bench: install
	$(BIN)/python bench/chat_bench.py

# Socket fan-out benchmark (issue 14): 500 operator sockets on one, then two uvicorn processes.
bench-canli: install
	$(BIN)/python bench/canli_bench.py --soket 500 --surec 1 --tur 30
	$(BIN)/python bench/canli_bench.py --soket 500 --surec 2 --tur 30

# Mixed load (issue 25): 300 open widgets (most on sockets), steady messages, operators reading,
# with each speed-up switched off in turn; see docs/performance.md ("Mixed load").
bench-karma: install
	$(BIN)/python bench/karma_bench.py --sure 30 --tur 3

# Translations (CONTRACT 19, docs/ceviri.md). Turkish is the source language; `make mesajlar`
# extracts every marked string of the Python code and the templates into locale/en/LC_MESSAGES/
# django.po (a translator fills its msgstr), `make derle` compiles the catalogs (.mo, not kept in
# git) with GNU gettext's msgfmt. `make run`, `make test` and the image compile them.
MESAJ_ATLA := --ignore=.venv --ignore=node_modules --ignore=staticfiles --ignore=media --ignore=tmp --ignore=bench
mesajlar: install $(ENV_FILE)
	$(BIN)/python manage.py makemessages -l en --no-obsolete --add-location=file $(MESAJ_ATLA)

derle: install $(ENV_FILE)
	$(BIN)/python manage.py compilemessages $(MESAJ_ATLA) -v 0

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy

# pip-tools lives in a throw-away virtualenv of its own (it is no dependency of the service).
PIP_TOOLS := tmp/pip-tools
LOCK_ARGS ?=
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(PIP_TOOLS)/bin/pip-compile -q --generate-hashes --strip-extras \
	--no-emit-index-url --no-emit-find-links $(LOCK_ARGS)
lock:
	test -x $(PIP_TOOLS)/bin/pip-compile || { $(PYTHON) -m venv $(PIP_TOOLS) && $(PIP_TOOLS)/bin/pip install -q pip-tools==7.6.2; }
	$(PIP_COMPILE) -o requirements/base.txt requirements/base.in
	$(PIP_COMPILE) -o requirements/dev.txt requirements/dev.in

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles media
