#!/bin/sh
# The proxy's start: the template filled in from the environment (these names only, so
# nginx's own $variables stay), then nginx in the foreground. config.serve.proxy_files
# does the same for the tests and the bench.
set -eu
envsubst '${PROXY_PORT} ${WEB_UPSTREAM} ${ENTRY_UPSTREAM} ${BOARD_UPSTREAM} ${PUSH_PORT}' \
    < /etc/nginx/templates/stichliste.conf.template > /etc/nginx/conf.d/stichliste.conf
exec nginx -g 'daemon off;'
