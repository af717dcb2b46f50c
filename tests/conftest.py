import time
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_media(settings, tmp_path):
    """Keep uploaded files of a test in its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    settings.STORAGES = {
        **settings.STORAGES,
        "private": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "private"), "base_url": None},
        },
    }


_BENCH_DIR = Path(__file__).resolve().parent / "bench"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark everything under tests/bench as `bench`: the default run (-m "not bench") leaves benchmarks out."""
    for item in items:
        if _BENCH_DIR in item.path.parents:
            item.add_marker(pytest.mark.bench)


@pytest.fixture(autouse=True)
def _celery_eager(request):
    """Run Celery tasks in-process in unit tests; `integration` tests talk to a real worker instead."""
    if request.node.get_closest_marker("integration"):
        yield
        return
    from portal.celery import app

    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def _own_page_cache(settings, request):
    """Each test reads its own cached pages (portal.page_cache): ids and data versions repeat from test to test, as
    each test's rows are rolled back."""
    settings.PAGE_CACHE_NAMESPACE = f"test-{id(request.node)}-{time.monotonic_ns()}"


@pytest.fixture(autouse=True)
def _english_between_tests():
    """A request in another language leaves it active in the thread (LocaleMiddleware): each test starts and ends
    in English, the site's default."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def migrations_applied(settings):
    """The test database as `migrate` leaves it, for a test that moves along the migrations (MigrationExecutor).

    The unit run on PostgreSQL creates its test databases from the models (`--nomigrations`, the Makefile: about 20 s
    of CPU less in each process); tests/test_project_files.py checks that the migrations make the same schema
    (`makemigrations --check`). Here the migrations are turned back on (the project's MIGRATION_MODULES) and recorded
    as applied (`migrate --fake`: the schema is theirs already), so the test can migrate backwards and forwards for
    real. With migrations (the SQLite run, a plain `pytest`) there is nothing to do.
    """
    import importlib
    import os

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    project = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    if settings.MIGRATION_MODULES != project.MIGRATION_MODULES:  # pytest-django's --nomigrations
        settings.MIGRATION_MODULES = project.MIGRATION_MODULES
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes(), fake=True)
