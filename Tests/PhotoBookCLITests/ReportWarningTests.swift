import Foundation
import TestSupport
import Testing

/// `--report`'s `warnings` against what the build says on stderr: the warnings given before any photo is read
/// (a preset that refuses crop marks, a file that is not a photo) are warnings of the build too.
@Suite(.serialized) struct ReportWarningTests {
    struct Warnings: Decodable {
        struct Warning: Decodable { var path: String?; var message: String }
        var warnings: [Warning]
    }

    @Test func everyWarningOnStderrIsInTheReport() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("photos")
        try SpreadTests.photo(scratch.file("photos/a.jpg"))
        let psd = try Run.command("/usr/bin/convert", ["-size", "20x20", "xc:red", scratch.file("photos/b.psd")])
        #expect(psd.status == 0, "convert: \(psd.stderr)")
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", folder, "-o", out, "--report", json, "--preset", "lulu-a4", "--crop-marks",
                                     "--dpi", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let reported = try JSONDecoder().decode(Warnings.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
            .warnings.map { ($0.path.map { $0 + ": " } ?? "") + $0.message }
        var said = run.stderr.split(separator: "\n").filter { $0.hasPrefix("photobook: warning: ") }
            .map { String($0.dropFirst("photobook: warning: ".count)) }
        // 10 dpi is below the 200 dpi print shops ask for: that warning is the photo's own, in its `warnings`
        // (PreflightTests), not among the build's.
        let density = said.filter { $0.contains("below the 200 dpi print shops ask for") }
        #expect(density.count == 1 && density.first?.hasPrefix(scratch.file("photos/a.jpg")) == true, "\(run.stderr)")
        said.removeAll { density.contains($0) }
        #expect(said.count == 3, "the preset's crop marks, its page count and the PSD's: \(run.stderr)")
        #expect(said.sorted() == reported.sorted(), "stderr: \(said), report: \(reported)")
    }
}
