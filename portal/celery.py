"""The Celery application. Configuration comes from Django settings (CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_broker_folders(sender, **kwargs):
    """Create the filesystem transport's folders and beat's schedule folder; kombu and beat expect them to exist.

    Beat's schedule file lives in PORTAL_DATA_DIR/celery on every broker: on Redis, a new data folder had none, and
    beat stopped at start ("No such file or directory"), silently ending every periodic sweep.
    """
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            os.makedirs(options[key], exist_ok=True)
    if sender.conf.beat_schedule_filename:
        os.makedirs(os.path.dirname(sender.conf.beat_schedule_filename) or ".", exist_ok=True)
    backend = sender.conf.result_backend or ""
    if backend.startswith("file://"):
        os.makedirs(backend[len("file://") :], exist_ok=True)
