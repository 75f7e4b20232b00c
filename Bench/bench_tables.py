"""The printed tables of `make bench`: each build's stages, the targets met or not, the codec floors and the other
formats' figures, from the medians of the Cases. Part of Bench/bench.py."""

import os
import statistics

from bench_config import CORES, ROOT, say


def stage_row(case):
    """Median seconds of each stage of a photobook case, and each stage's share of the build's wall time."""
    if not case.ok:
        return f"{case.name}: FAILED, no stage timings"
    runs = [r.stages for r in case.runs if r.stages]
    if not runs:
        return f"{case.name}: no stage timings (the report was not written)"
    total = statistics.median(r.get("total", 0) for r in runs) or 1
    parts = []
    for stage in ("probe", "plan", "render", "pdf"):
        seconds = statistics.median(r.get(stage, 0) for r in runs)
        parts.append(f"{stage} {seconds:5.2f} s ({100 * seconds / total:4.1f}%)")
    return f"{case.name + ', ' + str(case.photos) + ' photos:':<33} " + "  ".join(parts) + f"  total {total:5.2f} s"


def target_row(label, value, goal, met):
    return f"{label:<46} {value:<28} target {goal:<12} {'met' if met else 'NOT MET'}"


def attention_row(auto, centre):
    """Issue 21's budget: the attention maps (`--crop auto`, the default) against no attention (`--crop centre`)."""
    wall, cpu = auto.median("wall") / centre.median("wall"), auto.median("cpu") / centre.median("cpu")
    what = "EXIF thumbnails" if "thumb" in auto.name else "no thumbnails"
    return target_row(f"attention: --crop auto / centre, {auto.photos}, {what}", f"{wall:.3f} wall, {cpu:.3f} CPU",
                      "<= 1.10", wall <= 1.10)


def target_rows(photobook24, vips, grid96, attention_pairs=None):
    """Issue 13's targets, each with the figure measured here (medians): met or not; issue 21's attention budget."""
    row = target_row
    wall, cpu = photobook24.median("wall"), photobook24.median("cpu")
    rows = [row("photos/s, 24 photos A4", f"{photobook24.photos / wall:.1f}", ">= 18", photobook24.photos / wall >= 18),
            row("CPU / wall, 24 photos A4", f"{cpu / wall:.2f} ({cpu:.2f} s / {wall:.2f} s)", ">= 1.85",
                cpu / wall >= 1.85)]
    if vips:
        share = wall / vips.median("wall")
        rows.append(row("wall time / vips + img2pdf's, 24 photos", f"{share:.3f}", "<= 0.12", share <= 0.12))
    else:
        rows.append("wall time / vips + img2pdf's: not measured (vipsthumbnail or img2pdf missing)")
    grid_rate = grid96.photos / grid96.median("wall")
    rows.append(row(f"photos/s, grid 2x2 of {grid96.photos} photos", f"{grid_rate:.1f}", ">= 40", grid_rate >= 40))
    for auto, centre in attention_pairs or []:
        if auto.ok and centre.ok:
            rows.append(attention_row(auto, centre))
    return rows


def floor_rows(cases):
    """The codec floor of each case (Bench/codec_floor.py): libjpeg-turbo's own tools on the same regions at the
    same scales, one photo at a time; the most photos/s the machine's cores could give doing only that."""
    import codec_floor
    if not codec_floor.available():
        say("\nCodec floor: not measured (djpeg, cjpeg or jpegtran missing: apt-get install libjpeg-turbo-progs)")
        return
    say("\nCodec floor (djpeg -scale/-crop and cjpeg on the same regions at the same scales as the build's report,"
        " djpeg -scale 1/8 for lossless crops, zlib inflate for PNGs; no resampling, no turning, no PDF;"
        " Bench/codec_floor.py):")
    for case in cases:
        report = os.path.join(ROOT, case.argv[case.argv.index("--report") + 1])
        try:
            cpu, counted = codec_floor.floor(report, ROOT)
        except (OSError, RuntimeError, ValueError, KeyError) as error:
            say(f"    {case.name}: not measured ({error})")
            continue
        ceiling = counted / (cpu / CORES) if cpu > 0 else float("inf")
        spent = case.median("cpu")
        say(f"    {case.name + ', ' + str(counted) + ' photos:':<33} {cpu:5.2f} s CPU ({1000 * cpu / max(counted, 1):3.0f} ms"
            f" a photo) -> at most {ceiling:5.1f} photos/s on {CORES} cores; photobook spends {spent:5.2f} s CPU"
            f" ({spent / cpu:.2f}x the floor)")


def format_rows(heics, webp_grid, grid96):
    """The other formats' figures: each HEIC set's case against vips + img2pdf on the same HEICs (the issue's
    target), and the WebP grid against the JPEG grid (no target: it should come close, each WebP being decoded at
    the cell's size)."""
    say("\nOther formats (the options of the JPEG cases; medians):\n")
    for case in [c for h in heics for c in h.cases()] + ([webp_grid] if webp_grid else []):
        say("    " + case.row())
    for h in heics:
        if h.measured():
            say(f"    {h.label}: {h.vips.name} / photobook: {h.vips.median('wall') / h.case.median('wall'):.2f}x the wall"
                f" time, {h.vips.median('cpu') / h.case.median('cpu'):.2f}x the CPU,"
                f" {h.vips.median('peak') / h.case.median('peak'):.2f}x the peak memory")
    if webp_grid and webp_grid.ok:
        rate, jpeg_rate = webp_grid.photos / webp_grid.median("wall"), grid96.photos / grid96.median("wall")
        say(f"    WebP grid 2x2 against the JPEG grid 2x2: {rate:.1f} against {jpeg_rate:.1f} photos/s ({rate / jpeg_rate:.2f}x),"
            f" CPU {1000 * webp_grid.median('cpu') / webp_grid.photos:.0f} against"
            f" {1000 * grid96.median('cpu') / grid96.photos:.0f} ms a photo, peak {webp_grid.median('peak') / 1e6:.0f}"
            f" against {grid96.median('peak') / 1e6:.0f} MB")
    for case in [h.case for h in heics if h.case and h.case.ok] + ([webp_grid] if webp_grid and webp_grid.ok else []):
        say("    " + stage_row(case))
    say("\nTargets (the HEIC/WebP issue; medians of the runs above):")
    for h in heics:
        label = f"{h.label}: photobook / (vipsthumbnail + img2pdf) wall time"
        if h.measured():
            share = h.case.median("wall") / h.vips.median("wall")
            say("    " + target_row(label, f"{share:.3f} ({h.case.median('wall'):.2f} s / {h.vips.median('wall'):.2f} s)",
                                    "<= 0.35", share <= 0.35))
        else:
            say(f"    {label}, goal <= 0.35: not measured ({h.why_not()})")
    if webp_grid and webp_grid.ok:
        rate = webp_grid.photos / webp_grid.median("wall")
        say(f"    WebP grid 2x2, {webp_grid.photos} photos: {rate:.1f} photos/s, {rate / (grid96.photos / grid96.median('wall')):.2f}x"
            f" the JPEG grid's (no target; far below 1 would say the WebPs are not decoded at the cell's size)")
    else:
        why = "no WebPs (cwebp missing)" if not webp_grid else f"photobook failed: {webp_grid.failed}"
        say(f"    WebP grid 2x2: not measured ({why})")


def heif_floor_rows(heic_set):
    """The HEIC decode floor of a set (Bench/codec_floor.py): heif-convert on each of its HEICs, printed beside
    its cases."""
    import codec_floor
    folder, names = heic_set.photos
    paths = [os.path.join(folder, n) for n in names]
    try:
        cpus, walls, startup = codec_floor.heif_floor(paths)
        costs, written = codec_floor.heif_output_costs(paths[0])
    except (OSError, RuntimeError) as error:
        say(f"\n{heic_set.label} decode floor: not measured ({error})")
        return
    total = sum(cpus)
    ceiling = len(cpus) / (total / CORES) if total > 0 else float("inf")
    say(f"\n{heic_set.label} decode floor (heif-convert PHOTO x.y4m, x.y4m a link to /dev/null: libheif 1.15 + libde265's"
        f" decode to YCbCr 4:2:0 planes{heic_set.floor_note}, no RGB, no resampling, no PDF; one process a photo, less its"
        f" start-up, {1000 * startup:.0f} ms; Bench/codec_floor.py):")
    say(f"    {len(cpus)} {heic_set.label}s: {total:5.2f} s CPU, {1000 * statistics.median(cpus):4.0f} ms CPU a photo (median;"
        f" {1000 * min(cpus):.0f}-{1000 * max(cpus):.0f}), {1000 * statistics.median(walls):4.0f} ms wall a photo"
        f" -> at most {ceiling:5.1f} photos/s on {CORES} cores")
    for case in heic_set.cases():
        if case.ok:
            say(f"    {case.name} spends {case.median('cpu'):5.2f} s CPU ({case.median('cpu') / total:.2f}x the floor),"
                f" {1000 * case.median('cpu') / case.photos:.0f} ms a photo")
        else:
            say(f"    {case.name}: FAILED, nothing to compare")
    base = costs["y4m to /dev/null"]

    def more(name):
        return f"{round(1000 * max(0.0, costs[name] - base)):+d} ms"

    if heic_set.vips and heic_set.vips.ok:
        share = (total / CORES) / heic_set.vips.median("wall")
        say(f"    the floor alone, spread over the {CORES} cores ({total / CORES:.2f} s), is {share:.2f} of {heic_set.vips.name}'s"
            f" wall time ({heic_set.vips.median('wall'):.2f} s): the goal of 0.35 leaves {0.35 - share:+.2f} of it for"
            f" everything else photobook does")
    say(f"    the output's share, on {names[0]} (CPU with start-up, medians of 3): Y4M to /dev/null {1000 * base:.0f} ms (the floor's"
        f" figure: writing to /dev/null is free, so no output encode is in it), Y4M to a file"
        f" {1000 * costs['y4m file']:.0f} ms ({more('y4m file')}, the {written / 1e6:.0f} MB written),"
        f" JPEG q90 {1000 * costs['jpeg q90']:.0f} ms ({more('jpeg q90')}: RGB conversion and encode)")
