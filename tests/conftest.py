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
