import Foundation
@testable import PhotoBookCLI
import Testing

/// One declaration per option: an option several commands take comes from one option group, never a copy.
@Suite struct OptionDeclarationTests {
    /// One row of a command's table: its names and where it was declared.
    struct Row {
        var command: String
        var long: String
        var short: Character?
        var declaration: String
    }

    /// Every command's table, as its parser reads it and its help lists it.
    static var tables: [Row] {
        func rows<Command>(_ command: String, _ options: [Option<Command>]) -> [Row] {
            options.map { Row(command: command, long: $0.spec.long, short: $0.spec.short, declaration: $0.declaration) }
        }
        return rows("build", BuildCommand.options) + rows("init", InitCommand.options)
            + rows("cover", CoverCommand.options) + rows("presets", PresetsCommand.options)
            + rows("completions", CompletionsCommand.options)
    }

    /// What is wrong with `rows`: a name twice in one table, a long name declared at two places, a short name
    /// standing for two long ones.
    static func problems(_ rows: [Row]) -> [String] {
        var problems: [String] = []
        var declared: [String: Row] = [:]
        var shorts: [Character: String] = [:]
        for (index, row) in rows.enumerated() {
            if rows[..<index].contains(where: { $0.command == row.command && $0.long == row.long }) {
                problems.append("\(row.command): --\(row.long) is in its table twice")
            }
            if let first = declared[row.long], first.declaration != row.declaration {
                problems.append("--\(row.long) is declared at \(first.declaration) (\(first.command)) and again at "
                                + "\(row.declaration) (\(row.command)): include the one declaration instead")
            }
            declared[row.long] = declared[row.long] ?? row
            if let short = row.short {
                if let long = shorts[short], long != row.long {
                    problems.append("-\(short) is --\(long) in one command and --\(row.long) in \(row.command)")
                }
                shorts[short] = shorts[short] ?? row.long
            }
        }
        return problems
    }

    @Test func noOptionIsDeclaredTwiceAcrossTheCommands() {
        let rows = Self.tables
        #expect(Self.problems(rows) == [])
        // The options build and cover share are there, and each comes from its group.
        for long in ["output", "page-size", "bleed", "safety", "dpi", "quality", "title", "subtitle", "author", "font",
                     "quiet", "verbose", "help"] {
            let declarations = Set(rows.filter { $0.long == long }.map(\.declaration))
            let groups = ["PageGroup", "PrintGroup", "TextGroup", "OutputGroup", "RunGroup"]
            #expect(declarations.count == 1 && groups.contains { declarations.first?.hasPrefix("PhotoBookCLI/\($0).swift:") == true },
                    "--\(long): \(declarations)")
            #expect(rows.filter { $0.long == long }.map(\.command).contains("cover"), "--\(long)")
        }
    }

    /// The check itself finds a copy: cover's table with `--bleed` declared again in place of the group's.
    @Test func aCopiedDeclarationIsFound() {
        let copy = Option<CoverCommand>.value("bleed", .length(), default: "0", section: .page, help: "a copy", \.bleed)
        let tables = Self.tables.filter { !($0.command == "cover" && $0.long == "bleed") }
            + [Row(command: "cover", long: "bleed", short: nil, declaration: copy.declaration)]
        #expect(Self.problems(tables).count == 1)
        #expect(Self.problems(tables).first?.hasPrefix("--bleed is declared at PhotoBookCLI/PageGroup.swift:") == true)
        let twice = Self.tables + [Self.tables.first { $0.command == "presets" }!]
        #expect(Self.problems(twice) == ["presets: --help is in its table twice"])
    }
}
