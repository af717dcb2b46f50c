"""The data migrations of people's words and moments, forward on sample rows (``portal`` 0005, ``discipline`` 0010):
the committee's reasons stored as plain values become words, a protest's English deadlines become moments, the old
English device notifications and hearings are read back; anything else keeps its words."""

from __future__ import annotations

import datetime
import importlib
import zoneinfo

import pytest
from django.apps import apps
from django.utils import timezone, translation

from accounts.models import Role
from common.text import Moment, said, to_data
from discipline.models import Case, CaseTransition
from portal.models import Notification
from tests.discipline.protest_helpers import stored_protest
from tests.factories import ChampionshipFactory, GameFactory, UserFactory, with_role

pytestmark = pytest.mark.django_db

WORDS = importlib.import_module("portal.migrations.0005_notification_words")
HEARINGS = importlib.import_module("discipline.migrations.0010_case_transition_why_message")
ROME = zoneinfo.ZoneInfo("Europe/Rome")
THEIR = '<span class="their-words" translate="no">'


def _row(user, key, subject, body, subject_message=None, body_message=None) -> Notification:
    return Notification.objects.create(
        user=user,
        key=key,
        subject=subject,
        body=body,
        subject_message=subject_message,
        body_message=body_message,
        created_at=timezone.now(),
    )


def test_reasons_become_words_english_deadlines_moments_and_old_device_rows_messages():
    user = UserFactory()
    reasons = "Kicked after the whistle."
    suspended = _row(
        user,
        "suspension:1:active",
        "Suspension: DURAND Jean is suspended",
        f"DURAND Jean is suspended. Rule 8.2 A: suspended (decided) for 2 game(s), 0 served. {reasons}",
        body_message={
            "msgid": "{sentence} {terms}. {reasons}",
            "braced": True,
            "args": {
                "sentence": {"msgid": "{person} is suspended.", "braced": True, "args": {"person": "DURAND Jean"}},
                "terms": {
                    "msgid": "Rule {article}: suspended ({state}) for {what}",
                    "braced": True,
                    "args": {
                        "article": "8.2 A",
                        "state": {"msgid": "decided", "context": "suspension", "braced": True, "args": {}},
                        "what": {
                            "msgid": "{games} game(s), {served} served",
                            "braced": True,
                            "args": {"games": 2, "served": 0},
                        },
                    },
                },
                "reasons": reasons,
            },
        },
    )
    game = GameFactory()
    protest = stored_protest(game, game.home, UserFactory(), at=timezone.now())
    due = "Sat 3 Jul 2027, 13:30:00 CEST"
    reminded = _row(
        user,
        f"protest:{protest.pk}:reminder",
        "x",
        f"Your team may answer the protest in writing until {due}.",
        body_message={
            "msgid": "Your team may answer the protest in writing until {due}.",
            "braced": True,
            "args": {"due": due},
        },
    )
    device = "A cage fixed to the helmet"
    approved = _row(
        user,
        "device-request:3:approved:2027",
        "Protective device approved for RIZZO Stefano",
        f"Rule 3.2.8 C: the IHTC allows RIZZO Stefano to wear: {device}.",
    )
    french = _row(user, "device-request:4:approved:2027", "Équipement approuvé", "Règle 3.2.8 C : ...")
    answered = _row(user, "protest:1:answered", "x", "We never touched him.", subject_message={"msgid": "x"})

    WORDS.mark_words(apps, None)

    for row in (suspended, reminded, approved, french, answered):
        row.refresh_from_db()
    assert answered.body_message == {"words": "We never touched him."}
    assert suspended.body_message["args"]["reasons"] == {"words": reasons}
    assert reminded.body_message["args"]["due"] == to_data(Moment(datetime.datetime(2027, 7, 3, 13, 30, tzinfo=ROME)))
    assert approved.body_message["args"]["device"] == {"words": device}
    assert approved.subject_message["msgid"] == "Protective device approved for {person}"
    assert french.body_message is None and french.subject_message is None
    with translation.override("fr"):
        assert suspended.shown_body_html.endswith(f"0 purgé(s). {THEIR}{reasons}</span>")
        assert "juillet 2027, 13:30:00 CEST" in reminded.shown_body and "Jul " not in reminded.shown_body
        assert approved.shown_body_html.endswith(f"à porter : {THEIR}{device}</span>.")
        assert french.shown_body == "Règle 3.2.8 C : ..."


def test_an_english_hearing_is_read_back_and_the_committees_words_stay():
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    championship = ChampionshipFactory()
    case = Case.objects.create(
        title="x", championship=championship, opened_at=timezone.now(), opened_by=committee, status="hearing"
    )
    old = CaseTransition.objects.create(
        case=case,
        from_status="open",
        to_status="hearing",
        by=committee,
        at=timezone.now(),
        why="hearing on 2027-07-03 18:00 (venue time)",
    )
    own = CaseTransition.objects.create(
        case=case, from_status="open", to_status="hearing", by=committee, at=timezone.now(), why="At the rink."
    )

    HEARINGS.read_hearings_back(apps, None)

    old.refresh_from_db()
    own.refresh_from_db()
    zone = zoneinfo.ZoneInfo(championship.venue.time_zone)
    expected = said("hearing on {moment}", moment=Moment(datetime.datetime(2027, 7, 3, 18, tzinfo=zone), "venue"))
    assert old.why_message == to_data(expected)
    assert own.why_message is None
    with translation.override("es"):
        assert old.shown_why.startswith("audiencia el sáb") and "julio de 2027" in old.shown_why
        assert own.shown_why == "At the rink."


def test_a_lapsed_protests_english_deadline_becomes_a_moment():
    from discipline.models import ProtestTransition

    game = GameFactory()
    protest = stored_protest(game, game.home, UserFactory(), at=timezone.now())
    lapse = {
        "msgid": "Rule {article}: {what} missing at the deadline, {due}.",
        "braced": True,
        "args": {"article": "9.1 A", "what": {"msgid": "the fee (R-52)", "braced": True, "args": {}}},
    }
    english = {**lapse, "args": {**lapse["args"], "due": "2027-07-03 18:00 (venue time)"}}
    row = ProtestTransition.objects.filter(protest=protest).first()
    ProtestTransition.objects.filter(pk=row.pk).update(reason_message=english)

    HEARINGS.protest_moments(apps, None)

    row.refresh_from_db()
    zone = zoneinfo.ZoneInfo(game.championship.venue.time_zone)
    assert row.reason_message["args"]["due"] == to_data(Moment(datetime.datetime(2027, 7, 3, 18, tzinfo=zone), "venue"))


def test_an_english_default_case_title_is_read_back_and_the_committees_title_stays():
    titles = importlib.import_module("discipline.migrations.0011_case_title_message")
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    championship = ChampionshipFactory()

    def case(title):
        return Case.objects.create(
            title=title, championship=championship, opened_at=timezone.now(), opened_by=committee
        )

    protest = case("Case: Protest #7 (Administrative) of Italy")
    report = case("Case: Italy – Spain (#3): Match penalty (6.1.6) (6.1.6)")
    typed = case("Case: the fight after the game")
    own = case("Kicking")

    titles.read_titles_back(apps, None)

    for row in (protest, report, typed, own):
        row.refresh_from_db()
    assert typed.title_message is None and own.title_message is None
    with translation.override("fr"):
        assert protest.shown_title == "Dossier : Réclamation n° 7 (Administrative) de Italy"
        assert report.shown_title == "Dossier : Italy – Spain (#3) : Pénalité de match (6.1.6) (6.1.6)"
        assert typed.shown_title == "Case: the fight after the game"
    assert protest.shown_title == "Case: Protest #7 (Administrative) of Italy"
