/// Why an upgrade leaves an installed package at its version although a newer one is known.
public enum HeldBackReason: Sendable, Hashable {
    /// dpkg's selection is `hold` (`apt-mark hold`).
    case held
    /// apt's policy (a preferences file) makes a version older than the newest its candidate.
    case pinned
    /// The new version is phased (`Phased-Update-Percentage`) and this machine is not yet in
    /// its share: `percentage` as apt's policy shows it, when it shows one.
    case phased(percentage: Int?)
    /// `dist-upgrade` would upgrade it, removing these packages; `upgrade` never removes.
    case wouldRemove([String])
    /// `dist-upgrade` would upgrade it, installing these packages not installed now.
    case needsNewPackages([String])
    /// apt keeps it back and `dist-upgrade` would not upgrade it either (its dependencies
    /// cannot be met with what the lists offer).
    case keptBack

    /// The reason's name in JSON: `held`, `pinned`, `phased`, `would-remove`,
    /// `needs-new-packages`, `kept-back`.
    public var name: String {
        switch self {
        case .held: "held"
        case .pinned: "pinned"
        case .phased: "phased"
        case .wouldRemove: "would-remove"
        case .needsNewPackages: "needs-new-packages"
        case .keptBack: "kept-back"
        }
    }

    /// The packages the reason names: those `dist-upgrade` would remove or newly install.
    public var packages: [String] {
        switch self {
        case .wouldRemove(let packages), .needsNewPackages(let packages): packages
        case .held, .pinned, .phased, .keptBack: []
        }
    }

    /// How the reason reads after the package: `held`, `pinned`, `phased (40 %)`, `would remove
    /// lab-old, lab-older`, `needs new packages: lab-lib`, `kept back by apt`.
    public var text: String {
        switch self {
        case .held: "held"
        case .pinned: "pinned"
        case .phased(let percentage): percentage.map { "phased (\($0) %)" } ?? "phased"
        case .wouldRemove(let packages): "would remove " + packages.joined(separator: ", ")
        case .needsNewPackages(let packages): "needs new packages: " + packages.joined(separator: ", ")
        case .keptBack: "kept back by apt"
        }
    }
}
