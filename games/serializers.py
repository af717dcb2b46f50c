"""API serializers of the games app: input shapes (a 400 naming the field) and the stored records."""

from __future__ import annotations

from rest_framework import serializers

from portal.filters import MAX_ID
from portal.serializers import IntegerField

from .models import (
    DUTY_LIMITS,
    GameOfficial,
    GameProtestMark,
    Lineup,
    LineupOfficial,
    LineupPlayer,
    OfficialDuty,
    ProtestSubject,
)


def _id(**kwargs) -> IntegerField:
    return IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class GameOfficialSerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.__str__", read_only=True)
    is_lead = serializers.BooleanField(read_only=True)

    class Meta:
        model = GameOfficial
        fields = ["id", "game", "person", "person_name", "duty", "position", "is_lead", "assigned_at"]


class GameOfficialInputSerializer(serializers.Serializer):
    game = _id()
    person = _id()
    duty = serializers.ChoiceField(choices=OfficialDuty.choices)
    position = IntegerField(min_value=1, max_value=max(DUTY_LIMITS.values()), required=False)


class LineupPlayerSerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.__str__", read_only=True)

    class Meta:
        model = LineupPlayer
        fields = [
            "person",
            "person_name",
            "number",
            "position",
            "captain",
            "alternate",
            "starting",
            "injured_at",
            "replaces",
        ]


class LineupOfficialSerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.__str__", read_only=True)
    role = serializers.CharField(source="team_official.role", read_only=True)

    class Meta:
        model = LineupOfficial
        fields = ["person", "person_name", "role"]


class LineupSerializer(serializers.ModelSerializer):
    players = LineupPlayerSerializer(many=True, read_only=True)
    bench_officials = LineupOfficialSerializer(many=True, read_only=True)

    class Meta:
        model = Lineup
        fields = ["id", "game", "entry", "submitted_at", "players", "bench_officials"]


class LineupChoiceSerializer(serializers.Serializer):
    person = _id()
    captain = serializers.BooleanField(default=False)
    alternate = serializers.BooleanField(default=False)
    starting = serializers.BooleanField(default=False, help_text="On the starting line-up (5.3 A).")


class LineupInputSerializer(serializers.Serializer):
    game = _id()
    entry = _id()
    # The limits themselves (14 + 2, R-07; 5 officials, 5.4 F) are the service's, with their rule; these bound
    # only the size of a request.
    players = LineupChoiceSerializer(many=True, max_length=40)
    bench_officials = serializers.ListField(child=_id(), max_length=20, default=list)


class GoalkeeperReplacementInputSerializer(serializers.Serializer):
    goalkeeper = _id(help_text="The injured or ill goalkeeper (person id).")
    replacement = _id(help_text="The player already on the line-up who goes in goal (5.1 C).")


class GameReadinessSerializer(serializers.Serializer):
    game = IntegerField()
    can_start = serializers.BooleanField()
    problems = serializers.DictField(child=serializers.CharField(), help_text="By side: why it cannot start (5.3 B).")


class ProtestMarkSerializer(serializers.ModelSerializer):
    entry_name = serializers.CharField(source="entry.name", read_only=True)
    subject_label = serializers.CharField(source="get_subject_display", read_only=True)

    class Meta:
        model = GameProtestMark
        fields = ["id", "game", "entry", "entry_name", "subject", "subject_label", "details", "made_at"]


class ProtestMarkInputSerializer(serializers.Serializer):
    game = _id()
    entry = _id(help_text="The protesting team (one of the game's).")
    subject = serializers.ChoiceField(
        choices=ProtestSubject.choices,
        help_text="9.1 B, R-51: the rink, a player's equipment or unqualified players.",
        error_messages={
            "invalid_choice": "Rule 9.1 B / R-51: an administrative protest is about the rink, a player's equipment "
            "or unqualified players (rink, equipment, players), not {input!r}."
        },
    )
    details = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
