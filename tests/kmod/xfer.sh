# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the kmod VM scripts (dco_data.sh, dco_bpf.sh): a TCP transfer between two namespaces through
# the tunnel under test; the receiver writes the sha256 and length of what it got.
# xfer_at A B ADDR PORT SEED PAUSE BYTES FILE [CMD]: namespace B listens on ADDR:PORT, namespace A sends BYTES
# (sha256(SEED) repeated) and prints their sha256 and length; the receiver's go to FILE; CMD, if given, runs
# PAUSE seconds after the first half was sent, before the second half.
xfer_at() {
	ip netns exec "$2" python3 -c '
import hashlib, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[2], int(sys.argv[3]))); s.listen(1)
c, _ = s.accept(); h = hashlib.sha256(); n = 0
while True:
    d = c.recv(65536)
    if not d: break
    h.update(d); n += len(d)
open(sys.argv[1], "w").write("%s %d\n" % (h.hexdigest(), n))' "$8" "$3" "$4" &
	xfer_rpid=$!
	sleep 1
	ip netns exec "$1" python3 -c '
import hashlib, socket, subprocess, sys, time
n = int(sys.argv[1]); data = hashlib.sha256(sys.argv[5].encode()).digest() * (n // 32)
s = socket.create_connection((sys.argv[3], int(sys.argv[4])), timeout=60)
half = len(data) // 2
s.sendall(data[:half])
if sys.argv[2]:
    time.sleep(float(sys.argv[6])); subprocess.run(sys.argv[2], shell=True, check=True)
s.sendall(data[half:]); s.close()
print(hashlib.sha256(data).hexdigest(), len(data))' "$7" "${9:-}" "$3" "$4" "$5" "$6"
	wait $xfer_rpid
}
