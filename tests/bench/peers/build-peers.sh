#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-peers.sh - opt-in: build the VPN peers the bench compares braid with, glorytun (with its mud and argz
# submodules) and MLVPN, from pinned upstream sources. No third-party source is committed: give the sources as
#   --src DIR        a folder holding the pinned tarballs below (names and sha256 checked), or git checkouts
#                    DIR/glorytun (with mud/ and argz/ checked out) and DIR/mlvpn at the pinned commits
#   (default DIR: $BRAID_PEERS_SRC, else /work/peers-src)
# and the binaries go to --out DIR (default $BRAID_PEERS_DIR, else <repo>/build/peers): glorytun, mlvpn.
# A peer whose source is absent is skipped with one "SKIP: ..." line (exit 0 unless --require); a source that is
# present but does not match its pin is an error (exit 1). Needs: cc, make, libsodium-dev; MLVPN also autoconf,
# automake, libev-dev (packaging/install-deps.sh has them).
#
# Making the tarballs from the public repositories (deterministic: git archive of a commit):
#   git clone https://github.com/angt/glorytun && git -C glorytun archive --format=tar --prefix=glorytun/ \
#       32267e86a6da05b285bb3bf2b136c105dc0af4bb > glorytun-32267e86.tar      # and the same for:
#   angt/mud   e991dc9b4510367c0d03540dabdc84188ab9d009 --prefix=glorytun/mud/  > mud-e991dc9b.tar
#   angt/argz  eb8b122247bd48b11984ae4f8755ae6a4059e6c2 --prefix=glorytun/argz/ > argz-eb8b1222.tar
#   angt/aegis256 577ae0352d191fa604f861ea2f0847e7c5eda617 --prefix=glorytun/mud/aegis256/ > aegis256-577ae035.tar
#   zehome/MLVPN b934d4953d480cbbd43128d01150b829fa8839df --prefix=mlvpn/     > mlvpn-b934d495.tar
# (mud and argz are the commits glorytun pins as submodules at that commit; aegis256 is mud's submodule.)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
SRC=${BRAID_PEERS_SRC:-/work/peers-src}
OUT=${BRAID_PEERS_DIR:-$REPO/build/peers}
REQUIRE=0 ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	--src) SRC=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--require) REQUIRE=1; shift ;;
	--only) ONLY=$2; shift 2 ;;
	-h | --help) sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "build-peers.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

# name commit tarball sha256 (of the tarball)
PINS=(
	"glorytun 32267e86a6da05b285bb3bf2b136c105dc0af4bb glorytun-32267e86.tar 1ec1500b544fc64c6cef73e0339d944ad8cd6c9d4dda3e54c3b97d6d1599f399"
	"mud e991dc9b4510367c0d03540dabdc84188ab9d009 mud-e991dc9b.tar 79d75e6e3739d0a1a5e191392a6f868b48bcd7dcf7dcbfc8f874e0f17e6ff052"
	"argz eb8b122247bd48b11984ae4f8755ae6a4059e6c2 argz-eb8b1222.tar 65d8dd3e890b5efe1a5ad3e6bf6e220fd15d27054ae1a80f98e14b91266e090e"
	"aegis256 577ae0352d191fa604f861ea2f0847e7c5eda617 aegis256-577ae035.tar 0bbd65e3c1393f78d685dc737a134e1e0c0ed4882098ab16a0727bf93144f659"
	"mlvpn b934d4953d480cbbd43128d01150b829fa8839df mlvpn-b934d495.tar e3b75fbe6661f173f98f674dade9a508d9b6134bc13b9fe6c78f2b97fc23ccc9"
)
pin() { local p; for p in "${PINS[@]}"; do set -- $p; [ "$1" = "$NAME" ] && { PIN_COMMIT=$2 PIN_TAR=$3 PIN_SHA=$4; return 0; }; done; return 1; }

die() { echo "build-peers.sh: error: $*" >&2; exit 1; }
skipped=0
skip() {
	echo "SKIP: $*"
	skipped=1
}

# stage NAME DEST_PARENT: unpack NAME's tarball (sha256 checked) into the work tree, or copy its git checkout
# (commit checked). Returns 1 when neither is present.
WORK=$(mktemp -d /tmp/braid-peers.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
stage() {
	local sub=$2 got
	NAME=$1
	pin || die "no pin for $NAME"
	if [ -f "$SRC/$PIN_TAR" ]; then
		got=$(sha256sum "$SRC/$PIN_TAR" | cut -d' ' -f1)
		[ "$got" = "$PIN_SHA" ] || die "$SRC/$PIN_TAR: sha256 $got, pinned $PIN_SHA"
		tar -C "$WORK" -xf "$SRC/$PIN_TAR" || die "cannot unpack $PIN_TAR"
		echo "$NAME: $PIN_TAR (sha256 ok, commit $PIN_COMMIT)"
		return 0
	fi
	if [ -d "$SRC/$sub/.git" ] || [ -f "$SRC/$sub/.git" ]; then
		got=$(git -C "$SRC/$sub" rev-parse HEAD) || die "$SRC/$sub: not a git checkout"
		[ "$got" = "$PIN_COMMIT" ] || die "$SRC/$sub is at $got, pinned $PIN_COMMIT"
		mkdir -p "$WORK/$sub"
		git -C "$SRC/$sub" archive --format=tar HEAD | tar -C "$WORK/$sub" -xf - || die "cannot copy $SRC/$sub"
		echo "$NAME: checkout $SRC/$sub (commit ok)"
		return 0
	fi
	return 1
}

mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

if [ -z "$ONLY" ] || [ "$ONLY" = glorytun ]; then
	if stage glorytun glorytun; then
		stage mud glorytun/mud || die "glorytun needs its mud submodule: $SRC/mud-e991dc9b.tar or a checkout $SRC/glorytun/mud"
		stage aegis256 glorytun/mud/aegis256 || die "mud needs its aegis256 submodule: $SRC/aegis256-577ae035.tar or a checkout $SRC/glorytun/mud/aegis256"
		stage argz glorytun/argz || die "glorytun needs its argz submodule: $SRC/argz-eb8b1222.tar or a checkout $SRC/glorytun/argz"
		# upstream's Makefile builds its own libsodium (sodium.sh); use the system's instead
		(cd "$WORK/glorytun" && make -s glorytun VERSION=0.3.4-g32267e8 CPPFLAGS= LDFLAGS= \
			CFLAGS="-std=c99 -O2 -fstack-protector-strong" >"$WORK/glorytun.log" 2>&1) ||
			die "glorytun build failed: $(tail -5 "$WORK/glorytun.log")"
		install -m 0755 "$WORK/glorytun/glorytun" "$OUT/glorytun" || die "install glorytun"
		echo "built $OUT/glorytun"
	else
		skip "glorytun: no source in $SRC (glorytun-32267e86.tar + mud-e991dc9b.tar + aegis256-577ae035.tar + argz-eb8b1222.tar, or a checkout $SRC/glorytun)"
	fi
fi
if [ -z "$ONLY" ] || [ "$ONLY" = mlvpn ]; then
	if stage mlvpn mlvpn; then
		(cd "$WORK/mlvpn" && echo "2.3.5-gb934d49" >.tarball-version && ./autogen.sh &&
			./configure --disable-filters --prefix=/usr/local && make -s) >"$WORK/mlvpn.log" 2>&1 ||
			die "mlvpn build failed: $(tail -8 "$WORK/mlvpn.log")"
		install -m 0755 "$WORK/mlvpn/src/mlvpn" "$OUT/mlvpn" || die "install mlvpn"
		echo "built $OUT/mlvpn"
	else
		skip "mlvpn: no source in $SRC (mlvpn-b934d495.tar, or a checkout $SRC/mlvpn)"
	fi
fi
[ $REQUIRE = 1 ] && [ $skipped = 1 ] && exit 1
exit 0
