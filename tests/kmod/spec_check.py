#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kmod.spec: kmod/braid_dco.yaml against what is written from it by hand. Checks that the UAPI header's
attribute, command and enum numbers and its constants are the spec's, and that nl_policy.c accepts exactly
the attributes each operation's request lists, with the spec's bounds (max, min, exact-len, max-len).
Prints one line per mismatch; exits 1 on any."""
import os
import re
import sys

import yaml

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import braid_nl  # noqa: E402

kmod = os.path.join(here, '../../kmod')
spec = yaml.safe_load(open(os.path.join(kmod, 'braid_dco.yaml')))
C = braid_nl.uapi(os.path.join(kmod, 'uapi/linux/braid_dco.h'))
policy_c = open(os.path.join(kmod, 'nl_policy.c')).read()
errors = []
checked = 0


def up(s):
    return s.upper().replace('-', '_')


def expect(name, want):
    global checked
    checked += 1
    if C.get(name) != want:
        errors.append('%s: header %s, spec %s' % (name, C.get(name), want))


def value(v):
    return C['BRAID_DCO_' + up(v)] if isinstance(v, str) else v


defs = {d['name']: d for d in spec['definitions']}
for d in spec['definitions']:
    if d['type'] == 'const':
        expect('BRAID_DCO_' + up(d['name']), d['value'])
    else:
        for i, e in enumerate(d['entries']):
            expect('BRAID_DCO_%s_%s' % (up(d['name']), up(e)), i)

sets = {s['name']: s for s in spec['attribute-sets']}
for s in spec['attribute-sets']:
    if 'subset-of' in s:
        continue
    prefix = 'BRAID_DCO_A_' if s['name'] == 'braid_dco' else 'BRAID_DCO_A_%s_' % up(s['name'])
    for i, a in enumerate(s['attributes']):
        expect(prefix + up(a['name']), i + 1)
    expect(prefix + 'MAX', len(s['attributes']))
for i, op in enumerate(spec['operations']['list']):
    expect('BRAID_DCO_CMD_' + up(op['name']), i + 1)
groups = spec['mcast-groups']['list']
for grp in groups:
    checked += 1
    if set(grp) != {'name'} or C.get('BRAID_DCO_MCGRP_' + up(grp['name'])) != grp['name']:
        errors.append('mcast group %s: keys %s, header %s' % (grp.get('name'), sorted(grp),
                                                              C.get('BRAID_DCO_MCGRP_' + up(grp.get('name', '')))))
for op in spec['operations']['list']:
    if 'mcgrp' in op and op['mcgrp'] not in [grp['name'] for grp in groups]:
        errors.append('%s: mcgrp %s is not a group' % (op['name'], op['mcgrp']))


def policy(array):
    """{attribute constant: policy text} of one array in nl_policy.c"""
    m = re.search(r'const struct nla_policy %s\[[^]]*\] = \{(.*?)\n\};' % array, policy_c, re.S)
    if not m:
        errors.append('nl_policy.c: no array %s' % array)
        return {}
    body = re.sub(r'\n\s+(?!\[)', ' ', m.group(1) + '\n')   # wrapped entries onto one line
    return dict(re.findall(r'\[(\w+)\]\s*=\s*(.+?),\n', body))


def macro_value(text):
    """the bound in a policy macro's last argument, evaluated with the header's constants"""
    arg = re.search(r',\s*([^,()]+)\)\s*$', text) or re.search(r'\(([^,()]+)\)\s*$', text)
    return eval(arg.group(1), {}, dict(C)) if arg else None


def check_policy(array, setname, names):
    global checked
    base = sets[setname]
    prefix = 'BRAID_DCO_A_' if setname == 'braid_dco' else 'BRAID_DCO_A_%s_' % up(setname)
    pol = policy(array)
    want = {prefix + up(n) for n in names}
    if set(pol) != want:
        errors.append('%s: accepts %s, spec %s' % (array, sorted(pol), sorted(want)))
    for a in base['attributes']:
        key = prefix + up(a['name'])
        if key not in pol or 'checks' not in a:
            continue
        text, chk = pol[key], a['checks']
        checked += 1
        if 'max' in chk and chk['max'] == 'peer-id-max':
            ok = 'braid_peer_id_range' in text or 'BRAID_POLICY_PEER_ID' in text
        elif 'max' in chk:
            ok = 'NLA_POLICY_MAX' in text and macro_value(text) == value(chk['max'])
        elif 'exact-len' in chk:
            ok = 'NLA_POLICY_EXACT_LEN' in text and macro_value(text) == value(chk['exact-len'])
        elif 'max-len' in chk:
            m = re.search(r'\.len\s*=\s*(\w+)', text)
            ok = m is not None and eval(m.group(1), {}, dict(C)) == value(chk['max-len'])
        elif 'min' in chk:
            ok = ('NLA_POLICY_MIN' in text and macro_value(text) == chk['min']) or 'BRAID_POLICY_IFINDEX' in text
        else:
            ok = False
        if not ok:
            errors.append('%s[%s] = %s: spec checks %s' % (array, key, text, chk))


for op in spec['operations']['list']:
    req = op.get('do', {}).get('request')
    if req is None:
        continue
    array = 'braid_%s_policy' % op['name'].replace('-', '_')
    check_policy(array, 'braid_dco', req['attributes'] + (['ifindex'] if op['name'] == 'peer-get' else []))
    for nest_attr, subset in req.get('nested', {}).items():
        sub = sets[subset]
        arr = 'braid_%s_nl_policy' % subset[:-len('-input')].replace('-', '_')
        check_policy(arr, sub['subset-of'], [a['name'] for a in sub['attributes']])
check_policy('braid_keydir_nl_policy', 'keydir', [a['name'] for a in sets['keydir']['attributes']])

for e in errors:
    print('MISMATCH ' + e)
print('spec_check: %d checks, %d mismatches' % (checked, len(errors)))
sys.exit(1 if errors else 0)
