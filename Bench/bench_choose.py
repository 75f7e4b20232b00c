"""The choice case of `make bench` (BENCH_ONLY=choose, and in every full run): issue 31, photobook choosing the best
photos of a whole trip for a 24-page book.

The trip: `photobook-corpus --trip` (BENCH_CHOOSE_COUNT files, 500 by default, 12 MP, over 6 days: outings, bursts
with one sharp frame, retaken pairs, blurred, dark and blown photos, screenshots, documents, XMP ratings; its
TRUTH.json says what each file is), made once in .bench/trip-v1-N/; then .bench/choose-v1-N/, the photos of the case:
about 1 in 5 camera JPEGs (whole bursts and pairs together, never one whose rating is inside the JPEG) made HEIC
with heif-enc (upright first with vips autorot, as bench_photos.py's HEIC set; a 320-pixel thumbnail item, `-t 320`;
the EXIF kept by heif-enc), their sidecars renamed with them, the rest hard links; its TRUTH.json names the HEICs.

Timed, each run one process (bench_config.Run: wall, CPU and peak RSS from wait4):
  - `photobook build TRIP --pages 24 --layout auto --sort date --dry-run` alternating with `vipsthumbnail --size 256`
    of the same files, one process given them all, output to a scratch folder (BENCH_RUNS runs each): both medians,
    photobook / vips (target <= 1.0), time per photo, and the dry run's peak memory (target < 150 MB);
  - the full 24-page build (`-o book.pdf --report r.json --no-cache`) alternating with a build of just the photos it
    chose, read from the report's `selection`, given as files in the book's order with the same layout and sort
    (BENCH_RUNS_96 runs each): target build <= dry run + 1.2 x chosen-only build;
  - the choice's quality, from TRUTH.json and the first build's report: bursts whose sharp frame was chosen /
    bursts represented, junk chosen (blurred, dark, blown, screenshot, document, rejected), days present / days,
    5-star photos chosen / 5-star photos.
Until photobook has --pages its side fails with a usage error: it is printed as failed and the rest goes on.

Settings: BENCH_CHOOSE_COUNT=500 (files in the trip; a smaller one for a quick look, e.g. 60: its folders are
apart, trip-v1-60/ and choose-v1-60/), BENCH_CHOOSE_PAGES=24.
"""

import concurrent.futures
import json
import os
import shlex
import shutil
import time
import zlib

import bench_config
import bench_photos
import bench_tables
from bench_config import CORES, JOBS, RUNS, RUNS_96, WORK, Case, rel, say

COUNT = int(os.environ.get("BENCH_CHOOSE_COUNT", "500"))
PAGES = int(os.environ.get("BENCH_CHOOSE_PAGES", "24"))
DAYS = 6
SEED = 20250611
# Bump the versions whenever photobook-corpus --trip draws differently (trip) or the recipe below changes (choose).
TRIP = os.path.join(WORK, f"trip-v1-{COUNT}")
CHOOSE = os.path.join(WORK, f"choose-v1-{COUNT}")
HEIC_THUMBNAIL = 320
JUNK = ["blurred", "dark", "blown", "screenshot", "document"]


def ensure_trip():
    """The trip folder, made once by photobook-corpus --trip (TRUTH.json is written last: a folder with one is whole)."""
    if os.path.exists(os.path.join(TRIP, "TRUTH.json")):
        say(f"trip: {rel(TRIP)} (cached; delete it to regenerate)")
        return
    bench_config.build_product("photobook-corpus")
    partial = TRIP + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    wall, cpu = bench_config.run_checked([bench_config.CORPUS_TOOL, "--trip", "--out", partial, "--count", str(COUNT), "--days",
                                          str(DAYS), "--seed", str(SEED), "--quality", "92", "--jobs", str(JOBS)],
                                         "generating the trip")
    shutil.rmtree(TRIP, ignore_errors=True)
    os.rename(partial, TRIP)
    say(f"trip: generated {COUNT} files in {wall:.0f} s wall, {cpu:.0f} s CPU")


def heic_wanted(entry):
    """About 1 in 5 camera JPEGs, chosen by a hash of the burst or pair (all its frames alike) or of the name; never
    one with its rating inside (heif-enc would drop the XMP)."""
    if not entry["name"].endswith(".jpg") or entry.get("ratingIn") == "photo":
        return False
    key = f"group {entry['group']}" if entry.get("group") is not None else entry["name"]
    return zlib.crc32(key.encode()) % 5 == 0


def ensure_choose_set():
    """.bench/choose-v1-N/: the trip with about 1 in 5 JPEGs as HEIC (made once, JOBS encoders at once); returns the
    ground truth, its names those of the folder. None when the trip has no TRUTH.json."""
    truth_path = os.path.join(CHOOSE, "TRUTH.json")
    if os.path.exists(truth_path):
        say(f"{rel(CHOOSE)}: cached; delete it to remake")
        with open(truth_path) as f:
            truth = json.load(f)
        bench_photos.warm(CHOOSE, [e["name"] for e in truth["files"]])
        return truth
    with open(os.path.join(TRIP, "TRUTH.json")) as f:
        truth = json.load(f)
    heif = shutil.which("heif-enc")
    if not heif:
        say("heif-enc not found: the trip stays all JPEG and PNG (apt-get install libheif-examples)")
    partial = CHOOSE + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(os.path.join(partial, ".scratch"))

    def make(entry):
        name = entry["name"]
        source = os.path.join(TRIP, name)
        new = name
        if heif and heic_wanted(entry):
            new = os.path.splitext(name)[0] + ".heic"
            upright = bench_photos._upright(source, entry["orientation"], os.path.join(partial, ".scratch"))
            bench_photos._quiet(["heif-enc"] + bench_config.HEIC_ENCODE + ["-t", str(HEIC_THUMBNAIL), "-o",
                                                                            os.path.join(partial, new), upright])
            if upright != source:
                os.remove(upright)
            times = os.stat(source)
            os.utime(os.path.join(partial, new), ns=(times.st_atime_ns, times.st_mtime_ns))
        else:
            os.link(source, os.path.join(partial, new))
        if os.path.exists(source + ".xmp"):
            shutil.copy2(source + ".xmp", os.path.join(partial, new + ".xmp"))
        return dict(entry, name=new, source=name)

    started = time.monotonic()
    before = os.times()
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        files = list(pool.map(make, truth["files"]))
    after = os.times()
    os.rmdir(os.path.join(partial, ".scratch"))
    heics = sum(1 for e in files if e["name"].endswith(".heic"))
    truth = dict(truth, files=files, heic=f"{heics} made by heif-enc {' '.join(bench_config.HEIC_ENCODE)} -t {HEIC_THUMBNAIL}")
    with open(os.path.join(partial, "TRUTH.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")
    shutil.rmtree(CHOOSE, ignore_errors=True)
    os.rename(partial, CHOOSE)
    say(f"{rel(CHOOSE)}: made {heics} HEICs in {time.monotonic() - started:.0f} s wall, "
        f"{(after.children_user - before.children_user) + (after.children_system - before.children_system):.0f} s CPU")
    bench_photos.warm(CHOOSE, [e["name"] for e in files])
    return truth


def chosen_paths(report):
    """The paths the report says were chosen, in the book's order (its pages), else in the report's."""
    photos = report.get("photos", [])
    chosen = {i for i, p in enumerate(photos) if (p.get("selection") or {}).get("chosen")}
    ordered = [i for page in report.get("book", {}).get("pages", []) for i in page.get("photos", []) if i in chosen]
    ordered += sorted(chosen - set(ordered))
    return [photos[i]["path"] for i in ordered]


def quality_rows(truth, report):
    """The choice against the ground truth."""
    by_name = {e["name"]: e for e in truth["files"]}
    chosen, reasons, duplicates = set(), {}, []
    for photo in report.get("photos", []):
        selection = photo.get("selection") or {}
        name = os.path.basename(photo["path"])
        if selection.get("chosen"):
            chosen.add(name)
        elif "reason" in selection:
            reasons[selection["reason"]] = reasons.get(selection["reason"], 0) + 1
            if selection["reason"] == "nearDuplicate":
                duplicates.append((name, os.path.basename(selection.get("of") or "")))
    if not chosen and not reasons:
        return ["choice: not measured (the report has no `selection`)"]
    files = [e for e in truth["files"] if e["name"] in by_name]
    bursts = {}
    for e in files:
        if e["kind"] in ("burstSharp", "burstBlurred"):
            bursts.setdefault(e["group"], []).append(e)
    represented = [g for g, frames in bursts.items() if any(f["name"] in chosen for f in frames)]
    sharp = [g for g in represented if any(f["name"] in chosen and f["kind"] == "burstSharp" for f in bursts[g])]
    blurred_frames = sum(1 for e in files if e["kind"] == "burstBlurred" and e["name"] in chosen)
    junk = {kind: sum(1 for e in files if e["kind"] == kind and e["name"] in chosen) for kind in JUNK}
    junk["rejected"] = sum(1 for e in files if e.get("rating") == -1 and e["name"] in chosen)
    days = sorted({e["day"] for e in files})
    present = sorted({by_name[n]["day"] for n in chosen if n in by_name})
    fives = [e for e in files if e.get("rating") == 5]
    pairs = {}
    for e in files:
        if e["kind"] == "retake":
            pairs.setdefault(e["group"], []).append(e)
    worse = sum(1 for frames in pairs.values() for f in frames if not f.get("better") and f["name"] in chosen)
    same_group = sum(1 for name, of in duplicates
                     if by_name.get(name, {}).get("group") is not None
                     and by_name.get(name, {}).get("group") == by_name.get(of, {}).get("group"))
    return [
        f"chosen: {len(chosen)} of {len(files)} files; left out: "
        + (", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) or "none"),
        f"bursts whose sharp frame was chosen / bursts represented: {len(sharp)} / {len(represented)}"
        f" ({len(bursts)} bursts in the trip; blurred burst frames chosen: {blurred_frames})",
        f"junk chosen: {sum(junk.values())} (" + ", ".join(f"{k} {v}" for k, v in junk.items()) + ")"
        f"; the worse frame of a retaken pair chosen: {worse} of {len(pairs)} pairs",
        f"days present / days: {len(present)} / {len(days)}",
        f"5-star photos chosen / 5-star photos: {sum(1 for e in fives if e['name'] in chosen)} / {len(fives)}",
        f"nearDuplicate left-outs whose 'of' is in their own burst or pair (TRUTH.json): {same_group} / {len(duplicates)}",
    ]


def photobook_argv(inputs, *more):
    return [bench_config.PHOTOBOOK, "build"] + inputs + ["--layout", "auto", "--sort", "date"] + list(more)


def shown(argv, limit=12):
    """A command for the notes; a long list of files cut short."""
    words = [rel(bench_config.PHOTOBOOK) if a == bench_config.PHOTOBOOK else a for a in argv]
    if len(words) > limit + 6:
        files = [w for w in words if w.startswith(rel(CHOOSE) + "/")]
        if len(files) > limit:
            keep = set(files[:3])
            words = [w for w in words if w not in files or w in keep]
            words.insert(words.index(files[2]) + 1, f"... ({len(files)} files in all)")
    return " ".join(shlex.quote(w) if not w.startswith("...") else w for w in words)


def choose_case():
    """Makes the trip (once), times the cases, prints the figures and the targets."""
    started = time.monotonic()
    ensure_trip()
    truth = ensure_choose_set()
    names = [e["name"] for e in truth["files"]]
    count = len(names)
    kinds = {}
    for e in truth["files"]:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    heics = sum(1 for n in names if n.endswith(".heic"))
    say(f"the trip: {count} files ({heics} HEIC, {sum(1 for n in names if n.endswith('.png'))} PNG, the rest JPEG)"
        f" over {truth['days']} days: " + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    folder = rel(CHOOSE)
    pages = str(PAGES)

    dry = Case(f"photobook --dry-run", count,
               photobook_argv([folder], "--pages", pages, "--dry-run", "--quiet"), None, "", may_fail=True)
    dry.shown = shown(dry.argv)
    thumbs = os.path.join(WORK, f"choose-vips-thumbnails-{count}")
    files = [os.path.join(folder, n) for n in names]
    # One process given every file; the folder is made by the shell that execs it (Run removes the old one first).
    # Absolute: vipsthumbnail takes a relative -o as relative to each photo's folder.
    vips_argv = ["sh", "-c", 'mkdir -p "$0" && exec vipsthumbnail --size 256 -o "$0/%s.jpg" "$@"', thumbs] + files
    vips = Case("vipsthumbnail --size 256", count, vips_argv, thumbs,
                f"vipsthumbnail --size 256 -o {rel(thumbs)}/%s.jpg {folder}/<each of the {count} photos>",
                may_fail=True) if shutil.which("vipsthumbnail") else None
    if not vips:
        say("vipsthumbnail not found: no comparison (apt-get install libvips-tools)")
    say(f"\nChoosing {PAGES} pages from {count} photos: the dry run and vipsthumbnail, {RUNS} runs each, alternating:")
    for _ in range(RUNS):
        dry.run_once()
        if vips:
            vips.run_once()

    book = os.path.join(WORK, f"choose-{count}.pdf")
    report_path = os.path.join(WORK, f"choose-{count}.json")
    build = Case(f"photobook --pages {PAGES}", count,
                 photobook_argv([folder], "--pages", pages, "-o", rel(book), "--report", rel(report_path), "--no-cache",
                                "--quiet"), book, "", may_fail=True)
    build.shown = shown(build.argv)
    chosen_case, report = None, None
    say(f"\nThe {PAGES}-page book from the {count}, and from just the photos it chose, {RUNS_96} runs each, alternating:")
    for _ in range(RUNS_96):
        build.run_once()
        if build.ok and report is None:
            with open(report_path) as f:
                report = json.load(f)
            paths = chosen_paths(report)
            if paths:
                chosen_pdf = os.path.join(WORK, f"choose-{count}-chosen.pdf")
                chosen_case = Case("photobook, chosen only", len(paths),
                                   photobook_argv(paths, "-o", rel(chosen_pdf), "--no-cache", "--quiet"), chosen_pdf, "",
                                   may_fail=True)
                chosen_case.shown = shown(chosen_case.argv)
            else:
                say("  the report names no chosen photo (no `selection`): no chosen-only build")
        if chosen_case:
            chosen_case.run_once()

    say(f"\nResults (the choice, issue 31; medians):")
    for case in [dry, vips, build, chosen_case]:
        if case:
            say("    " + (dry_row(case) if case in (dry, vips) else case.row()))
    say(f"\nTargets (issue 31; {CORES} cores; medians of the runs above):")
    if dry.ok and vips and vips.ok:
        share = dry.median("wall") / vips.median("wall")
        say("    " + bench_tables.target_row(f"dry run / vipsthumbnail, {count} photos",
                                             f"{share:.2f} ({dry.median('wall'):.2f} s / {vips.median('wall'):.2f} s)",
                                             "<= 1.0", share <= 1.0))
    else:
        why = ("vipsthumbnail missing" if not vips else f"photobook failed: {dry.failed}" if not dry.ok
               else f"vipsthumbnail failed: {vips.failed}")
        say(f"    dry run / vipsthumbnail, goal <= 1.0: not measured ({why})")
    if dry.ok:
        peak = dry.median("peak")
        say("    " + bench_tables.target_row(f"peak memory, dry run of {count}", f"{peak / 1e6:.0f} MB", "< 150 MB",
                                             peak < 150e6))
    else:
        say(f"    peak memory of the dry run, goal < 150 MB: not measured (photobook failed)")
    if build.ok and dry.ok and chosen_case and chosen_case.ok:
        whole, limit = build.median("wall"), dry.median("wall") + 1.2 * chosen_case.median("wall")
        say("    " + bench_tables.target_row(f"build / (dry run + 1.2 x chosen-only build)",
                                             f"{whole / limit:.2f} ({whole:.2f} s / {limit:.2f} s)", "<= 1.0", whole <= limit))
        say(f"      ({whole:.2f} s against {dry.median('wall'):.2f} s + 1.2 x {chosen_case.median('wall'):.2f} s;"
            f" {whole / limit:.2f} of the allowance)")
    else:
        why = (f"photobook failed: {build.failed or dry.failed}" if not (build.ok and dry.ok)
               else "no chosen-only build" if not chosen_case else f"chosen-only build failed: {chosen_case.failed}")
        say(f"    build <= dry run + 1.2 x chosen-only build: not measured ({why})")
    say(f"\nThe choice against {rel(CHOOSE)}/TRUTH.json (the first build's report):")
    for line in quality_rows(truth, report) if report else ["not measured (no report: the build failed)"]:
        say("    " + line)
    say("\nCommands (from the repository root):")
    for case in [dry, vips, build, chosen_case]:
        if case:
            say(f"  {case.name}, {case.photos} photos:\n    {case.shown}")
    say(f"  the trip: {rel(bench_config.CORPUS_TOOL)} --trip --out {rel(TRIP)} --count {COUNT} --days {DAYS} --seed {SEED}"
        f" --quality 92 --jobs {JOBS}")
    say(f"  its HEICs, each: heif-enc {' '.join(bench_config.HEIC_ENCODE)} -t {HEIC_THUMBNAIL} -o {folder}/IMG_N.heic"
        f" {rel(TRIP)}/IMG_N.jpg (vips autorot first for orientation 6)")
    say(f"  machine at the end: {bench_config.machine()}.  The choice case took {time.monotonic() - started:.0f} s.")


def dry_row(case):
    """A case that writes no book: its time, its time per photo and its peak."""
    if not case.ok:
        return f"{case.name:<24} {case.photos:3d} photos FAILED ({case.failed or 'not run'})"
    wall, cpu = case.median("wall"), case.median("cpu")
    return (f"{case.name:<24} {case.photos:3d} photos {wall:6.2f} s wall {cpu:6.2f} s CPU "
            f"{1000 * wall / case.photos:5.1f} ms a photo (wall) {1000 * cpu / case.photos:5.1f} ms CPU "
            f"peak {case.median('peak') / 1e6:5.0f} MB  ({'median of ' + str(len(case.runs)) + ' runs' if len(case.runs) > 1 else '1 run'})")
