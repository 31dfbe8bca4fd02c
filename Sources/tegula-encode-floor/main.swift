// The encode floor for scripts/bench and scripts/bench-webp: the PNG tiles of a folder decoded
// first (not timed), then encoded alone on `jobs` threads — as PNG as `tegula tile` encodes them
// at the least (libdeflate level 1, the Up filter, RGB when opaque), or with `webp EFFORT` as
// lossless WebP from their RGBA pixels as `tegula tile --format webp` encodes them (`exact` also
// keeps the colour under fully transparent pixels). Prints "tiles bytes wall_s cpu_s".
// Usage: tegula-encode-floor FOLDER [JOBS [webp EFFORT [exact]]]
import Foundation
import TegulaCodec

let args = CommandLine.arguments
let usage = "usage: tegula-encode-floor FOLDER [JOBS [webp EFFORT [exact]]]\n"
guard args.count >= 2 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let jobs = args.count > 2 ? max(1, Int(args[2]) ?? 2) : 2
/// Lossless WebP at this effort, or nil for PNG.
var webp: WebPEncoder? = nil
if args.count > 3 {
    guard args[3] == "webp", args.count > 4, let e = Int(args[4]), (0...9).contains(e),
        args.count == 5 || (args.count == 6 && args[5] == "exact")
    else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    webp = WebPEncoder(losslessEffort: e, keepsTransparentColour: args.count == 6)
}
var images: [RGBAImage] = []
let fm = FileManager.default
let root = URL(fileURLWithPath: args[1])
if let walk = fm.enumerator(at: root, includingPropertiesForKeys: nil) {
    for case let url as URL in walk where url.pathExtension == "png" {
        let image = try PNGDecoder.decode([UInt8](try Data(contentsOf: url)))
        // `tegula tile --format webp` hands libwebp RGBA tiles, opaque or not.
        images.append(webp == nil ? image : image.rgba)
    }
}
/// Bytes written per thread, each thread its own slot.
final class Totals: @unchecked Sendable {
    let slots: UnsafeMutablePointer<Int>
    let count: Int
    init(_ n: Int) { count = n; slots = .allocate(capacity: n); slots.initialize(repeating: 0, count: n) }
    var sum: Int { (0..<count).reduce(0) { $0 + slots[$1] } }
}

/// Encode every image on `jobs` threads, as PNG or with `webp`; returns the bytes written.
func encodeAll(_ images: [RGBAImage], jobs: Int, webp: WebPEncoder?) -> Int {
    let totals = Totals(jobs)
    let slice = (images.count + jobs - 1) / jobs
    let failed = Totals(1)
    DispatchQueue.concurrentPerform(iterations: jobs) { j in
        let png = PNGEncoder(level: 1, filter: .up)
        var total = 0
        for i in stride(from: j * slice, to: min(images.count, (j + 1) * slice), by: 1) {
            if let webp {
                guard let bytes = try? webp.encode(images[i]) else { failed.slots[0] = 1; return }
                total += bytes.count
            } else {
                total += png.encodeDroppingOpaqueAlpha(images[i]).count
            }
        }
        totals.slots[j] = total
    }
    guard failed.sum == 0 else {
        FileHandle.standardError.write(Data("tegula-encode-floor: a WebP encode failed\n".utf8))
        exit(1)
    }
    return totals.sum
}

let cpuStart = clock()
let start = Date()
let bytes = encodeAll(images, jobs: jobs, webp: webp)
let wall = Date().timeIntervalSince(start)
let cpu = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
print(images.count, bytes, String(format: "%.3f %.3f", wall, cpu))
