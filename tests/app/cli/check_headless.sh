#!/usr/bin/env bash
# test_cli_headless: meridian-cli runs where a cluster's compute nodes run it, without a display stack. It loads no
# Qt display library (nor X11, Wayland, OpenGL or fonts), runs with no display set, and hands `report` over to
# meridian-report when that is beside it, or says what is missing when it is not.
# Usage: check_headless.sh MERIDIAN_CLI
set -euo pipefail
cli=$1
fail() { echo "test_cli_headless: $*" >&2; exit 1; }

loaded=$(ldd "$cli") || fail "ldd cannot read $cli"
display='libQt6(Gui|Widgets|Charts|Svg|SvgWidgets|OpenGL|OpenGLWidgets|Quick|Qml|QmlModels|WebEngine[A-Za-z]*|WebChannel|Positioning|PrintSupport|Network)\.so|libX11|libxcb|libwayland|libGL|libEGL|libOpenGL|libfontconfig|libfreetype|libxkbcommon'
if bad=$(grep -oE "$display" <<<"$loaded" | sort -u | tr '\n' ' ') && [ -n "$bad" ]; then
    fail "meridian-cli loads display libraries: $bad"
fi
grep -q 'libQt6Core\.so' <<<"$loaded" || fail "meridian-cli no longer loads QtCore; update this test's expectations"

# No display at all: every command but report runs.
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$cli" list-algorithms >/dev/null ||
    fail "meridian-cli list-algorithms does not run without a display"

# report is meridian-report's: its help comes back through meridian-cli.
help=$("$cli" report --help) || fail "meridian-cli report --help failed"
grep -q -- '--project' <<<"$help" || fail "meridian-cli report --help printed: $help"

# A headless install (meridian-cli alone) says where the report is written, with exit code 2.
alone=$(mktemp -d)
trap 'rm -rf "$alone"' EXIT
cp "$cli" "$alone/meridian-cli"
set +e
said=$("$alone/meridian-cli" report --project p.meridian --out r.pdf 2>&1)
code=$?
set -e
[ "$code" = 2 ] || fail "meridian-cli report without meridian-report exited $code: $said"
grep -q "meridian-report, which is not installed beside meridian-cli" <<<"$said" ||
    fail "meridian-cli report without meridian-report said: $said"
echo "test_cli_headless: $(wc -l <<<"$loaded") libraries, none of them a display library; report hands over"
