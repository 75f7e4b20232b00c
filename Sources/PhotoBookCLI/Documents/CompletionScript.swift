/// Shell completion scripts for bash, zsh and fish, written from the option tables: `photobook completions SHELL`
/// prints one; `make install` installs the copies kept in completions/, which a test compares with these.
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish

        /// Where `make install` puts the script, under PREFIX, and the name the shell looks for.
        var installPath: String {
            switch self {
            case .bash: return "share/bash-completion/completions/photobook"
            case .zsh: return "share/zsh/site-functions/_photobook"
            case .fish: return "share/fish/vendor_completions.d/photobook.fish"
            }
        }
    }

    static func render(_ shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    /// The first phrase of an option's help: enough for a completion menu.
    private static func brief(_ text: String) -> String {
        String(text.prefix { $0 != ";" && $0 != "(" }).trimmingSpaces()
    }

    // MARK: bash

    private static func bash() -> String {
        let commands = ProgramDocument.commands
        let top = (commands.map(\.name) + ProgramDocument.options.flatMap { [$0.longName] }).joined(separator: " ")
        var out = """
            # bash completion for photobook, written by `photobook completions bash` from its option table.

            _photobook_files() {
                # $@: the extensions to offer, in lower or upper case (IMG_1.JPG), with the folders that may hold
                # such files; none for any file.
                local IFS=$'\\n' ext
                compopt -o filenames 2>/dev/null
                if (( $# )); then
                    COMPREPLY=($(compgen -d -- "$cur"))
                    for ext in "$@"; do
                        COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur") $(compgen -f -X "!*.${ext^^}" -- "$cur"))
                    done
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }

            _photobook() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                # bash splits "--name=value" at the '=' (it is in COMP_WORDBREAKS).
                if [[ $cur == = ]]; then
                    cur=""
                elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                fi
                local i command=""
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        -*) ;;
                        *) command=${COMP_WORDS[i]}; break ;;
                    esac
                done
                case $command in
                    "")
                        COMPREPLY=($(compgen -W "\(top)" -- "$cur"))
                        ;;

            """
        for command in commands {
            out += "        \(command.name))\n"
            let valued = command.options.filter { !$0.isFlag }
            if !valued.isEmpty {
                out += "            case $prev in\n"
                for option in valued {
                    let names = [option.shortName, option.longName].compactMap { $0 }.joined(separator: "|")
                    out += "                \(names)) \(bashValue(option.completion)); return ;;\n"
                }
                out += "            esac\n"
            }
            let names = command.options.flatMap { [$0.longName] + [$0.shortName].compactMap { $0 } }
            out += """
                            if [[ $cur == -* ]]; then
                                COMPREPLY=($(compgen -W "\(names.joined(separator: " "))" -- "$cur"))
                            else
                                \(bashValue(command.operandCompletion))
                            fi
                            ;;

                """
        }
        out += """
                esac
            }
            complete -F _photobook photobook

            """
        return out
    }

    private static func bashValue(_ completion: Completion) -> String {
        switch completion {
        case .none: return "COMPREPLY=()"
        case .words(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        case .files(let extensions): return (["_photobook_files"] + extensions).joined(separator: " ")
        case .filesAndFolders: return "_photobook_files"
        }
    }

    // MARK: zsh

    private static func zsh() -> String {
        var out = """
            #compdef photobook
            # zsh completion for photobook, written by `photobook completions zsh` from its option table.

            _photobook() {
              local curcontext=$curcontext state line ret=1
              _arguments -C \\

            """
        for option in ProgramDocument.options {
            out += "    '(- :)'\(zshNames(option))'[\(zshQuote(brief(option.help)))]' \\\n"
        }
        out += """
                '1:command:->command' \\
                '*::argument:->argument' && ret=0
              case $state in
                command)
                  local -a commands
                  commands=(

            """
        for command in ProgramDocument.commands {
            out += "        '\(command.name):\(zshQuote(command.summary))'\n"
        }
        out += """
                  )
                  _describe -t commands command commands && ret=0
                  ;;
                argument)
                  case $words[1] in

            """
        for command in ProgramDocument.commands {
            out += "        \(command.name))\n          _arguments -s -S \\\n"
            for option in command.options {
                let exclusive = "(\([option.shortName, option.longName].compactMap { $0 }.joined(separator: " ")))"
                let help = "[\(zshQuote(brief(option.help)))]"
                let value = option.metavar.map { ":\($0):\(zshAction(option.completion))" } ?? ""
                out += "            '\(exclusive)'\(zshNames(option))'\(help)\(zshQuote(value, brackets: false))' \\\n"
            }
            out += "            '*:\(command.operands):\(zshAction(command.operandCompletion))' && ret=0\n          ;;\n"
        }
        out += """
                  esac
                  ;;
              esac
              return ret
            }

            _photobook "$@"

            """
        return out
    }

    /// `{-o+,--output=}` for an option with a value (attached or the next word), `{-r,--recursive}` for a flag.
    private static func zshNames(_ option: OptionSpec) -> String {
        let long = option.longName + (option.isFlag ? "" : "=")
        guard let short = option.shortName else { return long }
        return "{\(short + (option.isFlag ? "" : "+")),\(long)}"
    }

    private static func zshAction(_ completion: Completion) -> String {
        switch completion {
        case .none: return " "
        case .words(let words): return "(\(words.joined(separator: " ")))"
        case .files(let extensions):
            // (#i): either case, as discovery takes IMG_1.JPG (compsys sets extendedglob).
            return extensions.isEmpty ? "_files" : "_files -g \"*.(#i)(\(extensions.joined(separator: "|")))\""
        case .filesAndFolders: return "_files"
        }
    }

    /// Text inside a single-quoted `_arguments` spec; in a description, brackets and colons are escaped too.
    private static func zshQuote(_ text: String, brackets: Bool = true) -> String {
        var out = text
        if brackets {
            out = out.replacingAll("\\", with: "\\\\").replacingAll("[", with: "\\[").replacingAll("]", with: "\\]")
                .replacingAll(":", with: "\\:")
        }
        return out.replacingAll("'", with: "'\\''")
    }

    // MARK: fish

    private static func fish() -> String {
        var out = """
            # fish completion for photobook, written by `photobook completions fish` from its option table.
            complete -c photobook -f

            """
        let top = "__fish_use_subcommand"
        for option in ProgramDocument.options {
            out += "complete -c photobook -n \(top)\(fishNames(option)) -d \(fishQuote(brief(option.help)))\n"
        }
        for command in ProgramDocument.commands {
            out += "complete -c photobook -n \(top) -a \(command.name) -d \(fishQuote(command.summary))\n"
        }
        for command in ProgramDocument.commands {
            let condition = fishQuote("__fish_seen_subcommand_from \(command.name)")
            out += "\n"
            for option in command.options {
                let value = option.isFlag ? "" : fishValue(option.completion)
                out += "complete -c photobook -n \(condition)\(fishNames(option))\(value) -d \(fishQuote(brief(option.help)))\n"
            }
            out += "complete -c photobook -n \(condition)\(fishValue(command.operandCompletion, operand: true))\n"
        }
        return out
    }

    private static func fishNames(_ option: OptionSpec) -> String {
        (option.short.map { " -s \($0)" } ?? "") + " -l \(option.long)"
    }

    private static func fishValue(_ completion: Completion, operand: Bool = false) -> String {
        switch completion {
        case .none: return " -x"
        case .words(let words): return " -x -a \(fishQuote(words.joined(separator: " ")))"
        case .files, .filesAndFolders: return operand ? " -F" : " -r -F"
        }
    }

    private static func fishQuote(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
