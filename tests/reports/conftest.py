import pytest


@pytest.fixture(autouse=True)
def _forget_parsed_logs():
    """These tests run the commit callbacks of the sheet's entries, which keep each sheet's parsed log by its id
    (``games.sheet.PARSED_LOGS``); a rolled-back test's ids come back in the next test on SQLite, so the kept logs
    are forgotten before and after each test, as a new process would have none."""
    from games.sheet import PARSED_LOGS

    PARSED_LOGS.logs.clear()
    yield
    PARSED_LOGS.logs.clear()


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
