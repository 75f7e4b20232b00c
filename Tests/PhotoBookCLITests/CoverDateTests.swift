import Foundation
import TestSupport
import Testing

/// `photobook cover` with `SOURCE_DATE_EPOCH`, as a book is (issue 12): the cover's dates are that moment, read
/// back with pdfinfo, and a bad value is a usage error naming the variable, with nothing written.
@Suite(.serialized) struct CoverDateTests {
    @Test func theCoverTakesItsDatesFromSourceDateEpoch() throws {
        let scratch = try Scratch()
        try SpreadTests.photo(scratch.file("front.jpg"))
        let out = scratch.file("cover.pdf")
        let arguments = ["cover", scratch.file("front.jpg"), "-o", out, "--spine", "5mm", "--title", "T"]
        let run = try Run.command(Run.binary, arguments, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try Run.command("/usr/bin/pdfinfo", ["-isodates", out])
        let dates = info.stdout.split(separator: "\n").filter { $0.hasPrefix("CreationDate:") || $0.hasPrefix("ModDate:") }
        #expect(dates.count == 2 && dates.allSatisfy { $0.hasSuffix(" 2023-11-14T22:13:20Z") }, "\(info.stdout)")

        let bad = try Run.command(Run.binary, ["cover", scratch.file("front.jpg"), "-o", scratch.file("bad.pdf"),
                                               "--spine", "5mm"], environment: ["SOURCE_DATE_EPOCH": "soon"])
        #expect(bad.status == 2 && bad.stderr.contains("SOURCE_DATE_EPOCH: 'soon'"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("bad.pdf")))
    }
}
