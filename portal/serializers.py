"""Serializer pieces shared by every app's API: strict ids, strict numbers, strict bodies.

A primary key is a whole number the database can hold (``7.5`` or ``true`` is
a 400 naming the field, never read as 7 or 1), a number sent as a string is
written in the ASCII digits 0-9 (``"²"`` or ``"٣"`` is a 400 naming the field,
``common.numbers``), and a write body names only fields the operation takes
(anything else is a 400 naming it, never silently ignored).
"""

from __future__ import annotations

from django.db import models
from rest_framework import serializers

from common.numbers import NotANumber, decimal_number, whole_number

from .filters import MAX_ID


class StrictPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """An object named by its id: an integer (or its decimal digits, as a form sends it) from 1 to MAX_ID."""

    default_error_messages = {
        "incorrect_type": "Incorrect type. Expected an id (a whole number), received {data_type}.",
    }

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = whole_number(data)
            except NotANumber:
                self.fail("incorrect_type", data_type="str")
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        if not 1 <= data <= MAX_ID:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


class IntegerField(serializers.IntegerField):
    """DRF's IntegerField, a string read by ``common.numbers`` (ASCII digits only: ``"٣"`` is not 3)."""

    default_error_messages = {"invalid": "A whole number is required, in the digits 0-9."}

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = whole_number(data, signed=True)
            except NotANumber:
                self.fail("invalid")
        return super().to_internal_value(data)


class DecimalField(serializers.DecimalField):
    """DRF's DecimalField, a string read by ``common.numbers`` (ASCII digits only, no exponent)."""

    default_error_messages = {"invalid": "A number is required, in the digits 0-9 (with a decimal point if needed)."}

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = decimal_number(data)
            except NotANumber:
                self.fail("invalid")
        return super().to_internal_value(data)


class FloatField(serializers.FloatField):
    """DRF's FloatField, a string read by ``common.numbers`` (ASCII digits only, no exponent, no ``nan``)."""

    default_error_messages = {"invalid": "A number is required, in the digits 0-9 (with a decimal point if needed)."}

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = float(decimal_number(data))
            except NotANumber:
                self.fail("invalid")
        return super().to_internal_value(data)


class ModelSerializer(serializers.ModelSerializer):
    """DRF's ModelSerializer whose relations are named by strict ids and whose numbers are strict."""

    serializer_related_field = StrictPrimaryKeyRelatedField
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.AutoField: IntegerField,
        models.BigAutoField: IntegerField,
        models.BigIntegerField: IntegerField,
        models.IntegerField: IntegerField,
        models.PositiveIntegerField: IntegerField,
        models.PositiveSmallIntegerField: IntegerField,
        models.SmallIntegerField: IntegerField,
        models.DecimalField: DecimalField,
        models.FloatField: FloatField,
    }


def unknown_fields(serializer: serializers.Serializer, data) -> dict[str, list[str]]:
    """The fields of a write body that ``serializer`` does not take (read-only or absent), with the reason."""
    if not hasattr(data, "keys"):
        return {}  # not an object: the serializer itself refuses it
    writable = {name for name, field in serializer.fields.items() if not field.read_only}
    errors = {}
    for name in data:
        if name in writable:
            continue
        if name in serializer.fields:
            errors[name] = ["This field is read-only: it cannot be set here."]
        else:
            errors[name] = ["Unknown field: this operation does not take it."]
    return errors
