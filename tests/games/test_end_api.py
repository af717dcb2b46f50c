"""The end of the game through the API and the pages: sign-off, amendment, rescue import, the sheet's log."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.finalize import signers
from games.models import GameSheet, SheetAmendment, SheetEvent, SheetSignature, SheetStatus
from tests.factories import TEST_PIN, client_for, international_staff
from tournaments.models import GameStatus

from .endgame_helpers import console, played_yesterday, post_log, sign_all, whole_game
from .sheet_helpers import entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def crew(director):
    return played_yesterday(director)


def url(game, what):
    return f"/api/games/{game.pk}/sheet/{what}/"


def page(game, what):
    return f"/games/{game.pk}/sheet/{what}/"


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- signatures ---------------------------------------------------------------------------------------------------


def test_signing_through_the_api_makes_the_sheet_final(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    client = client_for(scorer)
    console(game, scorer, "ipad")
    state = client.get(url(game, "signatures")).json()
    assert state["status"] == "open" and not state["complete"] and not state["problems"]
    wanted = [s for s in state["signers"] if not s["role"].endswith("_coach")]
    answers = [
        client.post(
            url(game, "signatures"),
            {"role": s["role"], "person": s["person"], "device": "ipad", "pin": TEST_PIN},
            format="json",
        )
        for s in wanted
    ]
    assert [a.status_code for a in answers] == [201] * len(wanted), answers[-1].content
    assert [a.json()["final"] for a in answers] == [False] * (len(wanted) - 1) + [True]
    last = answers[-1].json()
    assert last["status"] == "final" and last["complete"] and not last["missing"]
    game.refresh_from_db()
    assert game.status == GameStatus.FINAL and (game.home_goals, game.away_goals) == (2, 1)


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"role": "umpire", "person": 1, "device": "ipad"}, "role", None),
        ({"role": "referee", "device": "ipad"}, "person", None),
        ({"role": "referee", "person": 0, "device": "ipad"}, "person", "4.2 O"),
        ({"role": "home_captain", "person": "stranger", "device": "ipad"}, "person", "4.2 O"),
        ({"role": "referee", "person": "referee"}, "device", None),
    ],
)
def test_a_bad_signature_is_a_400_naming_the_field_and_nothing_is_stored(crew, body, field, rule):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    people = {"referee": next(s.person.pk for s in signers(game) if s.role == "referee")}
    from tests.factories import PersonFactory

    people["stranger"] = PersonFactory().pk
    body = {k: people.get(v, v) if k == "person" else v for k, v in body.items()}
    console(game, scorer, "ipad")
    answer = client_for(scorer).post(url(game, "signatures"), body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()
    if rule:
        assert rule in json.dumps(answer.json())
    assert not SheetSignature.objects.exists()


def test_the_sign_page_takes_a_signature_with_large_buttons(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    console(game, scorer, "ipad-2")
    client = browser(scorer)
    shown = client.get(page(game, "sign") + "?device=ipad-2")
    assert shown.status_code == 200
    html = shown.content.decode()
    assert 'class="sign-button"' in html and "Rule 4.2 O" in html and 'value="ipad-2"' in html
    referee = next(s for s in signers(game) if s.role == "referee")
    assert 'name="pin"' in html and 'inputmode="numeric"' in html  # the signer types their own PIN
    form = {"role": "referee", "person": referee.person.pk, "device": "ipad-2", "name": "J. Ref", "pin": TEST_PIN}
    signed = client.post(page(game, "sign"), form)
    assert signed.status_code == 302
    signature = SheetSignature.objects.get()
    assert (signature.name, signature.device, signature.recorded_by) == ("J. Ref", "ipad-2", scorer)
    assert (signature.signer, signature.method) == (referee.login, "pin")
    refused = client.post(page(game, "sign"), form)
    assert refused.status_code == 400 and "already" in refused.content.decode()


# --- amendment --------------------------------------------------------------------------------------------------


def test_an_amendment_through_the_api_is_for_directors_and_audited(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    body = {"reason": "The first goal was scored by 7", "events": [entry("correction", voids=events[1]["id"])]}
    body["events"].append(entry("goal", period=1, time="5:00", team="home", player=7, assist=9))
    body["events"].append(entry("clock_start", period=1, time="5:00"))
    assert client_for(scorer).post(url(game, "amendments"), body, format="json").status_code == 403
    answer = client_for(director).post(url(game, "amendments"), body, format="json")
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["reason"] == body["reason"] and data["result_amendment"] is not None
    assert len(data["event_ids"]) == 3 and data["before"]["goals"][0]["scorer"] == 8
    assert data["after"]["goals"][0]["scorer"] == 7
    listed = client_for(scorer).get(url(game, "amendments"))
    assert listed.status_code == 200 and [a["id"] for a in listed.json()] == [data["id"]]


def test_an_amendment_the_engine_refuses_is_a_400_naming_rule_and_event(crew, director):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    sign_all(game, scorer)
    stored = SheetEvent.objects.count()
    bad = entry("timeout", period=2, time="19:00", team="home")
    answer = client_for(director).post(
        url(game, "amendments"), {"reason": "A time-out", "events": [bad]}, format="json"
    )
    assert answer.status_code == 400
    refused = answer.json()["refused"]
    assert refused["event_id"] == bad["id"] and refused["rule"]
    assert SheetEvent.objects.count() == stored and not SheetAmendment.objects.exists()


def test_the_amend_page_voids_ticked_entries_with_a_reason(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    client = browser(director)
    assert client.get(page(game, "amend")).status_code == 200
    missing_reason = client.post(page(game, "amend"), {"void": [events[1]["id"]], "reason": ""})
    assert missing_reason.status_code == 400 and "reason" in missing_reason.content.decode()
    done = client.post(page(game, "amend"), {"void": [events[1]["id"]], "reason": "No goal: offside pass"})
    assert done.status_code == 302, done.content.decode()[-3000:]
    game.refresh_from_db()
    assert (game.home_goals, game.away_goals) == (1, 1)
    assert browser(scorer).get(page(game, "amend")).status_code == 403


# --- rescue import ------------------------------------------------------------------------------------------------


def rescue_file(events, device="ipad-lost") -> dict:
    return {"device": device, "events": events}


def test_a_rescue_file_is_stored_once_and_a_second_import_finds_every_entry_there(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events[:6])  # what reached the server before the Wi-Fi went
    client = client_for(director)
    first = client.post(url(game, "rescue"), rescue_file(events), format="json")
    assert first.status_code == 200, first.content
    assert (first.json()["stored"], first.json()["already_there"]) == (len(events) - 6, 6)
    again = client.post(url(game, "rescue"), rescue_file(events), format="json")
    assert (again.json()["stored"], again.json()["already_there"]) == (0, len(events))
    assert SheetEvent.objects.filter(sheet__game=game).count() == len(events)
    imported = SheetEvent.objects.filter(sheet__game=game, sequence__gt=6)
    assert {e.entered_by for e in imported} == {director} and {e.device for e in imported} == {"ipad-lost"}


def test_the_consoles_rescue_export_is_imported_as_it_is_downloaded(crew, director):
    """The console's file (games/static/games/console.js rescueExport) also names the game, when it was made and
    the device's log with each entry's fate: read by people, the import takes its ``events``."""
    game, scorer = crew
    events = whole_game()[:5]
    exported = {
        **rescue_file(events),
        "game": game.pk,
        "exported_at": "2027-07-04T10:12:00.000Z",
        "log": [{**e, "status": "waiting", "sequence": None, "refused": None} for e in events],
    }
    answer = client_for(director).post(url(game, "rescue"), exported, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["stored"] == 5
    assert SheetEvent.objects.filter(sheet__game=game).count() == 5


def test_a_rescue_file_the_engine_refuses_is_refused_whole(crew, director):
    game, scorer = crew
    events = whole_game()[:3]
    events.append(entry("timeout", period=1, time="6:00", team="home"))  # 5.5.2 A: play runs
    answer = client_for(director).post(url(game, "rescue"), rescue_file(events), format="json")
    assert answer.status_code == 400
    assert answer.json()["refused"]["event_id"] == events[-1]["id"]
    assert not SheetEvent.objects.exists()


def test_only_directing_staff_import_rescue_files(crew):
    game, scorer = crew
    answer = client_for(scorer).post(url(game, "rescue"), rescue_file(whole_game()), format="json")
    assert answer.status_code == 403 and not SheetEvent.objects.exists()


def test_the_rescue_page_says_how_many_were_stored_and_how_many_were_there(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events[:2])
    client = browser(director)
    upload = SimpleUploadedFile("rescue.json", json.dumps(rescue_file(events)).encode(), "application/json")
    answer = client.post(page(game, "rescue"), {"file": upload})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f"<strong>{len(events) - 2}</strong> entries stored" in html and "<strong>2</strong> already there" in html
    broken = SimpleUploadedFile("rescue.json", b"{not json", "application/json")
    refused = client.post(page(game, "rescue"), {"file": broken})
    assert refused.status_code == 400 and "R-10" in refused.content.decode()
    not_a_batch = SimpleUploadedFile("rescue.json", json.dumps({"events": []}).encode(), "application/json")
    assert client.post(page(game, "rescue"), {"file": not_a_batch}).status_code == 400
    assert SheetEvent.objects.filter(sheet__game=game).count() == len(events)


def test_a_rescue_file_of_a_final_sheet_is_acknowledged_but_adds_nothing(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    answer = client_for(director).post(url(game, "rescue"), rescue_file(events), format="json")
    assert answer.status_code == 200 and answer.json()["already_there"] == len(events)
    late = client_for(director).post(
        url(game, "rescue"), rescue_file([entry("shot", period=2, time="19:00", team="home")]), format="json"
    )
    assert late.status_code == 400 and "4.2 O" in json.dumps(late.json())
    assert GameSheet.objects.get(game=game).status == SheetStatus.FINAL


# --- the sheet's log page -----------------------------------------------------------------------------------------


def test_the_log_page_shows_who_entered_what_with_voided_entries_and_filters(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events[:8], device="ipad-a")
    post_log(game, scorer, [entry("correction", voids=events[7]["id"])], device="ipad-b")
    client = browser(scorer)
    html = client.get(page(game, "log")).content.decode()
    assert html.count('class="voided"') == 1 and "ipad-a" in html and "ipad-b" in html
    only_b = client.get(page(game, "log") + "?device=ipad-b").content.decode()
    assert "<td>Correction</td>" in only_b and "<td>Period started</td>" not in only_b
    goals = client.get(page(game, "log") + "?type=goal").content.decode()
    assert goals.count("<td>Goal</td>") == 2


def test_the_log_page_reads_in_a_constant_number_of_queries(crew, django_assert_max_num_queries):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events[:4])
    client = browser(scorer)
    client.get(page(game, "log"))
    with django_assert_max_num_queries(12) as small:
        client.get(page(game, "log"))
    post_log(game, scorer, events[4:])
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(page(game, "log")).status_code == 200


def test_the_log_page_is_the_officials_and_directors(crew, director):
    from tests.factories import federation_staff

    game, scorer = crew
    post_log(game, scorer, whole_game()[:2])
    assert browser(director).get(page(game, "log")).status_code == 200
    assert browser(federation_staff()).get(page(game, "log")).status_code == 403
    assert Client().get(page(game, "log")).status_code == 302


def test_a_referee_reads_the_log_he_signs_but_enters_nothing(crew):
    # 4.2 O: the referees check the report before they sign it; the sign page links to the log (site walk, issue 25).
    game, scorer = crew
    post_log(game, scorer, whole_game()[:2])
    referee = _signer(game, "referee").login
    response = browser(referee).get(page(game, "log"))
    assert response.status_code == 200 and len(response.context["rows"]) == 2
    assert browser(referee).get(page(game, "sign")).status_code == 200
    refused = client_for(referee).post(url(game, "events"), {"device": "ref", "events": []}, format="json")
    assert refused.status_code == 403
    assert SheetEvent.objects.filter(sheet__game=game).count() == 2


# --- each signer signs in person (issue 23) ----------------------------------------------------------------------


def _signer(game, role):
    return next(s for s in signers(game) if s.role == role)


def test_the_scorer_cannot_sign_for_a_referee_or_a_captain(crew):
    """Issue 23: one login recorded every signature with a free-text name. Now the scorer's login signs only as the
    scorer; a referee's or captain's signature needs that signer's own PIN or password (4.2 O, 4.3 A)."""
    game, scorer = crew
    post_log(game, scorer, whole_game())
    console(game, scorer, "ipad")
    client = client_for(scorer)
    scorer_person = _signer(game, "scorer").person
    for role in ("referee", "home_captain"):
        body = {"role": role, "person": _signer(game, role).person.pk, "device": "ipad", "name": "Anyone"}
        for secret, field in (
            ({}, "pin"),
            ({"pin": "999999"}, "pin"),
            ({"password": "not-theirs"}, "password"),  # pragma: allowlist secret
        ):
            answer = client.post(url(game, "signatures"), {**body, **secret}, format="json")
            assert answer.status_code == 400, answer.content
            assert "Rule 4.2 O / 4.3 A" in answer.json()[field][0]
    # The scorer's own person in a slot that is not theirs.
    answer = client.post(
        url(game, "signatures"), {"role": "home_captain", "person": scorer_person.pk, "device": "ipad"}, format="json"
    )
    assert answer.status_code == 400 and "Rule 4.2 O / 4.3 A" in answer.json()["person"][0]
    assert not SheetSignature.objects.exists()
    # As themselves, the scorer signs without a secret: the session proves it.
    answer = client.post(
        url(game, "signatures"), {"role": "scorer", "person": scorer_person.pk, "device": "ipad"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    signed = answer.json()["signed"][0]
    assert (signed["signer"], signed["method"], signed["recorded_by"]) == (scorer.username, "session", scorer.username)


def test_a_signature_keeps_who_signed_and_who_recorded_it(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    console(game, scorer, "ipad")
    referee, captain = _signer(game, "referee"), _signer(game, "home_captain")
    client = client_for(scorer)
    state = client.get(url(game, "signatures")).json()
    assert all(s["has_login"] and s["has_pin"] for s in state["signers"])
    from tests.factories import TEST_PASSWORD

    for signer, secret in ((referee, {"pin": TEST_PIN}), (captain, {"password": TEST_PASSWORD})):
        body = {"role": signer.role, "person": signer.person.pk, "device": "ipad", **secret}
        assert client.post(url(game, "signatures"), body, format="json").status_code == 201
    rows = {s.role: s for s in SheetSignature.objects.all()}
    assert (rows["referee"].signer, rows["referee"].method, rows["referee"].recorded_by) == (
        referee.login,
        "pin",
        scorer,
    )
    assert (rows["home_captain"].signer, rows["home_captain"].method) == (captain.login, "password")


def test_wrong_pins_lock_the_signers_pin_like_a_login(crew, settings):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    console(game, scorer, "ipad")
    referee = _signer(game, "referee")
    client = client_for(scorer)
    body = {"role": "referee", "person": referee.person.pk, "device": "ipad"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        answer = client.post(url(game, "signatures"), {**body, "pin": "135799"}, format="json")
        assert answer.status_code == 400 and "wrong PIN" in answer.json()["pin"][0]
    referee.login.refresh_from_db()
    assert referee.login.signing_locked_until is not None  # counted although every signature was refused
    locked = client.post(url(game, "signatures"), {**body, "pin": TEST_PIN}, format="json")
    assert locked.status_code == 400 and "locked" in locked.json()["pin"][0]
    assert not SheetSignature.objects.exists()


def test_a_captain_signs_from_their_own_device_as_themselves_only(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    captain, other = _signer(game, "home_captain"), _signer(game, "away_captain")
    client = client_for(captain.login)
    assert client.get(url(game, "signatures")).status_code == 200
    refused = client.post(
        url(game, "signatures"), {"role": other.role, "person": other.person.pk, "device": "phone"}, format="json"
    )
    assert refused.status_code == 400 and "only as yourself" in refused.json()["person"][0]
    answer = client.post(
        url(game, "signatures"), {"role": captain.role, "person": captain.person.pk, "device": "phone"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    signature = SheetSignature.objects.get()
    assert (signature.signer, signature.method, signature.recorded_by) == (captain.login, "session", captain.login)
    assert client_for(other.login).post(url(game, "amendments"), {}, format="json").status_code == 403


def test_a_signer_without_a_login_of_their_own_cannot_be_signed_for(crew):
    from games.models import OfficialAccount

    game, scorer = crew
    post_log(game, scorer, whole_game())
    console(game, scorer, "ipad")
    coach = _signer(game, "home_coach")
    OfficialAccount.objects.filter(person=coach.person).delete()
    body = {"role": "home_coach", "person": coach.person.pk, "device": "ipad", "pin": TEST_PIN}
    answer = client_for(scorer).post(url(game, "signatures"), body, format="json")
    assert answer.status_code == 400 and "no portal login" in answer.json()["person"][0]
    assert not SheetSignature.objects.exists()
