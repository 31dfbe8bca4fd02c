import TegulaSupport

/// One of N processes sharing a collection: `tegula run FILE --shard I/N` runs the maps and the
/// composite part the plan gives index I (0-based). Every shard computes the same
/// ``ShardPlan`` from the same file, so none needs a coordinator.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 0-based index, below ``count``.
    public let index: Int
    /// How many shards share the work.
    public let count: Int

    /// The largest shard count (AWS Batch arrays reach 10,000 children).
    public static let maxCount = 10_000

    /// A shard, or nil when the index is not in 0..<count or the count is out of range.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Shard.maxCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// The whole collection as one shard (a run on one machine).
    public static let single = Shard(index: 0, count: 1)!

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Parse `I/N` (0 ≤ I < N).
    public static func parse(_ text: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw ShardError(.badShard, "'\(text)' is not a shard; expected I/N, e.g. 3/16 (index from 0), or auto")
        }
        guard let s = Shard(index: i, count: n) else {
            throw ShardError(.badShard, "'\(text)': need 1 ≤ N ≤ \(maxCount) and 0 ≤ I < N (the index counts from 0)")
        }
        return s
    }

    /// The shard an engine's array job gives this process, from its environment: Slurm
    /// (`SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`), a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`; the count, the Job's `completions`, is not
    /// in the environment and comes from `shards`), or AWS Batch (`AWS_BATCH_JOB_ARRAY_INDEX`, of
    /// `AWS_BATCH_JOB_ARRAY_SIZE` or `shards`). `shards`, when given, must agree with the
    /// engine's count. Returns the shard and the engine.
    public static func fromEngine(_ environment: [String: String], shards: Int?) throws -> (shard: Shard, engine: ArrayEngine) {
        let engines = ArrayEngine.allCases.filter { environment[$0.indexVariable] != nil }
        guard let engine = engines.first else {
            throw ShardError(
                .noEngine,
                "--shard auto: no array index in the environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX "
                    + "or AWS_BATCH_JOB_ARRAY_INDEX); run in a Slurm array, a Kubernetes Indexed Job or an AWS Batch array job, or give --shard I/N")
        }
        guard engines.count == 1 else {
            throw ShardError(
                .badEnvironment, "--shard auto: both \(engines.map(\.indexVariable).joined(separator: " and ")) are set; give --shard I/N")
        }
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name] else { return nil }
            guard let v = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ShardError(.badEnvironment, "--shard auto: \(name)='\(text)' is not a whole number")
            }
            return v
        }
        let variable = engine.indexVariable
        var index = try number(variable)!
        let count: Int?
        switch engine {
        case .slurm:
            index -= try number("SLURM_ARRAY_TASK_MIN") ?? 0
            count = try number("SLURM_ARRAY_TASK_COUNT")
            if count == nil {
                throw ShardError(
                    .badEnvironment, "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (Slurm sets both for sbatch --array)"
                )
            }
        case .kubernetes:
            count = nil
        case .awsBatch:
            count = try number("AWS_BATCH_JOB_ARRAY_SIZE")
        }
        if let count, let shards, count != shards {
            throw ShardError(.badEnvironment, "--shard auto: \(engine) runs \(count) tasks but --shards says \(shards)")
        }
        guard let n = count ?? shards else {
            let hint = engine == .kubernetes ? "the Job's completions" : "the array size"
            throw ShardError(
                .badEnvironment, "--shard auto: \(engine) gives the index (\(variable)=\(index)) but not the count; pass --shards N (\(hint))")
        }
        guard let shard = Shard(index: index, count: n) else {
            throw ShardError(.badEnvironment, "--shard auto: \(engine) index \(index) is not in 0..<\(n) (an array must run indices MIN..MIN+N−1)")
        }
        return (shard, engine)
    }
}

/// A batch system whose array jobs give each process its index: the engines `--shard auto` reads.
public enum ArrayEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A Slurm job array (`sbatch --array`).
    case slurm = "Slurm"
    /// A Kubernetes Indexed Job.
    case kubernetes = "Kubernetes"
    /// An AWS Batch array job.
    case awsBatch = "AWS Batch"

    /// The variable that holds this process's index.
    public var indexVariable: String {
        switch self {
        case .slurm: return "SLURM_ARRAY_TASK_ID"
        case .kubernetes: return "JOB_COMPLETION_INDEX"
        case .awsBatch: return "AWS_BATCH_JOB_ARRAY_INDEX"
        }
    }

    /// The engine's name, as in messages: `Slurm`, `Kubernetes`, `AWS Batch`.
    public var description: String { rawValue }
}

/// A shard that cannot be named, a composite part the reduce refuses, or a part or composite
/// that cannot be written, as one line.
public typealias ShardError = LocatedError<ShardErrorReason>

/// The kinds of ShardError.
public enum ShardErrorReason: String, Sendable, Hashable {
    /// `--shard` is not I/N.
    case badShard
    /// `--shard auto` found no engine's array index.
    case noEngine
    /// The engine's variables are inconsistent or incomplete.
    case badEnvironment
    /// Parts of the composite are missing.
    case missingParts
    /// Two parts claim the same shard.
    case duplicateParts
    /// Parts hold overlapping tiles.
    case overlappingParts
    /// Parts were written for another plan (the file, its inputs or the shard count changed).
    case staleParts
    /// A part's tiles do not match its record.
    case corruptPart
    /// The pipeline has no composite to reduce.
    case noComposite
    /// A pack, or the merged composite, cannot be written or moved into place.
    case writeFailed
}
