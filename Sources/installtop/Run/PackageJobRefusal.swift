/// apt refused a manifest's package job while it was being planned: nothing ran (exit 2).
struct PackageJobRefusal: Error {
    /// `FILE:LINE: job `name`: apt install x: nothing was run:` and apt's words.
    var message: String
}
