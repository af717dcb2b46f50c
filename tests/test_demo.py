"""The demo world (``python manage.py demo``): what it builds, that it proves the rules, and that it is repeatable.

Most tests read one world built once for their class (in a transaction rolled
back at the end); the tests of refusal, reset and determinism build their own.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management.base import CommandError
from django.utils import timezone
from djmoney.money import Money

from accounts.models import Role, RoleAssignment, User
from demo import data
from demo.world import world_digest
from federation.eligibility import NO_PASSPORT, PASSPORT_EXPIRED, TOO_YOUNG, WRONG_GENDER, WRONG_NATIONALITY
from federation.models import (
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    FederationLevel,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)
from reports.models import Document
from tests.demo_world import FAST_HASHERS, built_demo, private_storages, run_demo
from tests.factories import UserFactory
from tournaments import services as tournament_services
from tournaments.models import Championship, DecidedIn, Game, GameStatus, GoalRecord, Position, TeamEntry
from tournaments.selectors import roster_with_eligibility, standings_for_pool

# `make test` runs the unit suite on PostgreSQL and the tests marked `sqlite` again on SQLite, the embedded default
# of `make run`: the demo world is what a new user loads on it.
pytestmark = pytest.mark.sqlite

BASE_DIR = Path(settings.BASE_DIR)
# A fixed moment to build the world around: the same moment always builds the same world (demo.timeline).
NOW = "2027-07-04T15:20:00+02:00"


@pytest.fixture(scope="class")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Build the demo once for a class of read-only tests; everything is rolled back afterwards."""
    with built_demo(django_db_blocker, tmp_path_factory.mktemp("demo-world")) as built:
        yield built


@pytest.fixture
def fresh(monkeypatch, settings, tmp_path):
    """For the tests that build their own world: private files in a temporary folder, fast hashing."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    private_storages(monkeypatch, tmp_path / "private")
    return tmp_path


class TestTheDemoWorld:
    """Read-only tests of one world, built once for the class."""

    # --- the federations

    @pytest.mark.django_db
    def test_it_builds_firs_continental_bodies_and_ten_or_more_national_federations(self, world):
        firs = Federation.objects.get(short_name="FIRS")
        assert firs.level == FederationLevel.INTERNATIONAL
        continental = Federation.objects.filter(level=FederationLevel.CONTINENTAL)
        assert continental.count() >= 1
        assert all(body.parent_id == firs.pk for body in continental)
        national = Federation.objects.filter(level=FederationLevel.NATIONAL)
        assert national.count() >= 10
        assert all(f.country and f.parent.level == FederationLevel.CONTINENTAL for f in national)
        assert len({f.country.code for f in national}) == national.count()

    @pytest.mark.django_db
    def test_every_national_federation_has_a_staff_login(self, world):
        for federation in Federation.objects.filter(level=FederationLevel.NATIONAL):
            staff = RoleAssignment.objects.filter(role=Role.FEDERATION_STAFF, federation=federation)
            assert staff.exists(), federation
            assert staff.first().user.is_staff

    @pytest.mark.django_db
    def test_everyone_has_a_passport(self, world):
        assert not Person.objects.filter(passports__isnull=True).exists()

    # --- the championship

    @pytest.mark.django_db
    def test_the_championship_is_senior_men_world_level_started_yesterday_with_conforming_rinks(self, world):
        championship = Championship.objects.select_related("venue", "sanctioning_body").get()
        assert championship.category == "senior_men"
        assert championship.level == "world"
        # Built around today (demo.timeline): its first day was yesterday on the venue's clock.
        today = timezone.now().astimezone(championship.venue.zone).date()
        assert championship.start_date == today - datetime.timedelta(days=1)
        assert championship.name == f"{championship.start_date.year} {data.CHAMPIONSHIP_NAME_END}"
        assert championship.entry_closing_date < championship.start_date
        assert championship.entry_fee == Money("200.00", "USD")
        assert championship.sanctioning_body.short_name == "FIRS"
        assert championship.venue.time_zone == "Europe/Rome"
        rinks = list(championship.venue.rinks.all())
        assert len(rinks) >= 1
        # 2.1 C: every rink meets the world level (the service's own check).
        assert all(tournament_services.rink_violations(rink, level=championship.level) == () for rink in rinks)

    @pytest.mark.django_db
    def test_eight_entries_with_fee_paid_and_full_rosters(self, world):
        entries = list(TeamEntry.objects.select_related("federation").prefetch_related("roster", "officials"))
        assert len(entries) == 8
        for entry in entries:
            assert entry.fee_paid and entry.status == "confirmed"
            assert entry.fee_paid_amount == Money("200.00", "USD")
            roster = list(entry.roster.all())
            positions = Counter(line.position for line in roster)
            # 3.1.1 A / R-04: 14 floor players and 2 goalkeepers.
            assert len(roster) == 16
            assert positions == {Position.PLAYER: 14, Position.GOALKEEPER: 2}
            # 3.2.9 C-D: unique numbers 1-99 without a leading zero.
            numbers = [line.number for line in roster]
            assert len(set(numbers)) == 16
            assert all(re.fullmatch(r"[1-9][0-9]?", n) for n in numbers)
            # 3.1.2 A-C / R-06: one captain, at most three alternates, never a goalkeeper.
            assert sum(line.captain for line in roster) == 1
            assert sum(line.alternate for line in roster) <= 3
            assert not any((line.captain or line.alternate) for line in roster if line.position == Position.GOALKEEPER)
            assert entry.officials.count() >= 2

    @pytest.mark.django_db
    def test_ineligible_players_stay_unconfirmed_with_reasons_citing_articles(self, world):
        reasons_found = set()
        for entry in TeamEntry.objects.select_related("championship__venue", "federation"):
            for line, result in roster_with_eligibility(entry):
                if line.confirmed:
                    assert result.eligible, (entry, line, result.reasons)
                else:
                    # The service refused to confirm them (1.1 B-G): each reason cites its article.
                    assert not result.eligible
                    assert all(reason.message.startswith("Rule 1.1 ") for reason in result.reasons)
                    reasons_found |= result.codes
        assert {TOO_YOUNG, WRONG_GENDER, PASSPORT_EXPIRED, WRONG_NATIONALITY, NO_PASSPORT} <= reasons_found

    @pytest.mark.django_db
    def test_the_player_with_an_ihtc_waiver_is_eligible_and_confirmed(self, world):
        waiver = EligibilityWaiver.objects.select_related("person", "approved_by").get()
        assert waiver.reason.strip()
        assert RoleAssignment.objects.filter(user=waiver.approved_by, role=Role.IHTC_EXECUTIVE).exists()
        line = waiver.person.roster_entries.select_related("entry").get()
        assert line.confirmed
        result = {ln.pk: r for ln, r in roster_with_eligibility(line.entry)}[line.pk]
        assert result.eligible
        assert [reason.code for reason, _ in result.waived] == [WRONG_NATIONALITY]

    @pytest.mark.django_db
    def test_the_output_shows_what_the_rules_refused(self, world):
        output = world["output"]
        assert "Rule 1.1 A" in output and "not in good standing" in output
        assert "Rule 1.1 F / R-01" in output
        assert "Rule 1.1 F / R-02" in output
        assert "Rule 1.1 B / R-03" in output

    @pytest.mark.django_db
    def test_a_schedule_with_results_a_forfeit_and_standings(self, world):
        championship = Championship.objects.get()
        assert championship.pools.count() == 2
        assert all(pool.members.count() == 4 for pool in championship.pools.all())
        # A round robin of 2 pools of 4: 12 games, some of them final.
        round_robin = Game.objects.filter(pool__isnull=False)
        assert round_robin.count() == 12
        final = Game.objects.filter(status=GameStatus.FINAL)
        assert 0 < final.count() < 12
        assert set(final) <= set(round_robin)
        # 1.3 B: quarter-finals to the final and the placement games, each with a time and a rink.
        elimination = Game.objects.exclude(bracket_slot="")
        assert {"QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "P3"} <= {g.bracket_slot for g in elimination}
        assert not elimination.filter(start_at__isnull=True).exists()
        assert not elimination.filter(rink__isnull=True).exists()
        # 8.1 B: the forfeit is 1-0, its only goal the winner's captain's, no assist, no goalkeeper line.
        forfeit = final.get(decided_in=DecidedIn.FORFEIT)
        assert sorted([forfeit.home_goals, forfeit.away_goals]) == [0, 1]
        goal = GoalRecord.objects.get(game=forfeit)
        assert goal.forfeit_award and goal.assist_id is None
        assert goal.scorer.roster_entries.get(entry=goal.entry).captain
        assert not forfeit.goalkeeper_records.exists()
        for game in final.exclude(pk=forfeit.pk):
            assert game.goals.filter(entry=game.home).count() == game.home_goals
            assert game.goals.filter(entry=game.away).count() == game.away_goals
        for pool in championship.pools.all():
            assert any(row.played > 0 for row in standings_for_pool(pool).rows)

    @pytest.mark.django_db
    def test_two_administrative_protests_one_under_review_one_rejected_with_every_deadline_met(self, world):
        from discipline import protests
        from discipline.models import Deadline, DeadlineStatus, Protest

        rows = list(Protest.objects.order_by("filed_at").prefetch_related("deadlines", "transitions"))
        assert [(p.kind, p.status, p.fee_outcome) for p in rows] == [
            ("administrative", "under_review", ""),
            ("administrative", "rejected", "forfeited"),  # 9.1 A, R-52: an unjustified protest forfeits its fee
            ("administrative", "filed", ""),  # today's, on the game that ended an hour ago: its fee still due
        ]
        today = rows.pop()
        assert today.protest_mark.made_at < today.game.start_at
        written = today.deadlines.get(kind="protest")
        assert written.status == DeadlineStatus.OPEN and written.due_at > today.filed_at
        for protest in rows:
            assert protest.protest_mark.made_at < protest.game.start_at  # 9.1 B: made before the start
            assert protest.fee_received == protest.fee_due and protest.statement
            assert protest.entry.managers.filter(pk=protest.filed_by_id).exists()
            written = protest.deadlines.get(kind="protest")
            assert written.status == DeadlineStatus.MET and protest.filed_at < written.due_at
        # Nothing for beat's sweep to lapse, whatever today's date: only the opponents' answer time passes.
        due = protests.due_deadline_ids(now=rows[-1].decided_at + datetime.timedelta(days=365))
        assert {d.kind for d in Deadline.objects.filter(pk__in=due, protest__in=rows)} == {"answer"}

    def test_a_live_game_with_its_crew_line_ups_and_first_period_entered(self, world, client):
        from games.models import ConsoleSignIn, GameOfficial, GameSheet, Lineup, SheetStatus
        from games.sheet import sheet_state

        sheet = GameSheet.objects.select_related("game__home", "game__away").get(status=SheetStatus.OPEN)
        game = sheet.game
        assert game.status != GameStatus.FINAL
        # 4.2 C: the first referee listed is the lead; R-08: neither referee belongs to either team's federation.
        referees = GameOfficial.objects.filter(game=game, duty="referee").order_by("position")
        assert [r.person.last_name for r in referees] == [last for _, _, last in data.LIVE_GAME_REFEREES]
        assert not {r.person.federation_id for r in referees} & {game.home.federation_id, game.away.federation_id}
        # 4.1 B: one person keeps the time, the penalties and the score, signed in on one console device.
        table = GameOfficial.objects.filter(game=game).exclude(duty="referee")
        assert {o.duty for o in table} == {"timekeeper", "penalty_timekeeper", "scorer"}
        assert {o.person.official_account.user.username for o in table} == {"scorer"}
        assert ConsoleSignIn.objects.filter(game=game, ended_at__isnull=True).count() == 3
        # both line-ups, at most 14 + 2, a captain each, a starting line-up of 4 and a goalkeeper (5.3 A).
        for lineup in Lineup.objects.filter(game=game):
            assert lineup.players.count() <= 16 and lineup.players.filter(captain=True).count() == 1
            assert lineup.players.filter(starting=True).count() == 5
        state = sheet_state(game)
        assert state.sequence == len(data.LIVE_GAME_ENTRIES)
        assert state.state["score"] == {"home": 1, "away": 0}
        assert [b["status"] for b in state.state["box"]["away"]] == ["running"]
        assert state.clock["running"] is False
        client.force_login(User.objects.get(username="scorer"))
        assert f"Game #{game.number}: {game.home.name} – {game.away.name}" in client.get("/games/my/").content.decode()

    @pytest.mark.django_db
    def test_a_first_day_game_played_on_the_sheet_to_its_end_signed_and_final(self, world):
        from games.finalize import derive_summary
        from games.models import ConsoleSignIn, GameReportRequest, GameSheet, SheetSignature, SheetStatus

        sheet = GameSheet.objects.select_related("game__home", "game__away", "game__championship__venue").get(
            status=SheetStatus.FINAL
        )
        game = sheet.game
        assert game.status == GameStatus.FINAL and game.pool_id is not None
        first_day = game.championship.start_date  # yesterday
        assert game.start_at.astimezone(game.championship.venue.zone).date() == first_day
        # The sheet gave the result and the summary (games.finalize): the goals add up to the score.
        summary = derive_summary(sheet)
        assert (game.home_goals, game.away_goals) == (summary.home_goals, summary.away_goals) == (3, 2)
        assert game.goals.filter(entry=game.home).count() == 3 and game.goals.filter(entry=game.away).count() == 2
        assert game.penalties.count() == 2 and game.goalkeeper_records.count() == 2
        # 4.2 O, 4.3 A: both referees, the official scorer and both captains signed the last version of the log.
        signatures = SheetSignature.objects.filter(sheet=sheet)
        assert sorted(signatures.values_list("role", flat=True)) == sorted(
            ["referee", "referee", "scorer", "home_captain", "away_captain"]
        )
        assert set(signatures.values_list("sequence", flat=True)) == {sheet.sequence}
        assert all(game.start_at < s.signed_at < game.start_at + datetime.timedelta(hours=3) for s in signatures)
        assert GameReportRequest.objects.filter(game=game, sequence=sheet.sequence).exists()
        assert not ConsoleSignIn.objects.filter(game=game, ended_at__isnull=True).exists()

    @pytest.mark.django_db
    def test_passport_scans_are_stored_privately(self, world):
        scanned = list(Passport.objects.exclude(scan=""))
        assert len(scanned) >= 2
        assert {p.scan_content_type for p in scanned} <= {"image/png", "application/pdf"}
        private = world["private"]
        for passport in scanned:
            assert (private / passport.scan.name).is_file()
            assert not passport.scan.name.endswith((".png", ".pdf"))

    @pytest.mark.django_db
    def test_equipment_models_inspections_and_device_requests(self, world):
        approved = EquipmentModel.objects.filter(approved=True)
        assert {m.kind for m in approved} == {"helmet", "face_protection", "goalkeeper_mask"}
        # 3.2.6 A: every approved model carries HECC, CSA or CE.
        assert all(set(m.certifications) & {"HECC", "CSA", "CE"} for m in approved)
        sticks = EquipmentInspection.objects.filter(kind="player_stick")
        assert sticks.filter(compliant=True).exists()
        failed = sticks.get(compliant=False)
        assert failed.violations and all(v["article"] == "3.2.2 C" for v in failed.violations)
        statuses = Counter(ProtectiveDeviceRequest.objects.values_list("status", flat=True))
        assert statuses[DeviceRequestStatus.APPROVED] == 1
        assert statuses[DeviceRequestStatus.SUBMITTED] >= 1

    # --- the logins

    @staticmethod
    def _logins(world) -> list[str]:
        text = world["logins_file"].read_text(encoding="utf-8")
        return re.findall(r"^([a-z][a-z.]+)\s{2,}", text.split("------", 1)[1], flags=re.MULTILINE)

    @pytest.mark.django_db
    def test_the_logins_table_names_the_url_the_password_and_every_login(self, world):
        text = world["logins_file"].read_text(encoding="utf-8")
        assert data.DEMO_URL in text and data.DEMO_PASSWORD in text
        assert set(self._logins(world)) == set(User.objects.values_list("username", flat=True))
        assert text in world["output"]

    @pytest.mark.django_db
    def test_every_demo_login_can_log_in_with_the_demo_password(self, world, client):
        logins = self._logins(world)
        expected = {
            "admin",
            "ihtc.exec",
            "firs.staff",
            "ita.staff",
            "ita.manager",
            "usa.manager",
            "referee",
            "discipline",
        }
        assert expected <= set(logins)
        for username in logins:
            response = client.post("/accounts/login/", {"username": username, "password": data.DEMO_PASSWORD})
            assert response.status_code == 302, username
            assert client.session["_auth_user_id"] == str(User.objects.get(username=username).pk)
            client.logout()

    @pytest.mark.django_db
    def test_the_logins_hold_their_roles(self, world):
        assert User.objects.get(username="admin").is_superuser
        roles = {(a.user.username, a.role) for a in RoleAssignment.objects.select_related("user")}
        assert ("ihtc.exec", Role.IHTC_EXECUTIVE) in roles
        assert ("referee", Role.GAME_OFFICIAL) in roles
        assert ("discipline", Role.DISCIPLINE_COMMITTEE) in roles
        for manager, team in (("ita.manager", "Italy"), ("usa.manager", "USA")):
            assert (manager, Role.TEAM_MANAGER) in roles
            assert TeamEntry.objects.get(name=team).managers.filter(username=manager).exists()

    @pytest.mark.django_db
    def test_a_national_staff_login_sees_its_players_eligibility_reasons_and_not_other_federations(self, world, client):
        expired = Person.objects.get(last_name="Albrecht")
        start = Championship.objects.get().start_date
        client.post("/accounts/login/", {"username": "ger.staff", "password": data.DEMO_PASSWORD})
        page = client.get(f"/federation/people/{expired.pk}/?year={start.year}")
        assert page.status_code == 200
        # The passport expires on the championship's fourth day (demo.data, moved with the championship).
        assert "1.1 B" in page.text and (start + datetime.timedelta(days=3)).isoformat() in page.text
        other = Person.objects.get(last_name="Brabec")
        assert client.get(f"/federation/people/{other.pk}/").status_code == 404


# --- repeatable -----------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_refuses_to_build_over_existing_data_and_changes_nothing(fresh):
    UserFactory(username="someone")
    with pytest.raises(CommandError, match="not the demo world.*--reset"):
        run_demo(logins_file=fresh / "logins.txt")
    assert list(User.objects.values_list("username", flat=True)) == ["someone"]
    assert not Federation.objects.exists()


@pytest.mark.django_db
def test_running_it_twice_builds_nothing_the_second_time_and_reset_rebuilds_the_same_world(
    fresh, django_capture_on_commit_callbacks
):
    run_demo("--now", NOW, logins_file=fresh / "logins.txt")
    digest = world_digest()
    counts = (User.objects.count(), Person.objects.count(), Game.objects.count())
    (fresh / "logins.txt").unlink()

    # On the demo world: nothing built or changed, the logins printed (and written) again.
    output = run_demo("--now", NOW, logins_file=fresh / "logins.txt")
    assert "already in this database" in output
    assert data.DEMO_PASSWORD in output and "ita.manager" in output
    assert (fresh / "logins.txt").read_text(encoding="utf-8") in output
    assert world_digest() == digest
    assert (User.objects.count(), Person.objects.count(), Game.objects.count()) == counts

    with django_capture_on_commit_callbacks(execute=True):
        output = run_demo("--reset", "--now", NOW, logins_file=fresh / "logins.txt")
    assert world_digest() == digest
    assert f"World digest: {digest}" in output
    assert (User.objects.count(), Person.objects.count(), Game.objects.count()) == counts
    # The first world's scans, prescriptions and game reports are gone: one file per stored document (the new
    # world's final games have their official game report rendered, reports.services).
    stored = [p for p in (fresh / "private").rglob("*") if p.is_file()]
    documents = Passport.objects.exclude(scan="").count() + ProtectiveDeviceRequest.objects.count()
    reports = Document.objects.exclude(file="").count()
    assert reports == Game.objects.filter(status=GameStatus.FINAL).count()
    assert len(stored) == documents + reports

    # The next day, the world of yesterday is built again around the new today (make run every morning).
    with django_capture_on_commit_callbacks(execute=True):
        output = run_demo("--now", "2027-07-05T09:00:00+02:00", logins_file=fresh / "logins.txt")
    assert "happened on another day" in output and "Demo world built." in output
    assert Championship.objects.get().start_date == datetime.date(2027, 7, 4)


@pytest.mark.django_db
def test_two_fresh_databases_get_the_same_world(fresh):
    """Deterministic: a run in another process, on a new SQLite database, gives the same digest."""
    run_demo("--now", NOW, logins_file=fresh / "logins.txt")
    digest = world_digest()
    env = {**os.environ, "PORTAL_DATA_DIR": str(fresh / "other"), "PYTHONHASHSEED": "random"}
    # The embedded default: a new SQLite file in PORTAL_DATA_DIR, no server.
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], cwd=BASE_DIR, env=env, check=True, capture_output=True)
    result = subprocess.run(
        [*manage, "demo", "--now", NOW], cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True
    )
    assert f"World digest: {digest}" in result.stdout
