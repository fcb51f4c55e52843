# Production image: gunicorn serves the app; the same image runs the Celery worker and beat.
# CI runs these same steps without Docker (tests/system/test_production.py): the build
# step below, then `python -m config.serve` with DEBUG off, and fetches every page.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

# DejaVu for the PDF lists (tournaments' federation lists): every script a name may use
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
RUN SECRET_KEY=collectstatic-only DEBUG=false python manage.py collectstatic --noinput

RUN useradd --system --uid 1000 stichliste
USER stichliste

EXPOSE 8000
CMD ["python", "-m", "config.serve"]
