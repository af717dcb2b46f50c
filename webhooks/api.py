"""The webhooks API: a federation's endpoints (list, make, read, remove) and their delivery log (list, read, send
one again). Thin views over ``webhooks.access`` (the federation's access rules: 404 for what the caller may
not know of) and ``webhooks.services`` (which check who may again: 403)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from federation.models import Federation
from portal.api import RulesPermission, ServiceAnswerMixin

from . import access, services
from .filters import DeliveryFilter
from .serializers import DeliverySerializer, EndpointCreatedSerializer, EndpointInputSerializer, EndpointSerializer


@extend_schema_view(
    list=extend_schema(
        summary="Webhook endpoints (staff: your federation's; international staff: all)",
        description="The URLs your federation's events are posted to, signed (docs/webhooks.md). The secret is "
        "never listed: it is in the answer that made the endpoint only.",
    ),
    retrieve=extend_schema(summary="A webhook endpoint", description="404 for another federation's endpoint."),
    create=extend_schema(
        summary="Register a webhook endpoint (its secret is in this answer only)",
        description="Staff of the federation, or international staff (403 otherwise). The URL is https:// to a "
        "public address: a private, loopback or link-local address is refused (400 naming ``url``); outside "
        "production plain http to a loopback address is allowed. The answer carries the signing secret, shown "
        "this once.",
        request=EndpointInputSerializer,
        responses={201: EndpointCreatedSerializer},
    ),
    destroy=extend_schema(
        summary="Remove a webhook endpoint and its delivery log",
        description="Nothing more is sent there. 204 without a body.",
    ),
)
class EndpointViewSet(
    ServiceAnswerMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = EndpointSerializer
    permission_classes = [RulesPermission]
    http_method_names = ["get", "post", "delete", "head", "options"]
    ordering = ["pk"]
    permission_required = {
        "list": "webhooks.view_endpoint",
        "retrieve": "webhooks.view_endpoint",
        "create": "webhooks.add_endpoint",
        "destroy": "webhooks.delete_endpoint",
    }

    def get_queryset(self):
        return access.endpoints_visible_to(self.request.user).order_by("pk")

    def get_object(self):
        endpoint = access.access_endpoint(self.request.user, self.kwargs["pk"])
        self.check_object_permissions(self.request, endpoint)
        return endpoint

    def create(self, request, *args, **kwargs):
        data = self.input(EndpointInputSerializer)
        federation = Federation.objects.filter(pk=data.pop("federation")).first()
        if federation is None:
            raise ValidationError({"federation": gettext("No such federation.")})
        endpoint = services.endpoint_create(by=request.user, federation=federation, **data)
        return self.answer(endpoint, serializer_class=EndpointCreatedSerializer, created=True)

    def destroy(self, request, *args, **kwargs):
        services.endpoint_delete(by=request.user, endpoint=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(
        summary="The delivery log of the endpoints you manage, newest first",
        description="Each event sent or to be sent to an endpoint of your federation (international staff: every "
        "federation's): its status (pending, retrying, delivered, failed), the attempts made, the last HTTP status "
        "answered and the body sent. Filters: endpoint, status, event_type.",
    ),
    retrieve=extend_schema(summary="One delivery", description="404 for another federation's delivery."),
)
class DeliveryViewSet(ServiceAnswerMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = DeliverySerializer
    filterset_class = DeliveryFilter
    permission_classes = [RulesPermission]
    ordering = ["-created_at", "-pk"]
    permission_required = {
        "list": "webhooks.view_delivery",
        "retrieve": "webhooks.view_delivery",
        "resend": "webhooks.resend_delivery",
    }

    def get_queryset(self):
        return access.deliveries_visible_to(self.request.user).order_by("-created_at", "-pk")

    def get_object(self):
        delivery = access.access_delivery(self.request.user, self.kwargs["pk"])
        self.check_object_permissions(self.request, delivery)
        return delivery

    @extend_schema(
        summary="Send a delivery again",
        description="Queued again with the same event id (``X-Portal-Delivery``), whatever its status; retried "
        "on a 5xx or a connection error as the first time. 202 with the delivery, its status pending.",
        request=None,
        responses={202: DeliverySerializer},
    )
    @action(detail=True, methods=["post"])
    def resend(self, request, pk=None):
        delivery = services.delivery_resend(by=request.user, delivery=self.get_object())
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
