#!/usr/bin/env bash
# test_install: `cmake --install` into a temporary prefix lays out a desktop application that the desktop's
# own validators accept, and the installed programs run and report the project's version.
# Usage: check_install.sh BUILD_DIR VERSION APP_ID
set -euo pipefail
build=$1 version=$2 id=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "test_install: $*" >&2; exit 1; }
for tool in desktop-file-validate appstreamcli; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/dev installs desktop-file-utils and appstream)"
done

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/meridian bin/meridian-cli bin/meridian-report bin/meridian-probe; do
    [ -x "$prefix/$f" ] || fail "$f is not installed or not executable"
done
desktop=$prefix/share/applications/$id.desktop
metainfo=$prefix/share/metainfo/$id.metainfo.xml
for f in "$desktop" "$metainfo" "$prefix/share/icons/hicolor/scalable/apps/$id.svg" \
         "$prefix/share/mime/packages/$id.xml" "$prefix/share/doc/Meridian/LICENSE"; do
    [ -s "$f" ] || fail "${f#"$prefix"/} is not installed"
done

# The validators: any error or warning fails (desktop-file-validate prints hints too; those are allowed).
out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
if grep -qE '(error|warning):' <<<"$out"; then fail "desktop-file-validate: $out"; fi
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli rejects the metainfo"

# What the files name must exist: the program, the icon, the launchable, the release.
exec_name=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ -x "$prefix/bin/$exec_name" ] || fail "the .desktop file runs '$exec_name', which is not installed"
grep -qx "Icon=$id" "$desktop" || fail "the .desktop file does not name the icon $id"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" || fail "the metainfo's launchable"
grep -q "<release version=\"$version\"" "$metainfo" || fail "the metainfo has no release $version"

# The installed programs run from the prefix and carry the version of project(VERSION).
[ "$("$prefix/bin/meridian-cli" --version)" = "meridian-cli $version" ] || fail "meridian-cli --version"
gui=$(QT_QPA_PLATFORM=offscreen "$prefix/bin/meridian" --version 2>/dev/null)
grep -q "$version" <<<"$gui" || fail "meridian --version printed '$gui'"
"$prefix/bin/meridian-cli" list-algorithms >/dev/null || fail "the installed meridian-cli does not run"
# The installed meridian-cli hands `report` over to the installed meridian-report.
"$prefix/bin/meridian-cli" report --help | grep -q -- '--project' || fail "the installed meridian-cli report --help"
# The installed meridian-cli finds its installed tracer (a command that is not an MPI program then records
# nothing, which is the error expected here; a missing tracer would be another one).
[ -f "$prefix/lib/meridian/libmeridian-trace.so" ] || ls "$prefix"/lib/*/meridian/libmeridian-trace.so >/dev/null 2>&1 ||
    fail "libmeridian-trace.so is not installed"
# and PT-Scotch's module, which meridian-cli loads from there under an MPI launcher (map --param parallel=true).
inputs=$(mktemp -d)
trap 'rm -rf "$prefix" "$inputs"' EXIT
printf 'name,lat,lon,nodes,slots\na,0,0,2,2\nb,0,90,2,2\n' >"$inputs/sites.csv"
printf '%%%%MatrixMarket matrix coordinate real general\n4 4 2\n1 2 1e6\n3 4 1e6\n' >"$inputs/volume.mtx"
mapped=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent=false \
         mpirun --oversubscribe -np 1 "$prefix/bin/meridian-cli" map --sites "$inputs/sites.csv" \
         --volume "$inputs/volume.mtx" --algorithm scotch-bw --param parallel=true 2>&1 || true)
# A sanitized build cannot load the module (RTLD_DEEPBIND) and must say so.
expected="PT-Scotch over 1 rank"
grep -q -- "-fsanitize=" "$build/CMakeCache.txt" && expected="which the sanitizers' runtimes do not allow"
grep -q "$expected" <<<"$mapped" || fail "the installed meridian-cli on PT-Scotch: $mapped"
traced=$(env -u MERIDIAN_TRACE_LIBRARY "$prefix/bin/meridian-cli" capture --out "$prefix/probe" -- true 2>&1 || true)
grep -q "the tracer wrote nothing" <<<"$traced" || fail "the installed meridian-cli capture: $traced"
echo "test_install: $(find "$prefix" -type f | wc -l) files installed and valid, version $version"
