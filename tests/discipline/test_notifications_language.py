"""Every discipline notification reaches each person in their language (issues 12, 26): one occasion, a
French-speaking manager and an English-speaking one, each page and e-mail in its reader's language, the articles
unchanged. The rows store the messages (and the English text); they are said in the reader's language when shown."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core import mail
from django.utils import translation
from djmoney.money import Money

from accounts.models import Role, User
from discipline import protests as svc
from portal.models import Notification
from portal.notifications import language_of, message_id
from tests.discipline.test_suspensions import receive
from tests.factories import with_role

from .protest_helpers import INCIDENT_AT, file_as_home, world

pytestmark = pytest.mark.django_db


def speaks(user: User, language: str) -> User:
    User.objects.filter(pk=user.pk).update(language=language)
    user.refresh_from_db()
    return user


def said_to(user: User, key_part: str) -> SimpleNamespace:
    """The user's one notification whose key contains ``key_part`` as they read it (in their language)."""
    notification = Notification.objects.get(user=user, key__contains=key_part)
    with translation.override(language_of(user)):
        return SimpleNamespace(subject=notification.shown_subject, body=notification.shown_body, pk=notification.pk)


def told(user: User, key_part: str) -> tuple[SimpleNamespace, mail.EmailMessage]:
    """The user's one notification whose key contains ``key_part`` as they read it, and its e-mail."""
    notification = said_to(user, key_part)
    (message,) = [m for m in mail.outbox if m.extra_headers.get("Message-ID") == message_id(notification.pk)]
    return notification, message


@pytest.fixture
def w():
    w = world()
    speaks(w.home_manager, "fr")  # the protesting team's manager reads French; the opponent's never chose (English)
    return w


def test_a_filed_and_decided_protest_is_told_to_each_manager_in_their_language_9_1(
    w, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        protest = file_as_home(w, "ruling", w.on_rink_protest, now=INCIDENT_AT, statement="After the whistle.")
    french, french_mail = told(w.home_manager, ":filed")
    english, english_mail = told(w.away_manager, ":filed")
    assert french.subject.startswith(f"Réclamation n° {protest.pk}, {w.game} : déposée par {w.game.home}")
    assert "La réclamation écrite doit être remise au plus tard le" in french.body
    assert "(règle 9.1 A, D)" in french.body and "(R-52)" in french.body
    assert "L'équipe adverse peut répondre par écrit" in french.body
    assert english.subject == f"Protest #{protest.pk}, {w.game}: filed by {w.game.home}"
    assert "The written protest is due by" in english.body and "(Rule 9.1 A, D)" in english.body
    assert "Réclamation" not in english.body
    # The e-mails carry the stored texts, and their own lines in the same language.
    assert french_mail.subject == french.subject and french_mail.body.startswith(french.body)
    assert english_mail.subject == english.subject and english_mail.body.startswith(english.body)

    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    svc.protest_start_review(by=w.committee, protest=protest)
    with django_capture_on_commit_callbacks(execute=True):
        svc.protest_uphold(by=w.committee, protest=protest, reason="The whistle came first.")
    french, french_mail = told(w.home_manager, ":upheld")
    english, english_mail = told(w.away_manager, ":upheld")
    assert french.subject.endswith(": admise")
    assert french.body == (
        "La réclamation est admise : The whistle came first. Le droit de réclamation est remboursé (9.1 A, R-52)."
    )
    assert english.body == "The protest is upheld: The whistle came first. The fee is returned (9.1 A, R-52)."
    assert french_mail.body.startswith(french.body) and english_mail.body.startswith(english.body)


def test_a_rejected_protest_tells_the_forfeited_fee_in_each_language_9_1_a(w):
    protest = file_as_home(w, "ruling", w.on_rink_protest, now=INCIDENT_AT, statement="After the whistle.")
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    assert "(espèces" in said_to(w.home_manager, ":fee").body.lower()
    svc.protest_start_review(by=w.committee, protest=protest)
    svc.protest_reject(by=w.committee, protest=protest, reason="Unjustified.")
    french, english = said_to(w.home_manager, ":rejected"), said_to(w.away_manager, ":rejected")
    assert french.body == "La réclamation est rejetée : Unjustified. Le droit de réclamation est perdu (9.1 A, R-52)."
    assert english.body == "The protest is rejected: Unjustified. The fee is forfeited (9.1 A, R-52)."


def test_a_suspension_is_told_to_each_manager_in_their_language_r_53(offence, django_capture_on_commit_callbacks):
    game, player = offence
    french_manager = with_role(Role.TEAM_MANAGER, email="fr@example.org", language="fr")
    spanish_manager = with_role(Role.TEAM_MANAGER, email="es@example.org", language="es")
    english_manager = with_role(Role.TEAM_MANAGER, email="en@example.org")
    game.home.managers.add(french_manager, spanish_manager, english_manager)
    with django_capture_on_commit_callbacks(execute=True):
        receive(game, player)
    french, french_mail = told(french_manager, "suspension:")
    spanish, spanish_mail = told(spanish_manager, "suspension:")
    english, english_mail = told(english_manager, "suspension:")
    assert french.subject == f"Suspension : {player} est suspendu(e)"
    assert french.body.startswith(f"{player} est suspendu(e). Règle 8.2 A : suspension (provisoire) pour 1 match(s)")
    assert spanish.subject == f"Suspensión: {player} está suspendido/a"
    assert "Regla 8.2 A: suspensión (provisional) por 1 partido(s), 0 cumplido(s)" in spanish.body
    assert english.subject == f"Suspension: {player} is suspended"
    assert english.body.startswith(
        f"{player} is suspended. Rule 8.2 A: suspended (provisional) for 1 game(s), 0 served"
    )
    for notification, message in ((french, french_mail), (spanish, spanish_mail), (english, english_mail)):
        assert message.subject == notification.subject and message.body.startswith(notification.body)
