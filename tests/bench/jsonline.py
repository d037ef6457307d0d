#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print one JSON object built from typed arguments (used by run-cell.sh, which has no JSON of its own).

  jsonline.py s:key=text n:key=number b:key=true|false j:key=<json> r:<json members, no braces>

An empty n: value becomes null. Bad input is an error naming the argument (exit 2).
"""
import json
import sys


def main(argv):
    out = {}
    for arg in argv:
        kind, sep, rest = arg.partition(':')
        if not sep:
            sys.exit(f'jsonline: argument without type prefix: {arg!r}')
        if kind == 'r':
            if rest.strip():
                try:
                    out.update(json.loads('{' + rest + '}'))
                except ValueError as e:
                    sys.exit(f'jsonline: bad raw members {rest!r}: {e}')
            continue
        key, sep, val = rest.partition('=')
        if not sep or not key:
            sys.exit(f'jsonline: argument without key=value: {arg!r}')
        if kind == 's':
            out[key] = val
        elif kind == 'n':
            if val in ('', 'null'):
                out[key] = None
            else:
                try:
                    num = float(val)
                except ValueError:
                    sys.exit(f'jsonline: {key}: not a number: {val!r}')
                out[key] = int(num) if num.is_integer() and 'e' not in val.lower() and '.' not in val else num
        elif kind == 'b':
            if val not in ('true', 'false'):
                sys.exit(f'jsonline: {key}: not true/false: {val!r}')
            out[key] = val == 'true'
        elif kind == 'j':
            try:
                out[key] = json.loads(val) if val else None
            except ValueError as e:
                sys.exit(f'jsonline: {key}: bad JSON {val!r}: {e}')
        else:
            sys.exit(f'jsonline: unknown type prefix {kind!r} in {arg!r}')
    print(json.dumps(out, sort_keys=False))


if __name__ == '__main__':
    main(sys.argv[1:])
