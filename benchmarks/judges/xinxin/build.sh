#!/bin/sh
# Build the xinxin judge seat: sh build.sh PATH-TO-HEARTS-CHECKOUT [OUTPUT]
# (a checkout of https://github.com/nathansttt/hearts; see README.md).
set -eu
src=${1:?usage: sh build.sh PATH-TO-HEARTS-CHECKOUT [OUTPUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/xinxin-seat}
[ -f "$src/Hearts.h" ] || { echo "build.sh: $src is not a checkout of nathansttt/hearts" >&2; exit 2; }
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
pids=
for f in "$src"/*.cpp; do
  [ "$(basename "$f")" = main.cpp ] && continue
  ${CXX:-g++} -std=c++11 -O3 -w -c "$f" -o "$objs/$(basename "$f" .cpp).o" & pids="$pids $!"
done
${CXX:-g++} -std=c++11 -O3 -Wall -isystem "$src" -c "$here/seat.cpp" -o "$objs/seat.o"
for pid in $pids; do wait "$pid"; done
${CXX:-g++} -o "$out" "$objs"/*.o -lpthread
echo "$out"
