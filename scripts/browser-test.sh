#!/usr/bin/env bash
# The playground in a real browser: installs Debian's chromium and chromium-driver when missing
# (as root; CI runs as root), then runs the WebDriver test that clicks through every page
# (crates/playground/tests/browser.rs). Screenshots go to target/playground-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromedriver >/dev/null || ! [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "browser test: chromium and chromedriver are missing and installing them needs root" >&2
        [ -z "${CI:-}" ] || exit 1
        exit 0
    fi
    echo "== installing chromium and chromium-driver"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
cargo test --quiet -p playground --test browser -- --ignored
echo "screenshots: $(ls target/playground-screenshots/*.png | tr '\n' ' ')"
