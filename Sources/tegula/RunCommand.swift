import ArgumentParser
import Foundation
import TegulaCluster
import TegulaPipeline
import TegulaSupport

/// `--stage`: one of a map's stages, or the reduce that merges the shards' composite parts.
enum RunStage: ExpressibleByArgument, Equatable {
    case map(Stage)
    case reduce

    init?(argument: String) {
        if argument == "reduce" { self = .reduce } else if let s = Stage(rawValue: argument) { self = .map(s) } else { return nil }
    }

    static var allValueStrings: [String] { Stage.allCases.map(\.rawValue) + ["reduce"] }
}

/// `--shard`: `I/N`, or `auto` to read the index and count an engine's array job sets.
enum ShardChoice: ExpressibleByArgument {
    case fixed(Shard)
    case auto

    init?(argument: String) {
        if argument == "auto" { self = .auto } else if let s = try? Shard.parse(argument) { self = .fixed(s) } else { return nil }
    }
}

/// `tegula run`: every stage of a pipeline file, incrementally; on many machines, one shard each.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline file: georeference, warp and tile one or more scans.",
        discussion: """
            FILE is YAML (see pipelines/ and pipelines/schema.json): `version: 1`, then `maps:` (each \
            with a name, an input scan, a georeference section, warp and tile options and an output) \
            and/or `maps_from:` (a CSV sheet list, a glob of scans, or an AnnotationPage of \
            Georeference Annotations, a file or URL, each annotation a map named by its id's last \
            path component), `map_defaults:` merged under every map, and optionally `composite:` to blend all maps into one pyramid. Relative paths \
            resolve against FILE's folder. Stage outputs and a manifest of content hashes go to the \
            work folder (default .tegula/<file name>/<map name>/ beside FILE); a stage whose inputs \
            and options are unchanged is skipped. A failing map is named, the others finish, and the \
            exit code is 1. An input may be an IIIF image service URL (with GCPs) or a Georeference \
            Annotation (a file or URL) whose target is one: its tiles are fetched as the warp needs \
            them (--iiif-cache), and a rerun compares the image's info.json and the annotation, not \
            its pixels.

            A map series: `ties:` joins sheets (hand ties, `ties_from:` a ties file, or `ties: auto` \
            to find them by matching every overlap), a sheet with `gcps: none` is placed by its ties \
            alone, and `composite: {tone: match}` evens the sheets' tones; the run writes a sheet \
            index (index.geojson) with each sheet's and each pair's figures. `quality:` (max_rmse_m, \
            max_loo_m, max_seam_m, max_place_se_m, max_distortion; on_fail: skip or stop) holds each \
            sheet to those limits and leaves out (skip, the default) or stops on (stop) a sheet that \
            fails. See docs/pipelines-and-collections.md.

            Many machines: run `tegula run FILE --shard I/N` (or `--shard auto` in a Slurm array, a \
            Kubernetes Indexed Job with --shards N, or an AWS Batch array job) once per index with the \
            work folder on a shared file system, then `tegula run FILE --stage reduce` once. Every \
            shard computes the same plan from FILE; `--dry-run --shards N` prints it.
            """)

    @Argument(help: "The pipeline file (YAML).")
    var file: String

    @Option(
        help:
            "Run only this stage (georeference, warp or tile), reading the previous stage's recorded output; or `reduce`: merge the shards' composite parts."
    )
    var stage: RunStage?

    @Option(
        help:
            "Run only shard I of N (I counts from 0): its maps and its part of the composite. `auto`: the index and count of the engine's array job (Slurm, Kubernetes Indexed Job, AWS Batch)."
    )
    var shard: ShardChoice?

    @Option(
        help:
            "The shard count: for --shard auto where the engine does not say it (Kubernetes), for --dry-run to print the plan for N shards, or for --stage reduce."
    )
    var shards: Int?

    @Flag(help: "Check the file and print the plan (stages, zooms, tile counts, outputs; with --shards N the shard plan); write nothing.")
    var dryRun = false

    @Flag(help: "Rerun stages even when their inputs and options are unchanged.")
    var force = false

    @OptionGroup var workers: WorkerOptions

    @OptionGroup var iiif: IIIFOptions

    func validate() throws {
        if let shards, !(1...Shard.maxCount).contains(shards) {
            throw ValidationError("--shards must be 1 to \(Shard.maxCount), not \(shards)")
        }
        if stage == .reduce, shard != nil { throw ValidationError("--stage reduce merges every shard's part: give it no --shard") }
        if case .fixed(let s)? = shard, let shards, shards != s.count {
            throw ValidationError("--shard \(s) is of \(s.count) shards but --shards says \(shards)")
        }
    }

    func run() throws {
        try reportingErrors {
            let quiet = workers.quiet
            let reporters = Locked<[String: ProgressReporter]>([:])
            let progress: @Sendable (String, Int, Int) -> Void = { label, done, total in
                let r = reporters.withLock { r in
                    if let e = r[label] { return e }
                    let e = ProgressReporter(label: label, quiet: quiet)
                    r[label] = e
                    return e
                }
                let unit = label.hasSuffix("warp") ? "blocks" : label.hasPrefix("composite") ? "steps" : label.hasPrefix("ties") ? "matches" : "tiles"
                r.update(done: done, total: total, unit: unit)
            }
            let pipeline = try Pipeline.load(path: file, inputs: iiif.inputs(), jobs: workers.jobs, dryRun: dryRun, progress: progress)
            reporters.withLock { r in
                r.values.forEach { $0.finish() }; r = [:]
            }
            var chosen: Shard?
            switch shard {
            case .fixed(let s)?: chosen = s
            case .auto?:
                let (s, engine) = try Shard.fromEngine(ProcessInfo.processInfo.environment, shards: shards)
                printError("tegula: shard \(s) from \(engine)")
                chosen = s
            case nil: chosen = nil
            }
            let mapStage: Stage? = {
                if case .map(let s)? = stage { return s }; return nil
            }()
            let options = RunOptions(stage: mapStage, force: force, jobs: workers.jobs, shard: chosen)
            if dryRun {
                if stage == .reduce {
                    let runner = PipelineRunner(pipeline: pipeline, options: options, log: { _ in })
                    print(try runner.checkReduce(shards: shards))
                    print("dry run: nothing was written")
                    return
                }
                let plan = PipelinePlan(pipeline: pipeline, options: options, shards: shards)
                print(plan.text)
                if plan.hasErrors { throw CLIFailure.mapsCannotRun(file) }
                return
            }
            let runner = PipelineRunner(
                pipeline: pipeline, options: options,
                log: { line in
                    reporters.withLock { r in
                        r.values.forEach { $0.finish() }; r = [:]
                    }
                    printError("tegula: \(line)")
                },
                progress: progress)
            if stage == .reduce {
                try runner.reduce(shards: shards)
            } else {
                try runner.run()
            }
        }
    }
}
