#!/usr/bin/env bash
# Install (Debian packages) and start what the server tests need: PostgreSQL on loopback, in a throwaway
# cluster with a test database, and chromium for the browser tests. Idempotent: a second run only checks.
# Prints `export` lines for the test run to eval; everything else goes to stderr.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v openssl >/dev/null 2>&1 || need+=(openssl)  # a throwaway certificate for the SMTP TLS tests
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
if [ "${#need[@]}" -gt 0 ]; then
  echo "ci-services: installing ${need[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pgdata="${ARBITRE_PGDATA:-/tmp/arbitre-pg}"
pgport="${ARBITRE_PGPORT:-54329}"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if ! as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    mkdir -p "$pgdata"
    [ "$(id -u)" = 0 ] && chown postgres: "$pgdata"
    as_pg "$pgbin/initdb" -D "$pgdata" -U postgres --auth=trust -E UTF8 >/dev/null
  fi
  # throwaway cluster: loopback only, socket in the data folder, durability off for speed
  as_pg "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $pgport -k $pgdata -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
fi
if ! as_pg "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -tAc "select 1 from pg_database where datname='arbitre_test'" | grep -q 1; then
  as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres arbitre_test
fi
echo "export ARBITRE_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:$pgport/arbitre_test"
echo "export ARBITRE_CHROMIUM=$(command -v chromium)"
