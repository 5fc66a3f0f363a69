#!/usr/bin/env bash
# postgres.sh starts a throwaway PostgreSQL server for the service's tests
# and prints the connection URL on stdout (the last line). It installs
# Debian's postgresql package when no server binaries are present.
#
#   url=$(bash .ci/postgres.sh start /tmp/haulplan-pg 55432)
#   export HAULPLAN_TEST_POSTGRES="$url"
#   bash .ci/postgres.sh stop /tmp/haulplan-pg
#
# The cluster lives in the given directory, listens on 127.0.0.1 only, and
# trusts local connections: it is for tests, never for data.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:-/tmp/haulplan-pg}
port=${3:-55432}

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$d" ] && command -v pg_ctl >/dev/null 2>&1; then d=$(dirname "$(command -v pg_ctl)"); fi
  echo "$d"
}

# as runs a command as the user that owns the cluster: initdb and postgres
# refuse to run as root.
as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
  bin=$(bindir)
  if [ -z "$bin" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "postgres.sh: no PostgreSQL server and no apt-get to install one" >&2
      exit 1
    fi
    echo "postgres.sh: installing Debian's postgresql" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null
    bin=$(bindir)
  fi
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql postgres
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as "$bin/initdb" -D "$dir/data" -U haulplan --auth=trust -E UTF8 >/dev/null
  as "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=300 -c fsync=on" \
    start >/dev/null
  as "$bin/createdb" -h 127.0.0.1 -p "$port" -U haulplan haulplan
  echo "postgres://haulplan@127.0.0.1:$port/haulplan?sslmode=disable"
  ;;
stop)
  bin=$(bindir)
  [ -n "$bin" ] && [ -d "$dir/data" ] && as "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  ;;
*)
  echo "usage: postgres.sh start|stop [DIR] [PORT]" >&2
  exit 2
  ;;
esac
