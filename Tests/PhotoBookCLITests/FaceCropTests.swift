import Foundation
import TestSupport
import Testing

/// Books of photos whose faces their metadata marks, on pages shaped to force a strong crop: where the crop went is
/// found from the rendered page itself (matched against the upright photo), not from anything photobook says.
struct FaceCropTests {
    /// The fixtures that mark the Curies' faces, every schema, orientation and place (Fixtures/face-regions).
    /// The `shown` ones measure their boxes on the upright picture and say so by AppliedToDimensions (issue 31): on
    /// both pages a second turn would put the crop far from the faces.
    static let marked = ["curie.1.mwg.jpg", "curie.3.mwg.jpg", "curie.6.mwg.jpg", "curie.8.mwg.jpg", "curie.8.mp.jpg",
                         "curie.6.iptc.jpg", "curie.6.sidecar.jpg", "curie.3.mp.jpg", "curie.6.shown.jpg",
                         "curie.8.shown.jpg"]
    /// The faces in the upright 840x700 picture, in pixels: Marie's x 265...357, y 147...287; Pierre's
    /// x 538...622, y 84...252.
    static let faces = (x: (low: 264.6, high: 622.0), y: (low: 84.0, high: 287.0))

    /// The upright picture's mean grey per row (or per column), from djpeg: the reference to find a crop in.
    static func profile(_ rgb: [UInt8], width: Int, height: Int, rows: Bool) -> [Double] {
        (0..<(rows ? height : width)).map { line in
            var sum = 0
            let count = rows ? width : height
            for step in 0..<count {
                let (x, y) = rows ? (step, line) : (line, step)
                let p = (y * width + x) * 3
                sum += Int(rgb[p]) + Int(rgb[p + 1]) + Int(rgb[p + 2])
            }
            return Double(sum) / Double(3 * count)
        }
    }

    static func reference(scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let path = scratch.file("reference.ppm")
        let run = try Run.command("/usr/bin/djpeg", ["-pnm", "-outfile", path, Fixtures.path("face-regions/curie.jpg")])
        #expect(run.status == 0, "djpeg: \(run.stderr)")
        return try readPPM(path)
    }

    /// Where along one side of the upright photo a page's picture starts, in its pixels: the offset at which the
    /// page's profile, scaled to the photo's pixels, best matches the photo's.
    static func offset(page: (width: Int, height: Int, rgb: [UInt8]), reference: (width: Int, height: Int, rgb: [UInt8]),
                       rows: Bool) -> (start: Double, length: Double) {
        let source = profile(reference.rgb, width: reference.width, height: reference.height, rows: rows)
        let shown = profile(page.rgb, width: page.width, height: page.height, rows: rows)
        // The page shows the whole photo across the other side: that fixes the scale.
        let scale = Double(rows ? reference.width : reference.height) / Double(rows ? page.width : page.height)
        let length = Double(shown.count) * scale
        var best = (error: Double.infinity, start: 0.0)
        for start in 0...Int(Double(source.count) - length) {
            var error = 0.0
            for (index, value) in shown.enumerated() {
                let at = min(Double(source.count - 1), Double(start) + (Double(index) + 0.5) * scale)
                let low = Int(at), high = min(low + 1, source.count - 1), t = at - Double(low)
                let expected = source[low] * (1 - t) + source[high] * t
                error += (value - expected) * (value - expected)
            }
            if error < best.error { best = (error, Double(start)) }
        }
        return (best.start, length)
    }

    /// Builds the marked photos, one a page, and finds each page's crop along the side the page cuts.
    static func crops(_ photos: [String], page: String, crop: String, rows: Bool,
                      scratch: Scratch) throws -> [(start: Double, length: Double)] {
        let pdf = scratch.file("book-\(crop).pdf")
        let run = try Run.photobook(["build"] + photos.map { Run.fixture("face-regions/" + $0) }
                                        + ["-o", pdf, "--page-size", page, "--margin", "0", "--crop", crop, "-q",
                                           "--sort", "given"])
        #expect(run.status == 0, "\(run.stderr)")
        let reference = try reference(scratch: scratch)
        return try photos.indices.map { index in
            offset(page: try renderPageWithCairo(pdf, page: index + 1, dpi: 72, scratch: scratch), reference: reference,
                   rows: rows)
        }
    }

    @Test("a wide page: both faces whole on every page, and --crop centre cuts them as it always did")
    func wide() throws {
        let scratch = try Scratch()
        // 300x100 mm: the crop keeps 280 of the 700 rows; from the centre that is rows 210...490.
        for (name, found) in zip(Self.marked, try Self.crops(Self.marked, page: "300x100mm", crop: "auto", rows: true, scratch: scratch)) {
            #expect(found.start <= Self.faces.y.low + 1 && found.start + found.length >= Self.faces.y.high - 1,
                    "\(name): rows \(found.start)...\(found.start + found.length)")
        }
        for (name, found) in zip(Self.marked, try Self.crops(Self.marked, page: "300x100mm", crop: "centre", rows: true, scratch: scratch)) {
            #expect(abs(found.start - 210) <= 2, "\(name): rows from \(found.start)")
        }
    }

    @Test("a narrow page holds both faces, which the centre crop does not")
    func narrow() throws {
        let scratch = try Scratch()
        // 110x200 mm: 385 of the 840 columns; from the centre 227...613, which cuts Pierre's face (538...622).
        // (The IPTC sample marks Pierre by a circle, whose box is 168 columns wide: the two no longer fit.)
        let photos = Self.marked.filter { !$0.contains("iptc") }
        for (name, found) in zip(photos, try Self.crops(photos, page: "110x200mm", crop: "auto", rows: false, scratch: scratch)) {
            #expect(found.start <= Self.faces.x.low + 1 && found.start + found.length >= Self.faces.x.high - 1,
                    "\(name): columns \(found.start)...\(found.start + found.length)")
        }
        for (name, found) in zip(photos, try Self.crops(photos, page: "110x200mm", crop: "centre", rows: false, scratch: scratch)) {
            #expect(abs(found.start - 227.5) <= 2, "\(name): columns from \(found.start)")
        }
    }

    @Test("a square photo's boxes, whose AppliedToDimensions tells nothing, are turned as MWG says: both faces whole")
    func square() throws {
        let scratch = try Scratch()
        let pdf = scratch.file("square.pdf")
        let run = try Run.photobook(["build", Run.fixture("face-regions/curie.6.square.jpg"), "-o", pdf, "--page-size",
                                     "300x100mm", "--margin", "0", "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        // The square is curie.jpg's columns 70...769, the faces in the same rows; the page keeps 233 of its 700 rows,
        // which the centre crop would take from row 233, below both faces. Boxes left unturned would go lower still.
        let whole = try Self.reference(scratch: scratch)
        var rgb: [UInt8] = []
        for y in 0..<whole.height { rgb += whole.rgb[(y * whole.width + 70) * 3..<(y * whole.width + 770) * 3] }
        let found = Self.offset(page: try renderPageWithCairo(pdf, page: 1, dpi: 72, scratch: scratch),
                                reference: (700, whole.height, rgb), rows: true)
        #expect(found.start <= Self.faces.y.low + 1 && found.start + found.length >= Self.faces.y.high - 1,
                "rows \(found.start)...\(found.start + found.length)")
    }

    @Test("the report, the dry run and --verbose say where each crop came from")
    func said() throws {
        let scratch = try Scratch()
        let photos = ["curie.jpg", "curie.6.mwg.jpg"].map { Run.fixture("face-regions/" + $0) }
        let page = ["--page-size", "300x100mm", "--margin", "0"]
        for crop in ["auto", "centre"] {
            let report = scratch.file("report-\(crop).json")
            let run = try Run.photobook(["build"] + photos + page + ["-o", scratch.file("\(crop).pdf"), "--crop", crop, "-v",
                                                         "--report", report])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try ReportSchema.problems(in: report) == nil)
            let read = try ReadReport(path: report)
            let plain = try #require(read.photo(named: "curie.jpg")), marked = try #require(read.photo(named: "curie.6.mwg.jpg"))
            #expect(plain.cropFrom == "centre" && plain.regions == nil && plain.regionCut == nil)
            #expect(marked.regions == 2)
            #expect(marked.cropFrom == (crop == "auto" ? "regions" : "centre") && marked.regionCut == (crop == "centre"))
            let words = crop == "auto" ? "60.0% cropped around its regions, 71 dpi"
                : "60.0% cropped from the centre, not every marked region whole, 71 dpi"
            #expect(run.stderr.contains("curie.6.mwg.jpg: 300x100 mm at 0, 0 mm from the top left, \(words)"), "\(run.stderr)")
        }
        let dry = try Run.photobook(["build"] + photos + page + ["--dry-run"])
        #expect(dry.stdout.contains("curie.6.mwg.jpg: 300x100 mm at 0, 0 mm from the top left, 60.0% cropped around its regions, "))
        #expect(dry.stdout.contains("curie.jpg: 300x100 mm at 0, 0 mm from the top left, 60.0% cropped from the centre, "))
    }

    @Test("a photo that marks no region gives the same book whatever --crop says")
    func unmarked() throws {
        let scratch = try Scratch()
        var books: [[UInt8]] = []
        for crop in ["auto", "centre"] {
            let pdf = scratch.file("\(crop).pdf")
            let run = try Run.command(Run.binary, ["build", Run.fixture("face-regions/curie.jpg"), "-o", pdf,
                                                   "--page-size", "300x100mm", "--crop", crop],
                                      environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            #expect(run.status == 0, "\(run.stderr)")
            books.append(try Fixtures.read(pdf))
        }
        #expect(books[0] == books[1])
    }

    @Test("an XMP sidecar's caption and capture date go ahead of the photo's own, in captions and in the order")
    func sidecarWords() throws {
        // Both photos say 2001-01-01 12:00 themselves, which would leave them in name order (3 before 6).
        let photos = ["curie.3.mp.jpg", "curie.6.sidecar.jpg"].map { Run.fixture("face-regions/" + $0) }
        let auto = try Run.photobook(["build"] + photos + ["--captions", "auto", "--sort", "date", "--dry-run"])
        let lines = auto.stdout.split(separator: "\n").filter { $0.contains("caption") }
        #expect(lines.count == 2 && lines[0].contains("curie.6.sidecar.jpg") && lines[1].contains("curie.3.mp.jpg"))
        #expect(lines.first?.hasSuffix("caption \"Pierre and Marie Curie in their laboratory\"") == true)
        #expect(lines.last?.hasSuffix("caption \"The Curies\"") == true)
        let date = try Run.photobook(["build", photos[1], "--captions", "date", "--dry-run"])
        #expect(date.stdout.contains("caption \"1 June 1904, 10:30\""), "\(date.stdout)")
    }

    @Test("boxes that cannot be used are warned of by the photo's name; a sidecar named as an input is no photo")
    func warnings() throws {
        let scratch = try Scratch()
        let bad = Run.fixture("face-regions/curie.1.bad.jpg")
        let sidecar = Run.fixture("face-regions/curie.6.sidecar.jpg.xmp")
        let run = try Run.photobook(["build", bad, Run.fixture("face-regions/curie.6.sidecar.jpg"), sidecar, "-o",
                                     scratch.file("book.pdf"), "--strict"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(bad): its XMP: face region 2 (Outside) lies outside the picture, ignored"))
        #expect(run.stderr.contains("photobook: warning: \(bad): its XMP: face region 3 (Empty) is empty (0 x 0), ignored"))
        #expect(!run.stderr.contains(sidecar))
        #expect(run.stderr.contains("wrote \(scratch.file("book.pdf")): 2 pages"))
    }
}
