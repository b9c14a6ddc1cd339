/// What a line of dpkg's output says of the package it is about (`APTRunState` gives output
/// lines to the package they name before the one Status-Fd says is current: the two come on
/// different pipes, and their order is not reliable under load).
enum DpkgOutputLine {
    /// apt hands dpkg many archives at once under numbered names (`00-lab-base_1.0_all.deb`).
    static func withoutArchiveNumber(_ name: String) -> String {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, name.dropFirst(digits.count).first == "-" else { return name }
        return String(name.dropFirst(digits.count + 1))
    }

    /// The package dpkg's output says it works on now: `Unpacking P (…) …`, `Setting up P (…)`,
    /// `Preparing to unpack …/P_1.0_all.deb`, `Selecting previously unselected package P.`,
    /// `Removing P (…)`, `Purging configuration files for P (…)`, `Processing triggers for P
    /// (…)`, `dpkg: error processing package P (…)`, `dpkg: dependency problems prevent
    /// configuration of P:`; `nil` for other lines.
    static func packageWorkedOn(in line: String) -> String? {
        for prefix in workPrefixes where line.hasPrefix(prefix) {
            let word = line.dropFirst(prefix.count).prefix { $0 != " " && $0 != ":" }
            return String(word.hasSuffix(".") ? word.dropLast() : word)
        }
        if line.hasPrefix("Preparing to unpack "), let slash = line.lastIndex(of: "/") {
            return String(line[line.index(after: slash)...].prefix { $0 != "_" })
        }
        return nil
    }

    private static let workPrefixes = [
        "Unpacking ", "Setting up ", "Selecting previously unselected package ", "Removing ", "Purging configuration files for ",
        "Processing triggers for ", "dpkg: error processing package ", "dpkg: dependency problems prevent configuration of ",
    ]

    /// The package a maintainer script's line names as its speaker (`P: cannot start
    /// P.service`): the word before the line's first `:`, when it has no blank; `nil` otherwise.
    static func packageSpeaking(in line: String) -> String? {
        let bytes = line.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex else { return nil }
        let word = bytes[..<colon]
        return word.contains(UInt8(ascii: " ")) ? nil : String(Substring(word))
    }
}
