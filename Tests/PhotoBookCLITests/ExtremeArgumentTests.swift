import Foundation
@testable import PhotoBookCLI
import Testing

/// The generated set of hostile values (ExtremeArguments) thrown at every option of the table, against the
/// binary as a user runs it: each run ends with a status, never a signal or a hang; a refused value exits 2
/// with a message naming the option, before any photo is read; nothing is left behind.
@Suite struct ExtremeArgumentTests {
    /// A photo of 32x32 pixels, so that a value that is accepted costs a small build, not a slow one.
    let photo = Run.fixture("pngsuite/basn2c08.png")

    @Test(arguments: BuildCommand.options.map(\.spec))
    func everyValueEndsInAStatusWithAMessage(option: OptionSpec) throws {
        let scratch = try Scratch()
        for form in ExtremeArguments.forms(of: option) {
            for value in ExtremeArguments.values {
                let arguments = ["build", photo, "-o", "book.pdf", "-q"] + form(value)
                let run = try Run.command(Run.binary, arguments, directory: scratch.path, timeout: 60)
                // A signal shows as 128 + its number.
                #expect([0, 1, 2].contains(run.status), "\(arguments): status \(run.status)\n\(run.stderr)")
                #expect(!run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
                if run.status == 2 {
                    let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
                    #expect(first.hasPrefix("photobook: error: "), "\(arguments): \(run.stderr)")
                    #expect(first.contains(option.longName) || first.contains("no output") || first.contains("no input")
                                || first.contains("cannot write the book") || first.contains("the output")
                                || first.contains("the file name is too long")
                                || first.hasPrefix("photobook: error: --margin: ") && option.long == "page-size",
                            "\(arguments): \(run.stderr)")
                }
                // Whatever happened, no temporary file stays, and only a success leaves a file: its book.
                // The one exception: a report, which every build that ran leaves, whatever its outcome.
                let all = Scratch.listing(scratch.path)
                let left = option.long == "report" ? all.filter { $0 != value } : all
                #expect(run.status == 0 ? left.count == 1 : left.isEmpty, "\(arguments) left \(all)")
                for name in all { try FileManager.default.removeItem(atPath: scratch.file(name)) }
            }
        }
    }

    /// Values are checked before the inputs are even looked at: a bad value is the error reported, not the
    /// missing photo, and the photo's folder is never opened.
    @Test(arguments: [
        ["--page-size", "6000x6000mm"], ["--page-size=1e308x1e308mm"], ["--margin", "120mm"], ["--dpi", "0"],
        ["-j", "100000"], ["--quality", "nan"], ["--max-pixels", "-1"],
    ])
    func aBadValueIsReportedBeforeAnyInputIsRead(arguments: [String]) throws {
        let scratch = try Scratch()
        let run = try Run.photobook(["build", scratch.file("no-such-folder"), "-o", scratch.file("b.pdf")] + arguments)
        #expect(run.status == 2)
        let name = arguments[0].split(separator: "=").first.map(String.init) ?? ""
        let long = name == "-j" ? "-j (--jobs)" : name
        #expect(run.stderr.hasPrefix("photobook: error: \(long): "), "\(run.stderr)")
        #expect(!run.stderr.contains("no-such-folder"), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path).isEmpty)
    }
}
