import InstallEngine

extension ManifestKindSection {
    /// The one request a package kind's section makes, of the `requests` its keys said (`install:
    /// […]`, `upgrade: true`, …): `nil` when the section has errors already, and when it made
    /// none or more than one, which is reported on the section (`expected one of VERBS in KIND;
    /// got none`).
    mutating func oneRequest<Request>(of requests: [Request], expecting verbs: String, in kind: String) -> Request? {
        guard !hasErrors else { return nil }
        guard requests.count == 1, let request = requests.first else {
            report("expected one of \(verbs) in \(kind); got \(requests.isEmpty ? "none" : "\(requests.count)")")
            return nil
        }
        return request
    }
}
