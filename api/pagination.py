"""Limit/offset pages with bounded numbers, so no query string can overflow the database.

``limit`` (1..1000) and ``offset`` (0..10⁹) are read strictly by their definitions in
``api.query`` (which the schema shows too): anything else, an empty value included, is a
400 naming the parameter, not a silent default.
"""

from drf_spectacular.plumbing import build_parameter_type
from rest_framework.pagination import LimitOffsetPagination

from api.query import LIMIT, OFFSET


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = LIMIT.high

    def get_limit(self, request):
        return LIMIT.read(request, default=self.default_limit)

    def get_offset(self, request):
        return OFFSET.read(request, default=0)

    def get_schema_operation_parameters(self, view):
        return [build_parameter_type(name=p.name, schema=p.schema(), location="query",
                                     description=p.description) for p in (LIMIT, OFFSET)]
