import ArgumentParser

/// A command's man page (man(7)), made from what its `--help` says, so that the two never
/// differ: NAME and DESCRIPTION from its configuration, SYNOPSIS from its usage, one section per
/// section of its help (ARGUMENTS, OPTIONS …), its commands, its exit statuses
/// (its own, `DocumentedExitStatuses`, or `ManualExitStatuses`) and SEE ALSO installtop(1).
struct ManualPage {
    /// The command's words below installtop (`["apt", "install"]`).
    let path: [String]
    let command: any ParsableCommand.Type

    /// `installtop.apt.install.1`, the name man finds it by (`man installtop.apt.install`).
    var fileName: String { (["installtop"] + path).joined(separator: ".") + ".1" }

    /// Every command below installtop, depth first, those the help hides left out.
    static func all(below root: any ParsableCommand.Type = InstallTop.self, path: [String] = []) -> [ManualPage] {
        root.configuration.subcommands.filter { $0.configuration.shouldDisplay }.flatMap { command in
            let page = ManualPage(path: path + [command._commandName], command: command)
            return [page] + all(below: command, path: page.path)
        }
    }

    /// The page's text.
    var text: String {
        let configuration = command.configuration
        let name = (["installtop"] + path).joined(separator: " ")
        var page = ".TH \(Self.escape(fileName.dropLast(2).uppercased())) 1 \"\" \"installtop \(Self.escape(InstalltopVersion.current))\" \"installtop manual\"\n"
        page += ".SH NAME\n\(Self.escape(fileName.dropLast(2))) \\- \(Self.escape(configuration.abstract))\n"
        page += ".SH SYNOPSIS\n.B \(Self.escape(name))\n"
        let usage = InstallTop.usageString(for: command).split(separator: " ").dropFirst(path.count + 1).joined(separator: " ")
        if !usage.isEmpty { page += Self.escape(usage) + "\n" }
        page += ".SH DESCRIPTION\n" + Self.paragraphs(configuration.discussion.isEmpty ? configuration.abstract : configuration.discussion)
        for section in helpSections where section.title != "SUBCOMMANDS" {
            page += ".SH \(Self.escape(section.title))\n"
            for item in section.items {
                page += ".TP\n.B \(Self.escape(item.label))\n" + Self.paragraphs(item.text)
            }
        }
        let subcommands = configuration.subcommands.filter { $0.configuration.shouldDisplay }
        if !subcommands.isEmpty {
            page += ".SH COMMANDS\n"
            for subcommand in subcommands {
                let subpage = ManualPage(path: path + [subcommand._commandName], command: subcommand)
                page += ".TP\n.B \(Self.escape(subcommand._commandName))\n"
                page += Self.escape(subcommand.configuration.abstract) + " See\n.BR \(Self.escape(subpage.fileName.dropLast(2))) (1).\n"
            }
        }
        if let statuses = (command as? any DocumentedExitStatuses.Type)?.exitStatuses ?? ManualExitStatuses.of(path.joined(separator: " ")) {
            page += ".SH EXIT STATUS\n"
            for (status, meaning) in statuses {
                page += ".TP\n.B \(status)\n\(Self.escape(meaning))\n"
            }
        }
        var seeAlso = [".BR installtop (1)"]
        if path.count > 1 { seeAlso.append(".BR \(Self.escape((["installtop"] + path.dropLast()).joined(separator: "."))) (1)") }
        seeAlso += subcommands.map { ".BR \(Self.escape((["installtop"] + path + [$0._commandName]).joined(separator: "."))) (1)" }
        return page + ".SH SEE ALSO\n" + seeAlso.joined(separator: ",\n") + "\n"
    }

    /// The sections of the command's help after its usage (`OPTIONS:` …), each item a label
    /// (`-i, --inventory <inventory>`) and its text.
    private var helpSections: [(title: String, items: [(label: String, text: String)])] {
        var sections: [(title: String, items: [(label: String, text: String)])] = []
        for line in InstallTop.helpMessage(for: command, columns: 100_000).split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", line.hasSuffix(":") {
                sections.append((String(line.dropLast()), []))
            } else if line.hasPrefix("  "), !line.hasPrefix("   "), !sections.isEmpty {
                // The label is the names and value placeholders (`-i, --inventory <inventory>`);
                // the text follows on the line (one space after a label that fills its column),
                // or below it.
                let words = line.split(separator: " ")
                let label = words.prefix { $0.hasPrefix("-") || $0.hasPrefix("<") || $0 == "..." }
                sections[sections.count - 1].items.append((label.joined(separator: " "), words.dropFirst(label.count).joined(separator: " ")))
            } else if line.hasPrefix("   "), let last = sections.last?.items.last {
                let more = trimmed(line)
                sections[sections.count - 1].items[sections[sections.count - 1].items.count - 1].text = last.text.isEmpty ? more : last.text + "\n" + more
            }
        }
        return sections.filter { !["OVERVIEW", "USAGE"].contains($0.title) && !$0.items.isEmpty }
    }

    private func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// `text`'s lines, each a paragraph of the page (blank lines dropped).
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n").map { escape($0) }.joined(separator: "\n.PP\n") + "\n"
    }

    /// `text` safe in man(7): backslashes and hyphens escaped, characters beyond ASCII as
    /// `\[u2014]` (troff reads bytes), a line that would read as a request (a leading `.` or
    /// `'`) guarded.
    static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
