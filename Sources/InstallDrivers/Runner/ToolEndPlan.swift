import InstallEngine

/// What a translator's end decided on values (`LineTranslator.end`): the reports to say now,
/// then the one piece of blocking work `LineDriverRunner` carries out next
/// (`LineTranslator.perform`), whose finding the translator decides on again. Without work the
/// end is over: the driver's outcome settles after the reports.
struct ToolEndPlan<Work: Sendable>: Sendable {
    var reports: [DriverReport] = []
    var work: Work?
}
