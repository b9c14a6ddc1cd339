#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// What dnf's end work found (`DNFTranslator.perform`): what the rpm database holds of every
/// package of the plan (by `name.arch`, each version installed; `nil` when it could not be
/// read), and when it was read.
struct DNFEndFinding: Sendable {
    var installed: [String: [String]]?
    var readAt: Date
}
