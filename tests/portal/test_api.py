"""portal.api.ServiceAnswerMixin: input serializer -> service -> output serializer, for every app's API."""

from rest_framework import serializers, viewsets
from rest_framework.test import APIRequestFactory

from portal.api import ServiceAnswerMixin, exception_handler


class _NumberIn(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=99)


class _NumberOut(serializers.Serializer):
    number = serializers.IntegerField()
    shown = serializers.SerializerMethodField()

    def get_shown(self, obj):
        # The view's context reaches the output serializer.
        return f"#{obj['number']} for {self.context['request'].method}"


class _Labels(serializers.Serializer):
    label = serializers.CharField()


class _NumberViewSet(ServiceAnswerMixin, viewsets.GenericViewSet):
    serializer_class = _NumberOut
    authentication_classes = []
    permission_classes = []

    def get_exception_handler(self):
        return exception_handler

    def create(self, request):
        data = self.input(_NumberIn)
        return self.answer({"number": data["number"]}, created=True)

    def list(self, request):
        return self.answer([{"label": "A"}, {"label": "B"}], serializer_class=_Labels, many=True)


def _call(method: str, action: str, **data):
    factory = APIRequestFactory()
    request = getattr(factory, method)("/numbers/", data, format="json")
    return _NumberViewSet.as_view({method: action})(request)


def test_answer_serializes_with_the_views_serializer_and_context_and_says_201_for_a_creation():
    response = _call("post", "create", number=9)
    assert response.status_code == 201
    assert response.data == {"number": 9, "shown": "#9 for POST"}


def test_answer_uses_a_named_serializer_for_a_list_and_says_200():
    response = _call("get", "list")
    assert response.status_code == 200
    assert response.data == [{"label": "A"}, {"label": "B"}]


def test_input_refuses_a_malformed_request_with_a_400_naming_the_field():
    response = _call("post", "create", number=100)
    assert response.status_code == 400
    assert list(response.data) == ["number"]
