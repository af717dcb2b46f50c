"""Roster import from CSV: per-row errors naming row, column and rule; nothing saved if any row fails."""

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.factories import FederationFactory, GameFactory, UserFactory
from tournaments.imports import roster_import_csv
from tournaments.models import Position, RosterEntry

from .conftest import BEFORE_START, DURING, eligible_person

pytestmark = pytest.mark.django_db


def csv_file(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8"))


def roster_csv(entry, *, bad_number_on: int | None = None) -> str:
    lines = ["last_name,first_name,date_of_birth,number,position,captain,alternate"]
    for i in range(8):
        person = eligible_person(entry.federation, is_goalkeeper=i >= 6)
        number = "07" if i == bad_number_on else str(i + 2)
        position = "goalkeeper" if i >= 6 else "player"
        captain = "yes" if i == 0 else ""
        alternate = "x" if i in (1, 2) else "no"
        lines.append(
            f"{person.last_name},{person.first_name},{person.date_of_birth:%Y-%m-%d},{number},{position},{captain},{alternate}"
        )
    return "\n".join(lines) + "\n"


def errors(exc) -> list[str]:
    return exc.value.message_dict["file"]


def test_it_imports_a_complete_roster(entry, director):
    created = roster_import_csv(entry, csv_file(roster_csv(entry)), by=director, now=BEFORE_START)
    assert len(created) == 8
    assert entry.roster.count() == 8
    assert entry.roster.filter(position=Position.GOALKEEPER).count() == 2
    assert entry.roster.get(captain=True).number == "2"
    assert entry.roster.filter(alternate=True).count() == 2


def test_one_bad_row_saves_nothing_and_names_its_row_column_and_rule(entry, director):
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(roster_csv(entry, bad_number_on=3)), by=director, now=BEFORE_START)
    assert errors(exc) == [errors(exc)[0]]
    assert errors(exc)[0].startswith("Row 5, number: Rule 3.2.9 C")
    assert not RosterEntry.objects.exists()


def test_it_reports_every_bad_row(entry, director):
    text = roster_csv(entry)
    text += "Nobody,Known,1990-01-01,50,player,,\n"
    text += f"{entry.federation.people.first().last_name},x,1990-13-01,51,player,,\n"
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert errors(exc)[0].startswith("Row 10, last_name: no person")
    assert errors(exc)[1].startswith("Row 11, date_of_birth")
    assert not RosterEntry.objects.exists()


def test_a_duplicate_number_within_the_file_is_refused_3_2_9_d(entry, director):
    a, b = eligible_person(entry.federation), eligible_person(entry.federation)
    text = f"person_id;number;position\n{a.pk};9;player\n{b.pk};9;player\n"
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert errors(exc) == [errors(exc)[0]]
    assert errors(exc)[0].startswith("Row 3, number: Rule 3.2.9 D")
    assert not RosterEntry.objects.exists()


def test_a_sixteenth_player_in_the_file_is_refused_r_04(entry, director):
    people = [eligible_person(entry.federation) for _ in range(15)]
    text = "person_id,number\n" + "".join(f"{p.pk},{i + 1}\n" for i, p in enumerate(people))
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert errors(exc)[0].startswith("Row 16, roster: Rule 3.1.1 A: at most 14 floor players")
    assert not RosterEntry.objects.exists()


def test_the_import_is_refused_once_the_championship_has_begun_3_1_1_b(entry, director):
    GameFactory(championship=entry.championship, home=entry)
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(roster_csv(entry)), by=director, now=DURING)
    assert "Rule 3.1.1 B" in errors(exc)[0]
    assert not RosterEntry.objects.exists()


def test_it_refuses_unknown_columns_and_strangers(entry, director):
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file("name,number\nX,1\n"), by=director, now=BEFORE_START)
    assert "unknown column 'name'" in errors(exc)[0]
    with pytest.raises(PermissionDenied):
        roster_import_csv(entry, csv_file(roster_csv(entry)), by=UserFactory(), now=BEFORE_START)


def test_it_reads_semicolons_and_a_spreadsheet_bom(entry, director):
    person = eligible_person(entry.federation)
    text = "\ufeffperson_id;number;position;captain\n" + f"{person.pk};12;P;y\n"
    created = roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert [(line.person, line.number, line.captain) for line in created] == [(person, "12", True)]


def test_another_federations_person_id_is_refused_like_a_hand_made_add_1_1_a(entry, director):
    """The import runs the single add's checks: another federation's register is not the team's to pick from."""
    stranger = eligible_person(FederationFactory())
    text = f"person_id,number,position\n{stranger.pk},9,player\n"
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert errors(exc) == [f"Row 2, person_id: Rule 1.1 A: no person with id '{stranger.pk}' in {entry.federation}"]
    assert stranger.last_name not in errors(exc)[0]
    assert not RosterEntry.objects.exists()


def test_an_out_of_range_person_id_is_a_row_error_not_a_crash(entry, director):
    text = "person_id,number,position\n99999999999999999999999,9,player\n"
    with pytest.raises(ValidationError) as exc:
        roster_import_csv(entry, csv_file(text), by=director, now=BEFORE_START)
    assert errors(exc)[0].startswith("Row 2, person_id: Rule 1.1 A: no person with id")
    assert not RosterEntry.objects.exists()
