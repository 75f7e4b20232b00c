/// One marked part of a picture (a face, a pet, a focus point): what it is and its box in the *stored* picture,
/// before any EXIF orientation, as fractions of the stored width and height from the top left corner.
public struct XMPRegion: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case face, pet, focus, other
    }

    public var kind: Kind
    /// The person's or the pet's name, when the writer gave one.
    public var name: String?
    public var x: Double, y: Double, width: Double, height: Double

    public init(kind: Kind, name: String? = nil, x: Double, y: Double, width: Double, height: Double) {
        self.kind = kind
        self.name = name
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}

/// The regions an XMP packet marks, in the first of the three schemas that marks any: the Metadata Working
/// Group's (`mwg-rs:Regions`, Adobe, digiKam, iPhones), Microsoft's People tags (`MP:RegionInfo`, Windows Photo
/// Gallery, Picasa) and IPTC's Image Regions (`Iptc4xmpExt:ImageRegion`). Writers that know two (digiKam) write
/// the same faces in both, so they are not added together.
public struct XMPRegions: Sendable, Equatable {
    public enum Schema: String, Sendable {
        case mwg = "MWG", microsoft = "Microsoft People", iptc = "IPTC"
    }

    public var schema: Schema
    /// The usable regions, in the packet's order, boxes clamped to the picture.
    public var regions: [XMPRegion]
    /// MWG's AppliedToDimensions: the size of the picture the boxes were measured on, in pixels.
    public var appliedWidth: Double?, appliedHeight: Double?
    /// Boxes that could not be used, each said as a reason ("face region 2 (Tom) lies outside the picture").
    public var problems: [String] = []
    /// AppliedToDimensions has another shape than the picture: every box was refused.
    var measuredOnAnotherShape = false

    /// Regions past this many are not read: a crowd of a thousand faces is a hostile packet, not a photo.
    public static let regionLimit = 256

    static let mwg = "http://www.metadataworkinggroup.com/schemas/regions/"
    static let area = "http://ns.adobe.com/xmp/sType/Area#"
    static let dimensions = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    static let mp = "http://ns.microsoft.com/photo/1.2/"
    static let mpInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    static let mpRegion = "http://ns.microsoft.com/photo/1.2/t/Region#"
    static let iptc = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    static let xmpBasic = "http://ns.adobe.com/xap/1.0/"

    /// The regions of `packet`, a picture stored `storedWidth` x `storedHeight` pixels (for IPTC's pixel unit and
    /// to check MWG's AppliedToDimensions); nil when the packet marks none, usable or not, or cannot be read.
    public static func read(inPacket packet: [UInt8], storedWidth: Int, storedHeight: Int) -> XMPRegions? {
        guard let tree = XMPTree(packet: packet) else { return nil }
        let size = (width: Double(max(storedWidth, 1)), height: Double(max(storedHeight, 1)))
        let found = [mwgRegions(tree, size: size), microsoftRegions(tree), iptcRegions(tree, size: size)]
            .compactMap { $0 }
        // Boxes measured on another shape of picture make the other schemas' boxes, written with them, as doubtful.
        return found.first { !$0.regions.isEmpty || $0.measuredOnAnotherShape } ?? found.first
    }

    /// A box as the schema gives it (left, top, width, height, fractions), kept when it overlaps the picture.
    mutating func add(_ kind: XMPRegion.Kind, name raw: String?, number: Int, box: (Double, Double, Double, Double)?,
                      point: Bool = false) {
        let name = raw.flatMap(Self.shownName)
        let label = "\(kind == .other ? "" : "\(kind.rawValue) ")region \(number)" + (name.map { " (\($0))" } ?? "")
        guard regions.count < Self.regionLimit else {
            let problem = "more than \(Self.regionLimit) regions; the rest are ignored"
            if problems.last != problem { problems.append(problem) }
            return
        }
        guard let (x, y, w, h) = box, [x, y, w, h].allSatisfy(\.isFinite) else {
            problems.append("\(label) has no box that can be read, ignored")
            return
        }
        guard point ? (w >= 0 && h >= 0) : (w > 0 && h > 0) else {
            problems.append("\(label) is empty (\(Self.format(w)) x \(Self.format(h))), ignored")
            return
        }
        // A face at the picture's edge may be marked a little past it; only the part inside can be kept.
        let left = max(0, x), top = max(0, y), right = min(1, x + w), bottom = min(1, y + h)
        guard right >= left, bottom >= top, x < 1, y < 1, x + w > 0 || (point && x == 0),
              y + h > 0 || (point && y == 0) else {
            problems.append("\(label) lies outside the picture, ignored")
            return
        }
        regions.append(XMPRegion(kind: kind, name: name, x: left, y: top, width: right - left, height: bottom - top))
    }

    /// The longest name kept, in characters: a name is shown in a warning's one line and in the report.
    public static let nameLimit = 100

    /// A person's or pet's name as it can be shown on one line of a terminal: the packet's text without control
    /// characters (an escape sequence or a line break in a photo's metadata must not forge or hide a message),
    /// its line breaks and tabs as spaces, cut to `nameLimit` characters; nil when nothing is left.
    static func shownName(_ text: String) -> String? {
        guard let clean = CaptionText.clean(text) else { return nil }
        let line = String(clean.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
        return line.count <= nameLimit ? line : String(line.prefix(nameLimit - 3)) + "..."
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension XMPRegions {
    /// MWG: `mwg-rs:Regions` { AppliedToDimensions, RegionList [ { Area { x, y (the centre), w, h | d }, Type } ] }.
    static func mwgRegions(_ tree: XMPTree, size: (width: Double, height: Double)) -> XMPRegions? {
        guard let info = tree.descriptions.lazy.compactMap({ $0.field(mwg, "Regions") }).first,
              let list = info.field(mwg, "RegionList") else { return nil }
        var found = XMPRegions(schema: .mwg, regions: [])
        // AppliedToDimensions also says which picture the boxes were measured on, stored or upright
        // (Probe.measuredUpright); both shapes are accepted here.
        let applied = info.field(mwg, "AppliedToDimensions")
        found.appliedWidth = applied?.field(dimensions, "w")?.number
        found.appliedHeight = applied?.field(dimensions, "h")?.number
        if let w = found.appliedWidth, let h = found.appliedHeight, w > 0, h > 0 {
            // Normalised boxes fit any scaled copy of the picture, turned or not; another shape means it was
            // cropped after the faces were marked, and the boxes no longer say where they are.
            let aspect = w / h, stored = size.width / size.height
            let tolerance = 0.02
            guard abs(aspect / stored - 1) < tolerance || abs(aspect * stored - 1) < tolerance else {
                found.problems.append("its regions were marked on a picture of \(format(w)) x \(format(h)) pixels, "
                                      + "another shape than this one (cropped since?); they are ignored")
                found.measuredOnAnotherShape = true
                return found
            }
        }
        for (offset, item) in list.items.enumerated() {
            let kind: XMPRegion.Kind
            switch item.field(mwg, "Type")?.value {
            case "Face": kind = .face
            case "Pet": kind = .pet
            case "Focus":
                // A camera's focus points that it weighed but did not use say nothing about the subject.
                guard !(item.field(mwg, "FocusUsage")?.value ?? "").hasSuffix("NotUsed") else { continue }
                kind = .focus
            default: continue  // BarCode, or none: nothing a crop should keep.
            }
            let name = item.field(mwg, "Name")?.value
            guard let area = item.field(mwg, "Area") else {
                found.add(kind, name: name, number: offset + 1, box: nil)
                continue
            }
            var (w, h) = (area.field(Self.area, "w")?.number, area.field(Self.area, "h")?.number)
            if w == nil, h == nil, let d = area.field(Self.area, "d")?.number { (w, h) = (d, d) }
            let isPoint = kind == .focus && w == nil && h == nil
            var box = area.field(Self.area, "x")?.number.flatMap { x in
                area.field(Self.area, "y")?.number.map { y in
                    let (width, height) = (w ?? 0, h ?? 0)
                    return (x - width / 2, y - height / 2, width, height)
                }
            }
            if area.field(Self.area, "unit")?.value == "pixel", let (x, y, bw, bh) = box {
                // Not MWG's own unit, but a reading of it is plain: pixels of the applied dimensions.
                let scale = (found.appliedWidth ?? size.width, found.appliedHeight ?? size.height)
                box = (x / scale.0, y / scale.1, bw / scale.0, bh / scale.1)
            }
            found.add(kind, name: name, number: offset + 1, box: (w == nil || h == nil) && !isPoint ? nil : box,
                      point: isPoint)
        }
        return found
    }

    /// Microsoft: `MP:RegionInfo` { `MPRI:Regions` [ { `MPReg:Rectangle` "left, top, width, height" } ] }.
    static func microsoftRegions(_ tree: XMPTree) -> XMPRegions? {
        guard let info = tree.descriptions.lazy.compactMap({ $0.field(mp, "RegionInfo") }).first,
              let list = info.field(mpInfo, "Regions") else { return nil }
        var found = XMPRegions(schema: .microsoft, regions: [])
        for (offset, item) in list.items.enumerated() {
            // A person tagged with no box (Windows writes none, or "0, 0, 0, 0" in its database) marks nothing.
            guard let rectangle = item.field(mpRegion, "Rectangle")?.value else { continue }
            let numbers = rectangle.split(separator: ",").map { Double($0.trimmingCharacters()) }
            let box = numbers.count == 4 && numbers.allSatisfy({ $0 != nil })
                ? (numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!) : nil
            found.add(.face, name: item.field(mpRegion, "PersonDisplayName")?.value, number: offset + 1, box: box)
        }
        return found
    }

    /// IPTC: `Iptc4xmpExt:ImageRegion` [ { RegionBoundary { rbShape, rbUnit, rbX, rbY, rbW, rbH | rbRx |
    /// rbVertices }, rCtype [ { xmp:Identifier } ], Name } ]: a circle or a polygon counts by its bounding box.
    static func iptcRegions(_ tree: XMPTree, size: (width: Double, height: Double)) -> XMPRegions? {
        guard let list = tree.descriptions.lazy.compactMap({ $0.field(iptc, "ImageRegion") }).first else { return nil }
        var found = XMPRegions(schema: .iptc, regions: [])
        for (offset, item) in list.items.enumerated() {
            let types = (item.field(iptc, "rCtype")?.items ?? []).flatMap { entity in
                (entity.field(xmpBasic, "Identifier")?.items ?? []).compactMap(\.value)
            }
            // The IPTC's region types (cv.iptc.org/newscodes/imageregiontype/): a person is kept as a face is.
            let kind: XMPRegion.Kind = types.contains { $0.hasSuffix("/face") || $0.hasSuffix("/human") } ? .face
                : types.contains { $0.hasSuffix("/animal") } ? .pet : .other
            let name = item.field(iptc, "Name")?.value
            guard let boundary = item.field(iptc, "RegionBoundary") else {
                found.add(kind, name: name, number: offset + 1, box: nil)
                continue
            }
            // Relative: fractions of the width (x, w, rx) and of the height (y, h); pixel: the stored picture's.
            let (sx, sy) = boundary.field(iptc, "rbUnit")?.value == "pixel" ? (size.width, size.height) : (1, 1)
            func number(_ name: String, _ node: XMPTree.Node = boundary) -> Double? { node.field(iptc, name)?.number }
            var box: (Double, Double, Double, Double)?
            switch boundary.field(iptc, "rbShape")?.value {
            case "circle":
                if let x = number("rbX"), let y = number("rbY"), let r = number("rbRx") {
                    let rx = r / sx, ry = r / sx * size.width / size.height
                    box = (x / sx - rx, y / sy - ry, 2 * rx, 2 * ry)
                }
            case "polygon":
                let points = (boundary.field(iptc, "rbVertices")?.items ?? []).compactMap { vertex in
                    number("rbX", vertex).flatMap { x in number("rbY", vertex).map { (x / sx, $0 / sy) } }
                }
                if points.count >= 3 {
                    let xs = points.map(\.0), ys = points.map(\.1)
                    box = (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
                }
            default:
                if let x = number("rbX"), let y = number("rbY"), let w = number("rbW"), let h = number("rbH") {
                    box = (x / sx, y / sy, w / sx, h / sy)
                }
            }
            found.add(kind, name: name, number: offset + 1, box: box)
        }
        return found
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingSpaces }
}
