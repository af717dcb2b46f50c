"""REST API of the federation register: thin views over the access layer and the services.

Each endpoint: the access layer scopes the list or gates the object
(``federation.access``; 404 for what the user may not know of, 403 for what
they may see but not change), an input serializer checks the shape of the
request, a service of ``federation.services`` checks the rule and writes, an
output serializer answers. Stored files (passport scans, prescriptions) are
never served here: the answers give the URL of their guarded page view.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from federation import access, merge
from federation.hooks import person_eligibility
from portal.api import RulesPermission, ServiceAnswerMixin
from portal.parsers import JSONParser

from . import services
from .eligibility import Category
from .filters import (
    EligibilityWaiverFilter,
    EquipmentInspectionFilter,
    EquipmentModelFilter,
    FederationFilter,
    PassportFilter,
    PersonFilter,
    ProtectiveDeviceRequestFilter,
)
from .models import EligibilityWaiver, Person, WaiverRequestStatus
from .serializers import (
    DeviceRequestDecisionSerializer,
    DeviceRequestInputSerializer,
    DeviceRequestResubmitSerializer,
    EligibilityQuerySerializer,
    EligibilityWaiverInputSerializer,
    EligibilityWaiverSerializer,
    EquipmentInspectionInputSerializer,
    EquipmentInspectionSerializer,
    EquipmentModelInputSerializer,
    EquipmentModelSerializer,
    EquipmentModelUpdateSerializer,
    FederationSerializer,
    PassportInputSerializer,
    PassportRenewSerializer,
    PassportSerializer,
    PassportUpdateSerializer,
    PersonCreateSerializer,
    PersonEligibilitySerializer,
    PersonMergeInputSerializer,
    PersonMergeSerializer,
    PersonSerializer,
    ProtectiveDeviceRequestSerializer,
    WaiverRequestDecisionSerializer,
    WaiverRequestInputSerializer,
    WaiverRequestSerializer,
)

_WRITE_ACTIONS = {"create", "update", "partial_update", "destroy"}


def _person_for(user, person_id, *, field: str = "person", for_edit: bool = True) -> Person:
    """Return the person a request body names; an unknown (or invisible) one is a 400 naming ``field``."""
    try:
        return access.access_person(user, person_id, for_edit=for_edit)
    except Http404:
        raise ValidationError(
            {field: gettext("No person with id %(person_id)s in the records you may see.") % {"person_id": person_id}}
        ) from None


class AccessViewSet(ServiceAnswerMixin, viewsets.GenericViewSet):
    """Objects come from an ``access_*`` gate, lists from a ``*_visible_to`` selector.

    Each subclass defines ``access_object(pk, *, for_edit)`` with its gate.
    """

    permission_classes = [RulesPermission]
    permission_required: dict[str, str] = {}

    def get_object(self):
        obj = self.access_object(self.kwargs[self.lookup_url_kwarg or self.lookup_field], for_edit=self.is_write())
        self.check_object_permissions(self.request, obj)
        return obj

    def is_write(self) -> bool:
        return self.action in _WRITE_ACTIONS


# --- Federations -------------------------------------------------------------------------


@extend_schema_view(
    retrieve=extend_schema(
        summary="A federation's registry entry (any logged-in user)",
        description="Its level, parent body, FIRS affiliation and good standing (1.1 A) and contact details.",
    ),
    list=extend_schema(
        summary="Federations (any logged-in user)",
        description="The registry of national and international federations (FIRS and the continental bodies). 1.1 A: a national team is entered by its national federation, affiliated with FIRS and in good standing; filter on ``firs_affiliated`` and ``good_standing`` to see who may enter. Filters: country, level, parent; search in name and short name.",
    ),
    create=extend_schema(
        summary="Register a federation (IHTC executives)",
        description="IHTC executives only (403 otherwise). 1.1 A: one national federation per country; an international body has no country. A refusal names the field and the rule (400).",
    ),
    update=extend_schema(
        summary="Change a federation's registry entry (IHTC executives)",
        description="Replaces every writable field; IHTC executives only. The checks of registering apply (1.1 A: one national federation per country).",
    ),
    partial_update=extend_schema(
        summary="Change some fields of a federation (IHTC executives)",
        description="Only the fields sent change; IHTC executives only. The checks of registering apply (1.1 A: one national federation per country).",
    ),
)
class FederationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = FederationSerializer
    filterset_class = FederationFilter
    search_fields = ["name", "short_name"]
    ordering_fields = ["name", "short_name", "country", "level"]
    ordering = ["name"]
    permission_required = {
        "list": "federation.view_federation",
        "retrieve": "federation.view_federation",
        "create": "federation.add_federation",
        "update": "federation.change_federation",
        "partial_update": "federation.change_federation",
    }

    def get_queryset(self):
        return access.federations_visible_to(self.request.user)

    def access_object(self, pk, *, for_edit):
        return access.access_federation(self.request.user, pk, for_edit=for_edit)

    def create(self, request, *args, **kwargs):
        data = self.input(FederationSerializer)
        # 1.1 A (one national federation per country) is checked by the service, as in the admin.
        federation = services.federation_create(by=request.user, **data)
        return self.answer(federation, created=True)

    def update(self, request, *args, partial=False, **kwargs):
        federation = self.get_object()
        data = self.input(FederationSerializer, instance=federation, partial=partial)
        return self.answer(services.federation_update(federation=federation, by=request.user, **data))

    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, partial=True, **kwargs)


# --- People ------------------------------------------------------------------------------


@extend_schema_view(
    retrieve=extend_schema(
        summary="A person you may see",
        description="404 for a person outside the records your roles let you see (federation.access), "
        "so an id reveals nothing.",
    ),
    update=extend_schema(
        summary="Change a person's record (every field)",
        description="Staff of the person's federation, or international staff (403 otherwise). The checks of "
        "registering apply; a 400 names the field.",
    ),
    partial_update=extend_schema(
        summary="Change some fields of a person's record",
        description="Only the fields sent change. Staff of the person's federation, or international staff; "
        "the checks of registering apply.",
    ),
    list=extend_schema(
        summary="People you may see (national staff: your federation's; international: all)",
        description="Scoped by the access layer (``federation.access``): national staff see their federation's people, international staff and IHTC executives everyone; other roles only the people their roles concern. Filters: federation, country, level, gender, nationality, role, birth dates and passport expiry (the facts of 1.1 B-G); search in the names.",
    ),
    create=extend_schema(
        summary="Register a person in a federation you work for",
        description='Staff of the federation, or international staff (403 otherwise). The nationality is an ISO 3166-1 alpha-2 code and the date of birth a plausible one (a 400 names the field); eligibility (1.1 B-G) is computed from the record, never sent. As on the page "Register a person" (federation.services.person_register): a person you may see with the same name and date of birth refuses the registration (a 400 naming ``register_anyway`` and those records) unless ``register_anyway`` is true.',
        request=PersonCreateSerializer,
        responses={201: PersonSerializer},
        examples=[
            OpenApiExample(
                "Refused: a namesake",
                value={
                    "register_anyway": [
                        "Portal rule (no silent duplicate): Ana Ruiz (Federación Española) already has this name "
                        "and date of birth. Open that record, or confirm this is another person to register anyway."
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    ),
)
class PersonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = PersonSerializer
    filterset_class = PersonFilter
    search_fields = ["first_name", "last_name"]
    ordering_fields = ["last_name", "first_name", "date_of_birth", "federation__name", "nationality"]
    ordering = ["last_name", "first_name", "pk"]
    permission_required = {
        "list": "federation.view_person",
        "retrieve": "federation.view_person",
        "create": "federation.add_person",
        "update": "federation.change_person",
        "partial_update": "federation.change_person",
        "eligibility": "federation.view_person_eligibility",
        "merge": "federation.view_person",
    }

    def get_queryset(self):
        return access.people_visible_to(self.request.user).select_related("federation")

    def access_object(self, pk, *, for_edit):
        return access.access_person(self.request.user, pk, for_edit=for_edit)

    def create(self, request, *args, **kwargs):
        data = self.input(PersonCreateSerializer)
        anyway = data.pop("register_anyway")
        try:
            person = services.person_register(by=request.user, allow_duplicate=anyway, **data)
        except ValidationError as refused:
            if getattr(refused, "code", None) == "duplicate":
                raise ValidationError({"register_anyway": refused.messages}) from None
            raise
        return self.answer(person, created=True)

    def update(self, request, *args, partial=False, **kwargs):
        person = self.get_object()
        data = self.input(PersonSerializer, instance=person, partial=partial)
        return self.answer(services.person_update(person=person, by=request.user, **data))

    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(
        summary="Merge a duplicate record of this person into this one (international staff)",
        description="International staff only (403 for anyone else, before any record is looked up), as the page "
        '"Merge a duplicate" does (federation.merge.person_merge): every row about ``duplicate`` (passports, '
        "waivers, roster lines, line-ups, sheets, sanctions...) then names this person, and the duplicate is "
        "deleted; both histories name who merged. All or nothing: a refused merge (400: the two records' "
        "federations, a roster both are on...) leaves both as they were. Answers the kept record and the rows "
        "moved per field.",
        request=PersonMergeInputSerializer,
        responses={200: PersonMergeSerializer},
        examples=[
            OpenApiExample("Merge #57 into this record", value={"duplicate": 57}, request_only=True),
            OpenApiExample(
                "Merged",
                value={
                    "person": {
                        "id": 41,
                        "federation_name": "Federación Española",
                        "federation": 3,
                        "first_name": "Ana",
                        "last_name": "Ruiz",
                        "date_of_birth": "2008-03-14",
                        "gender": "F",
                        "nationality": "ES",
                    },
                    "moved": {"federation.Passport.person": 1, "tournaments.RosterEntry.person": 1},
                },  # fmt: skip
                response_only=True,
                status_codes=["200"],
            ),
            OpenApiExample(
                "Refused: not international staff",
                value={"detail": "Portal rule (merge): only international staff merge two records of a person."},
                response_only=True,
                status_codes=["403"],
            ),
            OpenApiExample(
                "Refused: the duplicate is this record",
                value={"duplicate": ["No person with id 41 in the records you may see, other than this one."]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    def merge(self, request, pk=None):
        merge.check_can_merge_people(request.user)
        keep = self.get_object()
        data = self.input(PersonMergeInputSerializer)
        if data["duplicate"] == keep.pk:
            raise ValidationError(
                {
                    "duplicate": gettext("No person with id %(pk)s in the records you may see, other than this one.")
                    % {"pk": keep.pk}
                }
            )
        duplicate = _person_for(request.user, data["duplicate"], field="duplicate", for_edit=False)
        moved = merge.person_merge(keep=keep, duplicate=duplicate, by=request.user)
        keep.refresh_from_db()
        return self.answer({"person": keep, "moved": moved}, serializer_class=PersonMergeSerializer)

    @extend_schema(
        summary="The person's eligibility: in each championship entered, else in every category (Rule 1.1 B-G)",
        description="First ``championships``: each championship whose roster names the person, checked for its "
        "category, dates, team country and ruleset (Rule 1.1 B-G, R-01..R-03). Then ``assumed``, an assumed "
        "championship in every category, only when the person is entered nowhere or the query asks for one: "
        "``year`` (dates 1-10 July) or ``start_date`` and ``end_date``, entered by the federation of "
        "``team_country`` (default: the person's federation); otherwise null. Each category lists the reasons "
        "with their articles, and the reasons an IHTC waiver lifts (R-03).",
        parameters=[EligibilityQuerySerializer],
        responses=PersonEligibilitySerializer,
    )
    @action(detail=True, methods=["get"])
    def eligibility(self, request, pk=None):
        person = self.get_object()
        query = EligibilityQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        data = eligibility_answer(
            person,
            year=params.get("year"),
            start_date=params.get("start_date"),
            end_date=params.get("end_date"),
            team_country=params.get("team_country") or None,
        )
        return Response(data)


def eligibility_answer(person: Person, *, year=None, start_date=None, end_date=None, team_country=None) -> dict:
    """A person's eligibility as the API answers it (``PersonEligibilitySerializer``): the person's page's answer,
    also what the webhooks tell a federation when it changes."""
    prefetch_related_objects(
        [person],
        "passports",
        Prefetch("eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")),
    )
    found = person_eligibility(person, year=year, start_date=start_date, end_date=end_date, team_country=team_country)
    championships = []
    for line, result in found.entered:
        championship = line.entry.championship
        category = Category(championship.category)
        championships.append(
            {
                "championship": championship.pk,
                "championship_name": championship.name,
                "entry": line.entry.pk,
                "team": line.entry.name,
                "start_date": championship.start_date,
                "end_date": championship.end_date,
                "team_country": str(line.entry.federation.country.code or ""),
                **_category_row(category, result),
            }
        )
    assumed = found.assumed
    data = {
        "person": person.pk,
        "championships": championships,
        "assumed": assumed
        and {
            "start_date": assumed.start_date,
            "end_date": assumed.end_date,
            "team_country": assumed.team_country,
            "categories": [_category_row(category, result) for category, result in assumed.results.items()],
        },
    }
    return PersonEligibilitySerializer(data).data


def _category_row(category: Category, result) -> dict:
    """One category's verdict: reasons with their articles, and what an IHTC waiver lifts (R-03)."""
    return {
        "category": category.value,
        "label": category.label,
        "article": category.article,
        "eligible": result.eligible,
        "reasons": [_reason(r) for r in result.reasons],
        "waived": [{**_reason(r), "waiver_reason": w.reason, "approved_by": w.approved_by} for r, w in result.waived],
    }


def _reason(reason) -> dict:
    return {"code": reason.code, "article": reason.article, "message": reason.message, "field": reason.field}


# --- Passports -----------------------------------------------------------------------------


@extend_schema_view(
    retrieve=extend_schema(
        summary="A passport's metadata (1.1 B)",
        description="Seen with its holder; 404 otherwise. ``scan_url`` is the guarded page serving the scan, "
        "null when none is stored.",
    ),
    list=extend_schema(
        summary="Passports you may see (metadata; the scan through scan_url only)",
        description="A passport is seen with its holder (the people you may see). 1.1 B: a player holds a valid passport of the country he represents. Filters: person, federation, issuing country, expiry dates, has_scan. The scan is never in the answer: ``scan_url`` is the guarded page serving it, null without a scan.",
    ),
    create=extend_schema(
        summary="Record a passport (1.1 B); the scan as multipart, checked by its content",
        description="Staff of the holder's federation, or international staff. 1.1 B: the passport proves the nationality the player represents; the issuing country is an ISO 3166-1 alpha-2 code. The scan (JPEG, PNG or PDF) is checked by its content, not by its name or claimed type.",
        request={"multipart/form-data": PassportInputSerializer, "application/json": PassportInputSerializer},
        responses={201: PassportSerializer},
    ),
    destroy=extend_schema(
        summary="Delete a passport and its scan (the history keeps its data)",
        description="Staff of the holder's federation, or international staff. The scan file is deleted; the audit history keeps the passport's data (who, when).",
    ),
    partial_update=extend_schema(
        summary="Change a passport; a new scan replaces the old one, clear_scan removes it",
        description="Only the fields sent change; the holder (``person``) cannot, and naming it is a 400. Staff of the holder's federation, or international staff. The new scan is checked like the first (1.1 B).",
        request={"multipart/form-data": PassportUpdateSerializer, "application/json": PassportUpdateSerializer},
        responses=PassportSerializer,
    ),
)
class PassportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = PassportSerializer
    filterset_class = PassportFilter
    parser_classes = [JSONParser, MultiPartParser, FormParser]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    search_fields = ["number", "person__last_name", "person__first_name"]
    ordering_fields = ["expiry_date", "number", "issuing_country"]
    ordering = ["-expiry_date", "pk"]
    permission_required = {
        "list": "federation.view_passport",
        "retrieve": "federation.view_passport",
        "create": "federation.add_passport",
        "partial_update": "federation.change_passport",
        "destroy": "federation.delete_passport",
        "renew": "federation.change_passport",
    }

    def get_queryset(self):
        return access.passports_visible_to(self.request.user).select_related("person")

    def access_object(self, pk, *, for_edit):
        return access.access_passport(self.request.user, pk, for_edit=for_edit)

    def create(self, request, *args, **kwargs):
        data = self.input(PassportInputSerializer)
        person = _person_for(request.user, data["person"])
        passport = services.passport_add(
            person=person,
            issuing_country=data["issuing_country"],
            number=data["number"],
            expiry_date=data["expiry_date"],
            scan=data.get("scan"),
            by=request.user,
        )
        return self.answer(passport, created=True)

    def partial_update(self, request, *args, **kwargs):
        passport = self.get_object()
        data = self.input(PassportUpdateSerializer, partial=True)
        passport = services.passport_update(passport=passport, by=request.user, **data)
        return self.answer(passport)

    def destroy(self, request, *args, **kwargs):
        services.passport_remove(passport=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def is_write(self) -> bool:
        return super().is_write() or self.action == "renew"

    @extend_schema(
        summary="Renew a passport (1.1 B): a new passport of the same holder, with its scan; the old one stays",
        description="Staff who keep the holder's record (403 for a passport they may see but not change, 404 for "
        'one they may not see), as the page "Renew" does (federation.services.passport_renew). The renewal '
        "expires after the passport it renews (1.1 B; otherwise change that passport instead); the issuing "
        "country is the old one's unless sent; the scan as multipart, checked by its content.",
        request={"multipart/form-data": PassportRenewSerializer, "application/json": PassportRenewSerializer},
        responses={201: PassportSerializer},
        examples=[
            OpenApiExample("Renewed", value={"number": "YA7654321", "expiry_date": "2036-05-31"}, request_only=True),
            OpenApiExample(
                "Recorded",
                value={
                    "id": 77,
                    "person": 41,
                    "person_name": "Ana Ruiz",
                    "federation": 3,
                    "issuing_country": "ES",
                    "number": "YA7654321",
                    "expiry_date": "2036-05-31",
                    "has_scan": True,
                    "scan_content_type": "image/jpeg",
                    "scan_url": "/federation/passports/77/scan/",
                },  # fmt: skip
                response_only=True,
                status_codes=["201"],
            ),
            OpenApiExample(
                "Refused: expires first",
                value={
                    "expiry_date": [
                        "Rule 1.1 B: a renewed passport expires after the one it renews (2030-01-31); to correct "
                        "that passport, change it instead."
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    def renew(self, request, pk=None):
        old = self.get_object()
        data = self.input(PassportRenewSerializer)
        passport = services.passport_renew(passport=old, by=request.user, **data)
        return self.answer(passport, created=True)


# --- Eligibility waivers (R-03) -------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="IHTC waivers you may see (R-03)",
        description="A waiver lifts one 1.1 B condition for one person, for one category and year or for all "
        "(R-03). Seen with the person. Filters: person, federation, code, category, year.",
    ),
    retrieve=extend_schema(
        summary="An IHTC waiver (R-03)",
        description="Who approved it and when; 404 for a waiver of a person you may not see.",
    ),
    create=extend_schema(
        summary="Grant an IHTC waiver of a 1.1 B condition (R-03; international staff)",
        description="International staff only (R-03: only the IHTC grants an exception). ``code`` names the waivable 1.1 B condition (e.g. no passport), for one category and year or all; ``reason`` says why. The person's eligibility then lists the reason as waived.",
        request=EligibilityWaiverInputSerializer,
        responses={201: EligibilityWaiverSerializer},
    ),
)
class EligibilityWaiverViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = EligibilityWaiverSerializer
    filterset_class = EligibilityWaiverFilter
    search_fields = ["person__last_name", "person__first_name", "reason"]
    ordering_fields = ["approved_at", "year"]
    ordering = ["-approved_at", "pk"]
    permission_required = {
        "list": "federation.view_eligibilitywaiver",
        "retrieve": "federation.view_eligibilitywaiver",
        "create": "federation.add_eligibilitywaiver",
    }

    def get_queryset(self):
        return access.waivers_visible_to(self.request.user).select_related("person", "approved_by")

    def access_object(self, pk, *, for_edit):
        return access.access_waiver(self.request.user, pk)

    def create(self, request, *args, **kwargs):
        data = self.input(EligibilityWaiverInputSerializer)
        person = _person_for(request.user, data["person"], for_edit=False)
        waiver = services.waiver_grant(
            person=person,
            code=data["code"],
            reason=data["reason"],
            category=data["category"],
            year=data["year"],
            approved_by=request.user,
        )
        return self.answer(waiver, created=True)


@extend_schema_view(
    list=extend_schema(
        summary="Waiver requests (R-03): the IHTC's queue, a federation's own",
        description="The audience of the people's confidential records: the IHTC (international staff) sees every "
        "request, a federation's staff those of its people; anyone else an empty list. Filter: status; oldest "
        "first.",
        parameters=[OpenApiParameter("status", enum=WaiverRequestStatus.values, required=False)],
    ),
    retrieve=extend_schema(summary="A waiver request (R-03)", description="404 for a request this user may not see."),
    create=extend_schema(
        summary="Ask the IHTC to waive one 1.1 B condition for a person (R-03)",
        description="Staff who keep the person's record (403 for a person they may see but not change; a person "
        "they may not see is a 400 naming ``person``), as the person's page does (federation.services."
        "request_waiver): the code of a 1.1 B requirement the IHTC may waive, optionally a category and a year, "
        "and a justification. It waits in the IHTC's queue; the requester is told of the decision.",
        request=WaiverRequestInputSerializer,
        responses={201: WaiverRequestSerializer},
        examples=[
            OpenApiExample(
                "A junior's passport expiring",
                value={
                    "person": 41,
                    "code": "passport_expired",
                    "category": "",
                    "year": 2027,
                    "justification": "Renewal filed; the new passport arrives after the championship.",
                },
                request_only=True,
            ),  # fmt: skip
            OpenApiExample(
                "Waiting for the IHTC",
                value={
                    "id": 5,
                    "person": 41,
                    "code": "passport_expired",
                    "category": "",
                    "year": 2027,
                    "justification": "Renewal filed; the new passport arrives after the championship.",
                    "status": "requested",
                    "requested_by": "staff.fra",
                    "requested_at": "2026-12-07T18:00:00Z",
                    "decided_by": None,
                    "decided_at": None,
                    "decision_reason": "",
                    "waiver": None,
                },  # fmt: skip
                response_only=True,
                status_codes=["201"],
            ),
            OpenApiExample(
                "Refused: no justification",
                value={"justification": ["This field may not be blank."]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    ),
)
class WaiverRequestViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceAnswerMixin, viewsets.GenericViewSet
):
    """Waiver requests (R-03): the federations ask, the IHTC grants or refuses, with a reason either way; the same
    services as the person's page and the IHTC's queue ("Approvals")."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = WaiverRequestSerializer
    ordering_fields = ["requested_at", "decided_at"]
    ordering = ["requested_at", "pk"]

    def get_queryset(self):
        queryset = access.waiver_requests_visible_to(self.request.user).select_related("requested_by", "decided_by")
        wanted = self.request.query_params.get("status")
        if wanted is not None:
            if wanted not in WaiverRequestStatus.values:
                raise ValidationError(
                    {"status": gettext("One of: %(choices)s.") % {"choices": ", ".join(WaiverRequestStatus.values)}}
                )
            queryset = queryset.filter(status=wanted)
        return queryset

    def get_object(self):
        return access.access_waiver_request(
            self.request.user, self.kwargs["pk"], for_decision=self.action == "decision"
        )

    def create(self, request, *args, **kwargs):
        data = self.input(WaiverRequestInputSerializer)
        person = _person_for(request.user, data.pop("person"))
        waiver_request = services.request_waiver(person=person, requested_by=request.user, **data)
        return self.answer(waiver_request, created=True)

    @extend_schema(
        summary="Grant or refuse a waiting waiver request, with the reason (R-03): the IHTC only",
        description="International staff (403 for anyone else who sees the request; 404 for who does not), as "
        "the IHTC's queue does (federation.services.grant_waiver_request / refuse_waiver_request). Granting "
        "records the waiver that eligibility reads; a request is decided once (400 naming ``status``).",
        request=WaiverRequestDecisionSerializer,
        responses={200: WaiverRequestSerializer},
        examples=[
            OpenApiExample(
                "Grant", value={"decision": "grant", "decision_reason": "Renewal proven."}, request_only=True
            ),
            OpenApiExample(
                "Granted",
                value={
                    "id": 5,
                    "person": 41,
                    "code": "passport_expired",
                    "category": "",
                    "year": 2027,
                    "justification": "Renewal filed; the new passport arrives after the championship.",
                    "status": "granted",
                    "requested_by": "staff.fra",
                    "requested_at": "2026-12-07T18:00:00Z",
                    "decided_by": "ihtc.staff",
                    "decided_at": "2026-12-08T09:00:00Z",
                    "decision_reason": "Renewal proven.",
                    "waiver": 12,
                },  # fmt: skip
                response_only=True,
                status_codes=["200"],
            ),
            OpenApiExample(
                "Refused: not the IHTC",
                value={"detail": "R-03: only the IHTC grants or refuses eligibility waivers."},
                response_only=True,
                status_codes=["403"],
            ),
            OpenApiExample(
                "Refused: decided already",
                value={
                    "status": [
                        "R-03: a waiver request that is granted cannot become refused; it can become: nothing (final)."
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    def decision(self, request, pk=None):
        waiver_request = self.get_object()
        data = self.input(WaiverRequestDecisionSerializer)
        decide = services.grant_waiver_request if data["decision"] == "grant" else services.refuse_waiver_request
        return self.answer(decide(by=request.user, request=waiver_request, reason=data["decision_reason"]))


# --- Equipment approval registry (3.2.6 A) ----------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="The equipment approval registry (3.2.6 A)",
        description="Helmet, face protection and goalkeeper mask models; only approved ones may be worn "
        "(3.2.6 A: HECC, CSA or CE certified and approved by the IHTC). Any logged-in user reads it. "
        "Filters: kind, manufacturer, certification, approved.",
    ),
    retrieve=extend_schema(
        summary="A registered equipment model (3.2.6 A)",
        description="``approved_on`` and ``approved_by`` are null while the model is not approved.",
    ),
    create=extend_schema(
        summary="Register a helmet, face protection or mask model; approving needs HECC/CSA/CE (3.2.6 A)",
        description="Federation staff register a model; approving it is the IHTC's (international staff). 3.2.6 A: "
        "helmets, face protection and goalkeeper masks are worn only when approved, and a model is approved only "
        "with a HECC, CSA or CE certification.",
        request=EquipmentModelInputSerializer,
        responses={201: EquipmentModelSerializer},
    ),
    partial_update=extend_schema(
        summary="Change a registered model; approval is the IHTC's (3.2.6 A)",
        description="Federation staff; only the fields sent change. Approving is the IHTC's and needs a HECC, CSA or "
        "CE certification (3.2.6 A).",
        request=EquipmentModelUpdateSerializer,
        responses=EquipmentModelSerializer,
    ),
)
class EquipmentModelViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = EquipmentModelSerializer
    filterset_class = EquipmentModelFilter
    parser_classes = [JSONParser]
    http_method_names = ["get", "post", "patch", "head", "options"]
    search_fields = ["manufacturer", "model_name"]
    ordering_fields = ["kind", "manufacturer", "model_name", "approved_on"]
    ordering = ["kind", "manufacturer", "model_name", "pk"]
    permission_required = {
        "list": "federation.view_equipmentmodel",
        "retrieve": "federation.view_equipmentmodel",
        "create": "federation.add_equipmentmodel",
        "partial_update": "federation.change_equipmentmodel",
    }

    def get_queryset(self):
        return access.equipment_models_visible_to(self.request.user).select_related("approved_by")

    def access_object(self, pk, *, for_edit):
        return access.access_equipment_model(self.request.user, pk)

    def create(self, request, *args, **kwargs):
        data = self.input(EquipmentModelInputSerializer)
        item = services.equipment_model_create(**data, by=request.user)
        return self.answer(item, created=True)

    def partial_update(self, request, *args, **kwargs):
        item = self.get_object()
        data = self.input(EquipmentModelUpdateSerializer, partial=True)
        item = services.equipment_model_update(equipment_model=item, by=request.user, **data)
        return self.answer(item)


# --- Equipment inspections (3.2.2 C-D, 3.2.5 C-E) -----------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Equipment inspections you may see (3.2.2, 3.2.5, 3.2.8 A)",
        description="Measurements in millimetres and the violations computed from them: sticks (3.2.2 C-D), "
        "goalkeeper equipment (3.2.5 C-E), elbow pads (3.2.8 A). Filters: person, federation, kind, compliant, "
        "inspection dates.",
    ),
    retrieve=extend_schema(
        summary="An equipment inspection",
        description="Each violation names its article, the limit and the measured value, in millimetres.",
    ),
    create=extend_schema(
        summary="Record measurements; violations are computed by the equipment checks (3.2.2, 3.2.5)",
        description="Staff of the person's federation, or game officials. ``measurements`` gives lengths in millimetres keyed by name (a stick: length_mm, blade_length_mm, blade_min_width_mm, blade_max_width_mm, heel_width_mm; goalkeeper equipment: glove_padding_width_mm, glove_padding_length_mm, leg_pad_width_mm; elbow pads: soft_covering_mm). The violations (3.2.2 C-D, 3.2.5 C-E, 3.2.8 A) and the compliance are computed, never sent.",
        request=EquipmentInspectionInputSerializer,
        responses={201: EquipmentInspectionSerializer},
    ),
)
class EquipmentInspectionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = EquipmentInspectionSerializer
    filterset_class = EquipmentInspectionFilter
    parser_classes = [JSONParser]
    search_fields = ["person__last_name", "person__first_name"]
    ordering_fields = ["inspected_at", "kind"]
    ordering = ["-inspected_at", "pk"]
    permission_required = {
        "list": "federation.view_equipmentinspection",
        "retrieve": "federation.view_equipmentinspection",
        "create": "federation.add_equipmentinspection",
    }

    def get_queryset(self):
        return access.inspections_visible_to(self.request.user).select_related("inspected_by")

    def access_object(self, pk, *, for_edit):
        return access.access_inspection(self.request.user, pk)

    def create(self, request, *args, **kwargs):
        data = self.input(EquipmentInspectionInputSerializer)
        # Who may record it (the person's staff, game officials) is checked by the service.
        person = _person_for(request.user, data["person"], for_edit=False)
        inspection = services.equipment_inspection_record(
            person=person,
            kind=data["kind"],
            measurements=data["measurements"],
            notes=data["notes"],
            inspected_at=data.get("inspected_at"),
            inspected_by=request.user,
        )
        return self.answer(inspection, created=True)


# --- Protective device requests (3.2.8 C) ------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Protective device requests you may see (3.2.8 C)",
        description="A physician-prescribed protective device needs the IHTC's permission (3.2.8 C). Filters: "
        "person, federation, status, submission dates. The prescription only through ``prescription_url`` "
        "(null without one).",
    ),
    retrieve=extend_schema(
        summary="A protective device request (3.2.8 C)",
        description="``decided_by`` and ``decided_at`` are null until the IHTC decides; the prescription only "
        "through ``prescription_url``.",
    ),
    create=extend_schema(
        summary="Ask the IHTC's permission for a physician-prescribed device (3.2.8 C); prescription as multipart",
        description="Staff of the person's federation. 3.2.8 C: a protective device prescribed by a physician needs the IHTC's permission; the request describes the device and names the physician, with the prescription (PDF or image, checked by its content).",
        request={"multipart/form-data": DeviceRequestInputSerializer},
        responses={201: ProtectiveDeviceRequestSerializer},
    ),
)
class ProtectiveDeviceRequestViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, AccessViewSet):
    serializer_class = ProtectiveDeviceRequestSerializer
    filterset_class = ProtectiveDeviceRequestFilter
    parser_classes = [MultiPartParser, FormParser, JSONParser]
    search_fields = ["person__last_name", "person__first_name", "description", "physician"]
    ordering_fields = ["submitted_at", "decided_at", "status"]
    ordering = ["-submitted_at", "pk"]
    permission_required = {
        "list": "federation.view_protectivedevicerequest",
        "retrieve": "federation.view_protectivedevicerequest",
        "create": "federation.add_protectivedevicerequest",
        "approve": "federation.decide_protectivedevicerequest",
        "reject": "federation.decide_protectivedevicerequest",
        "resubmit": "federation.change_protectivedevicerequest",
    }

    def get_queryset(self):
        return access.device_requests_visible_to(self.request.user).select_related("submitted_by", "decided_by")

    def access_object(self, pk, *, for_edit):
        return access.access_device_request(self.request.user, pk, for_edit=for_edit)

    def is_write(self) -> bool:
        return self.action == "resubmit"

    def create(self, request, *args, **kwargs):
        data = self.input(DeviceRequestInputSerializer)
        person = _person_for(request.user, data["person"])
        device_request = services.device_request_submit(
            person=person,
            description=data["description"],
            physician=data["physician"],
            prescription=data.get("prescription"),
            submitted_by=request.user,
        )
        return self.answer(device_request, created=True)

    def _decide(self, request, *, approve: bool) -> Response:
        device_request = self.get_object()
        data = self.input(DeviceRequestDecisionSerializer)
        device_request = services.device_request_decide(
            request=device_request, approve=approve, reason=data["reason"], decided_by=request.user
        )
        return self.answer(device_request)

    @extend_schema(
        summary="Approve a submitted request (3.2.8 C; the IHTC)",
        description="International staff decide (3.2.8 C: the IHTC's permission); only a submitted request. The reason is optional.",
        request=DeviceRequestDecisionSerializer,
        responses=ProtectiveDeviceRequestSerializer,
    )
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        return self._decide(request, approve=True)

    @extend_schema(
        summary="Reject a submitted request, with its reason (3.2.8 C; the IHTC)",
        description="International staff decide (3.2.8 C); only a submitted request. The reason is given to the federation, which may submit again.",
        request=DeviceRequestDecisionSerializer,
        responses=ProtectiveDeviceRequestSerializer,
    )
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        return self._decide(request, approve=False)

    @extend_schema(
        summary="Submit a rejected request again, optionally with a new prescription",
        description="Staff of the person's federation, for a rejected request only (3.2.8 C); the fields sent replace the old ones and the request is submitted again.",
        request={"multipart/form-data": DeviceRequestResubmitSerializer},
        responses=ProtectiveDeviceRequestSerializer,
    )
    @action(detail=True, methods=["post"])
    def resubmit(self, request, pk=None):
        device_request = self.get_object()
        data = self.input(DeviceRequestResubmitSerializer, partial=True)
        device_request = services.device_request_resubmit(request=device_request, submitted_by=request.user, **data)
        return self.answer(device_request)
