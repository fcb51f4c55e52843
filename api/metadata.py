"""What ``OPTIONS`` answers on every endpoint of the API.

DRF's ``SimpleMetadata`` describes the body of a ``POST``/``PUT`` by calling the view's
``get_serializer()``; an action without a body (``POST …/finish/``, ``serializer_class=None``)
or a plain ``APIView`` has none to give, and DRF's assertion made that a 500. Here a view
without a serializer class is described without ``actions``: name, description, what it
renders and parses — still JSON, never an error.
"""

from __future__ import annotations

from rest_framework.metadata import SimpleMetadata


def _serializer_class(view):
    if not hasattr(view, "get_serializer_class"):  # ObtainAuthToken: get_serializer only
        return getattr(view, "serializer_class", None)
    try:
        return view.get_serializer_class()
    except AssertionError:  # GenericAPIView's "should either include a serializer_class"
        return None


class ApiMetadata(SimpleMetadata):
    def determine_actions(self, request, view):
        if _serializer_class(view) is None:
            return {}
        return super().determine_actions(request, view)
