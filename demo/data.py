"""The data of the demo world (``python manage.py demo``): plain constants, no Django import.

Everything here is fixed; the builder (``demo.world``) draws
the rest (names, birth dates, passport numbers) from ``random.Random(SEED)``,
so every run builds the same world.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

SEED = 2017

# One password for every demo login; it passes the validators of settings.AUTH_PASSWORD_VALIDATORS.
DEMO_PASSWORD = "rink-side-2027"  # pragma: allowlist secret
# Every demo login's signing PIN (accounts.pins): a signer types it on the officials' device to sign a game report.
DEMO_PIN = "270727"  # pragma: allowlist secret
# The portal's address in the logins table when nobody says otherwise (`make run` passes PORTAL_URL from HOST/PORT).
DEMO_URL = "http://127.0.0.1:8000/"

# Every date below is written for a championship starting on 3 July 2027; the builder moves them all whole days
# (demo.timeline.Timeline) so that the championship starts yesterday on the venue's clock, whatever today is.


@dataclass(frozen=True)
class BodyData:
    key: str
    name: str
    short_name: str
    website: str
    contact_name: str
    address: str
    parent: str = ""  # key of the parent body


@dataclass(frozen=True)
class NationalData:
    code: str  # IOC-style code: usernames and keys (ita.staff)
    country: str  # ISO 3166-1 alpha-2
    name: str
    short_name: str
    continent: str  # key of the continental body
    city: str
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    passport_prefix: str
    good_standing: bool = True
    team_name: str = ""


FIRS = BodyData(
    key="firs",
    name="Federation Internationale de Roller Sports",
    short_name="FIRS",
    website="https://firs.example.org",
    contact_name="FIRS Secretariat",
    address="Avenue de Rhodanie 54, 1007 Lausanne, Switzerland",
)

CONTINENTAL = (
    BodyData(
        "europe",
        "Confederation Europeenne de Roller Skating",
        "CERS",
        "https://cers.example.org",
        "CERS Office",
        "Lisbon, Portugal",
        "firs",
    ),
    BodyData(
        "americas",
        "Confederacion Panamericana de Patinaje",
        "CPP",
        "https://cpp.example.org",
        "CPP Secretaria",
        "Bogota, Colombia",
        "firs",
    ),
    BodyData(
        "asia",
        "Confederation of Asia Roller Sports",
        "CARS",
        "https://cars.example.org",
        "CARS Office",
        "Taipei, Chinese Taipei",
        "firs",
    ),
    BodyData(
        "oceania",
        "Oceania Roller Sports",
        "ORS",
        "https://ors.example.org",
        "ORS Office",
        "Wellington, New Zealand",
        "firs",
    ),
    BodyData(
        "africa",
        "African Roller Sports Confederation",
        "ARSC",
        "https://arsc.example.org",
        "ARSC Office",
        "Cairo, Egypt",
        "firs",
    ),
)

NATIONAL = (
    NationalData(
        "ita", "IT", "Federazione Italiana Sport Rotellistici", "FISR", "europe", "Rome",
        ("Marco", "Luca", "Andrea", "Matteo", "Alessandro", "Davide", "Simone", "Federico", "Riccardo", "Stefano",
         "Giorgio", "Paolo", "Nicola", "Filippo", "Tommaso", "Lorenzo", "Gabriele", "Michele", "Daniele", "Enrico"),
        ("Rossi", "Bianchi", "Ferrari", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
         "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti", "Barbieri",
         "Fontana", "Santoro", "Mariani", "Rinaldi", "Caruso", "Ferri", "Galli", "Martini", "Leone", "Longo"),
        "YA", team_name="Italy",
    ),
    NationalData(
        "esp", "ES", "Real Federacion Espanola de Patinaje", "RFEP", "europe", "Madrid",
        ("Javier", "Pablo", "Sergio", "Alejandro", "David", "Carlos", "Jorge", "Alberto", "Ivan", "Raul",
         "Adrian", "Diego", "Marc", "Oriol", "Pau", "Jordi", "Hugo", "Alvaro", "Ruben", "Victor"),
        ("Garcia", "Fernandez", "Gonzalez", "Rodriguez", "Lopez", "Martinez", "Sanchez", "Perez", "Gomez", "Martin",
         "Jimenez", "Ruiz", "Hernandez", "Diaz", "Moreno", "Alvarez", "Romero", "Navarro", "Torres", "Dominguez",
         "Vazquez", "Ramos", "Gil", "Serrano", "Blanco", "Molina", "Ortega", "Castro", "Rubio", "Marin"),
        "PA", team_name="Spain",
    ),
    NationalData(
        "fra", "FR", "Federation Francaise de Roller et Skateboard", "FFRS", "europe", "Bordeaux",
        ("Pierre", "Julien", "Nicolas", "Thomas", "Antoine", "Maxime", "Alexandre", "Romain", "Quentin", "Clement",
         "Hugo", "Theo", "Baptiste", "Lucas", "Adrien", "Florian", "Mathieu", "Kevin", "Yann", "Loic"),
        ("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
         "Simon", "Laurent", "Lefebvre", "Michel", "Garnier", "David", "Bertrand", "Roux", "Vincent", "Fournier",
         "Morel", "Girard", "Andre", "Mercier", "Dupont", "Lambert", "Bonnet", "Francois", "Fontaine", "Chevalier"),
        "19AF", team_name="France",
    ),
    NationalData(
        "ger", "DE", "Deutscher Rollsport und Inline-Verband", "DRIV", "europe", "Dusseldorf",
        ("Lukas", "Jonas", "Felix", "Maximilian", "Leon", "Tim", "Jan", "Niklas", "Florian", "Tobias",
         "Sebastian", "Moritz", "Philipp", "Dominik", "Kevin", "Patrick", "Marcel", "Christian", "Fabian", "Stefan"),
        ("Muller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
         "Koch", "Richter", "Klein", "Wolf", "Schroder", "Neumann", "Schwarz", "Braun", "Zimmermann", "Kruger",
         "Hartmann", "Lange", "Werner", "Krause", "Lehmann", "Keller", "Vogel", "Frank", "Berger", "Kaiser"),
        "C", team_name="Germany",
    ),
    NationalData(
        "sui", "CH", "Swiss Roller Sports Federation", "SRSF", "europe", "Biel",
        ("Nico", "Luca", "Noah", "Jan", "Yannick", "Raphael", "Dario", "Silvan", "Reto", "Marco",
         "Fabio", "Joel", "Samuel", "Cedric", "Kevin", "Pascal", "Lars", "Gian", "Dominic", "Simon"),
        ("Muller", "Meier", "Schmid", "Keller", "Weber", "Huber", "Schneider", "Meyer", "Steiner", "Fischer",
         "Gerber", "Brunner", "Baumann", "Frei", "Zimmermann", "Moser", "Widmer", "Wyss", "Graf", "Roth",
         "Kuhn", "Baumgartner", "Suter", "Bucher", "Marti", "Kaufmann", "Egli", "Hofer", "Favre", "Rochat"),
        "X", team_name="Switzerland",
    ),
    NationalData(
        "cze", "CZ", "Czech Roller Sports Federation", "CRSF", "europe", "Pardubice",
        ("Jakub", "Jan", "Tomas", "Lukas", "Martin", "Ondrej", "Petr", "David", "Michal", "Filip",
         "Vojtech", "Adam", "Matej", "Pavel", "Marek", "Josef", "Radek", "Jiri", "Vaclav", "Stepan"),
        ("Novak", "Svoboda", "Novotny", "Dvorak", "Cerny", "Prochazka", "Kucera", "Vesely", "Horak", "Nemec",
         "Pokorny", "Marek", "Pospisil", "Hajek", "Jelinek", "Kral", "Ruzicka", "Benes", "Fiala", "Sedlacek",
         "Dolezal", "Zeman", "Kolar", "Navratil", "Cermak", "Urban", "Vanek", "Blaha", "Kriz", "Kovar"),
        "4", team_name="Czech Republic",
    ),
    NationalData(
        "usa", "US", "USA Roller Sports", "USARS", "americas", "Lincoln",
        ("Ethan", "Tyler", "Brandon", "Ryan", "Kyle", "Austin", "Justin", "Cody", "Jake", "Zachary",
         "Logan", "Connor", "Mason", "Hunter", "Dylan", "Garrett", "Trevor", "Chase", "Brett", "Derek"),
        ("Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
         "Moore", "Jackson", "White", "Harris", "Clark", "Lewis", "Walker", "Hall", "Allen", "Young",
         "King", "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson", "Carter", "Mitchell"),
        "5", team_name="USA",
    ),
    NationalData(
        "arg", "AR", "Confederacion Argentina de Patin", "CAP", "americas", "San Juan",
        ("Matias", "Nicolas", "Facundo", "Santiago", "Agustin", "Franco", "Lucas", "Tomas", "Gonzalo", "Ezequiel",
         "Federico", "Julian", "Maximiliano", "Joaquin", "Ignacio", "Leandro", "Emiliano", "Bruno", "Lautaro",
         "Mariano"),
        ("Gonzalez", "Rodriguez", "Gomez", "Fernandez", "Lopez", "Diaz", "Martinez", "Perez", "Romero", "Sosa",
         "Alvarez", "Torres", "Ruiz", "Ramirez", "Flores", "Acosta", "Benitez", "Medina", "Herrera", "Suarez",
         "Aguirre", "Gimenez", "Gutierrez", "Pereyra", "Rojas", "Molina", "Castro", "Ortiz", "Silva", "Nunez"),
        "AAB", team_name="Argentina",
    ),
    NationalData(
        "por", "PT", "Federacao de Patinagem de Portugal", "FPP", "europe", "Lisbon",
        ("Joao", "Tiago", "Rui", "Pedro", "Miguel", "Goncalo", "Diogo", "Andre", "Ricardo", "Nuno"),
        ("Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins", "Sousa",
         "Fernandes", "Goncalves", "Lopes", "Marques", "Almeida", "Ribeiro"),
        "CB",
    ),
    NationalData(
        "gbr", "GB", "British Roller Sports Federation", "BRSF", "europe", "Birmingham",
        ("Oliver", "Harry", "Jack", "George", "Charlie", "Thomas", "James", "William", "Daniel", "Samuel"),
        ("Bennett", "Walker", "Wright", "Thompson", "Evans", "Roberts", "Hughes", "Edwards", "Green", "Wood",
         "Turner", "Parker", "Collins", "Cooper", "Morris"),
        "12",
    ),
    NationalData(
        "chi", "CL", "Federacion Chilena de Hockey y Patinaje", "FECHIPA", "americas", "Santiago",
        ("Cristobal", "Benjamin", "Vicente", "Martin", "Joaquin", "Sebastian", "Ignacio", "Felipe", "Diego",
         "Matias"),
        ("Munoz", "Rojas", "Diaz", "Soto", "Contreras", "Silva", "Martinez", "Sepulveda", "Morales", "Araya",
         "Fuentes", "Valenzuela", "Espinoza", "Reyes", "Castillo"),
        "F",
        # 1.1 A: dues for 2027 in arrears; its entry is refused (see the demo output).
        good_standing=False,
    ),
    NationalData(
        "col", "CO", "Federacion Colombiana de Patinaje", "FEDEPATIN", "americas", "Bogota",
        ("Juan", "Andres", "Camilo", "Sebastian", "Santiago", "Felipe", "Mateo", "Daniel", "Esteban", "Alejandro"),
        ("Rodriguez", "Gomez", "Gonzalez", "Martinez", "Garcia", "Lopez", "Hernandez", "Sanchez", "Ramirez",
         "Perez", "Cardenas", "Restrepo", "Ospina", "Vargas", "Mejia"),
        "AS",
    ),
    NationalData(
        "aus", "AU", "Skate Australia", "SKA", "oceania", "Melbourne",
        ("Jack", "Lachlan", "Cooper", "Riley", "Mitchell", "Hayden", "Brodie", "Jayden", "Bailey", "Kieran"),
        ("Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor", "Nguyen", "Kelly", "Ryan", "Walsh",
         "Campbell", "Murphy", "Stewart", "Harrison", "Clarke"),
        "PA",
    ),
    NationalData(
        "ind", "IN", "Roller Skating Federation of India", "RSFI", "asia", "New Delhi",
        ("Arjun", "Rohan", "Vikram", "Aditya", "Karan", "Rahul", "Siddharth", "Nikhil", "Aman", "Pranav"),
        ("Sharma", "Verma", "Gupta", "Singh", "Kumar", "Patel", "Reddy", "Nair", "Iyer", "Mehta",
         "Chopra", "Malhotra", "Bose", "Joshi", "Rao"),
        "Z",
    ),
    NationalData(
        "rsa", "ZA", "Roller Sports South Africa", "RSSA", "africa", "Johannesburg",
        ("Thabo", "Sipho", "Ruan", "Pieter", "Johan", "Lwazi", "Kagiso", "Dewald", "Ethan", "Liam"),
        ("Nkosi", "Dlamini", "van der Merwe", "Botha", "Naidoo", "Mokoena", "Pretorius", "Khumalo", "du Plessis",
         "Ndlovu", "Venter", "Smit", "Coetzee", "Mahlangu", "Jacobs"),
        "M",
    ),
)  # fmt: skip

# The eight teams of the championship, in seeding order; pools are drawn by snake seeding.
ENTERED = ("cze", "usa", "fra", "ita", "esp", "ger", "sui", "arg")
# A federation that tries to enter and is refused (1.1 A: not in good standing).
REFUSED_ENTRY = "chi"


@dataclass(frozen=True)
class VenueData:
    name: str
    city: str
    country: str
    time_zone: str
    # (name, surface, length m, width m, board height m, corner radius m): both meet 2.1 C for world level.
    rinks: tuple[tuple[str, str, str, str, str, str], ...]


VENUE = VenueData(
    name="PalaRoller Vicenza",
    city="Vicenza",
    country="IT",
    time_zone="Europe/Rome",
    rinks=(
        ("Rink A", "sport_tile", "50.00", "25.00", "1.070", "5.00"),
        ("Rink B", "sport_tile", "56.00", "28.00", "1.100", "5.00"),
    ),
)


@dataclass(frozen=True)
class ChampionshipData:
    name: str
    category: str
    level: str
    start_date: datetime.date
    end_date: datetime.date
    entry_closing_date: datetime.date
    entry_fee: str
    currency: str
    sanctioning_body: str
    # Game days of the round robin and the local start times of the slots.
    pool_days: tuple[datetime.date, ...]
    slot_times: tuple[datetime.time, ...]
    pools: tuple[str, ...] = field(default=("A", "B"))
    # Published by its directors as soon as it is set up: everyone sees it, and entries open.
    published: bool = True


CHAMPIONSHIP = ChampionshipData(
    name="{year} Inline Hockey World Championship - Senior Men",
    category="senior_men",
    level="world",
    start_date=datetime.date(2027, 7, 3),
    end_date=datetime.date(2027, 7, 10),
    entry_closing_date=datetime.date(2027, 5, 31),
    entry_fee="200.00",
    currency="USD",
    sanctioning_body="firs",
    pool_days=(datetime.date(2027, 7, 3), datetime.date(2027, 7, 4), datetime.date(2027, 7, 5)),
    slot_times=(datetime.time(10, 0), datetime.time(13, 0), datetime.time(16, 0), datetime.time(19, 0)),
)

# What every demo championship's name ends with (the name starts with its year).
CHAMPIONSHIP_NAME_END = "Inline Hockey World Championship - Senior Men"

# The elimination phase (1.3 B): all eight teams go to the quarter-finals, losers play on for every place.
# Each bracket game is moved to its local day and time and its rink: code -> (day, time, rink name).
ELIMINATION_QUALIFIERS = 4
ELIMINATION_SLOTS = {
    "QF1": (datetime.date(2027, 7, 7), datetime.time(13, 0), "Rink A"),
    "QF2": (datetime.date(2027, 7, 7), datetime.time(13, 0), "Rink B"),
    "QF3": (datetime.date(2027, 7, 7), datetime.time(17, 0), "Rink A"),
    "QF4": (datetime.date(2027, 7, 7), datetime.time(17, 0), "Rink B"),
    "P5-8 SF1": (datetime.date(2027, 7, 8), datetime.time(13, 0), "Rink B"),
    "P5-8 SF2": (datetime.date(2027, 7, 8), datetime.time(17, 0), "Rink B"),
    "SF1": (datetime.date(2027, 7, 9), datetime.time(16, 0), "Rink A"),
    "SF2": (datetime.date(2027, 7, 9), datetime.time(19, 30), "Rink A"),
    "P7": (datetime.date(2027, 7, 10), datetime.time(10, 0), "Rink B"),
    "P5": (datetime.date(2027, 7, 10), datetime.time(13, 0), "Rink B"),
    "P3": (datetime.date(2027, 7, 10), datetime.time(15, 0), "Rink A"),
    "F": (datetime.date(2027, 7, 10), datetime.time(18, 30), "Rink A"),
}

# Results are entered for the games of the round robin's first day (venue date); the others stay scheduled.
RESULT_DAYS = 1
# 8.1 B: this team forfeits its last game of those days (recorded 1-0 to the winner's captain).
FORFEITING_TEAM = "arg"

# When each federation's entry was made and its fee paid (local dates; before the closing date, 1.1 A).
ENTRY_DATE = datetime.date(2027, 3, 1)
FEE_PAID_DATE = datetime.date(2027, 4, 15)
ROSTER_CONFIRMED_DATE = datetime.date(2027, 6, 20)

# Roster shape: 14 floor players + 2 goalkeepers (3.1.1 A, R-04).
SKATERS_PER_TEAM = 14
GOALKEEPERS_PER_TEAM = 2
GOALKEEPER_NUMBERS = ("1", "30")
OFFICIAL_ROLES = ("manager", "coach", "assistant_coach", "trainer")

# People of the federations that do not enter a team: some players for the registry.
PLAYERS_PER_OTHER_FEDERATION = 6


@dataclass(frozen=True)
class SpecialPlayer:
    """A player whose eligibility the demo is about; replaces one floor player of ``team``."""

    team: str
    key: str
    first_name: str
    last_name: str
    date_of_birth: datetime.date
    gender: str
    nationality: str
    passports: tuple[tuple[str, datetime.date], ...]  # (issuing country, expiry)
    note: str
    waiver: tuple[str, str] | None = None  # (code, reason) granted by the IHTC


SPECIAL_PLAYERS = (
    SpecialPlayer(
        "ger", "expired", "Jonas", "Albrecht", datetime.date(1996, 8, 14), "M", "DE",
        (("DE", datetime.date(2027, 7, 6)),),
        "passport expires on the championship's fourth day, before its last (1.1 B, R-03)",
    ),
    SpecialPlayer(
        "cze", "too_young", "Matyas", "Brabec", datetime.date(2012, 4, 18), "M", "CZ",
        (("CZ", datetime.date(2032, 4, 30)),),
        "14 on 1 January 2027: too young for Senior Men (1.1 F, R-01)",
    ),
    SpecialPlayer(
        "usa", "wrong_nationality", "Connor", "MacLeod", datetime.date(1999, 2, 3), "M", "CA",
        (("CA", datetime.date(2031, 9, 30)),),
        "Canadian national with a Canadian passport on the USA roster (1.1 B, R-03)",
    ),
    SpecialPlayer(
        "fra", "woman", "Camille", "Rousseau", datetime.date(2000, 11, 21), "F", "FR",
        (("FR", datetime.date(2033, 1, 31)),),
        "a woman on a Senior Men roster (1.1 F, R-02)",
    ),
    SpecialPlayer(
        "esp", "waived", "Marc", "Casal", datetime.date(1997, 6, 9), "M", "AD",
        (("ES", datetime.date(2030, 10, 31)), ("AD", datetime.date(2029, 5, 31))),
        "Andorran national with a valid Spanish passport: eligible under an IHTC waiver (R-03)",
        waiver=(
            "wrong_nationality",
            "Dual Andorran-Spanish national, resident in Spain since 2005 and registered with the RFEP since 2010; "
            "Andorra has no inline hockey federation. Granted by the IHTC on the RFEP's request of 12 January 2027.",
        ),
    ),
)  # fmt: skip

# Referees and other game officials: (federation code, first name, last name, gender, referee?, game official?).
GAME_OFFICIALS = (
    ("gbr", "Oliver", "Bennett", "M", True, False),
    ("gbr", "James", "Turner", "M", True, False),
    ("por", "Tiago", "Marques", "M", True, False),
    ("por", "Ana", "Ribeiro", "F", True, False),
    ("aus", "Mitchell", "Clarke", "M", True, False),
    ("ind", "Siddharth", "Iyer", "M", True, False),
    ("col", "Valentina", "Ospina", "F", True, False),
    ("rsa", "Pieter", "Venter", "M", True, False),
    ("ita", "Stefano", "Fontana", "M", True, False),
    ("ger", "Tobias", "Hartmann", "M", True, False),
    ("usa", "Garrett", "Mitchell", "M", True, False),
    ("esp", "Jordi", "Serrano", "M", True, True),
    ("ita", "Paolo", "Santoro", "M", False, True),
    ("ita", "Giulia", "Rinaldi", "F", False, True),
    ("ita", "Michele", "Caruso", "M", False, True),
    ("sui", "Reto", "Gerber", "M", False, True),
    ("cze", "Radek", "Dolezal", "M", False, True),
)


@dataclass(frozen=True)
class LoginData:
    username: str
    first_name: str
    last_name: str
    role: str  # an accounts.models.Role value, "superuser", or ""
    scope: str = ""  # federation key or code for federation staff; team code for a team manager
    sees: str = ""


# The named logins; every national federation also gets "<code>.staff" (see national_staff_login).
LOGINS = (
    LoginData(
        "admin", "Ada", "Admin", "superuser", sees="Everything, including the Django admin (/admin/) and its history."
    ),
    LoginData(
        "ihtc.exec",
        "Hans",
        "Lindqvist",
        "ihtc_executive",
        sees="Every federation, person and passport; keeps the federation registry; grants waivers (R-03), "
        "approves equipment (3.2.6 A) and protective devices (3.2.8 C).",
    ),
    LoginData(
        "firs.staff",
        "Elise",
        "Moret",
        "federation_staff",
        scope="firs",
        sees="International staff: every federation's people and passports; directs the championship "
        "(/tournaments/: entries, fees, schedule, results).",
    ),
    LoginData(
        "cers.staff",
        "Rui",
        "Carvalho",
        "federation_staff",
        scope="europe",
        sees="Continental staff (CERS): every federation's people and passports.",
    ),
    LoginData(
        "ita.manager",
        "Fabio",
        "Marchetti",
        "team_manager",
        scope="ita",
        sees="Team manager of Italy: /tournaments/my-entries/, their team's entry and roster with each player's "
        "eligibility; another team's entry is refused.",
    ),
    LoginData(
        "usa.manager",
        "Dana",
        "Whitfield",
        "team_manager",
        scope="usa",
        sees="Team manager of USA: /tournaments/my-entries/, their team's entry and roster (MacLeod: not eligible, "
        "unconfirmed).",
    ),
    LoginData(
        "referee",
        "Oliver",
        "Bennett",
        "game_official",
        sees="Referee / game official: people's names and data across federations, never passports.",
    ),
    LoginData(
        "scorer",
        "Jordi",
        "Serrano",
        "game_official",
        sees="The officials' table of the demo's live game (timekeeper, penalty timekeeper, scorer): /games/my/, "
        "its line-ups and its console; also of a first-day game played on the sheet to its end and signed.",
    ),
    LoginData(
        "second.referee",
        "Tiago",
        "Marques",
        "game_official",
        sees="The second referee of the first-day game signed on the sheet: signed its report with his PIN "
        "(4.2 O; each signer signs in person).",
    ),
    LoginData(
        "home.captain",
        "Home",
        "Captain",
        "",
        sees="The home captain of the first-day game signed on the sheet, a login of their own without a role: "
        "signed its report with the PIN (4.3 A).",
    ),
    LoginData(
        "away.captain",
        "Away",
        "Captain",
        "",
        sees="The away captain of that game, likewise (4.3 A).",
    ),
    LoginData(
        "live.home.captain",
        "Home",
        "Captain",
        "",
        sees="The home captain of today's live game, a login of their own without a role: signs its report with "
        "the PIN once it ends (4.3 A; `manage.py demo_live` signs for them when it plays the game to its end).",
    ),
    LoginData(
        "live.away.captain",
        "Away",
        "Captain",
        "",
        sees="The away captain of today's live game, likewise (4.3 A).",
    ),
    LoginData(
        "discipline",
        "Ines",
        "Albuquerque",
        "discipline_committee",
        sees="Discipline committee member: /discipline/reports/ (the incident reports' queue, a case with its "
        "hearing), /discipline/protests/ (one under review to decide, one rejected); people's names, never passports.",
    ),
)


# The game day (issue 9): the first round-robin game after the result days is being played. Its crew: the two
# referees (the first listed is the lead, 4.2 C; neither of either team's federation, R-08) and one person at the
# officials' table (4.1 B: a small event), each a (federation code, first name, last name) of GAME_OFFICIALS.
LIVE_GAME_REFEREES = (("gbr", "Oliver", "Bennett"), ("por", "Tiago", "Marques"))
LIVE_GAME_TABLE = ("esp", "Jordi", "Serrano")
# Which official login belongs to which registered official (games.OfficialAccount).
OFFICIAL_ACCOUNTS = {
    "referee": ("gbr", "Oliver", "Bennett"),
    "second.referee": ("por", "Tiago", "Marques"),
    "scorer": LIVE_GAME_TABLE,
}
# The first period so far, entered from the table's console: (type, game time, side, fields). Players are picked
# by their place on the line-up (skater index), so the entries follow whatever numbers the rosters drew.
LIVE_GAME_ENTRIES = (
    ("period_start", "0:00", None, {}),
    ("shot", "1:10", "home", {"skater": 2}),
    ("goal", "3:12", "home", {"skater": 1, "assist": 3}),
    ("clock_start", "3:12", None, {}),
    ("shot", "5:02", "away", {"skater": 0}),
    ("penalty", "6:40", "away", {"skater": 4, "infraction": "tripping", "penalty": "minor"}),
    ("clock_start", "6:40", None, {}),
    ("shot", "7:05", "home", {"skater": 0}),
    ("clock_stop", "7:31", None, {}),
)

# The rest of the live game, played while the portal runs (`manage.py demo_live`, started by `make run`):
# (type, period, game time, side, fields) as in SIGNED_GAME_ENTRIES. Home wins 3-1; the away minor of period 1
# ends on its own (nobody scores in its 2 minutes), the home minor of period 2 too.
LIVE_GAME_REST = (
    ("clock_start", 1, "7:31", None, {}),
    ("shot", 1, "9:15", "home", {"skater": 5}),
    ("shot", 1, "11:02", "away", {"skater": 1}),
    ("goal", 1, "12:48", "away", {"skater": 2, "assist": 3}),
    ("clock_start", 1, "12:48", None, {}),
    ("shot", 1, "16:30", "home", {"skater": 3}),
    ("period_end", 1, "20:00", None, {}),
    ("period_start", 2, "0:00", None, {}),
    ("shot", 2, "2:20", "away", {"skater": 4}),
    ("goal", 2, "4:05", "home", {"skater": 0, "assist": 1}),
    ("clock_start", 2, "4:05", None, {}),
    ("penalty", 2, "8:30", "home", {"skater": 6, "infraction": "hooking", "penalty": "minor"}),
    ("clock_start", 2, "8:30", None, {}),
    ("shot", 2, "9:45", "away", {"skater": 4}),
    ("shot", 2, "13:10", "home", {"skater": 2}),
    ("goal", 2, "15:52", "home", {"skater": 3, "assist": 0}),
    ("clock_start", 2, "15:52", None, {}),
    ("shot", 2, "18:20", "away", {"skater": 0}),
    ("period_end", 2, "20:00", None, {}),
    ("game_end", None, None, None, {}),
)
# The live game's pace on the real clock: the game clock runs in real time; each stoppage (a goal, a penalty, a
# time-out) lasts this long before the clock starts again, and the intermission between the periods (1.2 A).
LIVE_STOPPAGE_SECONDS = 30
LIVE_INTERMISSION_SECONDS = 5 * 60  # 1.2 A: five minutes at half time
# Who plays the game from the officials' table (its console's login and device).
LIVE_GAME_DEVICE = "demo-officials-table"


# A game of the result days played on the live sheet to its end and signed (4.2 O, 4.3 A): its last signature makes
# it final (games.finalize), so the sheet, not the staff, gives its result and summary. Its slot (local day and
# start, rink); the live game's crew keeps it (neither team of either referee's federation, R-08).
SIGNED_GAME_SLOT = (datetime.date(2027, 7, 3), datetime.time(19, 0), "Rink A")
SIGNED_GAME_REFEREES = LIVE_GAME_REFEREES
SIGNED_GAME_TABLE = LIVE_GAME_TABLE
# Its whole log, home 3-2: (type, period, game time, side, fields) as in LIVE_GAME_ENTRIES; two minors, each
# ended by a power-play goal (6.2.1 B), shots on both sides, and the game's end.
SIGNED_GAME_ENTRIES = (
    ("period_start", 1, "0:00", None, {}),
    ("shot", 1, "2:15", "home", {"skater": 3}),
    ("goal", 1, "4:08", "home", {"skater": 1, "assist": 2}),
    ("clock_start", 1, "4:08", None, {}),
    ("penalty", 1, "6:30", "away", {"skater": 5, "infraction": "hooking", "penalty": "minor"}),
    ("clock_start", 1, "6:30", None, {}),
    ("shot", 1, "7:40", "home", {"skater": 0}),
    ("goal", 1, "8:02", "home", {"skater": 0, "assist": 1}),
    ("clock_start", 1, "8:02", None, {}),
    ("shot", 1, "11:20", "away", {"skater": 2}),
    ("goal", 1, "14:45", "away", {"skater": 3, "assist": 0}),
    ("clock_start", 1, "14:45", None, {}),
    ("period_end", 1, "20:00", None, {}),
    ("period_start", 2, "0:00", None, {}),
    ("shot", 2, "3:30", "away", {"skater": 1}),
    ("penalty", 2, "5:10", "home", {"skater": 6, "infraction": "holding", "penalty": "minor"}),
    ("clock_start", 2, "5:10", None, {}),
    ("goal", 2, "6:20", "away", {"skater": 2, "assist": 4}),
    ("clock_start", 2, "6:20", None, {}),
    ("shot", 2, "9:00", "home", {"skater": 4}),
    ("goal", 2, "12:34", "home", {"skater": 5, "assist": 3}),
    ("clock_start", 2, "12:34", None, {}),
    ("shot", 2, "15:10", "away", {"skater": 0}),
    ("period_end", 2, "20:00", None, {}),
    ("game_end", None, None, None, {}),
)


def national_staff_login(code: str) -> str:
    return f"{code}.staff"


# Approved equipment models (3.2.6 A): (kind, manufacturer, model, certifications, approved).
EQUIPMENT_MODELS = (
    ("helmet", "Bauer", "Re-Akt 85", ("CSA", "HECC", "CE"), True),
    ("helmet", "CCM", "Tacks 310", ("CSA", "HECC"), True),
    ("helmet", "Warrior", "Covert PX2", ("CE",), True),
    ("face_protection", "Bauer", "Concept III Full Cage", ("CSA", "HECC"), True),
    ("face_protection", "Oakley", "Straight Pro Visor", ("CE",), True),
    ("goalkeeper_mask", "Bauer", "NME 10", ("CSA", "CE"), True),
    ("goalkeeper_mask", "Vaughn", "Ventus SLR", ("CSA",), True),
    # Registered, not approved: no certification yet.
    ("helmet", "Rinkline", "Street Pro", (), False),
)
EQUIPMENT_APPROVED_ON = datetime.date(2027, 2, 1)
