import pytest

from federation.access import can_edit_person, people_visible_to
from tests.factories import PassportFactory, PersonFactory, federation_staff


@pytest.mark.django_db
def test_factories_build_a_person_with_a_passport_of_their_nationality():
    passport = PassportFactory()
    assert passport.issuing_country == passport.person.nationality
    assert passport.person.nationality == passport.person.federation.country


@pytest.mark.django_db
def test_federation_staff_helper_scopes_the_user_to_one_federation():
    mine, other = PersonFactory(), PersonFactory()
    staff = federation_staff(mine.federation)
    assert list(people_visible_to(staff)) == [mine]
    assert can_edit_person(staff, mine)
    assert not can_edit_person(staff, other)
