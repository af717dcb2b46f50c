"""People's own words and moments inside stored texts (issue 26): an equipment's description, a committee's reasons
are stored as words (``common.text.Words``), never translated and marked ``.their-words`` on a page; a deadline or a
hearing is stored as a moment (``common.text.Moment``), written in the reader's language and locale when shown."""

from __future__ import annotations

import datetime
import pickle
import zoneinfo

import pytest
from django.core import mail
from django.utils.translation import override

from common.text import Moment, Words, from_data, said, to_data
from federation import services
from portal.i18n import say, stored, stored_html
from portal.models import Notification
from tests.factories import PersonFactory, federation_staff, international_staff, pdf_upload

ROME = zoneinfo.ZoneInfo("Europe/Rome")
THEIR = '<span class="their-words" translate="no">'
DEVICE = "Clear polycarbonate jaw protector fixed to the helmet cage after a mandible fracture"


def test_words_are_stored_as_words_said_as_written_and_marked_on_a_page():
    text = said(
        "Rule 3.2.8 C: the IHTC allows {person} to wear: {device}.",
        person="RIZZO Stefano",
        device=Words("A <b>cage</b>"),
    )
    assert text == "Rule 3.2.8 C: the IHTC allows RIZZO Stefano to wear: A <b>cage</b>."
    data = to_data(text)
    assert data["args"]["device"] == {"words": "A <b>cage</b>"}
    assert isinstance(from_data(data).args["device"], Words)
    assert pickle.loads(pickle.dumps(Words("x"))) == "x"
    with override("fr"):
        assert stored(data) == "Règle 3.2.8 C : l'IHTC autorise RIZZO Stefano à porter : A <b>cage</b>."
        html = stored_html(data)
    assert html == (
        f"Règle 3.2.8 C : l&#x27;IHTC autorise RIZZO Stefano à porter : {THEIR}A &lt;b&gt;cage&lt;/b&gt;</span>."
    )
    assert stored_html(None, "<i>old</i>") == "&lt;i&gt;old&lt;/i&gt;"  # an older row: escaped, as written


def test_a_moment_is_stored_as_its_time_and_written_in_the_readers_locale():
    at = datetime.datetime(2027, 7, 3, 13, 30, tzinfo=ROME)
    second, venue = Moment(at), Moment(at, "venue")
    assert second == "Sat 3 Jul 2027, 13:30:00 CEST"  # the English, as R-51's refusals always said it
    assert venue == "2027-07-03 13:30 (venue time)"
    data = to_data(said("hearing on {moment}", moment=venue))
    assert data["args"]["moment"] == {"moment": "2027-07-03T13:30:00+02:00", "style": "venue", "zone": "Europe/Rome"}
    back = from_data(data)
    assert back == "hearing on 2027-07-03 13:30 (venue time)"
    assert pickle.loads(pickle.dumps(second)) == second
    with override("fr"):
        french = stored(data)
        french_second = say(second)
    with override("es"):
        spanish = say(venue)
    assert french.startswith("audience le sam") and "juillet 2027" in french and "(heure locale du lieu)" in french
    assert "13:30" in french and "July" not in french and "Jul " not in french_second
    assert "juillet 2027, 13:30:00 CEST" in french_second
    assert "julio de 2027" in spanish and "(hora local de la sede)" in spanish
    with override("en"):
        assert say(second) == second and say(venue) == venue


@pytest.mark.django_db
def test_the_device_approval_is_told_in_french_with_the_description_as_the_persons_words(
    client, django_capture_on_commit_callbacks
):
    person = PersonFactory(first_name="Stefano", last_name="Rizzo")
    staff = federation_staff(person.federation, language="fr", email="staff@example.org")
    request = services.device_request_submit(
        person=person, description=DEVICE, physician="Dr. Bianchi", prescription=pdf_upload(), submitted_by=staff
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.device_request_decide(request=request, approve=True, decided_by=international_staff())
    notification = Notification.objects.get(user=staff)
    assert notification.body_message["args"]["device"] == {"words": DEVICE}  # the whole description, as words
    assert notification.body == f"Rule 3.2.8 C: the IHTC allows {person} to wear: {DEVICE}."  # the English kept
    client.force_login(staff)
    page = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Règle 3.2.8 C : l&#x27;IHTC autorise {person} à porter : {THEIR}{DEVICE}</span>." in page
    assert "the IHTC allows" not in page
    (message,) = mail.outbox
    assert message.body.startswith(f"Règle 3.2.8 C : l'IHTC autorise {person} à porter : {DEVICE}.")  # plain text


@pytest.mark.django_db
def test_a_refused_device_says_the_reason_as_the_ihtcs_words(client):
    person = PersonFactory(first_name="Stefano", last_name="Rizzo")
    staff = federation_staff(person.federation, language="es")
    request = services.device_request_submit(
        person=person, description=DEVICE, physician="Dr. Bianchi", prescription=pdf_upload(), submitted_by=staff
    )
    services.device_request_decide(
        request=request, approve=False, reason="No physician's stamp.", decided_by=international_staff()
    )
    client.force_login(staff)
    page = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"{THEIR}{DEVICE}</span>" in page and f"{THEIR}No physician&#x27;s stamp.</span>" in page
    assert "Regla 3.2.8 C" in page and "the IHTC refused" not in page
