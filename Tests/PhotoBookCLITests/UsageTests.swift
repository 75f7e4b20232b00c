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
        (["build", "PHOTO", "-o"], "-o (--output): needs a value (PATH)"),
        (["build", "PHOTO", "-o", "OUT", "--frobnicate"], "unknown option '--frobnicate'"),
        (["build", "PHOTO", "-o", "OUT", "--page-size", "a9"], "--page-size: 'a9' is not a page size"),
        (["build", "PHOTO", "-o", "OUT", "--margin", "wide"], "--margin: 'wide' is not a length"),
        (["build", "PHOTO", "-o", "OUT", "--margin", "120mm"], "--margin: 120 mm leaves no room for a photo on the page (A4): use at most 104 mm"),
        (["build", "PHOTO", "-o", "OUT", "--quality", "0"], "--quality: '0' is out of range: use a whole number from 1 to 100"),
        (["build", "PHOTO", "-o", "OUT", "--dpi", "lots"], "--dpi: 'lots' is not a whole number: use 10 to 2400"),
        (["build", "PHOTO", "-o", "OUT", "--jobs", "-1"], "--jobs: '-1' is out of range"),
        (["build", "PHOTO", "-o", "OUT", "--fit", "stretch"], "--fit: 'stretch' is not one of: fill, fit"),
        (["build", "PHOTO", "-o", "OUT", "--strict=yes"], "--strict: takes no value, but was given 'yes'"),
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
        #expect(run.stderr.contains("no photos found"), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["photos"])
    }

    /// A folder of folders (Google Takeout's album folders): the error counts the photos below and names -r.
    @Test func aFolderOfFoldersSaysWhereThePhotosAre() throws {
        let takeout = Run.fixture("takeout/Takeout")
        let scratch = try Scratch()
        let run = try Run.photobook(["build", takeout, "-o", scratch.file("book.pdf")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no photos found in \(takeout) (8 in subfolders: add -r to include them)"),
                "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == [])
        let recursive = try Run.photobook(["build", takeout, "-r", "-o", scratch.file("book.pdf")])
        #expect(recursive.status == 0, "\(recursive.stderr)")
    }
}
