#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fills the English numerus forms of translations/candle-trace-inspector_en.ts.

Source texts mark plurals the Qt way, "%n line(s)", "%1 match(es)", "%n family(ies)";
English needs a singular and a plural form for each. lupdate adds new plural messages as
unfinished; this writes both forms and marks them finished. Messages whose forms were edited
by hand (finished already) are left alone.

Usage: tools/fill_english_plurals.py translations/candle-trace-inspector_en.ts
"""
import re
import sys
import xml.etree.ElementTree as ET

MARK = re.compile(r"(\w*)\((s|es|ies)\)")


def forms(source):
    def one(m):
        return m.group(1) if m.group(2) != "ies" else m.group(1)
    def many(m):
        word, suffix = m.group(1), m.group(2)
        if suffix == "ies":
            return word[:-1] + "ies" if word.endswith("y") else word + "ies"
        return word + suffix
    return MARK.sub(one, source), MARK.sub(many, source)


def main(path):
    tree = ET.parse(path)
    changed = 0
    for message in tree.iter("message"):
        if message.get("numerus") != "yes":
            continue
        translation = message.find("translation")
        if translation.get("type") not in ("unfinished", None) or (
                translation.get("type") is None and all((f.text or "") for f in translation.findall("numerusform"))):
            continue
        singular, plural = forms(message.findtext("source"))
        for f in list(translation):
            translation.remove(f)
        for text in (singular, plural):
            ET.SubElement(translation, "numerusform").text = text
        translation.attrib.pop("type", None)
        changed += 1
    tree.write(path, encoding="utf-8", xml_declaration=True)
    print(f"{path}: {changed} plural message(s) filled")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
