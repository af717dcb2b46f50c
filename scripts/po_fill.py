"""Fill the catalogues' empty or fuzzy entries from other catalogues or a table (a helper for merging branches).

    python scripts/po_fill.py --from-branch t1 --from-branch t2 ...   # translations kept on git branches
    python scripts/po_fill.py --table module.py                      # a Python file defining T = {msgid: (fr, es)}

Entries are matched by (msgctxt, msgid, msgid_plural); the first translation found wins, conflicts are printed.
"""

from __future__ import annotations

import argparse
import runpy
import subprocess
from pathlib import Path

import polib

BASE = Path(__file__).resolve().parent.parent
LANGUAGES = ("fr", "es")


def key(entry):
    return (entry.msgctxt, entry.msgid, entry.msgid_plural)


def done(entry):
    return entry.translated() and not entry.fuzzy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--from-branch", action="append", default=[])
    parser.add_argument("--table")
    args = parser.parse_args()
    table = runpy.run_path(args.table)["T"] if args.table else {}
    for index, language in enumerate(LANGUAGES):
        path = BASE / "locale" / language / "LC_MESSAGES" / "django.po"
        po = polib.pofile(str(path))
        known = {}
        for branch in args.from_branch:
            text = subprocess.run(
                ["git", "show", f"{branch}:locale/{language}/LC_MESSAGES/django.po"],
                cwd=BASE,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for entry in polib.pofile(text):
                if entry.obsolete or not done(entry):
                    continue
                value = (entry.msgstr, dict(entry.msgstr_plural))
                if key(entry) in known and known[key(entry)] != value:
                    print(f"{language}: conflict on {entry.msgid!r}: kept {known[key(entry)][0]!r}, not {value[0]!r}")
                    continue
                known.setdefault(key(entry), value)
        filled = missing = 0
        for entry in po:
            if entry.obsolete or done(entry):
                continue
            if entry.msgid in table and not entry.msgctxt and not entry.msgid_plural:
                entry.msgstr = table[entry.msgid][index]
            elif key(entry) in known:
                entry.msgstr, plural = known[key(entry)]
                if plural:
                    entry.msgstr_plural = plural
            else:
                missing += 1
                print(f"{language}: missing {entry.msgctxt or ''} {entry.msgid!r}")
                continue
            if entry.fuzzy:
                entry.flags.remove("fuzzy")
            entry.previous_msgid = entry.previous_msgctxt = entry.previous_msgid_plural = None
            filled += 1
        po.save(str(path))
        print(f"{language}: {filled} filled, {missing} missing")


if __name__ == "__main__":
    main()
