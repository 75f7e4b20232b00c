import Foundation
import Testing

/// Every way the command line can be wrong gets a clear message, the right status, and no file.
@Suite(.serialized) struct UsageTests {
    let photo = Run.fixture("exif-orientation/Landscape_1.jpg")

    @Test func helpListsEveryOptionWithItsDefault() throws {
        let run = try Run.photobook(["build", "--help"])
        #expect(run.status == 0)
        for option in ["--output", "--recursive", "--page-size", "--margin", "--dpi", "--fit", "--quality",
                       "--jobs", "--max-pixels", "--strict", "--keep-originals", "--quiet", "--verbose"] {
            #expect(run.stdout.contains(option), "help lacks \(option)")
        }
        for fact in ["default: a4", "default: 10mm", "default: 300", "default: fill", "default: 90", "default: 100000000"] {
            #expect(run.stdout.contains(fact), "help lacks \(fact)")
        }
        let top = try Run.photobook(["--help"])
        #expect(top.status == 0 && top.stdout.contains("photobook build"))
        let version = try Run.photobook(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("photobook "))
    }

    @Test(arguments: [
        (["build"], "no input given"),
        (["build", "PHOTO"], "no output given"),
        (["build", "PHOTO", "-o"], "needs a value"),
        (["build", "PHOTO", "-o", "OUT", "--frobnicate"], "unknown option '--frobnicate'"),
        (["build", "PHOTO", "-o", "OUT", "--page-size", "a9"], "invalid page size 'a9'"),
        (["build", "PHOTO", "-o", "OUT", "--margin", "wide"], "invalid margin 'wide'"),
        (["build", "PHOTO", "-o", "OUT", "--margin", "120mm"], "leaves no room"),
        (["build", "PHOTO", "-o", "OUT", "--quality", "0"], "invalid value '0' for --quality"),
        (["build", "PHOTO", "-o", "OUT", "--dpi", "lots"], "invalid value 'lots' for --dpi"),
        (["build", "PHOTO", "-o", "OUT", "--jobs", "-1"], "invalid value '-1' for --jobs"),
        (["build", "PHOTO", "-o", "OUT", "--fit", "stretch"], "invalid value 'stretch' for --fit"),
        (["build", "PHOTO", "-o", "OUT", "--strict=yes"], "takes no value"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let scratch = try Scratch()
        let args = arguments.map { $0 == "PHOTO" ? photo : $0 == "OUT" ? scratch.file("book.pdf") : $0 }
        let run = try Run.photobook(args)
        #expect(run.status == 2)
        #expect(run.stderr.contains("photobook: error: "), "\(run.stderr)")
        #expect(run.stderr.contains(message), "expected '\(message)' in: \(run.stderr)")
        #expect(Scratch.listing(scratch.path).isEmpty)
    }

    @Test func noArgumentsPrintsUsage() throws {
        let run = try Run.photobook([])
        #expect(run.status == 2)
        #expect(run.stderr.contains("Usage: photobook build"))
    }

    @Test func aMissingInputIsNamed() throws {
        let scratch = try Scratch()
        let run = try Run.photobook(["build", scratch.file("nope"), "-o", scratch.file("book.pdf")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("photobook: error: \(scratch.file("nope")): no such file or directory"), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path).isEmpty)
    }

    @Test func aMissingOutputFolderIsAnErrorBeforeAnyWork() throws {
        let scratch = try Scratch()
        let out = scratch.file("missing/book.pdf")
        let run = try Run.photobook(["build", photo, "-o", out])
        #expect(run.status == 2)
        #expect(run.stderr.contains("photobook: error: \(out): cannot write the book: its folder"), "\(run.stderr)")
    }

    @Test func anOutputThatIsAFolderIsAnError() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("book.pdf")
        let run = try Run.photobook(["build", photo, "-o", folder])
        #expect(run.status == 2)
        #expect(run.stderr.contains("the output is a folder"), "\(run.stderr)")
        #expect(Scratch.listing(folder).isEmpty)
    }

    @Test func anOutputThatIsOneOfTheInputsIsRefused() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let input = try scratch.copy(photo, to: "photos/a.jpg")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let run = try Run.photobook(["build", photos, "-o", input])
        #expect(run.status == 2)
        #expect(run.stderr.contains("the output is one of the inputs"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func aFolderWithoutImagesIsAnError() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.write("photos/readme.txt", Array("hi".utf8))
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no JPEG or PNG photos found"), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["photos"])
    }
}
