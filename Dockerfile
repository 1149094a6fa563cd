# syntax=docker/dockerfile:1
# The service's image (docs/production.md): one image for every process kind of the Procfile
# (web, sockets, worker, beat, release); compose.yaml picks the command. Runtime dependencies only
# (requirements/base.txt, installed with their hashes); no test tool. Static files are collected
# (hashed, compressed) and the message catalogs compiled here, in the build.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
# gettext: msgfmt for compilemessages (build stage only)
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
COPY requirements/base.txt /tmp/requirements/base.txt
RUN /opt/venv/bin/pip install --require-hashes -r /tmp/requirements/base.txt
WORKDIR /app
COPY . .
# Build-time settings only: nothing here reaches the runtime stage's environment.
RUN DEBUG=false SECRET_KEY=build-only-not-a-secret DATABASE_URL=sqlite:////tmp/build.sqlite3 \
        /opt/venv/bin/python manage.py compilemessages \
    && DEBUG=false SECRET_KEY=build-only-not-a-secret DATABASE_URL=sqlite:////tmp/build.sqlite3 \
        /opt/venv/bin/python manage.py collectstatic --noinput -v 0 \
    && test -f staticfiles/staticfiles.json \
    && /opt/venv/bin/python -m compileall -q /app

FROM ${PYTHON_IMAGE} AS runtime
# postgresql-client: pg_dump / pg_restore for `manage.py yedek_al` / `yedek_yukle` (backups)
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 supportdesk \
    && useradd --system --uid 10001 --gid supportdesk --home-dir /app --shell /usr/sbin/nologin supportdesk \
    && mkdir -p /var/lib/supportdesk/media /run/supportdesk/prometheus \
    && chown -R supportdesk:supportdesk /var/lib/supportdesk /run/supportdesk
COPY --from=build /opt/venv /opt/venv
# The code stays root's: the service user can read it, not change it.
COPY --from=build /app /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=supportdesk.settings \
    MEDIA_ROOT=/var/lib/supportdesk/media \
    PROMETHEUS_MULTIPROC_DIR=/run/supportdesk/prometheus \
    PORT=8000
WORKDIR /app
USER supportdesk:supportdesk
# The metrics folder (every process's counters, docs/production.md "Metrics") is the service
# user's: a volume mounted there (compose's `metrics`) starts as a copy of it, owner included.
VOLUME ["/var/lib/supportdesk/media", "/run/supportdesk/prometheus"]
EXPOSE 8000 8001
HEALTHCHECK --interval=30s --timeout=6s --start-period=20s --retries=3 \
    CMD ["python", "ops/saglik.py", "http://127.0.0.1:8000/api/v1/saglik/canli"]
CMD ["gunicorn", "supportdesk.wsgi"]
