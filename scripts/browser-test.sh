#!/usr/bin/env bash
# The playground in a real browser: installs Debian's chromium, chromium-driver and a CJK font
# (fonts-wqy-zenhei, for the xiangqi pieces' characters) when missing (as root; CI runs as
# root), then runs the WebDriver test that clicks through every page
# (crates/playground/tests/browser.rs). Screenshots go to target/playground-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromedriver >/dev/null || ! [ -x "${CHROMIUM:-/usr/bin/chromium}" ] ||
    ! fc-list 2>/dev/null | grep -q "WenQuanYi Zen Hei"; then
    if [ "$(id -u)" != 0 ]; then
        echo "browser test: chromium and chromedriver are missing and installing them needs root" >&2
        [ -z "${CI:-}" ] || exit 1
        exit 0
    fi
    echo "== installing chromium, chromium-driver and fonts-wqy-zenhei"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-wqy-zenhei fontconfig >/dev/null
fi
cargo test --quiet -p playground --test browser -- --ignored
echo "screenshots: $(ls target/playground-screenshots/*.png | tr '\n' ' ')"
