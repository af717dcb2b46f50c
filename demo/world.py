"""Build the demo world through the services, so that building it proves the rules.

``build_world()`` creates federations, people, passports, equipment, the
Senior Men world championship with eight rosters, its schedule and a few
results. Every name, date and number comes from ``demo.data`` or from
``random.Random(SEED)``; every timestamp is a date of the data moved around the
moment the world is built (``demo.timeline.Timeline``: the championship began
yesterday, one game is live now), never read from the wall clock while
building, so the same moment builds the same world (``world_digest``).

Where a service refuses something on purpose (an ineligible player's
confirmation, an entry of a federation not in good standing), the refusal is
caught and reported: it is part of what the demo shows.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import random
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models
from djmoney.money import Money
from PIL import Image, ImageDraw

from accounts.models import Role, RoleAssignment, User
from demo import data
from demo.timeline import Timeline
from discipline.demo import build_discipline_demo, build_protest_marks
from federation import services as federation_services
from federation.models import (
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    FederationLevel,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)
from tournaments import services as tournament_services
from tournaments.models import (
    Championship,
    DecidedIn,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    Pool,
    PoolTeam,
    Position,
    RosterEntry,
    TeamEntry,
    TeamOfficial,
)

ROLE_LABELS = {"superuser": "Superuser", "": "No role (signs game reports)", **dict(Role.choices)}

# Minor penalties the demo results use (Annex C codes, 2 minutes, R-21).
_MINOR_CODES = ("tripping", "hooking", "holding", "slashing", "interference", "roughing", "boarding")


@dataclass(frozen=True)
class Login:
    username: str
    role: str
    scope: str
    sees: str


def demo_logins() -> list[Login]:
    """Return the demo's logins with their role, scope and what they see (from the data alone, no query)."""
    bodies = {body.key: body for body in (data.FIRS, *data.CONTINENTAL)}
    nationals = {n.code: n for n in data.NATIONAL}
    logins = []
    for login in data.LOGINS:
        if login.role == Role.FEDERATION_STAFF:
            scope = bodies[login.scope].short_name
        elif login.role == Role.TEAM_MANAGER:
            scope = nationals[login.scope].team_name
        else:
            scope = ""
        logins.append(Login(login.username, ROLE_LABELS[login.role], scope, login.sees))
    for national in data.NATIONAL:
        sees = f"Only {national.short_name}'s people, passports and scans"
        sees += "; enters its team and keeps its roster." if national.code in data.ENTERED else "."
        logins.append(
            Login(
                data.national_staff_login(national.code), ROLE_LABELS[Role.FEDERATION_STAFF], national.short_name, sees
            )
        )
    return logins


def is_demo_world() -> bool:
    """Return True if the database holds the demo world (its international body and its championship)."""
    return (
        Federation.objects.filter(name=data.FIRS.name, level=FederationLevel.INTERNATIONAL).exists()
        and Championship.objects.filter(name__endswith=data.CHAMPIONSHIP_NAME_END).exists()
    )


@dataclass
class WorldSummary:
    # Refusals the services gave on purpose, each naming its rule.
    refusals: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    digest: str = ""


def png_bytes(title: str, lines: tuple[str, ...], *, size=(360, 220), color=(222, 232, 245)) -> bytes:
    """Return a small PNG that looks like a scanned document."""
    image = Image.new("RGB", size, color)
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, size[0] - 9, size[1] - 9), outline=(40, 60, 110), width=3)
    draw.text((24, 22), title, fill=(20, 30, 80))
    for i, line in enumerate(lines):
        draw.text((24, 56 + 22 * i), line, fill=(10, 10, 10))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def pdf_bytes(title: str, lines: tuple[str, ...]) -> bytes:
    """Return a one-page PDF (the page is an image, as a scanner makes it)."""
    image = Image.open(io.BytesIO(png_bytes(title, lines, size=(420, 594), color=(255, 255, 255))))
    buffer = io.BytesIO()
    image.save(buffer, format="PDF", resolution=72.0)
    return buffer.getvalue()


class WorldBuilder:
    def __init__(self, timeline: Timeline) -> None:
        self.t = timeline
        self.rng = random.Random(data.SEED)
        self.summary = WorldSummary()
        self.federations: dict[str, Federation] = {}
        self.nationals: dict[str, data.NationalData] = {n.code: n for n in data.NATIONAL}
        self.nationals_by_country: dict[str, data.NationalData] = {n.country: n for n in data.NATIONAL}
        self.users: dict[str, User] = {}
        self.used_names: dict[str, set[tuple[str, str]]] = {n.code: set() for n in data.NATIONAL}
        self.used_passports: set[tuple[str, str]] = set()
        self.teams: dict[str, dict] = {}
        self.entries: dict[str, TeamEntry] = {}
        self.password_hash = make_password(data.DEMO_PASSWORD)
        self.pin_hash = make_password(data.DEMO_PIN)

    # --- the whole world ------------------------------------------------------------------------------------------

    def build(self) -> WorldSummary:
        self.build_executives()
        self.build_federations()
        self.build_logins()
        self.reserve_fixed_names()
        self.build_game_officials()
        self.build_teams()
        self.build_other_players()
        self.build_special_players()
        self.build_waivers()
        self.build_passport_scans()
        self.build_equipment()
        self.build_championship()
        self.build_entries()
        self.build_rosters()
        self.build_schedule()
        build_protest_marks(self)  # administrative protests before the start (discipline.demo)
        self.build_results()
        self.build_official_accounts()
        self.build_signed_game()
        self.place_today()
        self.build_game_day()
        build_discipline_demo(self)  # incident reports, suspensions, a case (discipline.demo)
        self.build_recent_game()
        self.summary.counts = {
            "federations": Federation.objects.count(),
            "people": Person.objects.count(),
            "passports": Passport.objects.count(),
            "entries": TeamEntry.objects.count(),
            "roster lines": RosterEntry.objects.count(),
            "games": Game.objects.count(),
            "final games": Game.objects.filter(status=GameStatus.FINAL).count(),
            "logins": User.objects.count(),
        }
        self.summary.digest = world_digest()
        return self.summary

    # --- federations and logins -------------------------------------------------------------------------------------

    def _federation(self, *, key: str, level: str, parent: Federation | None = None, **fields) -> Federation:
        # 1.1 A: the IHTC's executive keeps the registry (affiliation, good standing, one per country).
        federation = federation_services.federation_create(
            by=self.users["ihtc.exec"], level=level, parent=parent, firs_affiliated=True, **fields
        )
        self.federations[key] = federation
        return federation

    def build_federations(self) -> None:
        # FIRS, then the continental bodies below it.
        for body, level, parent in [
            (data.FIRS, FederationLevel.INTERNATIONAL, None),
            *[(b, FederationLevel.CONTINENTAL, b.parent) for b in data.CONTINENTAL],
        ]:
            self._federation(
                key=body.key,
                level=level,
                **({"parent": self.federations[parent]} if parent else {}),
                name=body.name,
                short_name=body.short_name,
                website=body.website,
                contact_name=body.contact_name,
                contact_email=f"office@{body.short_name.lower()}.example.org",
                address=body.address,
            )
        for national in data.NATIONAL:
            self._federation(
                key=national.code,
                level=FederationLevel.NATIONAL,
                parent=self.federations[national.continent],
                name=national.name,
                short_name=national.short_name,
                country=national.country,
                good_standing=national.good_standing,
                website=f"https://{national.short_name.lower()}.example.org",
                contact_name=f"{national.short_name} Secretariat",
                contact_email=f"office@{national.short_name.lower()}.example.org",
                contact_phone=f"+{self.rng.randint(10, 99)} {self.rng.randint(100, 999)} {self.rng.randint(1000, 9999)}",
                address=national.city,
            )

    def _user(self, username: str, first_name: str, last_name: str, *, is_staff: bool, superuser: bool = False):
        user = User(
            username=username,
            first_name=first_name,
            last_name=last_name,
            email=f"{username}@demo.ihtc.example",
            is_staff=is_staff or superuser,
            is_superuser=superuser,
            password=self.password_hash,
            signing_pin=self.pin_hash,
        )
        # The one demo password must pass every validator for every login.
        validate_password(data.DEMO_PASSWORD, user)
        user.save()
        self.users[username] = user
        return user

    def build_executives(self) -> None:
        """The superuser and the IHTC executive come first: the executive registers the federations."""
        for login in data.LOGINS:
            if login.role in ("superuser", Role.IHTC_EXECUTIVE):
                user = self._user(
                    login.username,
                    login.first_name,
                    login.last_name,
                    is_staff=True,
                    superuser=login.role == "superuser",
                )
                if login.role == Role.IHTC_EXECUTIVE:
                    RoleAssignment.objects.create(user=user, role=login.role)

    def build_logins(self) -> None:
        for login in data.LOGINS:
            if login.username in self.users:
                continue
            # Federation staff and IHTC executives work in the admin; the others use the portal's pages.
            staff = login.role == Role.FEDERATION_STAFF
            user = self._user(login.username, login.first_name, login.last_name, is_staff=staff)
            if login.role == Role.FEDERATION_STAFF:
                RoleAssignment.objects.create(user=user, role=login.role, federation=self.federations[login.scope])
            elif login.role not in (Role.TEAM_MANAGER, ""):
                # A team manager's role comes with the entry: entry_set_managers assigns it (build_entries); a
                # captain's login has none (it only signs game reports, 4.3 A).
                RoleAssignment.objects.create(user=user, role=login.role)
        for national in data.NATIONAL:
            first, last = self._pick_name(national)
            user = self._user(data.national_staff_login(national.code), first, last, is_staff=True)
            RoleAssignment.objects.create(
                user=user, role=Role.FEDERATION_STAFF, federation=self.federations[national.code]
            )

    # --- people ------------------------------------------------------------------------------------------------------

    def reserve_fixed_names(self) -> None:
        for code, first, last, *_ in data.GAME_OFFICIALS:
            self.used_names[code].add((first, last))
        for login in data.LOGINS:
            if login.role == Role.TEAM_MANAGER:
                self.used_names[login.scope].add((login.first_name, login.last_name))
        for special in data.SPECIAL_PLAYERS:
            self.used_names[special.team].add((special.first_name, special.last_name))

    def _pick_name(self, national: data.NationalData) -> tuple[str, str]:
        used = self.used_names[national.code]
        while True:
            name = (self.rng.choice(national.first_names), self.rng.choice(national.last_names))
            if name not in used:
                used.add(name)
                return name

    def _birth_date(self, first_year: int, last_year: int) -> datetime.date:
        start = datetime.date(first_year, 1, 1).toordinal()
        end = datetime.date(last_year, 12, 31).toordinal()
        return datetime.date.fromordinal(self.rng.randint(start, end))

    def _passport_number(self, national_prefix: str, country: str) -> str:
        while True:
            digits = 9 - len(national_prefix)
            number = national_prefix + "".join(str(self.rng.randint(0, 9)) for _ in range(digits))
            if (country, number) not in self.used_passports:
                self.used_passports.add((country, number))
                return number

    def _person(
        self,
        code: str,
        first_name: str,
        last_name: str,
        *,
        date_of_birth: datetime.date,
        gender: str = "M",
        nationality: str | None = None,
        passports: tuple[tuple[str, datetime.date], ...] | None = None,
        **roles: bool,
    ) -> Person:
        national = self.nationals[code]
        staff = self.users[data.national_staff_login(code)]
        # Registered by the federation's own staff, as the register's pages and API do.
        person = federation_services.person_create(
            by=staff,
            federation=self.federations[code],
            first_name=first_name,
            last_name=last_name,
            date_of_birth=date_of_birth,
            gender=gender,
            nationality=nationality or national.country,
            **roles,
        )
        if passports is None:
            expiry = datetime.date(
                self.t.year(self.rng.randint(2028, 2036)), self.rng.randint(1, 12), 1
            ) - datetime.timedelta(1)
            passports = ((national.country, expiry),)
        for country, expiry in passports:
            # Countries outside the demo (Canada, Andorra) issue plain nine-digit numbers.
            issuer = self.nationals_by_country.get(country)
            federation_services.passport_add(
                person=person,
                issuing_country=country,
                number=self._passport_number(issuer.passport_prefix if issuer else "", country),
                expiry_date=expiry,
                by=staff,
            )
        return person

    def build_game_officials(self) -> None:
        for code, first, last, gender, referee, official in data.GAME_OFFICIALS:
            self._person(
                code,
                first,
                last,
                date_of_birth=self._birth_date(self.t.year(1972), self.t.year(1994)),
                gender=gender,
                is_referee=referee,
                is_official=official,
            )

    def build_teams(self) -> None:
        """Create the players and officials of the eight teams (the rosters are built in build_rosters)."""
        managers = {login.scope: login for login in data.LOGINS if login.role == Role.TEAM_MANAGER}
        specials = {s.team for s in data.SPECIAL_PLAYERS}
        for code in data.ENTERED:
            national = self.nationals[code]
            # The special player (build_special_players) takes the fourteenth skater's place.
            n_skaters = data.SKATERS_PER_TEAM - (1 if code in specials else 0)
            skaters = [
                self._person(
                    code,
                    *self._pick_name(national),
                    date_of_birth=self._birth_date(self.t.year(1990), self.t.year(2007)),
                    is_player=True,
                )
                for _ in range(n_skaters)
            ]
            goalkeepers = [
                self._person(
                    code,
                    *self._pick_name(national),
                    date_of_birth=self._birth_date(self.t.year(1989), self.t.year(2004)),
                    is_player=True,
                    is_goalkeeper=True,
                )
                for _ in range(data.GOALKEEPERS_PER_TEAM)
            ]
            officials = []
            for role in data.OFFICIAL_ROLES:
                login = managers.get(code) if role == "manager" else None
                name = (login.first_name, login.last_name) if login else self._pick_name(national)
                person = self._person(
                    code,
                    *name,
                    date_of_birth=self._birth_date(self.t.year(1962), self.t.year(1988)),
                    is_team_official=True,
                )
                officials.append((role, person))
            # Numbers 3.2.9 C-D: unique in the team, 1-99, no leading zero; goalkeepers wear 1 and 30.
            free = [n for n in range(2, 100) if str(n) not in data.GOALKEEPER_NUMBERS]
            numbers = [str(n) for n in self.rng.sample(free, data.SKATERS_PER_TEAM)]
            self.teams[code] = {
                "skaters": skaters,
                "goalkeepers": goalkeepers,
                "officials": officials,
                "numbers": numbers,
                "special": None,
            }

    def build_other_players(self) -> None:
        for national in data.NATIONAL:
            if national.code in data.ENTERED:
                continue
            for i in range(data.PLAYERS_PER_OTHER_FEDERATION):
                self._person(
                    national.code,
                    *self._pick_name(national),
                    date_of_birth=self._birth_date(self.t.year(1988), self.t.year(2008)),
                    is_player=True,
                    is_goalkeeper=i == 0,
                )

    def build_special_players(self) -> None:
        for special in data.SPECIAL_PLAYERS:
            person = self._person(
                special.team,
                special.first_name,
                special.last_name,
                date_of_birth=self.t.day(special.date_of_birth),
                gender=special.gender,
                nationality=special.nationality,
                passports=tuple((country, self.t.day(expiry)) for country, expiry in special.passports),
                is_player=True,
            )
            self.teams[special.team]["special"] = (special, person)

    def build_waivers(self) -> None:
        executive = self.users["ihtc.exec"]
        for special in data.SPECIAL_PLAYERS:
            if special.waiver is None:
                continue
            code, reason = special.waiver
            _, person = self.teams[special.team]["special"]
            federation_services.waiver_grant(
                person=person,
                code=code,
                reason=reason,
                approved_by=executive,
                category=data.CHAMPIONSHIP.category,
                year=self.t.start.year,
                at=self.t.utc(datetime.date(2027, 1, 20), 10),
            )

    def build_passport_scans(self) -> None:
        """Store a few scans through passport_update: checked by content, kept in private storage."""
        holders = [
            (self.teams["ita"]["skaters"][0], "png"),
            (self.teams["ger"]["special"][1], "png"),
            (self.teams["usa"]["goalkeepers"][0], "pdf"),
        ]
        for person, kind in holders:
            passport = person.passports.order_by("pk").first()
            lines = (
                f"{person.last_name.upper()} {person.first_name}",
                f"Born {person.date_of_birth:%d %b %Y}",
                f"No. {passport.number}",
                f"Expires {passport.expiry_date:%d %b %Y}",
            )
            title = f"PASSPORT - {passport.issuing_country.name.upper()}"
            content = png_bytes(title, lines) if kind == "png" else pdf_bytes(title, lines)
            federation_services.passport_update(
                passport=passport, by=self.users["ihtc.exec"], scan=ContentFile(content, name=f"scan.{kind}")
            )

    # --- equipment (3.2.2, 3.2.5, 3.2.6 A, 3.2.8 C) --------------------------------------------------------------

    def build_equipment(self) -> None:
        executive = self.users["ihtc.exec"]
        for kind, manufacturer, model_name, certifications, approved in data.EQUIPMENT_MODELS:
            federation_services.equipment_model_create(
                kind=kind,
                manufacturer=manufacturer,
                model_name=model_name,
                certifications=certifications,
                approved=approved,
                by=executive,
                on=self.t.day(data.EQUIPMENT_APPROVED_ON),
            )
        referee = self.users["referee"]
        inspected_at = self.t.utc(datetime.date(2027, 7, 2), 15)
        italy, germany = self.teams["ita"], self.teams["ger"]
        federation_services.equipment_inspection_record(
            person=italy["skaters"][1],
            kind="player_stick",
            measurements={
                "length_mm": 1520,
                "blade_length_mm": 300,
                "blade_min_width_mm": 55,
                "blade_max_width_mm": 80,
                "heel_width_mm": 62,
            },
            inspected_by=referee,
            inspected_at=inspected_at,
            notes="Pre-championship equipment check.",
        )
        # Too long and too wide: two violations of 3.2.2 C, computed by the service.
        federation_services.equipment_inspection_record(
            person=germany["skaters"][2],
            kind="player_stick",
            measurements={
                "length_mm": 1600,
                "blade_length_mm": 315,
                "blade_min_width_mm": 52,
                "blade_max_width_mm": 94,
                "heel_width_mm": 70,
            },
            inspected_by=referee,
            inspected_at=inspected_at + datetime.timedelta(minutes=20),
            notes="Stick confiscated until replaced.",
        )
        federation_services.equipment_inspection_record(
            person=italy["goalkeepers"][0],
            kind="goalkeeper_equipment",
            measurements={"glove_padding_width_mm": 195, "glove_padding_length_mm": 390, "leg_pad_width_mm": 280},
            inspected_by=referee,
            inspected_at=inspected_at + datetime.timedelta(minutes=40),
        )
        requests = (
            (
                "ita",
                self.teams["ita"]["skaters"][3],
                "Clear polycarbonate jaw protector fixed to the helmet cage after a mandible fracture.",
                "Dr. Elena Ferri, Ospedale San Bortolo, Vicenza",
                datetime.date(2027, 5, 10),
                True,
            ),
            (
                "sui",
                self.teams["sui"]["skaters"][4],
                "Soft knee brace with padded hinges after cruciate ligament surgery.",
                "Dr. Urs Brunner, Inselspital Bern",
                datetime.date(2027, 6, 2),
                False,
            ),
        )
        for code, person, description, physician, day, approve in requests:
            request = federation_services.device_request_submit(
                person=person,
                description=description,
                physician=physician,
                prescription=ContentFile(
                    pdf_bytes("MEDICAL PRESCRIPTION", (physician, f"Patient: {person}", description[:48])),
                    name="prescription.pdf",
                ),
                submitted_by=self.users[data.national_staff_login(code)],
                at=self.t.utc(day, 9),
            )
            if approve:
                federation_services.device_request_decide(
                    request=request, approve=True, decided_by=executive, at=self.t.utc(day + datetime.timedelta(14), 11)
                )

    # --- the championship ---------------------------------------------------------------------------------------------

    def build_championship(self) -> None:
        # The venue and its rinks are set up through the services, as a federation's tools do through the API (2.1).
        director = self.users["firs.staff"]
        venue = tournament_services.venue_create(
            name=data.VENUE.name,
            city=data.VENUE.city,
            country=data.VENUE.country,
            time_zone=data.VENUE.time_zone,
            by=director,
        )
        self.rinks = [
            tournament_services.rink_create(
                venue=venue,
                name=name,
                surface=surface,
                length_m=Decimal(length),
                width_m=Decimal(width),
                board_height_m=Decimal(boards),
                corner_radius_m=Decimal(corner),
                by=director,
            )
            for name, surface, length, width, boards, corner in data.VENUE.rinks
        ]
        spec = data.CHAMPIONSHIP
        # Set up by the sanctioning body's staff (FIRS), who direct it.
        championship = tournament_services.championship_create(
            name=spec.name.format(year=self.t.start.year),
            category=spec.category,
            level=spec.level,
            start_date=self.t.day(spec.start_date),
            end_date=self.t.day(spec.end_date),
            venue=venue,
            entry_closing_date=self.t.day(spec.entry_closing_date),
            entry_fee=tournament_services.money(spec.entry_fee, spec.currency),
            sanctioning_body=self.federations[spec.sanctioning_body],
            by=self.users["firs.staff"],
        )
        if spec.published:
            # Published before the entries: a draft takes none, and the demo's visitors see it.
            championship = tournament_services.championship_publish(championship=championship, by=director)
        self.championship = championship
        for rink in self.rinks:
            # 2.1 C: the service's own check; the demo's rinks meet the world level.
            tournament_services.check_rink_for(rink, championship)

    def build_entries(self) -> None:
        director = self.users["firs.staff"]
        entered_at = self.t.utc(data.ENTRY_DATE, 9)
        for i, code in enumerate(data.ENTERED):
            national = self.nationals[code]
            entry = tournament_services.entry_create(
                championship=self.championship,
                federation=self.federations[code],
                name=national.team_name,
                by=self.users[data.national_staff_login(code)],
                now=entered_at + datetime.timedelta(hours=i),
            )
            entry = tournament_services.entry_record_fee_paid(
                entry=entry,
                amount=Money(data.CHAMPIONSHIP.entry_fee, data.CHAMPIONSHIP.currency),
                paid_at=self.t.utc(data.FEE_PAID_DATE, 10 + i),
                by=director,
            )
            self.entries[code] = entry
        for login in data.LOGINS:
            if login.role == Role.TEAM_MANAGER:
                tournament_services.entry_set_managers(
                    entry=self.entries[login.scope],
                    managers=[self.users[login.username]],
                    by=self.users[data.national_staff_login(login.scope)],
                )
        refused = self.nationals[data.REFUSED_ENTRY]
        try:
            tournament_services.entry_create(
                championship=self.championship,
                federation=self.federations[refused.code],
                name=refused.name,
                by=self.users[data.national_staff_login(refused.code)],
                now=entered_at,
            )
        except ValidationError as exc:
            self._refused(f"Entry of {refused.short_name}", exc)
        else:
            raise RuntimeError("the demo expects the entry of a federation not in good standing to be refused (1.1 A)")

    def _refused(self, what: str, exc: ValidationError) -> None:
        for field_name, messages in exc.message_dict.items():
            for message in messages:
                self.summary.refusals.append(f"{what} refused ({field_name}): {message}")

    def _roster_user(self, code: str) -> User:
        """The team manager keeps the roster where there is one; otherwise the federation's staff."""
        for login in data.LOGINS:
            if login.role == Role.TEAM_MANAGER and login.scope == code:
                return self.users[login.username]
        return self.users[data.national_staff_login(code)]

    def build_rosters(self) -> None:
        now = self.t.utc(data.ROSTER_CONFIRMED_DATE, 8)
        for code in data.ENTERED:
            team = self.teams[code]
            entry = self.entries[code]
            by = self._roster_user(code)
            special = team["special"]
            eligible_special = special is not None and special[0].waiver is not None
            skaters = list(team["skaters"])
            if eligible_special:
                skaters.append(special[1])
            numbers = team["numbers"]
            # 3.1.2 A-C, R-06: one captain and two alternates, all floor players.
            for i, person in enumerate(skaters):
                tournament_services.roster_add_player(
                    entry=entry,
                    person=person,
                    number=numbers[i],
                    position=Position.PLAYER,
                    captain=i == 0,
                    alternate=i in (1, 2),
                    by=by,
                    now=now,
                )
            for number, person in zip(data.GOALKEEPER_NUMBERS, team["goalkeepers"], strict=True):
                tournament_services.roster_add_player(
                    entry=entry, person=person, number=number, position=Position.GOALKEEPER, by=by, now=now
                )
            for role, person in team["officials"]:
                tournament_services.team_official_add(entry=entry, person=person, role=role, by=by)
            tournament_services.roster_confirm(entry=entry, by=by, now=now)
            if special is not None and not eligible_special:
                # Added after registration, before the first game (3.1.1 B): the player is on the roster,
                # but the service refuses to confirm an ineligible one (1.1 B-G).
                tournament_services.roster_add_player(
                    entry=entry,
                    person=special[1],
                    number=numbers[len(skaters)],
                    position=Position.PLAYER,
                    by=by,
                    now=now + datetime.timedelta(hours=2),
                )
                try:
                    tournament_services.roster_confirm(entry=entry, by=by, now=now + datetime.timedelta(hours=2))
                except ValidationError as exc:
                    self._refused(f"Roster confirmation of {entry.name}", exc)
                else:
                    raise RuntimeError(f"the demo expects {special[1]} to be refused ({special[0].note})")

    def build_schedule(self) -> None:
        director = self.users["firs.staff"]
        spec = data.CHAMPIONSHIP
        pools = {}
        for name in spec.pools:
            pools[name] = tournament_services.pool_create(championship=self.championship, name=name, by=director)
        # Snake seeding: 1 and 4 in A, 2 and 3 in B, 5 and 8 in A, 6 and 7 in B.
        names = list(spec.pools)
        for seed, code in enumerate(data.ENTERED):
            lap, index = divmod(seed, len(names))
            pool = pools[names[index] if lap % 2 == 0 else names[-1 - index]]
            tournament_services.pool_add_entry(pool=pool, entry=self.entries[code], seed=seed + 1, by=director)
        tournament_services.schedule_generate(
            championship=self.championship,
            days=tuple(self.t.day(day) for day in spec.pool_days),
            slot_times=spec.slot_times,
            rinks=self.rinks,
            by=director,
        )
        # 1.3 B: the elimination games, whose teams fill in from the standings; then their times and rinks.
        bracket = tournament_services.bracket_generate(
            championship=self.championship, qualifiers=data.ELIMINATION_QUALIFIERS, by=director
        )
        rinks = {rink.name: rink for rink in self.rinks}
        for game in bracket:
            day, at, rink = data.ELIMINATION_SLOTS[game.bracket_slot]
            start = self.t.local(day, at)
            tournament_services.game_move(game=game, start_at=start, rink=rinks[rink], by=director)

    def build_results(self) -> None:
        """Final results of the first day, with goal, penalty and goalkeeper summaries; one forfeit (8.1 B). One game
        of those days is not entered here: it is played on the sheet and signed (``build_signed_game``)."""
        director = self.users["firs.staff"]
        zone = self.championship.venue.zone
        last_day = self.t.day(data.CHAMPIONSHIP.pool_days[data.RESULT_DAYS - 1])
        games = [
            game
            for game in Game.objects.filter(championship=self.championship, pool__isnull=False)
            .select_related("home", "away")
            .order_by("start_at", "number")
            if game.start_at.astimezone(zone).date() <= last_day
        ]
        forfeiting = self.entries[data.FORFEITING_TEAM]
        forfeit_game = [g for g in games if forfeiting.pk in (g.home_id, g.away_id)][-1]
        # Played on the live sheet and signed instead (build_signed_game): the sheet gives its result.
        signed = self._signed_game()
        if signed.pk == forfeit_game.pk or signed not in games:
            raise RuntimeError("the demo's signed game is a game of the result days other than the forfeit")
        games = [g for g in games if g.pk != signed.pk]
        roster = self._rosters()
        for game in games:
            finished = game.start_at + datetime.timedelta(hours=2)
            if game.pk == forfeit_game.pk:
                # 8.1 B: recorded 1-0, the goal to the winner's captain, no assist, no goalkeeper statistics.
                tournament_services.game_record_result(
                    game=game, decided_in=DecidedIn.FORFEIT, forfeited_by=forfeiting, by=director, now=finished
                )
                continue
            self._final_result(game, roster, finished=finished)

    def _rosters(self) -> dict:
        return _group(
            RosterEntry.objects.filter(entry__championship=self.championship, confirmed=True)
            .select_related("person")
            .order_by("entry_id", "position", "number"),
            key=lambda line: line.entry_id,
        )

    def _final_result(self, game: Game, roster: dict, *, finished: datetime.datetime) -> None:
        """A game's result entered by the staff: the goals, penalties and goalkeepers' lines, then the score."""
        director = self.users["firs.staff"]
        home_goals, away_goals = self.rng.randint(0, 7), self.rng.randint(0, 6)
        sides = ((game.home, home_goals, game.away), (game.away, away_goals, game.home))
        # The goals first: the final score is what the summary's goal lines add up to (5.5.11 B).
        for entry, goals, _ in sides:
            self._game_summary(game, entry, roster[entry.pk], goals=goals, by=director, now=finished)
        tournament_services.game_record_result(
            game=game, home_goals=home_goals, away_goals=away_goals, by=director, now=finished
        )
        for _, goals, opponent in sides:
            goalkeeper = next(line.person for line in roster[opponent.pk] if line.position == Position.GOALKEEPER)
            saves = self.rng.randint(14, 32)
            tournament_services.goalkeeper_record_set(
                game=game,
                entry=opponent,
                goalkeeper=goalkeeper,
                shots_against=saves + goals,
                saves=saves,
                goals_against=goals,
                by=director,
                now=finished,
            )

    # --- the game day (issue 9): officials, line-ups and a live sheet -----------------------------------------------

    def _official_person(self, code: str, first: str, last: str) -> Person:
        return Person.objects.get(federation=self.federations[code], first_name=first, last_name=last)

    def build_official_accounts(self) -> None:
        """The official logins, linked to the registered officials they are (their games in /games/my/)."""
        from games import services as games_services

        for username, official in data.OFFICIAL_ACCOUNTS.items():
            games_services.official_account_link(
                person=self._official_person(*official), user=self.users[username], by=self.users["ihtc.exec"]
            )

    def _crew(self, game: Game, referees, table, *, now: datetime.datetime) -> None:
        """The referees (the first listed is the lead, 4.2 C) and one person keeping every duty of the table."""
        from games import services as games_services
        from games.access import SHEET_DUTIES

        director = self.users["firs.staff"]
        for official in referees:
            games_services.official_assign(
                game=game, person=self._official_person(*official), duty="referee", by=director, now=now
            )
        person = self._official_person(*table)
        for duty in SHEET_DUTIES:  # 4.1 B: one person keeps the time, the penalties and the score
            games_services.official_assign(game=game, person=person, duty=duty, by=director, now=now)

    def _lineups(self, game: Game, *, now: datetime.datetime) -> dict[str, list[int]]:
        """Both teams' line-ups, given by their federations' staff; returns each side's skaters' numbers in order."""
        from games import services as games_services

        codes = {federation.pk: code for code, federation in self.federations.items()}
        skaters = {}
        for side, entry in (("home", game.home), ("away", game.away)):
            lines = list(RosterEntry.objects.filter(entry=entry, confirmed=True).order_by("position", "number", "pk"))
            goalkeepers = [line for line in lines if line.position == Position.GOALKEEPER][:2]
            players = [line for line in lines if line.position == Position.PLAYER][:14]  # 14 and 2
            captain = next((line for line in players if line.captain), players[0])
            choices = [
                games_services.LineupChoice(
                    line.person_id, captain=line.pk == captain.pk, starting=n < 4 or line.pk == goalkeepers[0].pk
                )
                for n, line in enumerate(players + goalkeepers)
            ]
            games_services.lineup_submit(
                game=game, entry=entry, players=choices, by=self.users[data.national_staff_login(codes[entry.federation_id])],
                now=now,
            )  # fmt: skip
            skaters[side] = [int(line.number) for line in players]
        return skaters

    def _console_entry(
        self, kind: str, period: int | None, at: str | None, side: str | None, fields: dict, *, skaters, made
    ) -> dict:
        """One entry as the table's console sends it; players are given by their place among the line-up's skaters."""
        event: dict = {"type": kind}
        if period is not None:
            event["period"] = period
        if at is not None:
            event["time"] = at
        if side is not None:
            event["team"] = side
        numbers = skaters[side] if side else []
        for key, value in fields.items():
            if key == "skater":
                event["player"] = numbers[value]
            elif key == "assist":
                event["assist"] = numbers[value]
            else:
                event[key] = value
        return {**event, "id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)),
                "device_time": made.isoformat(), "clock_offset_ms": 0}  # fmt: skip

    def _signed_game(self) -> Game:
        day, at, rink = data.SIGNED_GAME_SLOT
        start = self.t.local(day, at)
        return Game.objects.select_related("home", "away", "championship", "phase").get(
            championship=self.championship, pool__isnull=False, start_at=start, rink__name=rink
        )

    def build_signed_game(self) -> None:
        """A first-day game played on the live sheet to its end and signed (4.2 O, 4.3 A): its crew and line-ups,
        the whole log entered period by period from the table's console, then the referees', the official
        scorer's and both captains' signatures on the device; the last one makes the sheet final, and the
        finalize pipeline (games.finalize) records the result and summary and queues the official game report."""
        from games import services as games_services
        from games.access import SHEET_DUTIES
        from games.devices import console_sign_in, console_sign_out
        from games.finalize import sheet_sign, signers
        from games.sheet import record_events

        game = self._signed_game()
        assigned_at = self.t.utc(data.CHAMPIONSHIP.start_date) - datetime.timedelta(days=7)
        self._crew(game, data.SIGNED_GAME_REFEREES, data.SIGNED_GAME_TABLE, now=assigned_at)
        skaters = self._lineups(game, now=assigned_at)
        scorer = self.users["scorer"]
        device = "demo-officials-table"
        face_off = game.start_at
        console_sign_in(
            game=game,
            by=scorer,
            device=device,
            duties=list(SHEET_DUTIES),
            now=face_off - datetime.timedelta(minutes=15),
        )
        batches: dict[int, list[dict]] = {}
        made = face_off
        for kind, period, at, side, fields in data.SIGNED_GAME_ENTRIES:
            if at is not None:  # the device's time: each period takes about half an hour, a break between
                minutes, seconds = (int(part) for part in at.split(":"))
                made = face_off + datetime.timedelta(
                    minutes=40 * (period - 1), seconds=int((minutes * 60 + seconds) * 1.5)
                )
            else:
                made += datetime.timedelta(minutes=1)
            batch = batches.setdefault(period or max(batches), [])
            batch.append(self._console_entry(kind, period, at, side, fields, skaters=skaters, made=made))
        for events in batches.values():
            sent = datetime.datetime.fromisoformat(events[-1]["device_time"]) + datetime.timedelta(seconds=30)
            record_events(game=game, by=scorer, device=device, events=events, now=sent)
        order = ["referee", "scorer", "home_captain", "away_captain"]
        for signer in signers(game):  # each captain signs with a login of their own (4.3 A; issue 23)
            if signer.role.endswith("_captain") and signer.login is None:
                user = self.users[signer.role.replace("_", ".")]
                user.first_name, user.last_name = signer.person.first_name, signer.person.last_name
                user.save(update_fields=["first_name", "last_name"])
                games_services.official_account_link(person=signer.person, user=user, by=self.users["ihtc.exec"])
        signing = [s for s in signers(game) if s.role in order]  # a captain signs for the team (4.3 A)
        signing.sort(key=lambda s: order.index(s.role))  # stable: the lead referee first (4.2 C)
        signed_at = sent
        for signer in signing:
            signed_at += datetime.timedelta(minutes=2)
            # Handed the table's device, each signer types their own PIN; the scorer signs as the login itself.
            pin = "" if signer.login == scorer else data.DEMO_PIN
            sheet_sign(
                game=game, by=scorer, role=signer.role, person=signer.person, device=device, pin=pin, now=signed_at
            )
        console_sign_out(game=game, by=scorer, device=device, now=signed_at + datetime.timedelta(minutes=1))
        game.refresh_from_db()
        if game.status != GameStatus.FINAL:
            raise RuntimeError("the demo expects its signed sheet game to be final after the last signature")
        self.signed_game = game

    def place_today(self) -> None:
        """Today's four round-robin games, moved around now (2.1: no team, no rink twice within a game's slot): one
        ended an hour ago (its protest window still open, 9.1 B), one is live (face-off ten minutes ago), two are
        still to play later today."""
        director = self.users["firs.staff"]
        zone = self.t.zone
        today = self.t.day(data.CHAMPIONSHIP.pool_days[data.RESULT_DAYS])
        games = [
            g
            for g in Game.objects.filter(championship=self.championship, pool__isnull=False)
            .select_related("home", "away")
            .order_by("start_at", "number")
            if g.start_at.astimezone(zone).date() == today
        ]
        managed = {self.entries[login.scope].pk for login in data.LOGINS if login.role == Role.TEAM_MANAGER}
        crew = {self.federations[code].pk for code, *_ in data.LIVE_GAME_REFEREES}
        recent = next(g for g in games if {g.home_id, g.away_id} & managed)
        live = next(
            g
            for g in games
            if g.pk != recent.pk and not {g.home.federation_id, g.away.federation_id} & crew
        )
        later = [g for g in games if g.pk not in (recent.pk, live.pk)]
        # Out of the way first (after the championship), so that no move meets a game not moved yet.
        parked = self.t.venue(self.t.day(data.CHAMPIONSHIP.end_date) + datetime.timedelta(days=30), 6)
        for n, game in enumerate(games):
            tournament_services.game_move(game=game, start_at=parked + datetime.timedelta(hours=3 * n), by=director)
        rink_a, rink_b = self.rinks[0], self.rinks[1]
        plan = [(recent, self.t.recent_face_off, rink_b), (live, self.t.live_face_off, rink_a)]
        plan += [(game, self.t.later_today(2), rink) for game, rink in zip(later, (rink_a, rink_b), strict=False)]
        for game, start, rink in plan:
            tournament_services.game_move(game=game, start_at=start, rink=rink, by=director)
        self.later_games = later
        self.recent_game = Game.objects.select_related("home", "away", "championship").get(pk=recent.pk)
        self.live_game = Game.objects.select_related("home", "away", "championship", "phase").get(pk=live.pk)

    def build_game_day(self) -> None:
        """Today's live game: its crew, both line-ups, its captains' logins and its first period so far, entered
        from the table's console (the rest is played while the portal runs: demo.live, ``manage.py demo_live``)."""
        from demo import live
        from games import services as games_services
        from games.access import SHEET_DUTIES
        from games.devices import console_sign_in
        from games.finalize import signers
        from games.sheet import record_events

        game = self.live_game
        assigned_at = self.t.utc(data.CHAMPIONSHIP.start_date) - datetime.timedelta(days=7)
        self._crew(game, data.LIVE_GAME_REFEREES, data.LIVE_GAME_TABLE, now=assigned_at)
        self._lineups(game, now=assigned_at)
        # The same crew has the next game on its rink later today (their homes' "next games").
        self._crew(self.later_games[0], data.LIVE_GAME_REFEREES, data.LIVE_GAME_TABLE, now=assigned_at)
        for signer in signers(game):  # each captain signs with a login of their own (4.3 A)
            if signer.role.endswith("_captain") and signer.login is None:
                user = self.users["live." + signer.role.replace("_", ".")]
                user.first_name, user.last_name = signer.person.first_name, signer.person.last_name
                user.save(update_fields=["first_name", "last_name"])
                games_services.official_account_link(person=signer.person, user=user, by=self.users["ihtc.exec"])
        scorer = self.users["scorer"]
        face_off = game.start_at
        console_sign_in(game=game, by=scorer, device=data.LIVE_GAME_DEVICE, duties=list(SHEET_DUTIES), now=face_off)
        skaters = live.skater_numbers(game)
        script = live.steps()
        entries = [
            live.entry(game, n, script[n], skaters=skaters, made=face_off + datetime.timedelta(minutes=n))
            for n in range(len(data.LIVE_GAME_ENTRIES))
        ]
        record_events(
            game=game, by=scorer, device=data.LIVE_GAME_DEVICE, events=entries,
            now=face_off + datetime.timedelta(minutes=len(entries)),
        )  # fmt: skip

    def build_recent_game(self) -> None:
        """The game that ended an hour ago: played under an administrative protest made before its start, its
        result entered by the staff; the protesting team's manager filed the written protest a quarter of an hour
        ago, so its fee is due within the half hour left of the 9.1 B window and the opponents' answer (R-51)
        within hours."""
        from discipline import protests as protest_services
        from discipline.models import ProtestKind
        from games.services import protest_mark_record

        game = self.recent_game
        managed = {
            self.entries[login.scope].pk: login.username for login in data.LOGINS if login.role == "team_manager"
        }
        entry = game.home if game.home_id in managed else game.away
        mark = protest_mark_record(
            game=game, entry=entry, subject="equipment", details="the opponents' sticks' blade curves",
            by=self.users["firs.staff"], now=game.start_at - datetime.timedelta(minutes=20),
        )  # fmt: skip
        self._final_result(game, self._rosters(), finished=self.t.recent_end)
        protest_services.protest_file(
            by=self.users[managed[entry.pk]], game=game, entry=entry, kind=ProtestKind.ADMINISTRATIVE,
            incident=f"mark:{mark.pk}", now=self.t.now - datetime.timedelta(minutes=15),
            statement="Two of the opponents' sticks had blades curved past the limit (3.2.2 C); we protested before "
            "the start and confirm it in writing (9.1 B). The fee follows.",
        )  # fmt: skip

    def _game_summary(
        self, game: Game, entry: TeamEntry, lines: list[RosterEntry], *, goals: int, by: User, now: datetime.datetime
    ) -> None:
        skaters = [line.person for line in lines if line.position == Position.PLAYER]
        times = sorted((self.rng.randint(1, 2), self.rng.randint(100, 11900)) for _ in range(goals))
        for period, tenths in times:
            scorer = self.rng.choice(skaters)
            assist = self.rng.choice([p for p in skaters if p.pk != scorer.pk]) if self.rng.random() < 0.7 else None
            tournament_services.goal_add(
                game=game, entry=entry, scorer=scorer, assist=assist, period=period, time_tenths=tenths, by=by, now=now
            )
        for _ in range(self.rng.randint(1, 3)):
            tournament_services.penalty_add(
                game=game,
                entry=entry,
                person=self.rng.choice(skaters),
                infraction_code=self.rng.choice(_MINOR_CODES),
                minutes=2,
                period=self.rng.randint(1, 2),
                time_tenths=self.rng.randint(100, 11900),
                by=by,
                now=now,
            )


def _group(items, *, key):
    groups: dict = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def build_world(now: datetime.datetime) -> WorldSummary:
    """Build the demo world around ``now`` into an empty database (the caller holds the transaction)."""
    return WorldBuilder(Timeline(now, data.VENUE.time_zone)).build()


def _row(kind: str, *fields) -> str:
    return "|".join([kind, *("" if f is None else str(f) for f in fields)])


def world_digest() -> str:
    """Return a SHA-256 of the world's key facts: names, dates, numbers, results; never ids or wall-clock times."""
    rows: list[str] = []
    for f in Federation.objects.select_related("parent").order_by("name"):
        parent = f.parent.name if f.parent else ""
        rows.append(_row("F", f.name, f.short_name, f.country, f.level, parent, f.firs_affiliated, f.good_standing))
    for p in Person.objects.select_related("federation").order_by("federation__name", "last_name", "first_name"):
        roles = [p.is_player, p.is_goalkeeper, p.is_team_official, p.is_referee, p.is_official]
        rows.append(
            _row(
                "P", p.federation.short_name, p.last_name, p.first_name, p.date_of_birth, p.gender, p.nationality, roles
            )
        )
    for pp in Passport.objects.select_related("person").order_by("issuing_country", "number"):
        rows.append(_row("PP", pp.person.last_name, pp.issuing_country, pp.number, pp.expiry_date, bool(pp.scan)))
    for w in EligibilityWaiver.objects.select_related("person", "approved_by").order_by("person__last_name", "code"):
        rows.append(_row("W", w.person.last_name, w.code, w.category, w.year, w.approved_by.username, w.approved_at))
    for e in EquipmentModel.objects.order_by("kind", "manufacturer", "model_name"):
        rows.append(_row("EQ", e.kind, e.manufacturer, e.model_name, e.certifications, e.approved, e.approved_on))
    for i in EquipmentInspection.objects.select_related("person").order_by("inspected_at"):
        rows.append(_row("I", i.person.last_name, i.kind, i.compliant, len(i.violations), i.inspected_at))
    for r in ProtectiveDeviceRequest.objects.select_related("person").order_by("submitted_at"):
        rows.append(_row("D", r.person.last_name, r.status, r.submitted_at, r.decided_at))
    for c in Championship.objects.select_related("venue").order_by("name"):
        rows.append(
            _row("C", c.name, c.category, c.level, c.start_date, c.end_date, c.entry_closing_date, c.entry_fee, c.venue)
        )
    for e in TeamEntry.objects.order_by("name").prefetch_related("managers"):
        managers = sorted(u.username for u in e.managers.all())
        rows.append(_row("E", e.name, e.status, e.fee_paid, e.fee_paid_amount, e.entered_at, managers))
    for r in RosterEntry.objects.select_related("entry", "person").order_by("entry__name", "position", "number"):
        person = r.person
        rows.append(
            _row("R", r.entry.name, r.number, person.last_name, person.first_name, r.position, r.captain, r.alternate,
                 r.confirmed)
        )  # fmt: skip
    for t in TeamOfficial.objects.select_related("entry", "person").order_by("entry__name", "role"):
        rows.append(_row("T", t.entry.name, t.role, t.person.last_name))
    for m in PoolTeam.objects.select_related("pool", "entry").order_by("pool__name", "seed"):
        rows.append(_row("PT", m.pool.name, m.seed, m.entry.name))
    for g in Game.objects.select_related("pool", "home", "away", "rink").order_by("number"):
        rows.append(
            _row("G", g.number, g.pool, g.bracket_slot, g.home_source, g.away_source, g.home, g.away, g.rink,
                 g.start_at, g.status, g.home_goals, g.away_goals,
                 g.decided_in, g.forfeited_by_id is not None)
        )  # fmt: skip
    goals = GoalRecord.objects.select_related("game", "scorer", "assist").order_by(
        "game__number", "period", "time_tenths"
    )
    for gr in goals:
        assist = gr.assist.last_name if gr.assist else ""
        rows.append(
            _row("GR", gr.game.number, gr.scorer.last_name, assist, gr.period, gr.time_tenths, gr.forfeit_award)
        )
    penalties = PenaltyRecord.objects.select_related("game", "person").order_by("game__number", "period", "time_tenths")
    for pr in penalties:
        who = pr.person.last_name if pr.person else ""
        rows.append(_row("PR", pr.game.number, who, pr.infraction_code, pr.minutes, pr.period, pr.time_tenths))
    for k in GoalkeeperRecord.objects.select_related("game", "goalkeeper").order_by(
        "game__number", "goalkeeper__last_name"
    ):
        rows.append(_row("K", k.game.number, k.goalkeeper.last_name, k.shots_against, k.saves, k.goals_against))
    for u in User.objects.order_by("username").prefetch_related("role_assignments__federation"):
        roles = sorted(f"{a.role}@{a.federation.short_name if a.federation else ''}" for a in u.role_assignments.all())
        rows.append(_row("U", u.username, u.first_name, u.last_name, u.is_staff, u.is_superuser, roles))
    rows.append(_row("POOLS", Pool.objects.count()))
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def _venue_time(moment: datetime.datetime, zone) -> str:
    return f"{moment.astimezone(zone):%a %d %b %H:%M}"


def happening_now(url: str) -> list[str]:
    """What the demo world holds now, with who sees it and where (the logins table's second part); empty when
    the database holds no demo world."""
    from demo import live
    from discipline.models import Case, Deadline, DeadlineStatus, Suspension, SuspensionKind, SuspensionStatus

    championship = (
        Championship.objects.filter(name__endswith=data.CHAMPIONSHIP_NAME_END).select_related("venue").first()
    )
    if championship is None:
        return []
    zone = championship.venue.zone
    lines = [f"Happening now (times on the venue's clock, {championship.venue.time_zone}):"]
    lines.append(
        f"- {championship.name}, day 2: yesterday's games final, today's being played: {url}tournaments/"
        f"{championship.pk}/ (everyone, no login)."
    )
    game = live.live_game()
    if game is not None and game.status == GameStatus.FINAL:
        lines.append(
            f"- Played live today: game #{game.number}, {game.home.name} {game.home_goals} - {game.away_goals} "
            f"{game.away.name}, final and signed: {url}games/{game.pk}/live/ (everyone)."
        )
    elif game is not None:
        lines.append(
            f"- LIVE: game #{game.number}, {game.home.name} - {game.away.name}, face-off {_venue_time(game.start_at, zone)}: "
            f"{url}games/{game.pk}/live/ (everyone). Played by `manage.py demo_live` through the officials' console "
            "service: score, clock and penalties move; once it ends its officials sign it and the standings follow. "
            "The scorer login sees its console (/games/my/)."
        )
    for deadline in (
        Deadline.objects.filter(
            status=DeadlineStatus.OPEN, protest__game__championship=championship, due_at__gt=live_now()
        )
        .select_related("protest__game", "protest__entry")
        .order_by("due_at")
    ):
        protest = deadline.protest
        lines.append(
            f"- Protest of {protest.entry.name} on game #{protest.game.number} (ended "
            f"{_venue_time(protest.incident_at, zone)}): {deadline.get_kind_display().lower()} due "
            f"{_venue_time(deadline.due_at, zone)} (Rule {deadline.article}); its team manager and the discipline "
            "login see it (/discipline/protests/)."
        )
    for case in Case.objects.filter(hearing_at__gt=live_now()).order_by("hearing_at"):
        lines.append(
            f'- Hearing of "{case.title}": {_venue_time(case.hearing_at, zone)} (the discipline login, '
            "/discipline/reports/)."
        )
    for suspension in Suspension.objects.filter(
        status=SuspensionStatus.ACTIVE, kind=SuspensionKind.GAMES, entry__isnull=False
    ).select_related("person", "entry"):
        upcoming = (
            Game.objects.filter(status=GameStatus.SCHEDULED, start_at__gt=live_now())
            .filter(models.Q(home=suspension.entry) | models.Q(away=suspension.entry))
            .order_by("start_at")
            .first()
        )
        if upcoming is not None:
            lines.append(
                f"- {suspension.person} ({suspension.entry.name}) is suspended for {suspension.games_required} "
                f"game(s) (Rule {suspension.article}), starting with game #{upcoming.number}, "
                f"{_venue_time(upcoming.start_at, zone)}."
            )
    return lines


def live_now() -> datetime.datetime:
    from django.utils import timezone

    return timezone.now()
