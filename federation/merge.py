"""Merging two records of one person (international staff): the duplicate's rows move to the record kept.

The federation app moves its own rows (passports, waivers, waiver requests, inspections, device requests); the apps
above it move theirs through ``federation.hooks.person_merge``, each registering in its ``AppConfig.ready`` the
fields it keeps (``register_person_fields``). The duplicate is then deleted: its history stays, and the history of
both records names who merged them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext

from federation import hooks
from federation.access import can_merge_people
from portal.services import audited_delete, audited_save

from .models import Person

# The federation app's own rows about a person, moved by the merge itself.
FEDERATION_PERSON_FIELDS = (
    ("federation", "Passport", "person"),
    ("federation", "EligibilityWaiver", "person"),
    ("federation", "WaiverRequest", "person"),
    ("federation", "EquipmentInspection", "person"),
    ("federation", "ProtectiveDeviceRequest", "person"),
)


def field_label(model: type[models.Model], field: str) -> str:
    """The name a merge handler covers: ``app_label.Model.field``."""
    return f"{model._meta.app_label}.{model.__name__}.{field}"


def repoint(fields: Iterable[tuple[type[models.Model], str]], *, keep: Person, duplicate: Person) -> dict[str, int]:
    """Point every row of ``fields`` (model, field name) naming ``duplicate`` at ``keep``; return the rows moved per
    field. A row that may name a person once (a roster, a line-up) and names both is refused with the list's name."""
    moved = {}
    for model, field in fields:
        try:
            with transaction.atomic():
                moved[field_label(model, field)] = model._default_manager.filter(**{field: duplicate}).update(
                    **{field: keep}
                )
        except IntegrityError:
            raise ValidationError(
                gettext(
                    "Portal rule (merge): both records appear in the same %(list)s, where a person is named once; "
                    "remove the duplicate's line there first. Nothing was merged."
                )
                % {"list": model._meta.verbose_name}
            ) from None
    return moved


def register_person_fields(app: str, fields: Iterable[tuple[type[models.Model], str]]) -> None:
    """Register ``app``'s merge handler: it re-points ``fields`` (each a ForeignKey or one-to-one field to Person)."""
    fields = tuple(fields)

    def handler(*, keep: Person, duplicate: Person) -> dict[str, int]:
        return repoint(fields, keep=keep, duplicate=duplicate)

    handler.__name__ = handler.__qualname__ = f"{app}_person_merge"
    hooks.person_merge.register(app, handler, covers=[field_label(model, field) for model, field in fields])


def person_foreign_keys() -> list[tuple[type[models.Model], str]]:
    """Every ForeignKey or one-to-one field, of every installed model, to Person (history tables aside: they keep
    the past as it was), in a fixed order."""
    from django.apps import apps
    from simple_history.models import HistoricalChanges

    found = []
    for model in apps.get_models():
        if issubclass(model, HistoricalChanges):
            continue
        for field in model._meta.get_fields():
            if field.is_relation and field.concrete and field.related_model is Person and not field.many_to_many:
                found.append((model, field.name))
    return sorted(found, key=lambda item: field_label(*item))


def _own_fields() -> list[tuple[type[models.Model], str]]:
    from django.apps import apps

    return [(apps.get_model(app, model), field) for app, model, field in FEDERATION_PERSON_FIELDS]


def covered_fields() -> frozenset[str]:
    """Every ``app_label.Model.field`` the merge re-points: the federation's own and the registered handlers'."""
    return frozenset(field_label(model, field) for model, field in _own_fields()) | hooks.person_merge.covered


def check_can_merge_people(user) -> None:
    """Portal rule (merge): international staff merge two records of one person."""
    if not can_merge_people(user):
        raise PermissionDenied(gettext("Portal rule (merge): only international staff merge two records of a person."))


def check_merge(keep: Person, duplicate: Person) -> None:
    """Portal rule (merge): two different records."""
    if keep.pk == duplicate.pk:
        raise ValidationError(gettext("Portal rule (merge): choose another record than this one to merge into it."))


def person_merge(*, keep: Person, duplicate: Person, by) -> dict[str, int]:
    """Merge ``duplicate`` into ``keep``: every row about the duplicate (passports, waivers, roster lines, line-ups,
    sheets, sanctions...) names ``keep`` instead, the duplicate is deleted, and both histories name ``by`` and the
    merge. Return the rows moved per field. All or nothing: a refused move leaves both records as they were."""
    check_can_merge_people(by)
    check_merge(keep, duplicate)
    with transaction.atomic():
        # Two people merging the same records at once: the second finds the duplicate gone.
        locked = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=[keep.pk, duplicate.pk])}
        if len(locked) != 2:
            raise ValidationError(gettext("Portal rule (merge): one of the two records no longer exists."))
        keep, duplicate = locked[keep.pk], locked[duplicate.pk]
        moved = repoint(_own_fields(), keep=keep, duplicate=duplicate)
        for answer in hooks.person_merge(keep=keep, duplicate=duplicate).values():
            moved.update(answer)
        total = sum(moved.values())
        audited_save(keep, by, reason=f"Merged person #{duplicate.pk} ({duplicate}) into this record: {total} rows")
        audited_delete(duplicate, by, reason=f"Merged into person #{keep.pk} ({keep})")
    return moved
