"""Strict input: the one place where the API decides what a JSON value may be.

DRF is lenient on purpose (form posts send everything as text): its ``CharField`` takes
``0`` as ``"0"``, its ``BooleanField`` takes ``0``, ``"true"`` and ``"yes"``. A JSON client
means what it sends, so every serializer of the API derives from ``StrictSerializer`` or
``StrictModelSerializer`` below, which

- turn every text field into a ``StrictCharField``: a JSON string only, stripped, without
  control characters (Unicode category Cc; a multi-line field, the member CSV, keeps tab,
  line feed and carriage return) and storable (``tournaments.text_checks``);
- turn every boolean field into a ``StrictBooleanField``: JSON ``true`` or ``false`` only;
- refuse ``null`` for a list unless the field says ``allow_null=True``;
- refuse, on every write, a key the serializer does not write (a read-only ``id`` or
  ``slug`` included), naming each; together with the other fields' errors.

Declared fields are converted when the class is made, a ``ModelSerializer``'s generated
fields by its field mapping, list children recursively; nothing else needs to remember it.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import empty

from tournaments.text_checks import control_characters, storable


class StrictCharField(serializers.CharField):
    """Text only: a number, boolean, list or object is refused rather than made text."""

    default_error_messages = {
        "control": _("Must not contain control characters (such as U+{code})."),
        "unstorable": _("Contains characters that cannot be stored."),
    }

    def __init__(self, *, multiline: bool = False, **kwargs):
        self.multiline = multiline
        super().__init__(**kwargs)

    def run_validation(self, data=empty):
        # before DRF's own: its blank check would take 0 for the text "0"
        if data is not empty and data is not None and not isinstance(data, str):
            self.fail("invalid")  # DRF's own "Not a valid string.", translated
        if isinstance(data, str):
            found = control_characters(data, multiline=self.multiline)
            if found:
                self.fail("control", code=f"{ord(found[0]):04X}")
            if not storable(data):
                self.fail("unstorable")
        return super().run_validation(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if data is True or data is False:
            return data
        self.fail("invalid")


def strict_field(field: serializers.Field) -> serializers.Field:
    """``field`` with the strict class, built again from the arguments it was made with."""
    kind = type(field)
    if kind is serializers.CharField:
        return StrictCharField(*field._args, **field._kwargs)
    if kind is serializers.BooleanField:
        return StrictBooleanField(*field._args, **field._kwargs)
    if kind is serializers.ListField:
        child = field._kwargs.get("child")
        if child is not None and strict_field(child) is not child:
            return serializers.ListField(*field._args,
                                         **{**field._kwargs, "child": strict_field(child)})
    return field


class StrictFieldsMixin:
    """Converts the declared fields and refuses keys that are not written."""

    default_error_messages = {"unknown": _("Unknown field.")}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("_declared_fields")
        if declared is not None:
            for name, field in list(declared.items()):
                declared[name] = strict_field(field)

    def writable_keys(self) -> set[str]:
        return {name for name, field in self.fields.items() if not field.read_only}

    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            unknown = {str(key)[:40]: [self.error_messages["unknown"]]
                       for key in data if key not in self.writable_keys()}
        try:
            value = super().to_internal_value(data)
        except ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                raise ValidationError({**exc.detail, **unknown}) from None
            raise
        if unknown:
            raise ValidationError(unknown)
        return value


class StrictSerializer(StrictFieldsMixin, serializers.Serializer):
    pass


class StrictModelSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.BooleanField: StrictBooleanField,
    }
