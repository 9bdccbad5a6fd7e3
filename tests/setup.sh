#!/usr/bin/env bash
# Everything the test suite needs, on a fresh Debian machine with Python 3.11: the Debian
# packages its real components use (installed only when missing, with one apt-get update
# first) and cardcli with its test extras. Run as root (or with sudo on PATH); the README's
# test command and CI both start with it. Idempotent: a second run installs nothing.
#
# Debian packages:
# - bubblewrap: the bot sandbox, whose tests run for real (tests/test_sandbox.py)
# - chromium and chromium-driver: the headless browser of the HTML viewer's tests
#   (tests/test_viewer_browser.py); the two packages always carry matching versions
# - nodejs, golang-go, rustc, default-jdk-headless and lua5.4: the JavaScript, Go, Rust, Java
#   and Lua example bots (tests/test_bot_languages.py); a rustc installed by rustup in
#   ~/.cargo/bin counts (the suite finds it there)
# - postgresql: the server the database tests start for themselves (tests/postgres.py: initdb
#   and pg_ctl from /usr/lib/postgresql/*/bin, in a temporary directory, on a free loopback
#   port); the cluster the package may start on install is never used
set -euo pipefail
cd "$(dirname "$0")/.."
cargo_bin="${CARGO_HOME:-${HOME:-}/.cargo}/bin"
have() { command -v "$1" >/dev/null 2>&1; }
missing=()
have bwrap || missing+=(bubblewrap)
have chromium || missing+=(chromium)
have chromedriver || missing+=(chromium-driver)
have node || missing+=(nodejs)
have go || missing+=(golang-go)
have rustc || [ -x "$cargo_bin/rustc" ] || missing+=(rustc)
{ have javac && have java; } || missing+=(default-jdk-headless)
have lua5.4 || missing+=(lua5.4)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if ((${#missing[@]})); then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif have sudo; then
        sudo=(sudo)
    else
        echo "tests/setup.sh: the tests need Debian packages that are missing: ${missing[*]}" >&2
        echo "tests/setup.sh: run this script as root, or: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    echo "tests/setup.sh: installing ${missing[*]} (once)" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
