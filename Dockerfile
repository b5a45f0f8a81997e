# Stolik app image: Python deps from PyPI, front-end libraries from npm (pinned), then the app.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/stolik
COPY pyproject.toml README.md package.json package-lock.json ./
COPY app app
COPY engines engines
RUN pip install --no-cache-dir . && npm ci --no-audit --no-fund \
    && mkdir -p static/vendor
COPY migrations migrations
COPY alembic.ini ./
COPY templates templates
COPY static static
RUN cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx-ext-ws/dist/ws.js static/vendor/
EXPOSE 8000
# Migrations run first (prestart), then the server.
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn app.main:app --host 0.0.0.0 --port 8000 --ws app.realtime.transport:StolikWebSockets --ws-max-size 65536 --ws-per-message-deflate false --timeout-keep-alive 75 --proxy-headers"]
