#!/usr/bin/env bash
# Compiler launcher of the dev and user presets (CMakeLists.txt, PODSCOPE_WARNINGS):
#   compile-logged.sh MODE_FILE COMPILER ARGS...
# Runs the compiler (COMPILER may be ccache followed by the compiler), passes its messages on,
# and keeps them beside the object as OBJECT.warnings. MODE_FILE holds "error" or "warn": with
# "error" a compile that warns fails and leaves no object, as -Werror would. The mode lives in a
# file, not on the command line, so that the two presets compile with identical commands and
# switching between them rebuilds nothing; objects a "warn" build made keep their warnings in
# their .warnings files, which the build's warning check reads (WarningCheck.cmake).
set -u
mode_file=$1
shift
object=""
previous=""
for arg in "$@"; do
    if [[ "$previous" == "-o" ]]; then object=$arg; fi
    previous=$arg
done
if [[ -z "$object" ]]; then exec "$@"; fi

log="$object.warnings"
mkdir -p "$(dirname "$log")"
"$@" 2>"$log"
status=$?
cat "$log" >&2
if ((status == 0)) && grep -q ': warning: ' "$log" && [[ "$(cat "$mode_file" 2>/dev/null)" == error ]]; then
    echo "error: warnings are errors in this build (PODSCOPE_WARNINGS=error): $object not kept" >&2
    rm -f "$object"
    exit 1
fi
exit "$status"
