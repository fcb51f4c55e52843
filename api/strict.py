"""Strict input: the one place where the API decides what a JSON value may be.

DRF is lenient on purpose (form posts send everything as text): its ``CharField`` takes
``0`` as ``"0"``, its ``BooleanField`` takes ``0``, ``"true"`` and ``"yes"``. A JSON client
means what it sends, so every serializer of the API derives from ``StrictSerializer`` or
``StrictModelSerializer`` below, which

- turn every text field into a ``StrictCharField``: a JSON string only, stripped, without
  control characters (Unicode category Cc; a multi-line field, the member CSV, keeps tab,
  line feed and carriage return) and storable (``tournaments.text_checks``);
- turn every boolean field into a ``StrictBooleanField``: JSON ``true`` or ``false`` only;
- turn every integer field into a ``StrictIntegerField`` and every id of another object
  into a ``StrictPrimaryKeyRelatedField``: a JSON integer only (``"1"``, ``1.5``,
  ``1.0``, ``-1e-400`` and ``true`` are refused rather than rounded or converted);
- refuse a body (or a nested object) that is not a JSON object (``[]``, ``null``, a
  number): a 400 naming the body (field ``""``), in the request's language;
- refuse ``null`` for a list unless the field says ``allow_null=True``;
- refuse, on every write, a key the serializer does not write (a read-only ``id`` or
  ``slug`` included), naming each; together with the other fields' errors.

Declared fields are converted when the class is made, a ``ModelSerializer``'s generated
fields by its field mapping, list children recursively; nothing else needs to remember it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from itertools import filterfalse, islice

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.fields import SkipField, empty
from rest_framework.settings import api_settings

from games.errors import MAX_UNKNOWN_NAMED, MORE_UNKNOWN, fill
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


def json_integer(value) -> bool:
    """A JSON integer as the parser gives it: ``int``, not ``bool`` (``float`` never)."""
    return isinstance(value, int) and not isinstance(value, bool)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        if not json_integer(data):
            self.fail("invalid")  # DRF's own "A valid integer is required.", translated
        return super().to_internal_value(data)


class StrictPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    def to_internal_value(self, data):
        if self.pk_field is None and not json_integer(data):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


class StrictListField(serializers.ListField):
    """A list longer than its bound refused before any item is read: DRF checks every item
    first and the bound after, and a 2.5 MB body holds 800,000 items to refuse one by one
    (issue 52)."""

    def to_internal_value(self, data):
        if isinstance(data, list) and self.max_length is not None \
                and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


STRICT = {
    serializers.CharField: StrictCharField,
    serializers.BooleanField: StrictBooleanField,
    serializers.IntegerField: StrictIntegerField,
    serializers.PrimaryKeyRelatedField: StrictPrimaryKeyRelatedField,
}


def strict_field(field: serializers.Field) -> serializers.Field:
    """``field`` with the strict class, built again from the arguments it was made with."""
    kind = type(field)
    if kind in STRICT:
        return STRICT[kind](*field._args, **field._kwargs)
    if kind is serializers.ListField:  # a fresh child: the one given is bound to ``field``
        child = field._kwargs.get("child")
        return StrictListField(*field._args, **{**field._kwargs, **(
            {} if child is None else {"child": strict_field(copy.deepcopy(child))})})
    for container, part in ((serializers.DictField, "child"),
                            (serializers.ManyRelatedField, "child_relation")):
        child = field._kwargs.get(part) if kind is container else None
        if child is not None and strict_field(child) is not child:
            return container(*field._args, **{**field._kwargs, part: strict_field(child)})
    return field


class CheckedJSONField(serializers.JSONField):
    """A JSON value a service checks (by rules only it knows, every offending part named in
    one answer); the OpenAPI schema describes it as the field ``like``: its shape and
    bounds. So one serializer both validates a body and describes it."""

    def __init__(self, *, like: serializers.Field, **kwargs):
        self.like = like
        super().__init__(**kwargs)

    def validate_empty_values(self, data):
        # ``required`` describes the body; the service says what is missing, in its words
        if data is empty:
            raise SkipField()
        return super().validate_empty_values(data)


class CheckedJSONFieldSchema(OpenApiSerializerFieldExtension):
    target_class = CheckedJSONField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target.like, direction)
        auto_schema._insert_field_validators(self.target.like, schema)
        return schema


class StrictFieldsMixin:
    """Converts the declared fields and refuses keys that are not written."""

    default_error_messages = {"unknown": _("Unknown field."),
                              "body": _("The body must be a JSON object."),
                              "object": _("Must be a JSON object.")}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("_declared_fields")
        if declared is not None:
            for name, field in list(declared.items()):
                declared[name] = strict_field(field)

    def run_validation(self, data=empty):
        if data is not empty and not isinstance(data, Mapping) \
                and not (data is None and self.allow_null):
            # DRF says "No data provided" for null (English only) and takes a list for an
            # empty object where a serializer has no required field
            message = self.error_messages["body" if self.parent is None else "object"]
            raise ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [
                ErrorDetail(str(message), code="invalid")]})
        return super().run_validation(data)

    def writable_keys(self) -> set[str]:
        return {name for name, field in self.fields.items() if not field.read_only}

    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            writable = self.writable_keys()
            # named up to the answer's bound (api.errors), counted beyond it; in C, not a
            # Python step per key of a body of 200,000 keys
            extra = len(data) - len(data.keys() & writable)
            unknown = {str(key)[:40]: [ErrorDetail(self.error_messages["unknown"],
                                                   code="unknown")]
                       for key in islice(filterfalse(writable.__contains__, data),
                                         MAX_UNKNOWN_NAMED)}
            if extra > MAX_UNKNOWN_NAMED:
                unknown[api_settings.NON_FIELD_ERRORS_KEY] = [
                    fill(MORE_UNKNOWN, {"count": extra - MAX_UNKNOWN_NAMED}, gettext)]
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
    # every model field DRF maps to a loose field (text, booleans, the integer kinds)
    serializer_field_mapping = {
        model_field: STRICT.get(field, field)
        for model_field, field in serializers.ModelSerializer.serializer_field_mapping.items()}
    serializer_related_field = StrictPrimaryKeyRelatedField
