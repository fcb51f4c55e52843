"""Gunicorn's settings for every way the app is served: ``config/serve.py`` names this file
for the image, docker compose, ``make venue`` and the system tests; options on the command
line (bind, workers) win over it.

Gunicorn answers a request it cannot parse itself, with an HTML page, before Django sees
it. Its limits are therefore set above the API's own (``api.middleware``: a request line
over 4,096 bytes is a JSON 414, a header line over 8,192 bytes a JSON 431), so that
under ``/api/`` those answers are JSON too. Only beyond these hard limits does gunicorn's
own answer appear (see the README, "Errors, limits and logs"):

- a request line over 8,190 bytes (gunicorn's maximum): 414;
- a header line (name and value) over 16,384 bytes, or more than 200 header fields: 431.
"""

limit_request_line = 8190
limit_request_field_size = 16384
limit_request_fields = 200
