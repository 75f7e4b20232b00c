import Foundation
import PhotoBook
@testable import PhotoBookCLI
import TestSupport
import Testing

/// The documents written from the option table: the copies kept in the repository match what the binary writes,
/// the man page renders, the shells complete, and `make install` puts everything where each tool looks.
@Suite struct DocumentTests {
    static func repositoryFile(_ relative: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test(arguments: [("man", "docs/photobook.1"), ("bash", "completions/photobook.bash"),
                      ("zsh", "completions/_photobook"), ("fish", "completions/photobook.fish")])
    func theCopyInTheRepositoryIsWhatTheTableSays(document: String, path: String) throws {
        let run = try Run.photobook(["docs", document])
        #expect(run.status == 0)
        #expect(try Self.repositoryFile(path) == run.stdout, "\(path) differs from the option table: run make docs")
    }

    /// Every file of the editor's page folder is built into the binary and served as it stands there: a file added to
    /// the folder must also be named in Package.swift's resources and in EditorPage.
    @Test func theEditorPageInTheBinaryIsTheOneInItsFolder() throws {
        let folder = "Sources/PhotoBookCLI/Editor/Page"
        for (name, file) in EditorPage.files {
            #expect(try Self.repositoryFile("\(folder)/\(name)") == file.text, "\(name) differs from \(folder)")
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: Fixtures.packageRoot.appendingPathComponent(folder).path)
        #expect(Set(names.filter { !$0.hasPrefix(".") }) == Set(EditorPage.files.keys))
        #expect(EditorPage.files["index.html"] != nil)
    }

    @Test func theReadmeOptionsTableIsWhatTheTableSays() throws {
        let readme = try Self.repositoryFile("README.md")
        let begin = try #require(readme.range(of: ReadmeTable.begin), "README.md lacks the options marker")
        let end = try #require(readme.range(of: ReadmeTable.end))
        #expect(String(readme[begin.lowerBound..<end.upperBound]) + "\n" == ReadmeTable.render(),
                "README.md's options table differs from the option table: run make docs")
        for option in BuildCommand.options.map(\.spec) {
            #expect(readme.contains("`\(option.synopsis)`"), "README lacks \(option.synopsis)")
        }
    }

    @Test func helpListsEveryOptionOfTheTable() throws {
        let run = try Run.photobook(["build", "--help"])
        #expect(run.status == 0)
        for option in BuildCommand.options.map(\.spec) {
            #expect(run.stdout.contains(option.synopsis), "help lacks \(option.synopsis)")
        }
        for line in run.stdout.split(separator: "\n") { #expect(line.count <= HelpText.width, "\(line)") }
        #expect(try Run.photobook(["help", "build"]).stdout == run.stdout)
    }

    @Test func theManPageRendersWithoutWarningsAndListsEveryOption() throws {
        let page = Fixtures.packageRoot.appendingPathComponent("docs/photobook.1").path
        let lint = try Run.command("/usr/bin/groff", ["-man", "-ww", "-z", page])
        #expect(lint.status == 0 && lint.stderr.isEmpty, "groff: \(lint.stderr)")
        let man = try Run.command("/usr/bin/man", ["-l", page], environment: ["MANPAGER": "cat", "MANWIDTH": "80", "LANG": "C.UTF-8"])
        #expect(man.status == 0, "\(man.stderr)")
        // man(1) hyphenates and justifies; undo its soft breaks before looking for words.
        let text = man.stdout.replacingOccurrences(of: "‐\n", with: "").replacingOccurrences(of: "-\n", with: "")
        for option in BuildCommand.options.map(\.spec) {
            #expect(text.contains(option.synopsis), "man page lacks \(option.synopsis)")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES"] {
            #expect(text.contains("\n\(section)\n"), "man page lacks \(section)")
        }
    }

    /// What bash offers for the words of `line` (the last one being completed), through the installed script.
    static func bashCompletes(_ line: [String], script: String, in directory: String? = nil) throws -> [String] {
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); COMPREPLY=()
            _photobook
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try Run.command("/bin/bash", ["-c", program], directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesOptionsValuesAndFiles() throws {
        let script = Fixtures.packageRoot.appendingPathComponent("completions/photobook.bash").path
        #expect(try Self.bashCompletes(["photobook", "build", "--pa"], script: script).sorted()
                == ["--pad-to", "--page-numbers", "--page-size", "--pages"])
        #expect(try Self.bashCompletes(["photobook", "build", "--page-s"], script: script) == ["--page-size"])
        #expect(try Self.bashCompletes(["photobook", "b"], script: script) == ["build"])
        #expect(try Self.bashCompletes(["photobook", "build", "--page-size", "l"], script: script) == ["letter", "legal"])
        #expect(try Self.bashCompletes(["photobook", "build", "--fit", "=", ""], script: script) == ["fill", "fit"])
        #expect(try Self.bashCompletes(["photobook", "build", "--margin", ""], script: script) == [])
        let scratch = try Scratch()
        _ = try scratch.write("book.pdf", [])
        _ = try scratch.write("photo.jpg", [])
        _ = try scratch.sub("photos")
        #expect(try Self.bashCompletes(["photobook", "build", "-o", ""], script: script, in: scratch.path).sorted()
                == ["book.pdf", "photos"])
        #expect(try Self.bashCompletes(["photobook", "build", "ph"], script: script, in: scratch.path).sorted()
                == ["photo.jpg", "photos"])
    }

    /// `--cover-photo` completes to the photos the codecs read, whatever their format or case, and the folders
    /// that may hold them: the extensions come from the codec registry, not a list of the option's own.
    @Test func coverPhotoCompletesEveryFormatTheCodecsRead() throws {
        let spec = try #require(BuildCommand.options.map(\.spec).first { $0.long == "cover-photo" })
        #expect(spec.completion == .files(extensions: ImageFormat.fileExtensions.sorted()))
        let script = Fixtures.packageRoot.appendingPathComponent("completions/photobook.bash").path
        let scratch = try Scratch()
        for name in ["a.jpg", "b.HEIC", "c.webp", "d.tiff", "e.avif", "f.png", "notes.txt", "book.pdf"] {
            _ = try scratch.write(name, [])
        }
        _ = try scratch.sub("photos")
        #expect(try Self.bashCompletes(["photobook", "build", "--cover-photo", ""], script: script, in: scratch.path)
                .sorted() == ["a.jpg", "b.HEIC", "c.webp", "d.tiff", "e.avif", "f.png", "photos"])
    }

    @Test func fishCompletesOptionsAndValues() throws {
        let script = Fixtures.packageRoot.appendingPathComponent("completions/photobook.fish").path
        func complete(_ line: String) throws -> [String] {
            let run = try Run.command("/usr/bin/fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try complete("photobook build --pa").sorted() == ["--pad-to", "--page-numbers", "--page-size", "--pages"])
        #expect(try complete("photobook build --fit ") == ["fill", "fit"])
        #expect(try complete("photobook ").contains("build"))
    }

    @Test func zshCompletionIsValidZsh() throws {
        let script = Fixtures.packageRoot.appendingPathComponent("completions/_photobook").path
        let run = try Run.command("/usr/bin/zsh", ["-n", script])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Self.repositoryFile("completions/_photobook").hasPrefix("#compdef photobook\n"))
    }

    /// `make install DESTDIR=... PREFIX=...` with the binary under test (`-o build`: make must not build again
    /// inside the test run), then every file used from where it landed.
    @Test func makeInstallPutsTheBinaryManPageAndCompletionsUnderThePrefix() throws {
        let scratch = try Scratch()
        let install = try Run.command("/usr/bin/make", ["-s", "-C", Fixtures.packageRoot.path, "-o", "build", "install",
                                                        "DESTDIR=\(scratch.path)", "PREFIX=/opt/pb", "BIN=\(Run.binary)"])
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        let root = scratch.path + "/opt/pb"
        let expected = ["bin/photobook", "share/man/man1/photobook.1", "share/photobook/FOGRA39L-photobook.icc"]
            + CompletionScript.Shell.allCases.map(\.installPath)
        let found = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(found.sorted() == expected.sorted())
        let version = try Run.command(root + "/bin/photobook", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("photobook "))
        // The installed binary finds its PDF/X output profile beside itself, not in the source tree.
        let book = try Run.command(root + "/bin/photobook", ["build", Run.fixture("exif-orientation/Landscape_1.jpg"),
                                                             "-o", scratch.file("book.pdf"), "--pdfx", "4", "-q"])
        #expect(book.status == 0, "\(book.stderr)")
        let man = try Run.command("/usr/bin/man", ["-l", root + "/share/man/man1/photobook.1"],
                                  environment: ["MANPAGER": "cat", "LANG": "C.UTF-8"])
        #expect(man.status == 0 && man.stdout.contains("PHOTOBOOK(1)"))
        let bash = root + "/" + CompletionScript.Shell.bash.installPath
        #expect(try Self.bashCompletes(["photobook", "build", "--pa"], script: bash).contains("--page-size"))
    }

    @Test func completionsCommandPrintsEachScript() throws {
        for shell in CompletionScript.Shell.allCases {
            let run = try Run.photobook(["completions", shell.rawValue])
            #expect(run.status == 0 && run.stdout == CompletionScript.render(shell))
        }
        let bad = try Run.photobook(["completions", "tcsh"])
        #expect(bad.status == 2 && bad.stderr.contains("'tcsh' is not a shell photobook completes: use bash, zsh, fish"))
    }
}
