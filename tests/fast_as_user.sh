#!/usr/bin/env bash
# The fast tier (`pytest -m fast`) as an ordinary user, on a machine with neither bubblewrap nor
# a browser in reach: what a contributor without root has. Run as root (CI runs it after the
# whole suite, .ci/run); docs/testing.md gives the same steps by hand.
#
# - the user: USER_NAME (default cardclitest), created when missing (useradd -m);
# - the tree: a clone of this checkout's last commit (a copy of the files where this is not a
#   git checkout) in a fresh directory the user owns;
# - Python: a virtual environment the user makes from the system's python3 (/usr/bin/python3,
#   3.11 on Debian 12), with cardcli and its test extras installed there (a root-only Python,
#   such as pyenv's under /root, is out of an ordinary user's reach);
# - PATH: a directory of links to every program of /usr/bin and /bin but bwrap, chromium and
#   chromedriver, so the tier runs as it would where those are not installed.
#
# Extra arguments go to pytest (default: -q). Exits with pytest's status.
set -euo pipefail
cd "$(dirname "$0")/.."
user="${USER_NAME:-cardclitest}"
python="${SYSTEM_PYTHON:-/usr/bin/python3}"
if [ "$(id -u)" -ne 0 ]; then
    echo "tests/fast_as_user.sh: run as root (it creates the user $user and runs the tier as it)" >&2
    exit 1
fi
id "$user" >/dev/null 2>&1 || useradd -m "$user"
work="$(mktemp -d /tmp/cardcli-ordinary.XXXXXX)"
trap 'rm -rf "$work"' EXIT
if git rev-parse --git-dir >/dev/null 2>&1; then
    git clone -q "$PWD" "$work/tree"
else
    mkdir "$work/tree" && cp -a . "$work/tree/"
fi
mkdir "$work/bin"
for dir in /usr/bin /bin; do
    for program in "$dir"/*; do
        name="${program##*/}"
        case "$name" in bwrap | chromium | chromium-browser | chromedriver) continue ;; esac
        [ -e "$work/bin/$name" ] || ln -s "$program" "$work/bin/$name"
    done
done
chown -R "$user" "$work"
chmod 755 "$work"
runuser -u "$user" -- env -i HOME="$(getent passwd "$user" | cut -d: -f6)" LANG=C.UTF-8 \
    PATH="$work/venv/bin:$work/bin" WORK="$work" PYTHON="$python" bash -euo pipefail -c '
        cd "$WORK/tree"
        ! command -v bwrap >/dev/null && ! command -v chromium >/dev/null
        "$PYTHON" -m venv "$WORK/venv"
        python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
        echo "tests/fast_as_user.sh: the fast tier as $(id -un) (uid $(id -u)), without bwrap or chromium" >&2
        time python3 -m pytest -m fast "$@"
    ' fast_as_user "${@:--q}"
