#!/bin/sh
# The docsgen feedback server's container entrypoint (deploy/server/Dockerfile): PostgreSQL by URL, one port.
#   DOCSGEN_DATABASE_URL         postgresql://user:password@host:5432/database (required)
#   PORT                         port to listen on (default 8000), on every interface of the container
#   DOCSGEN_FORWARDED_ALLOW_IPS  the reverse proxy's address or network, whose X-Forwarded-For/-Proto are trusted
#   DOCSGEN_DB_WAIT              seconds to wait for the database to accept connections (default 60)
# Arguments are passed on to `docsgen server run` (for example --site PROJECT).
set -eu

if [ -z "${DOCSGEN_DATABASE_URL:-}" ]; then
  echo "docsgen-server: set DOCSGEN_DATABASE_URL to postgresql://user:password@host:5432/database" >&2
  exit 64
fi
case "$DOCSGEN_DATABASE_URL" in
  postgresql://* | postgres://* | postgresql+psycopg://*) ;;
  *)
    echo "docsgen-server: DOCSGEN_DATABASE_URL must be a PostgreSQL URL (postgresql://...); a SQLite file" \
      "inside a container is lost with it" >&2
    exit 64
    ;;
esac

# A database started next to the server (docker compose) may not accept connections yet: wait for it. Opening it
# also creates or migrates the schema (an advisory lock makes concurrent starts safe).
wait_for=${DOCSGEN_DB_WAIT:-60}
waited=0
err="$(mktemp)"
until python3 -c 'from docsgen.server.db import open_database; open_database(None).dispose()' 2>"$err"; do
  if [ "$waited" -ge "$wait_for" ]; then
    echo "docsgen-server: the database did not answer within ${wait_for}s:" >&2
    tail -n 1 "$err" >&2
    rm -f "$err"
    exit 69
  fi
  sleep 1
  waited=$((waited + 1))
done
rm -f "$err"

set -- --host 0.0.0.0 --port "${PORT:-8000}" "$@"
if [ -n "${DOCSGEN_FORWARDED_ALLOW_IPS:-}" ]; then
  set -- --forwarded-allow-ips "$DOCSGEN_FORWARDED_ALLOW_IPS" "$@"
fi
exec docsgen server run "$@"
