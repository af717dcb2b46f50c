"""The protest API (9.1; R-50 to R-52): thin views over the services, so each refusal names the field and cites
the article, nothing is stored after one, and who may read or act is the access layer's answer.

The API acts on the real clock: the sheet's times of the protest world are moved to just before now."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from djmoney.money import Money
from rest_framework.test import APIClient

from accounts.models import Role
from discipline import protests as svc
from discipline.models import Protest, ProtestAttachment, ProtestStatus, ProtestTransition
from games.models import SheetEvent
from tests.factories import FederationFactory, GameFactory, federation_staff, jpeg_upload, with_role

from .protest_helpers import END_AT, INCIDENT_AT, manager_of, stored_protest, world, world_decided

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)
MINUTE = datetime.timedelta(minutes=1)
PROTESTS = "/api/v1/protests/"


def world_at(incident: datetime.datetime):
    """The protest world with its incidents received at ``incident`` and the game's end 50 minutes later."""
    w = world()
    SheetEvent.objects.filter(sheet__game=w.game, received_at=INCIDENT_AT).update(received_at=incident)
    SheetEvent.objects.filter(sheet__game=w.game, received_at=END_AT).update(received_at=incident + 50 * MINUTE)
    return w


@pytest.fixture
def w():
    return world_at(timezone.now() - HOUR)


def as_(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


HOME = object()  # the home team's manager, who has a protest to file


def file(w, by=HOME, **fields):
    body = {
        "game": w.game.pk,
        "kind": "ruling",
        "incident": w.on_rink_protest,
        "statement": "The goal was scored after the whistle.",
        **fields,
    }
    return as_(w.home_manager if by is HOME else by).post(PROTESTS, body, format="multipart")


def filed(w, **fields) -> Protest:
    response = file(w, **fields)
    assert response.status_code == 201, response.content
    return Protest.objects.get(pk=response.json()["id"])


def url(protest: Protest, what: str = "") -> str:
    return f"{PROTESTS}{protest.pk}/" + (f"{what}/" if what else "")


def message(response, field: str) -> str:
    assert response.status_code == 400, response.content
    return " ".join(response.json()[field])


# --- filing (9.1) ----------------------------------------------------------------------------------


def test_a_team_manager_files_a_protest_and_reads_it_with_its_fee_deadlines_history_and_files(w):
    response = file(w, attachments=[jpeg_upload()])
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["kind"], data["game"], data["entry"], data["status"]) == ("ruling", w.game.pk, w.game.home_id, "filed")
    assert (data["fee_due"], data["fee_due_currency"], data["fee_received"]) == ("200.00", "USD", None)
    deadlines = {d["kind"]: d for d in data["deadlines"]}
    incident_at = SheetEvent.objects.get(event_id=w.on_rink_protest.split(":")[1]).received_at
    assert deadlines["protest"]["article"] == "9.1 A, D"
    assert datetime.datetime.fromisoformat(deadlines["protest"]["due_at"]) == incident_at + 3 * HOUR
    assert deadlines["answer"]["status"] == "open" and deadlines["answer"]["reminder_sent_at"] is None
    assert data["transitions"] == [
        {
            "from_status": "",
            "to_status": "filed",
            "by": w.home_manager.username,
            "at": data["filed_at"],
            "reason": "",
        }
    ]
    (attachment,) = data["attachments"]
    assert (attachment["name"], attachment["content_type"]) == ("scan.jpg", "image/jpeg")
    # The file through the protest's own permission check: the teams, not a game official.
    session = Client()
    session.force_login(w.away_manager)
    assert session.get(attachment["url"]).status_code == 200
    session.force_login(with_role(Role.GAME_OFFICIAL))
    assert session.get(attachment["url"]).status_code == 404
    # The opposing team reads it too.
    assert as_(w.away_manager).get(url(Protest.objects.get())).json()["statement"].startswith("The goal")


def test_an_administrative_protest_is_filed_after_period_2s_end_without_a_game_end_9_1_b():
    """The sheet's last entry is period 2's end, home winning 2-1: the game has ended (1.2 A, 1.3 A) and its
    receipt anchors the 1 h 30 min of 9.1 B; no client has to enter a ``game_end`` first."""
    end = (timezone.now() - HOUR).replace(microsecond=0)
    w = world_decided(end)
    assert SheetEvent.objects.filter(sheet__game=w.game).order_by("-sequence").first().payload["type"] == "period_end"
    response = file(w, kind="administrative", incident=f"mark:{w.mark.pk}", statement="Sticks too long.")
    assert response.status_code == 201, response.content
    data = response.json()
    assert datetime.datetime.fromisoformat(data["incident_at"]) == end
    deadline = next(d for d in data["deadlines"] if d["kind"] == "protest")
    assert deadline["article"] == "9.1 B"
    assert datetime.datetime.fromisoformat(deadline["due_at"]) == end + 90 * MINUTE


def test_what_a_manager_can_protest_is_his_teams_incidents_as_recorded(w):
    incidents = f"/api/games/{w.game.pk}/protest-incidents/"
    home = as_(w.home_manager).get(incidents)
    assert home.status_code == 200
    assert {(i["kind"], i["key"]) for i in home.json()} == {
        ("administrative", f"mark:{w.mark.pk}"),
        ("ruling", w.on_rink_protest),
        ("federation", w.penalty),
    }
    assert all(i["at"] for i in home.json())
    # The home captain's on-rink protest and the home team's mark are not the away team's to protest.
    away = as_(w.away_manager).get(incidents)
    assert [i["key"] for i in away.json()] == [w.penalty]
    ruling = as_(w.home_manager).get(incidents, {"kind": "ruling"}).json()
    assert [i["key"] for i in ruling] == [w.on_rink_protest]
    assert "kind" in as_(w.home_manager).get(incidents, {"kind": "appeal"}).json()
    assert "Rule 9.1" in message(as_(w.home_manager).get(incidents, {"entry": GameFactory().home_id}), "entry")
    assert as_(w.home_manager).get(incidents, {"entry": w.game.away_id}).status_code == 403
    for user in (w.committee, w.staff, None):
        assert as_(user).get(incidents).status_code == 403
    assert as_(w.home_manager).get("/api/games/999999/protest-incidents/").status_code == 404


def test_every_incident_key_listed_has_the_documented_format_and_another_is_refused_naming_it(w):
    """Issue 29: ``mark:<id>`` or ``event:<uuid>`` (protests.INCIDENT_KEY_PATTERN), as the schema says."""
    import re

    from discipline.protests import INCIDENT_KEY_PATTERN

    keys = [i["key"] for i in as_(w.home_manager).get(f"/api/games/{w.game.pk}/protest-incidents/").json()]
    assert len(keys) == 3 and all(re.fullmatch(INCIDENT_KEY_PATTERN, key) for key in keys), keys
    for wrong in ("an incident", "mark:0", "event:nothing", w.on_rink_protest.upper(), f"ruling|{w.on_rink_protest}"):
        refused = message(file(w, incident=wrong), "incident")
        assert refused == (
            "Rule 9.1: an incident is named by its key, mark:<id> or event:<uuid>, as the game's protest incidents "
            "list it."
        ), wrong
    assert not Protest.objects.exists()


def test_a_late_filing_is_refused_at_the_incident_citing_the_article_and_nothing_is_stored():
    w = world_at(timezone.now() - 3 * HOUR - MINUTE)
    refused = message(file(w, attachments=[jpeg_upload()]), "incident")
    assert refused.startswith("Rule 9.1 A, D: the written protest was due by ") and "(R-51)" in refused
    assert not Protest.objects.exists() and not ProtestAttachment.objects.exists()


def test_a_filing_is_refused_for_bad_input_and_for_anyone_but_a_manager_of_the_game(w):
    assert message(file(w, colour="red"), "colour") == "Unknown field: this operation does not take it."
    assert "Rule 9.1" in message(file(w, kind="federation", incident="event:nothing"), "incident")
    assert "game" in file(w, game=999999).json()
    # Rule 9.1 A, R-50: the away captain made no on-rink protest.
    assert message(file(w, by=w.away_manager), "incident").startswith("R-50, Rule 9.1 A:")
    for user in (w.committee, w.staff, with_role(Role.TEAM_MANAGER), None):
        assert file(w, by=user).status_code == 403
    for user in (w.committee, w.staff):  # no manager: refused before the body is read (403, not 400)
        assert file(w, by=user, colour="red").status_code == 403
    both = manager_of(w.game.home)
    w.game.away.managers.add(both)
    assert "both teams" in message(file(w, by=both), "entry")
    assert not Protest.objects.exists()
    assert file(w, by=both, entry=w.game.home_id).status_code == 201


# --- the statement, the fee, the review and the decision, withdrawal, the answer -------------------------------


def test_the_statement_follows_the_filing_by_the_protesting_teams_manager(w):
    protest = filed(w, statement="")
    assert "Rule 9.1" in message(as_(w.home_manager).post(url(protest, "statement"), {"statement": ""}), "statement")
    assert as_(w.away_manager).post(url(protest, "statement"), {"statement": "Ours."}).status_code == 403
    assert as_(w.committee).post(url(protest, "statement"), {"statement": "Ours."}).status_code == 403
    protest.refresh_from_db()
    assert protest.statement == ""
    done = as_(w.home_manager).post(
        url(protest, "statement"), {"statement": "Written.", "attachments": [jpeg_upload()]}, format="multipart"
    )
    assert done.status_code == 200 and done.json()["statement"] == "Written." and len(done.json()["attachments"]) == 1


def test_staff_record_the_fee_of_us_200_or_the_equivalent_r_52(w):
    protest = filed(w)
    fee = url(protest, "fee")
    staff = as_(w.staff)
    below = staff.post(fee, {"amount": "150.00", "currency": "USD", "method": "cash"})
    assert (
        message(below, "amount").startswith("R-52: the fee is ") and "150.00 was entered" in below.json()["amount"][0]
    )
    future = (timezone.now() + HOUR).isoformat()
    later = staff.post(fee, {"amount": "200.00", "currency": "USD", "method": "cash", "received_at": future})
    assert message(later, "received_at") == "R-52: the fee cannot be received in the future."
    unknown = staff.post(fee, {"amount": "200.00", "method": "cash", "fee_outcome": "returned", "colour": "red"})
    assert set(unknown.json()) == {"fee_outcome", "colour"}
    assert "ISO 4217" in message(staff.post(fee, {"amount": "200", "currency": "ZZZ", "method": "cash"}), "currency")
    for user, status in ((w.home_manager, 403), (w.committee, 403), (with_role(Role.GAME_OFFICIAL), 404), (None, 403)):
        assert as_(user).post(fee, {"amount": "200.00", "method": "cash"}).status_code == status
    protest.refresh_from_db()
    assert protest.fee_received is None and protest.fee_received_at is None
    received = timezone.now() - 20 * MINUTE
    done = staff.post(fee, {"amount": "200.00", "method": "transfer", "received_at": received.isoformat()})
    assert done.status_code == 200
    data = done.json()
    assert (data["fee_received"], data["fee_received_currency"], data["fee_method"]) == ("200.00", "USD", "transfer")
    assert datetime.datetime.fromisoformat(data["fee_received_at"]) == received
    assert data["fee_received_by"] == w.staff.username
    assert "recorded already" in message(staff.post(fee, {"amount": "200.00", "method": "cash"}), "amount")


def test_the_committee_reviews_and_decides_with_its_reasons_9_1_a(w):
    protest = filed(w)
    committee = as_(w.committee)
    assert "R-52" in message(committee.post(url(protest, "review"), {}), "status")
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    assert as_(w.staff).post(url(protest, "review"), {}).status_code == 403
    assert as_(w.home_manager).post(url(protest, "review"), {}).status_code == 403
    review = committee.post(url(protest, "review"), {"reason": "Investigating."})
    assert review.status_code == 200 and review.json()["status"] == "under_review"
    decision = url(protest, "decision")
    transitions = ProtestTransition.objects.filter(protest=protest).count()
    assert message(committee.post(decision, {"outcome": "reject"}), "reason") == (
        "Rule 9.1 A: give the reasons of the decision."
    )
    assert message(committee.post(decision, {"outcome": "maybe", "reason": "x"}), "outcome").startswith("Rule 9.1 A")
    assert as_(w.home_manager).post(decision, {"outcome": "uphold", "reason": "Mine."}).status_code == 403
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.UNDER_REVIEW and protest.fee_outcome == ""
    assert ProtestTransition.objects.filter(protest=protest).count() == transitions
    done = committee.post(decision, {"outcome": "reject", "reason": "The whistle came after the goal."})
    assert done.status_code == 200
    data = done.json()
    assert (data["status"], data["fee_outcome"], data["decision_reason"]) == (
        "rejected",
        "forfeited",
        "The whistle came after the goal.",
    )
    assert data["transitions"][-1]["by"] == w.committee.username
    assert {d["kind"]: d["status"] for d in data["deadlines"]} == {"protest": "met", "answer": "cancelled"}


def test_the_opposing_team_answers_and_the_protesting_team_withdraws(w):
    protest = filed(w)
    assert as_(w.home_manager).post(url(protest, "answer"), {"answer": "Ours."}).status_code == 403
    assert "Rule 9.1 A" in message(as_(w.away_manager).post(url(protest, "answer"), {"answer": ""}), "answer")
    answered = as_(w.away_manager).post(url(protest, "answer"), {"answer": "The goal stands."}, format="multipart")
    assert answered.status_code == 200
    assert (answered.json()["answer"], answered.json()["answered_by"]) == ("The goal stands.", w.away_manager.username)
    assert as_(w.away_manager).post(url(protest, "withdraw"), {}).status_code == 403
    assert as_(w.committee).post(url(protest, "withdraw"), {}).status_code == 403
    withdrawn = as_(w.home_manager).post(url(protest, "withdraw"), {"reason": "Settled."})
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert withdrawn.json()["transitions"][-1]["reason"] == "Settled."
    assert "withdrawn" in message(as_(w.home_manager).post(url(protest, "withdraw"), {}), "status")


# --- reading: the list and a protest ---------------------------------------------------------------------------


def test_the_list_is_filtered_and_its_queries_do_not_grow_with_the_rows(w, django_assert_num_queries):
    now = timezone.now()
    stored_protest(w.game, w.game.home, w.home_manager, at=now, attachment=jpeg_upload())
    committee = as_(w.committee)
    with CaptureQueriesContext(connection) as one:
        assert committee.get(PROTESTS).json()["count"] == 1
    for _ in range(4):
        stored_protest(w.game, w.game.away, w.away_manager, at=now, kind="federation")
    with django_assert_num_queries(len(one.captured_queries)):
        assert committee.get(PROTESTS).json()["count"] == 5
    assert committee.get(PROTESTS, {"kind": "federation"}).json()["count"] == 4
    assert committee.get(PROTESTS, {"status": "filed", "game": w.game.pk}).json()["count"] == 5
    assert committee.get(PROTESTS, {"championship": w.game.championship_id + 1}).json()["count"] == 0
    assert "status" in committee.get(PROTESTS, {"status": "pending"}).json()
    # A manager reads the protests of his team's games, filed by or against it; staff those they keep fees of.
    assert as_(w.home_manager).get(PROTESTS).json()["count"] == 5
    assert as_(manager_of(GameFactory().home)).get(PROTESTS).json()["count"] == 0
    assert as_(federation_staff(FederationFactory())).get(PROTESTS).json()["count"] == 0
    for user in (with_role(Role.GAME_OFFICIAL), with_role(Role.TEAM_MANAGER), None):
        assert as_(user).get(PROTESTS).status_code == 403


def test_a_protest_is_read_by_its_teams_staff_and_the_committee_and_is_no_such_protest_to_others(w):
    protest = stored_protest(w.game, w.game.home, w.home_manager, at=timezone.now())
    for user in (w.home_manager, w.away_manager, w.committee, w.staff):
        assert as_(user).get(url(protest)).status_code == 200
    for user in (with_role(Role.GAME_OFFICIAL), federation_staff(FederationFactory()), manager_of(GameFactory().home)):
        assert as_(user).get(url(protest)).status_code == 404
    assert as_(None).get(url(protest)).status_code == 403
    assert as_(w.committee).get(f"{PROTESTS}999999/").status_code == 404
    # Ids the database cannot hold: no such protest (404) or a filter naming itself (400), never a 500.
    too_big = "99999999999999999999"
    assert as_(w.committee).get(f"{PROTESTS}{too_big}/").status_code == 404
    assert as_(w.committee).post(f"{PROTESTS}{too_big}/review/", {}).status_code == 404
    for name in ("game", "championship"):
        assert name in as_(w.committee).get(PROTESTS, {name: too_big}).json()
    assert "game" in file(w, game=too_big).json()


def test_the_schema_documents_every_protest_operation_with_its_refusals_and_closed_bodies():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths[PROTESTS]) and "get" in paths["/api/v1/games/{game_id}/protest-incidents/"]
    for step in ("statement", "fee", "review", "decision", "withdraw", "answer"):
        responses = paths[f"{PROTESTS}{{id}}/{step}/"]["post"]["responses"]
        assert {"200", "400", "403", "404"} <= set(responses), step
    assert {"status", "kind", "championship", "game", "page"} <= {
        p["name"] for p in paths[PROTESTS]["get"]["parameters"]
    }
    fee = schema["components"]["schemas"]["ProtestFeeInputRequest"]
    assert fee["additionalProperties"] is False and "received_at" in fee["properties"]
