/// How a child's file descriptor 3 is read.
public enum ChannelFormat: Sendable, Hashable {
    /// The progress channel of PRODUCT.md (`progress N`, `message`, APT status lines …), parsed
    /// by `ProgressChannelParser`.
    case progressLines
    /// Every line as it is (`UpdateReport.channelLine`), for a driver that speaks its own
    /// protocol there (apt's Status-Fd, the driver protocol's JSON Lines).
    case raw
}
