"""The Celery app. Without REDIS_URL tasks run in process (``task_always_eager``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("stichliste")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # every app's ``tasks`` module (clublife.tasks)
# the standings pipeline keeps its tasks in its package
app.autodiscover_tasks(["tournaments.recompute"])
