import ArgumentParser
import Foundation
import TegulaPipeline
import TegulaSupport

extension Stage: ExpressibleByArgument {}

/// `tegula run`: every stage of a pipeline file, incrementally.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline file: georeference, warp and tile one or more scans.",
        discussion: """
        FILE is YAML (see pipelines/ and pipelines/schema.json): `version: 1`, then `maps:`, each \
        with a name, an input scan, a georeference section (GCPs or bounds), warp and tile options \
        and an output; optionally `composite:` to blend all maps into one pyramid. Relative paths \
        resolve against FILE's folder. Stage outputs and a manifest of content hashes go to the \
        work folder (default .tegula/<file name>/<map name>/ beside FILE); a stage whose inputs \
        and options are unchanged is skipped. A failing map is named, the others finish, and the \
        exit code is 1.
        """)

    @Argument(help: "The pipeline file (YAML).")
    var file: String

    @Option(help: "Run only this stage (georeference, warp or tile), reading the previous stage's recorded output.")
    var stage: Stage?

    @Flag(help: "Check the file and print the plan (stages, zooms, tile counts, outputs); write nothing.")
    var dryRun = false

    @Flag(help: "Rerun stages even when their inputs and options are unchanged.")
    var force = false

    @OptionGroup var workers: WorkerOptions

    func run() throws {
        try reportingErrors {
            let pipeline = try Pipeline.load(path: file)
            let options = RunOptions(stage: stage, force: force, jobs: workers.jobs)
            if dryRun {
                let plan = PipelinePlan(pipeline: pipeline, options: options)
                print(plan.text)
                if plan.hasErrors { throw CLIFailure(message: "\(file): some maps cannot run (see above)") }
                return
            }
            let quiet = workers.quiet
            let reporters = Locked<[String: ProgressReporter]>([:])
            let runner = PipelineRunner(pipeline: pipeline, options: options, log: { line in
                reporters.withLock { r in r.values.forEach { $0.finish() }; r = [:] }
                printError("tegula: \(line)")
            }, progress: { label, done, total in
                let r = reporters.withLock { r in
                    if let e = r[label] { return e }
                    let e = ProgressReporter(label: label, quiet: quiet)
                    r[label] = e
                    return e
                }
                r.update(done: done, total: total, unit: label.hasSuffix("warp") ? "blocks" : "tiles")
            })
            try runner.run()
        }
    }
}
