"""Entries (1.1 A), rosters (3.1.1, 3.1.2, 3.2.9; R-04..R-06) and the ruleset through the services."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from djmoney.money import Money

from accounts.models import Role, RoleAssignment
from tests.factories import (
    EligibilityWaiverFactory,
    FederationFactory,
    GameFactory,
    InternationalFederationFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
)
from tournaments import services
from tournaments.models import EntryStatus, NumberChangeApproval, Position, RosterEntry, TeamEntry

from .conftest import AFTER, BEFORE_CLOSING, BEFORE_START, DURING, eligible_person, full_roster

pytestmark = pytest.mark.django_db


def messages(exc: ValidationError, field: str) -> str:
    return " ".join(exc.value.message_dict[field])


# --- entries -----------------------------------------------------------------------------------------------------


def test_it_enters_an_affiliated_federation_before_the_closing_date(championship, director):
    federation = FederationFactory()
    entry = services.entry_create(championship=championship, federation=federation, by=director, now=BEFORE_CLOSING)
    assert entry.status == EntryStatus.ENTERED
    assert entry.fee_due == Money(500, "USD")
    assert not entry.fee_paid


@pytest.mark.parametrize(
    ("attrs", "text"),
    [
        ({"firs_affiliated": False}, "not affiliated with FIRS"),
        ({"good_standing": False}, "not in good standing"),
    ],
)
def test_it_refuses_an_entry_of_a_federation_not_affiliated_or_not_in_good_standing_1_1_a(
    championship, director, attrs, text
):
    federation = FederationFactory(**attrs)
    with pytest.raises(ValidationError) as exc:
        services.entry_create(championship=championship, federation=federation, by=director, now=BEFORE_CLOSING)
    assert "Rule 1.1 A" in messages(exc, "federation")
    assert text in messages(exc, "federation")
    assert not TeamEntry.objects.exists()


def test_it_refuses_an_entry_of_a_continental_body_1_1_a(championship, director):
    with pytest.raises(ValidationError) as exc:
        services.entry_create(
            championship=championship, federation=InternationalFederationFactory(), by=director, now=BEFORE_CLOSING
        )
    assert "Rule 1.1 A" in messages(exc, "federation")


def test_it_refuses_an_entry_on_or_after_the_closing_date_1_1_a(championship, director):
    # 1 May 2027 at 00:30 in Rome is still 30 April in UTC: the venue's calendar decides.
    on_closing_day = datetime.datetime(2027, 4, 30, 22, 30, tzinfo=datetime.UTC)
    with pytest.raises(ValidationError) as exc:
        services.entry_create(
            championship=championship, federation=FederationFactory(), by=director, now=on_closing_day
        )
    assert "Rule 1.1 A: entries closed on 2027-05-01" in messages(exc, "championship")
    last_minute = datetime.datetime(2027, 4, 30, 21, 30, tzinfo=datetime.UTC)
    services.entry_create(championship=championship, federation=FederationFactory(), by=director, now=last_minute)


def test_it_refuses_a_second_entry_of_the_same_federation(championship, director):
    federation = FederationFactory()
    services.entry_create(championship=championship, federation=federation, by=director, now=BEFORE_CLOSING)
    with pytest.raises(ValidationError):
        services.entry_create(championship=championship, federation=federation, by=director, now=BEFORE_CLOSING)
    assert TeamEntry.objects.count() == 1


def test_only_staff_of_the_federation_enter_its_team(championship):
    federation = FederationFactory()
    outsider = federation_staff()  # staff of another national federation
    with pytest.raises(PermissionDenied):
        services.entry_create(championship=championship, federation=federation, by=outsider, now=BEFORE_CLOSING)
    own_staff = federation_staff(federation)
    assert services.entry_create(championship=championship, federation=federation, by=own_staff, now=BEFORE_CLOSING)


def test_recording_the_fee_confirms_the_entry_and_a_short_payment_is_refused(championship, director):
    entry = services.entry_create(
        championship=championship, federation=FederationFactory(), by=director, now=BEFORE_CLOSING
    )
    with pytest.raises(ValidationError) as exc:
        services.entry_record_fee_paid(entry=entry, amount=Money(400, "USD"), by=director)
    assert "Rule 1.1 A" in messages(exc, "amount")
    with pytest.raises(ValidationError):
        services.entry_record_fee_paid(entry=entry, amount=Money(500, "EUR"), by=director)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ENTERED
    services.entry_record_fee_paid(entry=entry, amount=Money(500, "USD"), paid_at=BEFORE_CLOSING, by=director)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    assert entry.fee_paid and entry.fee_paid_at == BEFORE_CLOSING


def test_staff_of_the_federation_name_team_managers_who_get_the_role(entry):
    manager = UserFactory()
    with pytest.raises(PermissionDenied):
        services.entry_set_managers(entry=entry, managers=[manager], by=federation_staff())
    services.entry_set_managers(entry=entry, managers=[manager], by=federation_staff(entry.federation))
    assert list(entry.managers.all()) == [manager]
    assert RoleAssignment.objects.filter(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation).exists()


# --- rosters -----------------------------------------------------------------------------------------------------


def test_a_team_manager_adds_players_and_a_stranger_cannot(entry):
    manager = UserFactory()
    entry.managers.add(manager)
    person = eligible_person(entry.federation)
    line = services.roster_add_player(entry=entry, person=person, number="9", by=manager, now=BEFORE_START)
    assert line.pk and line.number == "9"
    with pytest.raises(PermissionDenied):
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="8", by=UserFactory(), now=BEFORE_START
        )


@pytest.mark.parametrize("number", ["07", "0", "100", "ab", ""])
def test_it_refuses_a_jersey_number_outside_1_99_or_with_a_leading_zero_3_2_9_c(entry, director, number):
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number=number, by=director, now=BEFORE_START
        )
    assert "Rule 3.2.9 C" in messages(exc, "number")
    assert not RosterEntry.objects.exists()


def test_it_refuses_a_number_already_worn_in_the_team_3_2_9_d(entry, director):
    services.roster_add_player(
        entry=entry, person=eligible_person(entry.federation), number="9", by=director, now=BEFORE_START
    )
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="9", by=director, now=BEFORE_START
        )
    assert "Rule 3.2.9 D" in messages(exc, "number")


def test_it_refuses_a_fifteenth_floor_player_r_04(entry, director):
    full_roster(entry, skaters=14, goalkeepers=2)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="77", by=director, now=BEFORE_START
        )
    assert "at most 14 floor players" in messages(exc, "roster")
    assert "Rule 3.1.1 A" in messages(exc, "roster")


def test_it_refuses_a_third_goalkeeper_r_04(entry, director):
    full_roster(entry, skaters=6, goalkeepers=2)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry,
            person=eligible_person(entry.federation),
            number="33",
            position=Position.GOALKEEPER,
            by=director,
            now=BEFORE_START,
        )
    assert "goalkeepers" in messages(exc, "roster")


def test_it_refuses_a_goalkeeper_as_captain_3_1_2_c(entry, director):
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry,
            person=eligible_person(entry.federation),
            number="1",
            position=Position.GOALKEEPER,
            captain=True,
            by=director,
            now=BEFORE_START,
        )
    assert "Rule 3.1.2 C" in messages(exc, "captain")


def test_it_refuses_a_fourth_alternate_captain_3_1_2_b(entry, director):
    for number in ("20", "21", "22"):
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number=number, alternate=True, by=director,
            now=BEFORE_START,
        )  # fmt: skip
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="23", alternate=True, by=director,
            now=BEFORE_START,
        )  # fmt: skip
    assert "Rule 3.1.2 B" in messages(exc, "alternate")


def test_roster_confirm_refuses_a_roster_below_the_minimum_r_04(entry, director):
    full_roster(entry, skaters=5, goalkeepers=2)
    with pytest.raises(ValidationError) as exc:
        services.roster_confirm(entry=entry, by=director, now=BEFORE_START)
    assert "at least 6 floor players" in messages(exc, "roster")
    assert not RosterEntry.objects.filter(confirmed=True).exists()


def test_roster_confirm_confirms_a_complete_eligible_roster(entry, director):
    full_roster(entry)
    services.roster_confirm(entry=entry, by=director, now=BEFORE_START)
    assert RosterEntry.objects.filter(entry=entry, confirmed=True).count() == 8


def test_roster_confirm_refuses_an_ineligible_player_with_the_eligibility_reason(entry, director):
    full_roster(entry)
    # Born 2014: 13 on 1 January 2027, too young for Seniors (1.1 F, R-01).
    youngster = eligible_person(entry.federation, date_of_birth=datetime.date(2014, 3, 1))
    RosterEntryFactory(entry=entry, person=youngster, number="55")
    with pytest.raises(ValidationError) as exc:
        services.roster_confirm(entry=entry, by=director, now=BEFORE_START)
    text = messages(exc, "roster")
    assert "#55" in text and "1.1 F" in text
    assert not RosterEntry.objects.filter(confirmed=True).exists()


def test_roster_confirm_accepts_an_ineligible_player_whom_the_ihtc_waived_r_03(entry, director):
    full_roster(entry)
    # No passport of the team's country (1.1 B), waived by the IHTC.
    person = PersonFactory(federation=entry.federation)
    RosterEntryFactory(entry=entry, person=person, number="55")
    with pytest.raises(ValidationError) as exc:
        services.roster_confirm(entry=entry, by=director, now=BEFORE_START)
    assert "1.1 B" in messages(exc, "roster")
    EligibilityWaiverFactory(person=person, code="no_passport")
    services.roster_confirm(entry=entry, by=director, now=BEFORE_START)
    assert RosterEntry.objects.get(person=person).confirmed


def test_players_can_be_added_before_the_first_game_and_not_after_it_r_05(entry, director):
    GameFactory(championship=entry.championship, home=entry)  # 1 July 2027, 10:00 in Rome
    before = datetime.datetime(2027, 7, 1, 7, 59, tzinfo=datetime.UTC)
    services.roster_add_player(
        entry=entry, person=eligible_person(entry.federation), number="9", by=director, now=before
    )
    started = datetime.datetime(2027, 7, 1, 8, 0, tzinfo=datetime.UTC)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="8", by=director, now=started
        )
    assert "Rule 3.1.1 B" in messages(exc, "person")
    assert entry.roster.count() == 1


def test_a_position_change_after_the_first_game_is_a_substitution_and_refused_r_05(entry, director):
    GameFactory(championship=entry.championship, home=entry)
    line = RosterEntryFactory(entry=entry, number="9")
    with pytest.raises(ValidationError) as exc:
        services.roster_update(roster_entry=line, position=Position.GOALKEEPER, by=director, now=DURING)
    assert "Rule 3.1.1 B" in messages(exc, "person")


def test_a_number_change_before_registration_needs_no_approval(entry, director):
    line = RosterEntryFactory(entry=entry, number="9", confirmed=False)
    services.roster_update(roster_entry=line, number="19", by=director, now=BEFORE_START)
    line.refresh_from_db()
    assert line.number == "19"


def test_a_number_change_after_registration_is_refused_without_ihtc_approval_3_2_9_d(entry, director):
    line = RosterEntryFactory(entry=entry, number="9", confirmed=True)
    with pytest.raises(ValidationError) as exc:
        services.roster_update(roster_entry=line, number="19", by=director, now=BEFORE_START)
    assert "Rule 3.2.9 D" in messages(exc, "number")
    line.refresh_from_db()
    assert line.number == "9"


def test_a_number_change_after_registration_with_a_recorded_approval_is_applied_once_3_2_9_d(entry, director):
    line = RosterEntryFactory(entry=entry, number="9", confirmed=True)
    approval = services.number_change_approve(
        roster_entry=line, new_number="19", reason="Jersey lost in transit", by=director, now=BEFORE_START
    )
    services.roster_update(roster_entry=line, number="19", by=director, now=DURING)
    line.refresh_from_db()
    approval.refresh_from_db()
    assert line.number == "19"
    assert approval.applied_at == DURING
    # The approval was for 9 -> 19; going back needs another one.
    with pytest.raises(ValidationError):
        services.roster_update(roster_entry=line, number="9", by=director, now=DURING)


def test_only_the_ihtc_approves_a_number_change_3_2_9_d(entry):
    line = RosterEntryFactory(entry=entry, number="9", confirmed=True)
    with pytest.raises(PermissionDenied):
        services.number_change_approve(
            roster_entry=line, new_number="19", reason="Lost", by=federation_staff(entry.federation)
        )
    assert not NumberChangeApproval.objects.exists()


def test_a_person_plays_for_one_team_of_a_championship(entry, director):
    other = TeamEntryFactory(championship=entry.championship)
    person = eligible_person(entry.federation)
    services.roster_add_player(entry=entry, person=person, number="9", by=director, now=BEFORE_START)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(entry=other, person=person, number="9", by=director, now=BEFORE_START)
    # The other team is another federation's: its register does not hold the person (1.1 A), nor is he named.
    assert "Rule 1.1 A" in messages(exc, "person") and str(person) not in messages(exc, "person")
    assert RosterEntry.objects.filter(person=person).count() == 1


def test_a_roster_names_only_people_of_the_entering_federation_1_1_a(entry, director):
    stranger = eligible_person(FederationFactory())
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(entry=entry, person=stranger, number="9", by=director, now=BEFORE_START)
    assert messages(exc, "person") == f"Rule 1.1 A: no person with id {stranger.pk} in {entry.federation}."
    assert not RosterEntry.objects.filter(person=stranger).exists()


# --- ruleset -----------------------------------------------------------------------------------------------------


def test_the_ruleset_is_validated_and_editable_before_the_championship_begins(championship, director):
    with pytest.raises(ValidationError) as exc:
        services.championship_update_ruleset(
            championship=championship, ruleset={"roster": {"max_skater": 12}}, by=director, now=BEFORE_START
        )
    assert "roster.max_skater" in messages(exc, "ruleset")
    services.championship_update_ruleset(
        championship=championship,
        ruleset={"roster": {"max_skaters": 12}},
        standings_preset="iihf",
        by=director,
        now=BEFORE_START,
    )
    championship.refresh_from_db()
    assert services.roster_limits(championship).max_skaters == 12
    assert championship.standings_preset == "iihf"


def test_the_ruleset_is_frozen_once_the_first_game_has_started(championship, director):
    GameFactory(championship=championship)
    with pytest.raises(ValidationError) as exc:
        services.championship_update_ruleset(
            championship=championship, ruleset={"roster": {"max_skaters": 12}}, by=director, now=DURING
        )
    assert "frozen" in messages(exc, "ruleset")
    championship.refresh_from_db()
    assert championship.ruleset == {}


def test_the_ruleset_limits_apply_to_the_roster(championship, director):
    services.championship_update_ruleset(
        championship=championship, ruleset={"roster": {"max_skaters": 6}}, by=director, now=BEFORE_START
    )
    entry = TeamEntryFactory(championship=championship)
    full_roster(entry, skaters=6, goalkeepers=0)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=eligible_person(entry.federation), number="77", by=director, now=BEFORE_START
        )
    assert "at most 6 floor players" in messages(exc, "roster")


def test_only_a_confirmed_entry_goes_into_a_pool_1_1_a(championship, director):
    pool = services.pool_create(championship=championship, name="A", by=director)
    unpaid = TeamEntryFactory(championship=championship, status=EntryStatus.ENTERED, fee_paid=False, fee_paid_at=None)
    with pytest.raises(ValidationError) as exc:
        services.pool_add_entry(pool=pool, entry=unpaid, by=director)
    assert "Rule 1.1 A" in messages(exc, "entry")
    paid = TeamEntryFactory(championship=championship)
    assert services.pool_add_entry(pool=pool, entry=paid, seed=1, by=director).pool == pool


def test_an_entry_is_withdrawn_once_and_not_after_it_played(entry, director):
    services.entry_withdraw(entry=entry, by=director)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    with pytest.raises(ValidationError):
        services.entry_withdraw(entry=entry, by=director)


def test_a_penalty_needs_an_infraction_of_the_annex_c_index(entry, director):
    game = GameFactory(championship=entry.championship, home=entry)
    line = RosterEntryFactory(entry=entry, number="9", person=eligible_person(entry.federation), confirmed=True)
    with pytest.raises(ValidationError) as exc:
        services.penalty_add(
            game=game, entry=entry, person=line.person, infraction_code="looking_angry", minutes=2, period=1,
            time_tenths=10, by=director, now=AFTER,
        )  # fmt: skip
    assert "Annex C" in messages(exc, "infraction_code")
    with pytest.raises(ValidationError) as exc:
        services.penalty_add(
            game=game, entry=entry, person=line.person, infraction_code="tripping", minutes=3, period=1,
            time_tenths=10, by=director, now=AFTER,
        )  # fmt: skip
    assert "R-21" in messages(exc, "minutes")
    penalty = services.penalty_add(
        game=game, entry=entry, person=None, infraction_code="tripping", minutes=2, period=1, time_tenths=10,
        by=director, now=AFTER,
    )  # fmt: skip
    assert penalty.person is None  # a bench penalty


def test_only_the_directors_of_the_championship_record_results(entry):
    game = GameFactory(championship=entry.championship, home=entry)
    with pytest.raises(PermissionDenied):
        services.game_record_result(game=game, home_goals=1, away_goals=0, by=federation_staff(entry.federation))


def test_entries_managed_by_scopes_to_managers_federation_staff_and_international_staff(championship, director):
    from tournaments.selectors import entries_managed_by

    mine, other = TeamEntryFactory(championship=championship), TeamEntryFactory(championship=championship)
    manager = UserFactory()
    mine.managers.add(manager)
    assert list(entries_managed_by(manager)) == [mine]
    assert list(entries_managed_by(federation_staff(other.federation))) == [other]
    assert set(entries_managed_by(director)) == {mine, other}
    assert services.can_manage_entry(manager, mine) and not services.can_manage_entry(manager, other)


def test_team_officials_are_named_once_per_role(entry, director):
    coach = PersonFactory(federation=entry.federation, is_team_official=True)
    official = services.team_official_add(entry=entry, person=coach, role="coach", by=director)
    assert official.entry == entry
    with pytest.raises(ValidationError):
        services.team_official_add(entry=entry, person=coach, role="coach", by=director)
    with pytest.raises(ValidationError) as exc:
        services.team_official_add(entry=entry, person=coach, role="mascot", by=director)
    assert "role" in exc.value.message_dict


def test_the_roster_lists_goalkeepers_then_players_by_number(entry):
    from tournaments.selectors import roster_with_eligibility

    for number in ("10", "9", "2"):
        RosterEntryFactory(entry=entry, number=number, person=eligible_person(entry.federation))
    RosterEntryFactory(entry=entry, number="30", position=Position.GOALKEEPER, person=eligible_person(entry.federation))
    lines = roster_with_eligibility(entry)
    assert [line.number for line, _ in lines] == ["30", "2", "9", "10"]
    assert all(result.eligible for _, result in lines)


def test_a_roster_line_is_a_player_or_a_goalkeeper_3_1_1_a(entry, director):
    """One check (services.check_position) for adding a line and for changing one."""
    person = eligible_person(entry.federation)
    with pytest.raises(ValidationError) as exc:
        services.roster_add_player(
            entry=entry, person=person, number="9", position="coach", by=director, now=BEFORE_START
        )
    assert "Rule 3.1.1 A" in messages(exc, "position")
    line = services.roster_add_player(entry=entry, person=person, number="9", by=director, now=BEFORE_START)
    with pytest.raises(ValidationError) as exc:
        services.roster_update(roster_entry=line, position="coach", by=director, now=BEFORE_START)
    assert "Rule 3.1.1 A" in messages(exc, "position")
    line.refresh_from_db()
    assert line.position == Position.PLAYER
