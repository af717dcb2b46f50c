"""The data migrations of issue 26, forward on sample rows: the English texts stored before are read back into
their messages (then said in each reader's language); a text that is not one of them (one written in French before,
a team's own answer, the committee's reasons) keeps its words and is shown as it is."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps
from django.utils import timezone, translation

from discipline.models import Protest, ProtestTransition, Suspension
from portal.models import Notification
from tests.discipline.protest_helpers import stored_protest
from tests.discipline.test_suspensions import receive
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NOTIFICATIONS = importlib.import_module("portal.migrations.0004_notification_messages_from_english")
DISCIPLINE = importlib.import_module("discipline.migrations.0009_stored_texts_from_english")


def _old(user, key: str, subject: str, body: str) -> Notification:
    """A notification as it was stored before issue 26: its text only."""
    return Notification.objects.create(user=user, key=key, subject=subject, body=body, created_at=timezone.now())


def test_english_notifications_are_read_back_and_others_keep_their_words():
    user = UserFactory()
    filed = _old(
        user,
        "protest:1:filed",
        "Protest #1, Game 3: filed by France",
        "France protests (Against a referee's ruling (9.1 A, D)): On-rink protest by France, P1 3:00.\n"
        "The written protest is due by Sat 3 Jul 2027, 13:30:00 CEST (Rule 9.1 A, D). "
        "The fee of US$200.00 is due by then (R-52).\n"
        "The opposing team may answer in writing until Sun 4 Jul 2027, 13:30:00 CEST.",
    )
    upheld = _old(
        user,
        "protest:1:upheld",
        "Protest #1, Game 3: upheld",
        "The protest is upheld: The whistle came first. The fee is returned (9.1 A, R-52).",
    )
    suspended = _old(
        user,
        "suspension:1:active",
        "Suspension: DURAND Jean is suspended",
        "DURAND Jean is suspended. Rule 8.2 A: suspended (decided) for 2 game(s), 0 served. Kicked after the whistle.",
    )
    french = _old(user, "protest:2:withdrawn", "Réclamation n° 2, Game 3 : retirée", "France a retiré la réclamation.")
    answered = _old(user, "protest:1:answered", "Protest #1, Game 3: answered by Spain", "We never touched him.")

    NOTIFICATIONS.read_messages_back(apps, None)

    for row in (filed, upheld, suspended, french, answered):
        row.refresh_from_db()
    assert filed.subject_message["args"]["what"]["msgid"] == "filed by {team}"
    assert french.subject_message is None and french.body_message is None
    assert answered.subject_message is not None and answered.body_message is None  # the team's own words
    with translation.override("fr"):
        assert filed.shown_subject == "Réclamation n° 1, Game 3 : déposée par France"
        assert "La réclamation écrite doit être remise au plus tard le Sat 3 Jul 2027" in filed.shown_body
        assert "(Contre une décision de l'arbitre (9.1 A, D))" in filed.shown_body
        assert upheld.shown_body == (
            "La réclamation est admise : The whistle came first. Le droit de réclamation est remboursé (9.1 A, R-52)."
        )
        assert suspended.shown_subject == "Suspension : DURAND Jean est suspendu(e)"
        assert suspended.shown_body.startswith("DURAND Jean est suspendu(e). Règle 8.2 A : suspension (décidée)")
        assert suspended.shown_body.endswith("Kicked after the whistle.")  # the committee's words, as written
        assert french.shown_body == "France a retiré la réclamation."
        assert answered.shown_body == "We never touched him."
    # English reads as it always did.
    assert filed.shown_subject == filed.subject and suspended.shown_body == suspended.body


def test_provisional_reasons_and_on_rink_incidents_are_read_back(offence):
    game, player = offence
    receive(game, player)
    provisional = Suspension.objects.get()
    Suspension.objects.filter(pk=provisional.pk).update(reasons_message=None)  # as stored before issue 26
    decided = Suspension.objects.create(
        person=player, sanctioning_body=provisional.sanctioning_body, championship=provisional.championship,
        kind="games", games_required=2, article="8.2", reasons="A deliberate kick.", imposed_at=timezone.now(),
    )  # fmt: skip
    manager = UserFactory()
    protest = stored_protest(game, game.home, manager, at=game.start_at + datetime.timedelta(hours=1))
    Protest.objects.filter(pk=protest.pk).update(incident=f"On-rink protest by {game.home}, P1 3:00")
    lapse = ProtestTransition.objects.create(
        protest=protest, from_status="filed", to_status="lapsed", at=timezone.now(),
        reason="Rule 9.1 A, D: the fee (R-52) and the written statement missing at the deadline, Sat 3 Jul 2027, "
        "13:30:00 CEST.",
    )  # fmt: skip
    other = stored_protest(game, game.away, manager, at=game.start_at + datetime.timedelta(hours=1))
    Protest.objects.filter(pk=other.pk).update(incident="Goal by Spain, P1 12:29 (#8 FAVRE)")

    DISCIPLINE.read_texts_back(apps, None)

    provisional.refresh_from_db()
    decided.refresh_from_db()
    protest.refresh_from_db()
    other.refresh_from_db()
    lapse.refresh_from_db()
    assert provisional.reasons_message == {
        "msgid": "Rule 8.2 A: major and game misconduct, the next game the team plays",
        "args": {},
    }
    assert decided.reasons_message is None and other.incident_message is None
    with translation.override("es"):
        assert provisional.shown_reasons.startswith("Regla 8.2 A: mayor y conducta antideportiva de partido")
        assert decided.shown_reasons == "A deliberate kick."
        assert other.shown_incident == "Goal by Spain, P1 12:29 (#8 FAVRE)"
        assert protest.shown_incident == f"Protesta en pista de {game.home}, P1 3:00"
    with translation.override("fr"):
        assert lapse.shown_reason == (
            "Règle 9.1 A, D : le droit de réclamation (R-52) et la déclaration écrite manquant(e) à l'échéance, "
            "Sat 3 Jul 2027, 13:30:00 CEST."
        )
