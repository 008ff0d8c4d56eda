#!/usr/bin/env bash
# PostgreSQL (Debian's `postgresql` package) for FerretDB's PostgreSQL backend, which the MongoDB
# read store's tests and the scaled bench run on.
#
#   bash scripts/postgres.sh start   a fresh cluster in a temporary folder on a free loopback
#                                    port, trust auth for its own user; prints the line
#                                    `export FERRETDB_POSTGRESQL_URL=postgres://…` to eval
#   bash scripts/postgres.sh stop    stops the cluster `start` printed (PGDATA_DIR in the env)
#
# PostgreSQL refuses to run as root: as root the cluster is owned and run by the `postgres` user.
set -euo pipefail

bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/pg_ctl" ] && { echo "$dir"; return; }; done
  echo "postgres.sh: PostgreSQL not found (apt-get install postgresql)" >&2
  return 1
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    bin=$(bin_dir)
    dir=$(mktemp -d /tmp/support-pg-XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    as_owner "$bin/initdb" -D "$dir/data" -U ferretdb --auth=trust -E UTF8 --no-instructions >/dev/null
    # Tuned for tests: nothing here must survive a crash of the machine.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U ferretdb ferretdb
    echo "export FERRETDB_POSTGRESQL_URL=postgres://ferretdb@127.0.0.1:$port/ferretdb PGDATA_DIR=$dir"
    ;;
  stop)
    bin=$(bin_dir)
    [ -n "${PGDATA_DIR:-}" ] || { echo "postgres.sh: PGDATA_DIR is not set" >&2; exit 2; }
    as_owner "$bin/pg_ctl" -D "$PGDATA_DIR/data" -m fast -w stop >/dev/null || true
    rm -rf "$PGDATA_DIR"
    ;;
  *) echo "usage: bash scripts/postgres.sh start|stop" >&2; exit 2 ;;
esac
