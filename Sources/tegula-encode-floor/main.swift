// The encode floor for scripts/bench: the PNG tiles of a folder decoded first (not timed), then
// encoded alone as `tegula tile` would encode them at the least (libdeflate level 1, the Up filter,
// RGB when opaque), on `jobs` threads. Prints "tiles bytes wall_s cpu_s".
// Usage: tegula-encode-floor FOLDER [JOBS]
import Foundation
import TegulaCodec

let args = CommandLine.arguments
guard args.count >= 2 else {
    FileHandle.standardError.write(Data("usage: tegula-encode-floor FOLDER [JOBS]\n".utf8))
    exit(2)
}
let jobs = args.count > 2 ? max(1, Int(args[2]) ?? 2) : 2
var images: [RGBAImage] = []
let fm = FileManager.default
let root = URL(fileURLWithPath: args[1])
if let walk = fm.enumerator(at: root, includingPropertiesForKeys: nil) {
    for case let url as URL in walk where url.pathExtension == "png" {
        images.append(try PNGDecoder.decode([UInt8](try Data(contentsOf: url))))
    }
}
/// Bytes written per thread, each thread its own slot.
final class Totals: @unchecked Sendable {
    let slots: UnsafeMutablePointer<Int>
    let count: Int
    init(_ n: Int) { count = n; slots = .allocate(capacity: n); slots.initialize(repeating: 0, count: n) }
    var sum: Int { (0..<count).reduce(0) { $0 + slots[$1] } }
}

/// Encode every image on `jobs` threads; returns the bytes written.
func encodeAll(_ images: [RGBAImage], jobs: Int) -> Int {
    let totals = Totals(jobs)
    let slice = (images.count + jobs - 1) / jobs
    DispatchQueue.concurrentPerform(iterations: jobs) { j in
        let encoder = PNGEncoder(level: 1, filter: .up)
        var total = 0
        for i in stride(from: j * slice, to: min(images.count, (j + 1) * slice), by: 1) {
            total += encoder.encodeDroppingOpaqueAlpha(images[i]).count
        }
        totals.slots[j] = total
    }
    return totals.sum
}

let cpuStart = clock()
let start = Date()
let bytes = encodeAll(images, jobs: jobs)
let wall = Date().timeIntervalSince(start)
let cpu = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
print(images.count, bytes, String(format: "%.3f %.3f", wall, cpu))
