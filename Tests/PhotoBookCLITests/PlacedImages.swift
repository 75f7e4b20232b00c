import Foundation
import Testing

/// Where each image is drawn on each page of a PDF, read from the page content streams themselves (through
/// `qpdf --qdf`, which writes them uncompressed), not from anything photobook says about its plan.
struct PlacedImage: CustomStringConvertible {
    /// The image's unit square mapped onto the page, in points, bottom-left origin: x, y, width, height of the
    /// bounding box of the transformed square.
    var x: Double, y: Double, width: Double, height: Double
    /// The clipping rectangle in force when it was drawn, if any.
    var clip: (x: Double, y: Double, width: Double, height: Double)?

    /// What shows: the image's box, cut by its clip.
    var visible: (x: Double, y: Double, width: Double, height: Double) {
        guard let clip else { return (x, y, width, height) }
        let left = max(x, clip.x), bottom = max(y, clip.y)
        let right = min(x + width, clip.x + clip.width), top = min(y + height, clip.y + clip.height)
        return (left, bottom, max(0, right - left), max(0, top - bottom))
    }

    var description: String {
        let v = visible
        return String(format: "[%.2f %.2f %.2f x %.2f]", v.x, v.y, v.width, v.height)
    }

    /// Per page, the images in the order they are drawn.
    static func read(_ pdf: String, scratch: Scratch) throws -> [[PlacedImage]] {
        let qdf = scratch.file("qdf-\(UUID().uuidString).pdf")
        let run = try Run.command("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        #expect(run.status == 0, "qpdf: \(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: qdf)))
        try? FileManager.default.removeItem(atPath: qdf)
        // qpdf marks each page's content stream with a comment "%% Contents for page N"; the stream follows.
        var pages: [[PlacedImage]] = []
        let marker = Array("%% Contents for page ".utf8)
        var index = 0
        while let start = find(marker, in: bytes, from: index) {
            guard let streamStart = find(Array("stream\n".utf8), in: bytes, from: start),
                  let streamEnd = find(Array("endstream".utf8), in: bytes, from: streamStart) else { break }
            let content = String(decoding: bytes[(streamStart + 7)..<streamEnd], as: UTF8.self)
            pages.append(parse(content))
            index = streamEnd
        }
        return pages
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Follows `q`, `Q`, `cm`, `re W n` and `Do` through a content stream.
    static func parse(_ content: String) -> [PlacedImage] {
        typealias Matrix = (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)
        let identity: Matrix = (1, 0, 0, 1, 0, 0)
        func multiply(_ m: Matrix, _ n: Matrix) -> Matrix {
            (m.a * n.a + m.b * n.c, m.a * n.b + m.b * n.d, m.c * n.a + m.d * n.c, m.c * n.b + m.d * n.d,
             m.e * n.a + m.f * n.c + n.e, m.e * n.b + m.f * n.d + n.f)
        }
        var stack: [(Matrix, (Double, Double, Double, Double)?)] = []
        var matrix = identity
        var clip: (Double, Double, Double, Double)?
        var pendingRect: (Double, Double, Double, Double)?
        var operands: [Double] = []
        var images: [PlacedImage] = []
        for token in content.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }) {
            if let number = Double(token) { operands.append(number); continue }
            switch token {
            case "q": stack.append((matrix, clip))
            case "Q": if let top = stack.popLast() { (matrix, clip) = top }
            case "cm" where operands.count >= 6:
                let o = Array(operands.suffix(6))
                matrix = multiply((o[0], o[1], o[2], o[3], o[4], o[5]), matrix)
            case "re" where operands.count >= 4:
                let o = Array(operands.suffix(4))
                // In page space (photobook draws its clip before any cm).
                let corners = [(o[0], o[1]), (o[0] + o[2], o[1] + o[3])].map { p in
                    (matrix.a * p.0 + matrix.c * p.1 + matrix.e, matrix.b * p.0 + matrix.d * p.1 + matrix.f)
                }
                pendingRect = (min(corners[0].0, corners[1].0), min(corners[0].1, corners[1].1),
                               abs(corners[1].0 - corners[0].0), abs(corners[1].1 - corners[0].1))
            case "W": clip = pendingRect
            case "Do":
                let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { p in
                    (matrix.a * p.0 + matrix.c * p.1 + matrix.e, matrix.b * p.0 + matrix.d * p.1 + matrix.f)
                }
                let xs = corners.map(\.0), ys = corners.map(\.1)
                images.append(PlacedImage(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!,
                                          height: ys.max()! - ys.min()!, clip: clip.map { ($0.0, $0.1, $0.2, $0.3) }))
            default: break
            }
            operands.removeAll()
        }
        return images
    }
}
