"""Fixtures of the webhook tests: a receiving server on loopback per test."""

from __future__ import annotations

import pytest

from tests.webhooks.receiver import start_receiver


@pytest.fixture
def receiver():
    receiver, server = start_receiver()
    yield receiver
    server.shutdown()
    server.server_close()


@pytest.fixture
def other_receiver():
    """A second federation's system, on another port."""
    receiver, server = start_receiver("/other")
    yield receiver
    server.shutdown()
    server.server_close()
