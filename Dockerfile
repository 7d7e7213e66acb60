# One image for the web (gunicorn), asgi (daphne), worker and beat (celery) processes.
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
    && chown -R chickenfoot /app/staticfiles
USER chickenfoot

EXPOSE 8000
# Threaded workers keep client connections alive; four workers of two threads suit two cores
# (docs/api.md, Performance). The heartbeat file lives in memory, not on the image's disk.
# chickenfoot/gunicorn_config.py: request line and header limits above nginx's, and gunicorn's
# own refusals as problem documents instead of HTML.
CMD ["gunicorn", "chickenfoot.wsgi:application", "--bind", "0.0.0.0:8000", \
     "--config", "python:chickenfoot.gunicorn_config", \
     "--worker-class", "gthread", "--workers", "4", "--threads", "2", "--keep-alive", "30", \
     "--worker-tmp-dir", "/dev/shm", "--timeout", "30", "--access-logfile", "-"]
