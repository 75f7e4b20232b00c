#!/usr/bin/env python3
"""Prints the flags `swift build -c release` compiles one target with, for mk/fuzz.mk.

    swift package dump-package > package.json
    release_flags.py package.json TARGET swift|c

SwiftPM's own release optimisation (Swift: -O with whole-module optimisation; C: -O2), then the target's
settings in Package.swift for that tool that apply to a release build on Linux, in the order SwiftPM adds
them (a later -O... wins). A kind of setting this script does not know stops it with an error rather than
being left out, so the fuzzers cannot drift silently from the shipped binary.
"""

import json
import sys

SWIFTPM_RELEASE = {"swift": ["-O", "-whole-module-optimization"], "c": ["-O2"]}
WARNINGS_AS_ERRORS = {"swift": "-warnings-as-errors", "c": "-Werror"}


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in SWIFTPM_RELEASE:
        sys.exit(__doc__)
    path, name, tool = sys.argv[1:]
    with open(path) as f:
        package = json.load(f)
    target = next((t for t in package["targets"] if t["name"] == name), None)
    if target is None:
        sys.exit(f"release_flags.py: Package.swift has no target {name}")
    flags = list(SWIFTPM_RELEASE[tool])
    for setting in target.get("settings") or []:
        condition = setting.get("condition") or {}
        if setting["tool"] != tool or condition.get("config") not in (None, "release"):
            continue
        if condition.get("platformNames") and "linux" not in condition["platformNames"]:
            continue
        (kind, value), = setting["kind"].items()
        argument = value.get("_0") if isinstance(value, dict) else None
        if kind == "unsafeFlags":
            flags += argument
        elif kind == "treatAllWarnings":
            if argument == "error":
                flags.append(WARNINGS_AS_ERRORS[tool])
        else:
            sys.exit(f"release_flags.py: target {name} has a {tool} setting '{kind}' that mk/fuzz.mk does not "
                     f"pass on yet: teach mk/release_flags.py its flag")
    print(" ".join(flags))


if __name__ == "__main__":
    main()
