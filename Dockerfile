# One image for the web (granian), asgi (uvicorn, deploy/serve_sockets.py), worker and beat (celery) processes.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# collectstatic signs nothing: a throwaway key keeps the build from writing a local key file
# into the image (.dockerignore keeps a developer's out). Containers get SECRET_KEY at run time.
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
        python manage.py collectstatic --noinput \
    && python -m chickenfoot.i18n compile \
    && useradd --system --no-create-home --uid 10001 chickenfoot \
    && mkdir -p /app/media/avatars \
    && chown -R chickenfoot /app/staticfiles /app/media
USER chickenfoot

EXPOSE 8000
# The API on granian's WSGI interface (deploy/serve.py: two workers of two blocking threads,
# connections kept alive, a worker with a request stuck past 30 s replaced, the metrics'
# directory emptied at start; docs/api.md, "The serving layer").
CMD ["python", "deploy/serve.py", "--access-log"]
