"""Shared factory_boy factories. Other apps import these: keep the names stable."""

import datetime
import io

import factory
from django.contrib.auth.hashers import make_password
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from accounts.models import Role, RoleAssignment, User
from federation.models import (
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentKind,
    EquipmentModel,
    Federation,
    FederationLevel,
    Gender,
    InspectionKind,
    Passport,
    Person,
    ProtectiveDeviceRequest,
    WaivableCode,
    WaiverRequest,
)

TEST_PASSWORD = "correct-horse-battery-staple"  # pragma: allowlist secret
# Hashing once keeps factories fast; every user logs in with TEST_PASSWORD.
_HASHED_TEST_PASSWORD = make_password(TEST_PASSWORD)
# Every user's signing PIN (accounts.pins): a signer types it on the officials' device to sign a game report.
TEST_PIN = "246810"  # pragma: allowlist secret
_HASHED_TEST_PIN = make_password(TEST_PIN)


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
    signing_pin = _HASHED_TEST_PIN


class SuperuserFactory(UserFactory):
    is_staff = True
    is_superuser = True


# Countries used in order, so each national federation gets its own (one per country).
_COUNTRIES = [
    "IT", "DE", "FR", "ES", "CH", "AT", "CZ", "SK", "GB", "US", "CA", "AU", "NL", "BE", "PT", "DK", "SE", "NO",
    "FI", "PL", "HU", "SI", "HR", "AR", "BR", "CL", "CO", "MX", "NZ", "JP", "KR", "IN", "ZA", "IE", "IL", "TR",
]  # fmt: skip


def _free_country(n: int) -> str:
    """The n-th country of the list, or the next one no federation holds yet (a federation's country is unique).

    A test that names a federation's country itself (``italy``) must not collide with a later factory one.
    """
    taken = set(Federation.objects.exclude(country="").values_list("country", flat=True))
    for step in range(len(_COUNTRIES)):
        country = _COUNTRIES[(n + step) % len(_COUNTRIES)]
        if country not in taken:
            return country
    return _COUNTRIES[n % len(_COUNTRIES)]


class FederationFactory(factory.django.DjangoModelFactory):
    """A national federation in good standing, affiliated to FIRS (1.1 A)."""

    class Meta:
        model = Federation

    name = factory.Sequence(lambda n: f"National Federation {n}")
    short_name = factory.Sequence(lambda n: f"NF{n}")
    country = factory.Sequence(lambda n: _free_country(n))
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


def international_staff(**user_kwargs) -> User:
    """Return a user who is staff of an international federation (the IHTC's side), with admin access."""
    return federation_staff(InternationalFederationFactory(), **user_kwargs)


def ihtc_executive(**user_kwargs) -> User:
    """Return a member of the IHTC executive (who grants eligibility waivers, R-03), with admin access."""
    user = UserFactory(is_staff=True, **user_kwargs)
    RoleAssignmentFactory(user=user, role=Role.IHTC_EXECUTIVE, federation=None)
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


# --- Uploads: real files of each kind, for scan and prescription checks --------------


def jpeg_upload(name: str = "scan.jpg") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buffer, format="JPEG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/jpeg")


def png_upload(name: str = "scan.png") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (30, 30, 200)).save(buffer, format="PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def pdf_upload(name: str = "scan.pdf") -> SimpleUploadedFile:
    content = (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def html_upload(name: str = "scan.png", content_type: str = "image/png") -> SimpleUploadedFile:
    """An HTML page dressed up as an image: the name and the claimed content type lie."""
    return SimpleUploadedFile(name, b"<!doctype html><html><script>alert(1)</script></html>", content_type=content_type)


# --- Waivers, equipment, device requests -------------------------------------------------


class EligibilityWaiverFactory(factory.django.DjangoModelFactory):
    """An IHTC waiver of the passport requirement (1.1 B, R-03) for every category and year."""

    class Meta:
        model = EligibilityWaiver

    person = factory.SubFactory(PersonFactory)
    code = WaivableCode.NO_PASSPORT
    reason = "Passport renewal pending; identity confirmed by the national federation."
    approved_by = factory.SubFactory(SuperuserFactory)
    approved_at = factory.LazyFunction(timezone.now)


class EquipmentModelFactory(factory.django.DjangoModelFactory):
    """An approved, CE-certified helmet model (3.2.6 A)."""

    class Meta:
        model = EquipmentModel

    kind = EquipmentKind.HELMET
    manufacturer = factory.Sequence(lambda n: f"Maker {n}")
    model_name = factory.Sequence(lambda n: f"Pro {n}")
    certifications = factory.LazyFunction(lambda: ["CE"])
    approved = True
    approved_on = datetime.date(2026, 1, 15)


class EquipmentInspectionFactory(factory.django.DjangoModelFactory):
    """A compliant player stick inspection (3.2.2 C). Use the service to get computed violations."""

    class Meta:
        model = EquipmentInspection

    person = factory.SubFactory(PersonFactory)
    kind = InspectionKind.PLAYER_STICK
    measurements = factory.LazyFunction(lambda: {"length_mm": 1500.0, "blade_length_mm": 300.0})
    violations = factory.LazyFunction(list)
    compliant = True
    inspected_by = factory.SubFactory(UserFactory)
    inspected_at = factory.LazyFunction(timezone.now)


class WaiverRequestFactory(factory.django.DjangoModelFactory):
    """A federation's waiting request that the IHTC waive the expired passport for Junior Men (R-03)."""

    class Meta:
        model = WaiverRequest

    person = factory.SubFactory(PersonFactory)
    code = WaivableCode.PASSPORT_EXPIRED
    category = "junior_men"
    justification = "Renewal applied for; the consulate's appointment is after the championship."
    requested_by = factory.LazyAttribute(lambda r: federation_staff(r.person.federation))
    requested_at = factory.LazyFunction(timezone.now)


class ProtectiveDeviceRequestFactory(factory.django.DjangoModelFactory):
    """A submitted request for a physician-prescribed device (3.2.8 C), with a PDF prescription."""

    class Meta:
        model = ProtectiveDeviceRequest

    person = factory.SubFactory(PersonFactory)
    description = "Padded knee brace after ligament surgery"
    physician = "Dr. Anna Keller"
    prescription = factory.LazyFunction(lambda: pdf_upload("prescription.pdf"))
    prescription_content_type = "application/pdf"
    status = DeviceRequestStatus.SUBMITTED
    submitted_by = factory.SubFactory(UserFactory)
    submitted_at = factory.LazyFunction(timezone.now)


# --- tournaments -----------------------------------------------------------------------------------------------------
import zoneinfo  # noqa: E402
from decimal import Decimal  # noqa: E402

from djmoney.money import Money  # noqa: E402

from tournaments.models import (  # noqa: E402
    Championship,
    EntryStatus,
    Game,
    Level,
    Phase,
    PhaseKind,
    Pool,
    PoolTeam,
    Position,
    Rink,
    RosterEntry,
    Surface,
    TeamEntry,
    Venue,
)


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue

    name = factory.Sequence(lambda n: f"Arena {n}")
    city = "Roccaraso"
    country = "IT"
    time_zone = "Europe/Rome"


class RinkFactory(factory.django.DjangoModelFactory):
    """A world-size rink: 50 x 25 m, 1.07 m boards, 5 m corners (2.1 B-E)."""

    class Meta:
        model = Rink

    venue = factory.SubFactory(VenueFactory)
    name = factory.Sequence(lambda n: f"Rink {n}")
    surface = Surface.SPORT_TILE
    length_m = Decimal("50.00")
    width_m = Decimal("25.00")
    board_height_m = Decimal("1.070")
    corner_radius_m = Decimal("5.00")


class ChampionshipFactory(factory.django.DjangoModelFactory):
    """A Senior Men world championship, 1-10 July 2027, entries closing 1 May 2027."""

    class Meta:
        model = Championship

    name = factory.Sequence(lambda n: f"World Championship {n}")
    category = "senior_men"
    level = Level.WORLD
    start_date = datetime.date(2027, 7, 1)
    end_date = datetime.date(2027, 7, 10)
    venue = factory.SubFactory(VenueFactory)
    entry_closing_date = datetime.date(2027, 5, 1)
    entry_fee = Money(500, "USD")
    sanctioning_body = factory.SubFactory(InternationalFederationFactory)
    # Published, as every championship was before drafts existed; a draft says ``published=False``.
    published = True


class TeamEntryFactory(factory.django.DjangoModelFactory):
    """A confirmed entry (fee paid) of a national federation."""

    class Meta:
        model = TeamEntry

    championship = factory.SubFactory(ChampionshipFactory)
    federation = factory.SubFactory(FederationFactory)
    name = factory.LazyAttribute(lambda e: e.federation.name)
    status = EntryStatus.CONFIRMED
    fee_due = Money(500, "USD")
    fee_paid = True
    fee_paid_amount = Money(500, "USD")
    fee_paid_at = factory.LazyFunction(lambda: datetime.datetime(2027, 4, 1, tzinfo=datetime.UTC))
    entered_at = factory.LazyFunction(lambda: datetime.datetime(2027, 3, 1, tzinfo=datetime.UTC))


class RosterEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RosterEntry

    entry = factory.SubFactory(TeamEntryFactory)
    person = factory.SubFactory(PersonFactory, federation=factory.SelfAttribute("..entry.federation"))
    number = factory.Sequence(lambda n: str(n % 99 + 1))
    position = Position.PLAYER


class PoolFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pool

    championship = factory.SubFactory(ChampionshipFactory)
    name = factory.Sequence(lambda n: chr(ord("A") + n % 26) + (str(n // 26) if n >= 26 else ""))


class PoolTeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PoolTeam

    pool = factory.SubFactory(PoolFactory)
    entry = factory.SubFactory(TeamEntryFactory, championship=factory.SelfAttribute("..pool.championship"))


class PhaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Phase
        django_get_or_create = ["championship", "name"]

    championship = factory.SubFactory(ChampionshipFactory)
    kind = PhaseKind.ROUND_ROBIN
    name = factory.LazyAttribute(lambda p: PhaseKind(p.kind).label)
    order = 1


class GameFactory(factory.django.DjangoModelFactory):
    """A scheduled round-robin game at 10:00 at the venue on the championship's first day."""

    class Meta:
        model = Game

    championship = factory.SubFactory(ChampionshipFactory)
    phase = factory.SubFactory(PhaseFactory, championship=factory.SelfAttribute("..championship"))
    number = factory.Sequence(lambda n: n + 1)
    home = factory.SubFactory(TeamEntryFactory, championship=factory.SelfAttribute("..championship"))
    away = factory.SubFactory(TeamEntryFactory, championship=factory.SelfAttribute("..championship"))
    start_at = factory.LazyAttribute(
        lambda g: datetime.datetime.combine(
            g.championship.start_date, datetime.time(10), tzinfo=zoneinfo.ZoneInfo(g.championship.venue.time_zone)
        )
    )


def with_role(role, federation=None, **user_kwargs) -> User:
    """Return a user holding ``role``, scoped to ``federation`` (None: a role that is not a federation's)."""
    user = UserFactory(**user_kwargs)
    RoleAssignmentFactory(user=user, role=role, federation=federation)
    return user


def client_for(user):
    """Return a DRF test client logged in as ``user`` (anonymous when ``user`` is None)."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def ids(response) -> set[int]:
    """Return the ids of the rows on a page of an API list answer."""
    return {row["id"] for row in response.json()["results"]}


def admin_form_data(obj, **changes) -> dict:
    """What the admin's change form of ``obj`` posts (the fields a superuser sees, files left out), with ``changes``."""
    from django import forms
    from django.contrib import admin
    from django.test import RequestFactory

    model_admin = admin.site._registry[type(obj)]
    request = RequestFactory().get("/")
    request.user = SuperuserFactory()
    form = model_admin.get_form(request, obj)(instance=obj)
    data = {
        name: "" if form[name].value() is None else form[name].value()
        for name, field in form.fields.items()
        if not isinstance(field, forms.FileField)
    }
    return {**data, **changes}


def game_consequence(
    game, person, *, penalty_id="p1", kind="match", article="6.1.6", infraction="attempt_to_injure", entry=None, **kw
):
    """A consequence of ``game`` as its final sheet hands it to discipline (default: a home player's match penalty;
    ``kind="game_misconduct", article="6.1.3 B", infraction=""`` is a major's game misconduct)."""
    from discipline.services import Consequence

    fields = {"number": None, "period": 1, "time_tenths": 600, **kw}
    return Consequence(
        penalty_id=penalty_id, entry_id=(entry or game.home).pk, person_id=person.pk, kind=kind, article=article,
        infraction=infraction, **fields,
    )  # fmt: skip
