#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every interactive control in gui/qml/ has an objectName and an Accessible.name (screen readers, and tests that
drive the GUI as a user). Reads each .qml file, finds each control's block by brace matching, and checks that the
block itself (not a nested child) sets both. Exit 1 listing file:line of each control that misses one."""
import pathlib
import re
import sys

CONTROLS = ("Button", "TabButton", "Switch", "CheckBox", "TextField", "ComboBox", "SpinBox", "Slider", "RadioButton")
OPEN = re.compile(r"\b(%s)\s*\{" % "|".join(CONTROLS))


def own_body(text, start):
    """The text of the block opening at text[start] == '{', with nested blocks blanked out."""
    depth, out, i = 0, [], start
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return "".join(out)
        elif depth == 1:
            out.append(c)
        i += 1
    return "".join(out)


def main(qml_dir):
    missing, checked = [], 0
    for f in sorted(pathlib.Path(qml_dir).glob("*.qml")):
        text = f.read_text()
        for m in OPEN.finditer(text):
            body = own_body(text, m.end() - 1)
            line = text.count("\n", 0, m.start()) + 1
            checked += 1
            for need in ("objectName:", "Accessible.name:"):
                if need not in body:
                    missing.append("%s:%d: %s without %s" % (f.name, line, m.group(1), need[:-1]))
    for x in missing:
        print(x)
    print("%d controls checked, %d problems" % (checked, len(missing)))
    return 1 if missing or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
