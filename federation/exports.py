"""The people list as a download (CSV or XLSX): the rows and columns the user may read, with the list's filters."""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from federation.access import passports_visible_to, reads_confidential_records

from .selectors import person_list

# Kinds of download, by the name in the URL.
EXPORT_KINDS = ("csv", "xlsx")


def _roles(person) -> str:
    labels = (
        (person.is_player, pgettext("person role", "player")),
        (person.is_goalkeeper, pgettext("person role", "goalkeeper")),
        (person.is_team_official, pgettext("person role", "team official")),
        (person.is_referee, pgettext("person role", "referee")),
        (person.is_official, pgettext("person role", "game official")),
    )
    return ", ".join(label for held, label in labels if held)


def people_table(user, *, search: str = "", federation_id=None, role: str = "") -> tuple[list[str], list[list]]:
    """The header and rows of the people ``user`` may see, filtered as the people list; passport columns only for
    those who read passports (``reads_confidential_records``), each row showing only the passports they may read
    (``passports_visible_to``). Two queries whatever the length."""
    with_passports = reads_confidential_records(user)
    people = person_list(user, search=search, federation_id=federation_id, role=role)
    header = [
        _("Last name"),
        _("First name"),
        _("Federation"),
        _("Date of birth"),
        _("Gender"),
        _("Nationality"),
        _("Roles"),
    ]
    if with_passports:
        header += [_("Passport issued by"), _("Passport number"), _("Passport expiry date")]
        people = people.prefetch_related(
            Prefetch(
                "passports", queryset=passports_visible_to(user).order_by("-expiry_date", "pk"), to_attr="readable"
            )
        )
    rows = []
    for person in people:
        row = [
            person.last_name,
            person.first_name,
            person.federation.name,
            person.date_of_birth,
            person.get_gender_display(),
            str(person.nationality.name),
            _roles(person),
        ]
        if with_passports:
            latest = person.readable[0] if person.readable else None
            row += [
                str(latest.issuing_country.name) if latest else "",
                latest.number if latest else "",
                latest.expiry_date if latest else None,
            ]
        rows.append(row)
    return header, rows
