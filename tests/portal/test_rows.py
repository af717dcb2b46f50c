"""The row builders' helpers (portal.rows, tournaments.venue_time.venue_time_formatter) write what the template
filters they replace write (issue 27: the staff lists' rows built once per page)."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest
from django.template import Context, Template
from django.utils import timezone, translation
from django.utils.html import format_html
from hypothesis import given, settings
from hypothesis import strategies as st

from portal.rows import date_formatter, escaped, fill, sentence, url_pattern
from tournaments.venue_time import VENUE_HOUR_FORMAT, venue_local, venue_time_formatter

ZONES = ["Europe/Rome", "America/Argentina/Buenos_Aires", "Asia/Tokyo", "UTC"]
moments = st.datetimes(
    min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2040, 12, 31), timezones=st.just(datetime.UTC)
)


@settings(max_examples=60, deadline=None)
@given(moment=moments, zone=st.sampled_from(ZONES), language=st.sampled_from(["en", "fr", "es"]))
def test_the_venue_time_formatter_writes_what_venue_local_writes(moment, zone, language):
    with translation.override(language):
        for fmt in (None, VENUE_HOUR_FORMAT):
            formatted = venue_time_formatter() if fmt is None else venue_time_formatter(fmt)
            expected = venue_local(moment, zone) if fmt is None else venue_local(moment, zone, fmt)
            assert formatted(moment, zone) == expected
            assert formatted(moment, zoneinfo.ZoneInfo(zone)) == expected  # the zone cached per venue


@settings(max_examples=40, deadline=None)
@given(moment=moments, language=st.sampled_from(["en", "fr", "es"]))
def test_the_date_formatter_writes_what_the_date_filter_writes(moment, language):
    template = Template('{{ when|date:"SHORT_DATETIME_FORMAT" }}|{{ when|date:"c" }}')
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo("Europe/Madrid")):
        expected = template.render(Context({"when": moment}))
        assert f"{date_formatter('SHORT_DATETIME_FORMAT')(moment)}|{date_formatter('c')(moment)}" == expected


@given(value=st.text(max_size=30))
def test_fill_escapes_every_value_as_format_html_does(value):
    assert fill("<td>{a}</td><td>{b}</td>", a=value, b=7) == format_html("<td>{}</td><td>{}</td>", value, 7)
    assert escaped(format_html("<b>{}</b>", value)) == format_html("<b>{}</b>", value)  # safe text kept


def test_a_sentence_escapes_its_values_not_its_words():
    assert sentence("by %(who)s on %(when)s", who="<script>", when="3 July") == "by &lt;script&gt; on 3 July"


@pytest.mark.parametrize("pk", [1, 7, 2147480000, 987654321])
def test_a_url_pattern_gives_the_url_reverse_gives(pk):
    from django.urls import reverse

    assert url_pattern("federation:person-detail")(pk) == reverse("federation:person-detail", args=[pk])
