#!/usr/bin/env python3
"""Writes Sources/PhotoBookCLI/Editor/EditorPage.swift from the editor's page files in Resources/editor/, so that
the page is built into the binary (docs/editor.md). `make build` runs it; DocumentTests checks the two agree."""
import os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = os.path.join(root, "Resources", "editor")
target = os.path.join(root, "Sources", "PhotoBookCLI", "Editor", "EditorPage.swift")
types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}

out = ["// Written by mk/embed_editor.py from Resources/editor/: edit those files, then run `make editor-page`.", "",
       "/// The editor's page, built into the binary: each file's name, type and text.",
       "enum EditorPage {", "    static let files: [String: (type: String, text: String)] = ["]
for name in sorted(os.listdir(source)):
    extension = os.path.splitext(name)[1]
    if extension not in types:
        continue
    text = open(os.path.join(source, name), encoding="utf-8").read()
    fence = "#" * 4
    assert '"""' + fence not in text, name
    out.append(f'        "{name}": ("{types[extension]}", {fence}"""')
    out.append(text.rstrip("\n"))
    out.append(f'"""{fence}),')
out += ["    ]", "}", ""]
text = "\n".join(out)
same = os.path.exists(target) and open(target, encoding="utf-8").read() == text
if "--check" in sys.argv:
    sys.exit(0 if same else 1)
if not same:  # untouched when it agrees, so that make does not rebuild the command line for nothing
    open(target, "w", encoding="utf-8").write(text)
