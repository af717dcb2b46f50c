"""Shared factory_boy factories. Other apps import these: keep the names stable."""

import datetime

import factory
from django.contrib.auth.hashers import make_password

from accounts.models import Role, RoleAssignment, User
from federation.models import Federation, FederationLevel, Gender, Passport, Person

TEST_PASSWORD = "correct-horse-battery-staple"
# Hashing once keeps factories fast; every user logs in with TEST_PASSWORD.
_HASHED_TEST_PASSWORD = make_password(TEST_PASSWORD)


# Plain ASCII names without quotes: pages can be searched for them verbatim. The
# sequence number in the last name keeps people distinguishable.
_FIRST_NAMES = ["Marco", "Lukas", "Pierre", "Javier", "Jan", "Tomas", "Oliver", "Ethan", "Liam", "Noah"]
_LAST_NAMES = ["Rossi", "Muller", "Martin", "Garcia", "Novak", "Horvath", "Smith", "Brown", "Jensen", "Berg"]


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: _FIRST_NAMES[n % len(_FIRST_NAMES)])
    last_name = factory.Sequence(lambda n: f"{_LAST_NAMES[n % len(_LAST_NAMES)]}{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = _HASHED_TEST_PASSWORD


class SuperuserFactory(UserFactory):
    is_staff = True
    is_superuser = True


# Countries used in order, so each national federation gets its own (one per country).
_COUNTRIES = [
    "IT", "DE", "FR", "ES", "CH", "AT", "CZ", "SK", "GB", "US", "CA", "AU", "NL", "BE", "PT", "DK", "SE", "NO",
    "FI", "PL", "HU", "SI", "HR", "AR", "BR", "CL", "CO", "MX", "NZ", "JP", "KR", "IN", "ZA", "IE", "IL", "TR",
]  # fmt: skip


class FederationFactory(factory.django.DjangoModelFactory):
    """A national federation in good standing, affiliated to FIRS (1.1 A)."""

    class Meta:
        model = Federation

    name = factory.Sequence(lambda n: f"National Federation {n}")
    short_name = factory.Sequence(lambda n: f"NF{n}")
    country = factory.Sequence(lambda n: _COUNTRIES[n % len(_COUNTRIES)])
    level = FederationLevel.NATIONAL
    firs_affiliated = True
    good_standing = True
    contact_email = factory.LazyAttribute(lambda f: f"office@{f.short_name.lower()}.example.org")


class InternationalFederationFactory(FederationFactory):
    name = factory.Sequence(lambda n: f"International Federation {n}")
    country = ""
    level = FederationLevel.INTERNATIONAL


class RoleAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RoleAssignment

    user = factory.SubFactory(UserFactory)
    role = Role.FEDERATION_STAFF
    federation = factory.SubFactory(FederationFactory)


def federation_staff(federation=None, **user_kwargs) -> User:
    """Return a user who is staff of ``federation`` (a new national one by default), with admin access."""
    user = UserFactory(is_staff=True, **user_kwargs)
    RoleAssignmentFactory(user=user, role=Role.FEDERATION_STAFF, federation=federation or FederationFactory())
    return user


class PersonFactory(factory.django.DjangoModelFactory):
    """A senior male player of his federation's country."""

    class Meta:
        model = Person

    federation = factory.SubFactory(FederationFactory)
    first_name = factory.Sequence(lambda n: _FIRST_NAMES[n % len(_FIRST_NAMES)])
    last_name = factory.Sequence(lambda n: f"{_LAST_NAMES[n % len(_LAST_NAMES)]}{n}")
    date_of_birth = datetime.date(1998, 5, 17)
    gender = Gender.MALE
    nationality = factory.LazyAttribute(lambda p: p.federation.country or "IT")
    is_player = True


class PassportFactory(factory.django.DjangoModelFactory):
    """A passport of the holder's nationality, valid for years."""

    class Meta:
        model = Passport

    person = factory.SubFactory(PersonFactory)
    issuing_country = factory.LazyAttribute(lambda p: p.person.nationality)
    number = factory.Sequence(lambda n: f"P{n:08d}")
    expiry_date = datetime.date(2035, 12, 31)
