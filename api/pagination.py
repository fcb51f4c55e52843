"""Limit/offset pages with bounded numbers, so no query string can overflow the database.

``limit`` (1..1000) and ``offset`` (0..10⁹) are read strictly: anything else is a 400
naming the parameter, not a silent default.
"""

from rest_framework.pagination import LimitOffsetPagination

from api.query import int_param

MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000

    def get_limit(self, request):
        return int_param(request, self.limit_query_param, low=1, high=self.max_limit,
                         default=self.default_limit)

    def get_offset(self, request):
        return int_param(request, self.offset_query_param, low=0, high=MAX_OFFSET, default=0)
