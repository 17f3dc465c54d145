#!/usr/bin/env bash
# Opens a report page (written by `camelot-zero report`) in headless Chromium and saves a
# screenshot of it, to look at the page as a browser draws it.
#
#   scripts/check_report.sh REPORT_DIR_OR_INDEX_HTML [SCREENSHOT.png]
#
# The screenshot defaults to <report dir>/screenshot.png (1280 x 2400 pixels). Exit status: 0 with
# a screenshot, 1 if the page is missing or Chromium failed, 3 if Chromium is not installed
# (Debian: `apt-get install -y chromium`). Not part of CI.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 REPORT_DIR_OR_INDEX_HTML [SCREENSHOT.png]" >&2
    exit 2
fi
page=$1
[[ -d $page ]] && page=$page/index.html
if [[ ! -f $page ]]; then
    echo "error: no report page at $page (write one with: camelot-zero report --run RUN --out DIR)" >&2
    exit 1
fi
page=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
shot=${2:-$(dirname "$page")/screenshot.png}

chromium=""
for candidate in /usr/bin/chromium chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        chromium=$(command -v "$candidate")
        break
    fi
done
if [[ -z $chromium ]]; then
    echo "Chromium is not installed (looked for /usr/bin/chromium, chromium, chromium-browser," >&2
    echo "google-chrome on PATH): no screenshot taken. On Debian: apt-get install -y chromium" >&2
    exit 3
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
log=$profile/chromium.log
if ! "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --hide-scrollbars --screenshot="$shot" --window-size=1280,2400 "file://$page" >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: $chromium failed on $page" >&2
    exit 1
fi
if [[ ! -s $shot ]]; then
    cat "$log" >&2
    echo "error: $chromium wrote no screenshot" >&2
    exit 1
fi
echo "screenshot of $page: $shot"
