import pytest


@pytest.fixture
def director():
    """Staff of the international body that sanctions the test championships: their directors."""
    from tests.factories import international_staff

    return international_staff()


@pytest.fixture(scope="class")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo world (``manage.py demo``), built once for a class of tests of documents rendered from its data;
    stored documents go to a temporary folder and everything is rolled back afterwards."""
    from tests.demo_world import built_demo

    with built_demo(django_db_blocker, tmp_path_factory.mktemp("demo-documents")) as built:
        yield built
