import TegulaWarp

/// The stages of a map, in order.
public enum Stage: String, Sendable, CaseIterable, Codable {
    case georeference, warp, tile
}

/// What a stage knows before it runs, computed without writing anything: the hash of everything
/// it reads, whether its recorded outputs already match it, one line for the plan, and what the
/// next stage needs from it.
struct PlannedStage {
    /// Which stage.
    var stage: Stage
    /// The manifest key its record goes under (`tile`, or `composite-tiles`).
    var key: String
    /// SHA-256 over its inputs, options and the previous stage's hash.
    var hash: String
    /// True when the manifest records this hash and the outputs still exist (or, in a run, once
    /// the stage has run).
    var current: Bool
    /// One line for the plan: what it reads and would write.
    var detail: String
    /// The line logged when the stage is skipped as unchanged.
    var skippedDetail: String
    /// For the next stage: the scan as the warp will see it (its header only), whether it comes
    /// from the recorded georeference, and the warp zoom.
    var source: WarpSource? = nil
    var sourceIsRecorded = false
    var zoom: Int? = nil
}

/// One stage of one map, defined next to its own spec. The runner and the dry-run planner are
/// two folds over the same list of stages (``MapWork/steps``): both call ``plan(after:in:)``;
/// only the runner calls ``run(_:in:)``.
protocol MapStage {
    /// Which stage this is.
    var stage: Stage { get }
    /// Hash, currency and description, from the previous stage's plan (nil for the first).
    func plan(after previous: PlannedStage?, in work: MapWork) throws -> PlannedStage
    /// Do the work the plan describes and record it; returns the log line.
    func run(_ plan: PlannedStage, in work: MapWork) throws -> String
}
