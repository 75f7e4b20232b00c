import Foundation
import TestSupport
import Testing

/// The test and benchmark switches live in `photobook-harness` only (PhotoBookCLI/RunHarness.swift).
@Suite struct HarnessTests {
    static let switches = ["PHOTOBOOK_TEST_PAUSE", "PHOTOBOOK_TEST_PAUSE_HOLD", "PHOTOBOOK_TEST_IMAGES_IN_MEMORY",
                           "PHOTOBOOK_LOSSLESS_CROPS", "PHOTOBOOK_TEST_FILE_SIZE_LIMIT"]

    /// No switch's name is anywhere in the shipped binary; the harness has each.
    @Test func theShippedBinaryHasNoTestSwitch() throws {
        let shipped = try Fixtures.read(Run.binary)
        let harness = try Fixtures.read(Run.harness)
        for name in Self.switches {
            let bytes = Array(name.utf8)
            #expect(!Self.contains(shipped, bytes), "\(name) in \(Run.binary)")
            #expect(Self.contains(harness, bytes), "\(name) not in \(Run.harness)")
        }
    }

    /// A pause asked of the shipped binary is not heard: the build runs to its end.
    @Test func theShippedBinaryIgnoresAPause() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a.jpg")
        let out = scratch.file("book.pdf")
        let run = try Run.command(Run.binary, ["build", photos, "-o", out],
                                  environment: ["PHOTOBOOK_TEST_PAUSE": "decode"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("paused"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
