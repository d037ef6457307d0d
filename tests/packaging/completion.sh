#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# completion.sh - packaging/completion: braidd completes its directives (from `braidd --help-options`) and the
# --genkey types, braidctl its commands. bash-completion's helpers are stubbed (the test needs no package).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BRAID_BIN_DIR:-$root/build/bin}
[ -x "$bin/braidd" ] || { echo "FAIL: braidd not built" >&2; exit 1; }
PATH=$bin:$PATH
_init_completion() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD - 1]}; }
_filedir() { :; }
complete() { :; }
compopt() { :; }
source "$root/packaging/completion/braidd" || exit 1
source "$root/packaging/completion/braidctl" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
want() { # want FUNC "WORDS..." EXPECTED
	local f=$1 exp=$3
	read -r -a COMP_WORDS <<<"$2"
	[[ $2 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	$f
	[ "${COMPREPLY[*]}" = "$exp" ] || fail "$2: got '${COMPREPLY[*]}', want '$exp'"
}
want _braidd "braidd --suppress-t" "--suppress-timestamps"
want _braidd "braidd --machine-r" "--machine-readable-output"
want _braidd "braidd --mp-auto-in" "--mp-auto-include"
want _braidd "braidd --genkey tls" "tls-auth tls-crypt"
want _braidctl "braidctl st" "status"
want _braidctl "braidctl v" "version"
want _braidctl "braidctl -s /tmp/x.sock l" "log"
want _braidctl "braidctl set " "scheduler path client"
want _braidctl "braidctl set path c1 d" "disable"
want _braidctl "braidctl set scheduler lo" "lowest-rtt"
want _braidctl "braidctl status --w" "--watch"
want _braidctl "braidctl --tc" "--tcp"
n=$(braidd --help-options | wc -l)
want _braidd "braidd --zz" ""
COMP_WORDS=(braidd --); COMP_CWORD=1; _braidd
[ "${#COMPREPLY[@]}" = $((n + 2)) ] || fail "braidd --: ${#COMPREPLY[@]} completions, want $((n + 2))"
echo "PASS: completion ($n braidd directives)"
