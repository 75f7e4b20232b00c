import Geometry

/// Where a crop goes in its photo: the one rule for every cell, spread and cover (issue 21). The cell decides
/// the crop's size (aspect fill); this decides its place, first match wins:
/// 1. a book description's focus point: the crop centred on it, as near as the photo allows;
/// 2. the regions the photo's metadata marks (faces, pets, focus points), unless `--crop centre`: all of them
///    whole when the crop leaves room (centred on their union); else as many faces as fit, the largest first;
///    a region the crop cannot hold is left wholly out rather than cut in two when the crop can move so;
/// 3. the photo's attention map (photos that mark no region, unless `--crop centre`): where the crop keeps the
///    most of its interest, when that is clearly more than the centre keeps (`AttentionMap.place`);
/// 4. the centre.
enum CropRule {
    /// The crop's top left corner, in the upright photo's pixels, and why it is there.
    struct Choice: Equatable {
        var x: Double
        var y: Double
        var source: CropSource
    }

    /// Regions a crop of one photo weighs: beyond these (the largest kept), a crowd is treated as the crowd's box.
    static let regionLimit = 32

    /// The place of a `size` crop in a `photo`-sized upright picture with these regions (boxes in its pixels);
    /// nil to leave the crop where the cell put it (the centre).
    static func place(size: (width: Double, height: Double), photo: (width: Double, height: Double),
                      regions: [Rect], subjects: [Bool]) -> Choice? {
        guard !regions.isEmpty, size.width < photo.width - 1e-9 || size.height < photo.height - 1e-9 else { return nil }
        let fits = { (box: Rect) in box.width <= size.width + 1e-9 && box.height <= size.height + 1e-9 }
        let indices = Array(regions.indices.sorted { area(regions[$0]) > area(regions[$1]) }.prefix(regionLimit))
        var kept: [Int]
        if let all = union(indices.map { regions[$0] }), fits(all) {
            kept = indices
        } else {
            // As many faces as fit, the largest first; with no face or pet among them, any region.
            let candidates = indices.contains { subjects[$0] } ? indices.filter { subjects[$0] } : indices
            kept = []
            for index in candidates {
                if let box = union((kept + [index]).map { regions[$0] }), fits(box) { kept.append(index) }
            }
            if kept.isEmpty { kept = [candidates[0]] }
        }
        let target = union(kept.map { regions[$0] })!
        let others = indices.filter { !kept.contains($0) }.map { regions[$0] }
        let xs = positions(keeping: target.x, target.x + target.width, length: size.width, limit: photo.width,
                           others: others.map { ($0.x, $0.x + $0.width) })
        let ys = positions(keeping: target.y, target.y + target.height, length: size.height, limit: photo.height,
                           others: others.map { ($0.y, $0.y + $0.height) })
        // The fewest regions cut in two, then the nearest to centring the kept ones.
        var best: (cut: Int, distance: Double, x: Double, y: Double)?
        for x in xs.candidates {
            for y in ys.candidates {
                let crop = Rect(x: x, y: y, width: size.width, height: size.height)
                let cut = others.filter { cuts(crop, $0) }.count
                let distance = abs(x - xs.preferred) + abs(y - ys.preferred)
                if best.map({ (cut, distance) < ($0.cut, $0.distance) }) ?? true { best = (cut, distance, x, y) }
            }
        }
        return best.map { Choice(x: $0.x, y: $0.y, source: .regions) }
    }

    /// Along one side: where the crop may start and still hold `low...high` whole (or, when it cannot, centred
    /// on it), the start that centres it, and the starts at which another region is wholly in or wholly out.
    static func positions(keeping low: Double, _ high: Double, length: Double, limit: Double,
                          others: [(Double, Double)]) -> (preferred: Double, candidates: [Double]) {
        let clamp = { (value: Double) in max(0, min(limit - length, value)) }
        let preferred = clamp((low + high) / 2 - length / 2)
        let first = clamp(high - length), last = clamp(low)
        guard first < last else { return (preferred, [preferred]) }
        var candidates = [preferred]
        for (start, end) in others {
            for value in [end, start - length, start, end - length] where value >= first && value <= last {
                candidates.append(value)
            }
        }
        return (preferred, candidates)
    }

    /// True when `crop` holds part of `region` but not all of it (half a pixel either way is not a cut).
    static func cuts(_ crop: Rect, _ region: Rect) -> Bool {
        let slack = 0.5
        let inside = region.x >= crop.x - slack && region.y >= crop.y - slack
            && region.x + region.width <= crop.x + crop.width + slack
            && region.y + region.height <= crop.y + crop.height + slack
        let apart = region.x >= crop.x + crop.width - slack || region.x + region.width <= crop.x + slack
            || region.y >= crop.y + crop.height - slack || region.y + region.height <= crop.y + slack
        return !inside && !apart
    }

    /// True when `crop` leaves some of `region` out: cut, or not in it at all.
    static func misses(_ crop: Rect, _ region: Rect) -> Bool {
        let slack = 0.5
        return !(region.x >= crop.x - slack && region.y >= crop.y - slack
                 && region.x + region.width <= crop.x + crop.width + slack
                 && region.y + region.height <= crop.y + crop.height + slack)
    }

    static func union(_ boxes: [Rect]) -> Rect? {
        boxes.dropFirst().reduce(boxes.first) { $0?.union($1) }
    }

    static func area(_ box: Rect) -> Double { box.width * box.height }
}

extension PlacedPhoto {
    /// Places the crop as `CropRule` says for `photo` (its size stays) and records why it is there. A crop of
    /// whole pixels (a photo kept at its own density) stays on whole pixels.
    mutating func aim(at photo: BookPhoto, mode: CropMode) {
        let width = Double(max(photo.width, 1)), height = Double(max(photo.height, 1))
        let boxes = photo.regions.map {
            Rect(x: $0.box.x * width, y: $0.box.y * height, width: $0.box.width * width, height: $0.box.height * height)
        }
        let cropped = crop.width < width - 1e-9 || crop.height < height - 1e-9
        if let point = photo.focus {
            focus(on: point, width: photo.width, height: photo.height)
            cropSource = cropped ? .description : .centre
        } else if mode == .auto, let choice = CropRule.place(size: (crop.width, crop.height), photo: (width, height),
                                                             regions: boxes, subjects: photo.regions.map(\.isSubject)) {
            let whole = crop.width == Double(pixelWidth) && crop.height == Double(pixelHeight)
            crop.x = whole ? max(0, min(width - crop.width, choice.x.rounded())) : choice.x
            crop.y = whole ? max(0, min(height - crop.height, choice.y.rounded())) : choice.y
            cropSource = choice.source
        } else if mode == .auto, let map = photo.attention,
                  let corner = map.place(size: (crop.width, crop.height), photo: (width, height)) {
            let whole = crop.width == Double(pixelWidth) && crop.height == Double(pixelHeight)
            crop.x = whole ? max(0, min(width - crop.width, corner.x.rounded())) : corner.x
            crop.y = whole ? max(0, min(height - crop.height, corner.y.rounded())) : corner.y
            cropSource = .attention
        } else {
            cropSource = .centre
        }
        cutsRegion = boxes.contains { CropRule.misses(crop, $0) }
    }
}
