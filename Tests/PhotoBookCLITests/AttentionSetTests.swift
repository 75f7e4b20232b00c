import Foundation
import TestSupport
import Testing

/// Issue 31, item 9: eleven photos with the subject off the centre and no face marked (Fixtures/attention), each on
/// an A4 portrait page that keeps a narrow upright strip of it. The crop comes from the attention map; a careful
/// person would keep each subject whole, and photobook must in at least 8 of the 11 (libvips' attention: 8 here).
struct AttentionSetTests {
    struct Sample: Sendable {
        var file: String
        /// What must stay whole: left, top, width, height in pixels of the upright picture (Fixtures/attention).
        var subject: (x: Double, y: Double, width: Double, height: Double)
        /// Kept whole with room to spare (13 pixels or more on each side, over a block of the map's picture):
        /// expected of this photo on its own.
        var sure: Bool
    }

    static let samples: [Sample] = [
        // Left of the centre crop by 30 columns: the best crop keeps 8% more of the interest, under the 15% to move.
        Sample(file: "attention/astronaut.jpg", subject: (90, 12, 152, 148), sure: false),
        // Cut by the map of summed cells, whole since cells are means (13 columns to spare).
        Sample(file: "attention/brick-face.jpg", subject: (446, 46, 128, 128), sure: true),
        Sample(file: "attention/camera.jpg", subject: (55, 42, 175, 138), sure: false),
        // The cup keeps the centre crop, 27 columns short on its left: its wood and saucer hold as much interest.
        Sample(file: "attention/coffee.jpg", subject: (92, 15, 238, 290), sure: false),
        Sample(file: "attention/curie.jpg", subject: (35, 84, 357, 203), sure: true),
        Sample(file: "attention/grass-cat.jpg", subject: (36, 136, 168, 129), sure: true),
        Sample(file: "attention/grass-horse.jpg", subject: (29, 205, 185, 151), sure: true),
        Sample(file: "attention/gravel-cameraman.jpg", subject: (396, 216, 178, 138), sure: false),
        Sample(file: "attention/gravel-cup.jpg", subject: (426, 116, 138, 168), sure: true),
        Sample(file: "attention/rocket.jpg", subject: (45, 15, 35, 280), sure: true),
        Sample(file: "exif-orientation/Landscape_1.jpg", subject: (1110, 90, 390, 1080), sure: true),
    ]

    /// The crop photobook gives each sample on an A4 page, from its report, one book of them all.
    static func crops(scratch: Scratch) throws -> [String: ReadReport.Box] {
        let report = scratch.file("report.json")
        let run = try Run.photobook(["build"] + samples.map { Run.fixture($0.file) }
                                        + ["-o", scratch.file("book.pdf"), "--page-size", "a4", "--margin", "0",
                                           "--sort", "given", "-q", "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        let read = try ReadReport(path: report)
        var crops: [String: ReadReport.Box] = [:]
        for sample in samples {
            let name = URL(fileURLWithPath: sample.file).lastPathComponent
            crops[sample.file] = try #require(read.photo(named: name)?.crop, "\(name) has no crop")
        }
        return crops
    }

    static func holds(_ crop: ReadReport.Box, _ subject: (x: Double, y: Double, width: Double, height: Double)) -> Bool {
        crop.x <= subject.x && crop.x + crop.width >= subject.x + subject.width
            && crop.y <= subject.y && crop.y + crop.height >= subject.y + subject.height
    }

    @Test("the subject is whole on its A4 page in at least 8 of the 11, and in each one whose margin is sure")
    func subjectsKept() throws {
        let scratch = try Scratch()
        let crops = try Self.crops(scratch: scratch)
        var kept: [String] = []
        for sample in Self.samples {
            let crop = try #require(crops[sample.file])
            let whole = Self.holds(crop, sample.subject)
            if whole { kept.append(sample.file) }
            if sample.sure {
                #expect(whole, "\(sample.file): columns \(crop.x)...\(crop.x + crop.width), subject \(sample.subject)")
            }
        }
        // The issue asks 8; the map of summed cells kept 8, of means 9 (Fixtures/attention/README.md).
        #expect(kept.count >= 8, "whole in \(kept.count) of 11: \(kept)")
    }
}
