import Foundation
import TestSupport
import Testing

/// `photobook init --help` against what init does: every build option it refuses is named in its help, which
/// otherwise says that every option of build is accepted.
@Suite struct InitHelpTests {
    @Test(arguments: [["--dry-run"], ["--report", "r.json"], ["--spreads"]])
    func aRefusedOptionIsNamedInTheHelp(option: [String]) throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try SpreadTests.photo(scratch.file("photos/a.png"))
        let run = try Run.photobook(["init", scratch.file("photos"), "-o", scratch.file("book.json")] + option)
        #expect(run.status == 2, "init \(option) is refused: \(run.stderr)")
        #expect(run.stderr.contains(option[0]), "\(run.stderr)")
        let help = try Run.photobook(["init", "--help"])
        #expect(help.status == 0)
        // The help's prose, its lines joined: an option table row would start with the option itself.
        let prose = help.stdout.components(separatedBy: "\nInput and output:")[0].replacingOccurrences(of: "\n", with: " ")
        #expect(prose.contains(option[0]), "init --help says nothing of \(option[0]): \(prose)")
    }

    /// Commands that only print promise only what they can do: no "book written", no "interrupted".
    @Test(arguments: [["presets", "--help"], ["completions", "--help"], ["build", "--help"], ["cover", "--help"]])
    func theExitStatusesInTheHelpAreTheCommands(arguments: [String]) throws {
        let help = try Run.photobook(arguments)
        #expect(help.status == 0, "\(help.stderr)")
        let footer = help.stdout.components(separatedBy: "Exit status:").last ?? ""
        let writes = arguments[0] == "build" || arguments[0] == "cover"
        #expect(footer.contains("130") == writes, "\(arguments[0]): \(footer)")
        #expect(footer.contains("2 usage error"), "\(arguments[0]): \(footer)")
    }
}
