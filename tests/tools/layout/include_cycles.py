#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""include_cycles.py - the include graph of daemon/ and its cycles (issue 9).

A node is a .c file together with its same-named .h (foo.c + foo.h = "foo"); a *_int.h header is its own
file but belongs to the node of its family's prefix file when one exists (client_int.h -> node "client_int"
is merged into nothing: it stays a node, so client.c -> client_int.h -> client_io.h is a path). An edge
A -> B means a file of A includes a header of B (quoted includes, resolved as the compiler does: against the
including file's folder, then the include path daemon/, daemon/dc, daemon/mp, daemon/ctl). Folders form a second graph: folder X -> folder Y when a node in X includes one in Y.

  include_cycles.py [ROOT]          print every cycle (strongly connected components of >1 node, and folder
                                    cycles); exit 1 if there is any
  include_cycles.py --dot [ROOT]    the node graph in Graphviz form
"""
import os
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def node_of(path):
    base, _ = os.path.splitext(path)
    return base


def scan(root):
    daemon = os.path.join(root, "daemon")
    files = []
    for d, _, names in os.walk(daemon):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, n), root))
    known = set(files)
    edges = {}
    for f in files:
        src = node_of(f)
        edges.setdefault(src, set())
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for inc in INC.findall(text):
            for base in (os.path.dirname(f), "daemon", "daemon/dc", "daemon/mp", "daemon/ctl"):
                cand = os.path.normpath(os.path.join(base, inc))
                if cand in known:
                    dst = node_of(cand)
                    if dst != src:
                        edges[src].add(dst)
                    break
    return edges


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "..")
    edges = scan(root)
    if "--dot" in sys.argv:
        print("digraph includes {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print('  "%s" -> "%s";' % (a, b))
        print("}")
        return 0
    bad = 0
    for comp in sccs(edges):
        bad += 1
        print("cycle between files (%d nodes): %s" % (len(comp), " ".join(comp)))
    fedges = {}
    for a, bs in edges.items():
        for b in bs:
            fa, fb = os.path.dirname(a), os.path.dirname(b)
            if fa != fb:
                fedges.setdefault(fa, set()).add(fb)
                fedges.setdefault(fb, set())
    for comp in sccs(fedges):
        bad += 1
        print("cycle between folders: %s" % " ".join(comp))
    print("%d nodes, %d edges, %d cycles" % (len(edges), sum(len(b) for b in edges.values()), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
