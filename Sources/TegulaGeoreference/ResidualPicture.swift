import Foundation
import TegulaGDAL
import TegulaSupport

/// The SVG a person looks at instead of the residual table: the scan (downscaled, embedded as
/// JPEG), the mask, every GCP with its residual (red) and leave-one-out error (blue) drawn as
/// arrows scaled up by one stated factor, and a legend in a strip below the scan.
struct ResidualPicture {
    let imagePath: String
    let georeference: Georeference
    /// Longest side of the embedded image, in pixels.
    var maxSide = 1200
    /// How the scan is read when GDAL cannot read it (an IIIF image); nil reads `imagePath`.
    var reader: GeoreferenceWriter.ScanThumbnail? = nil

    func svg() throws -> String {
        let r = georeference.report
        let w = Double(r.imageWidth), h = Double(r.imageHeight)
        let thumb = try thumbnail()
        let unit = max(w, h) / 600  // one "screen pixel" of the picture, in source pixels
        // Arrow scale: the longest arrow about 8% of the longer side, rounded to 1, 2 or 5 × 10^k.
        let longest = r.gcps.flatMap { [$0.residualPixels, $0.leaveOneOutPixels ?? 0] }.filter(\.isFinite).max() ?? 0
        let scale = longest > 0 ? Self.nice(0.08 * max(w, h) / longest) : 1
        // The legend is a strip below the scan, so it never hides a GCP.
        let (legendSVG, legendHeight) = legend(scale: scale, unit: unit, top: h, width: w)
        let total = h + legendHeight
        let pictureHeight = Int((Double(thumb.height) * total / h).rounded())
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 \(w) \(Self.f(total))" width="\(thumb.width)" height="\(pictureHeight)">
            <defs>
            <marker id="red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#e0201c"/></marker>
            <marker id="blue" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1c5ce0"/></marker>
            </defs>
            <image x="0" y="0" width="\(w)" height="\(h)" preserveAspectRatio="none" xlink:href="data:image/jpeg;base64,\(Data(thumb.jpeg).base64EncodedString())"/>

            """
        if let mask = georeference.gcps.mask, mask.count >= 3 {
            let pts = mask.map { "\(Self.f($0.x)),\(Self.f($0.y))" }.joined(separator: " ")
            s += "<polygon points=\"\(pts)\" fill=\"none\" stroke=\"#f0c000\" stroke-width=\(q(2 * unit)) stroke-dasharray=\(q(6 * unit))/>\n"
        }
        for g in r.gcps {
            let x = g.pixel[0], y = g.pixel[1]
            s += arrow(x, y, g.residualPixelVector, scale, "red", unit)
            if let v = g.leaveOneOutPixelVector { s += arrow(x, y, v, scale, "blue", unit) }
            let colour = !g.enabled ? "#888888" : g.outlier ? "#ff00ff" : "#ffffff"
            s += "<circle cx=\(q(x)) cy=\(q(y)) r=\(q(4 * unit)) fill=\"none\" stroke=\"\(colour)\" stroke-width=\(q(1.5 * unit))/>\n"
            s +=
                "<text x=\(q(x + 5 * unit)) y=\(q(y - 5 * unit)) font-size=\(q(11 * unit)) font-family=\"sans-serif\" fill=\"\(colour)\" stroke=\"#000\" stroke-width=\(q(0.3 * unit))>\(XMLText.escape(g.id))</text>\n"
        }
        s += legendSVG
        return s + "</svg>\n"
    }

    func arrow(_ x: Double, _ y: Double, _ v: [Double], _ scale: Double, _ colour: String, _ unit: Double) -> String {
        guard v.count == 2, v[0].isFinite, v[1].isFinite, hypot(v[0], v[1]) * scale > unit else { return "" }
        let hex = colour == "red" ? "#e0201c" : "#1c5ce0"
        return
            "<line x1=\(q(x)) y1=\(q(y)) x2=\(q(x + v[0] * scale)) y2=\(q(y + v[1] * scale)) stroke=\"\(hex)\" stroke-width=\(q(2 * unit)) marker-end=\"url(#\(colour))\"/>\n"
    }

    /// The legend as a strip `width` wide from `top` down, and its height.
    func legend(scale: Double, unit: Double, top: Double, width: Double) -> (svg: String, height: Double) {
        let r = georeference.report
        func figure(_ e: RMSE) -> String {
            guard let m = e.metres, let p = e.pixels else { return "not computable" }
            return String(format: "RMSE %.1f px, %.0f m", p, m)
        }
        let lines = [
            "\(r.transform.rawValue) fitted in \((try? CRS(r.fitSRS))?.label ?? r.fitSRS), \(r.rmse.divisor) GCPs",
            "red: residual × \(Self.f(scale)) (\(figure(r.rmse)))",
            "blue: leave-one-out error × \(Self.f(scale)) (\(figure(r.leaveOneOutRMSE)))",
            "white: GCP, magenta: likely outlier, grey: disabled, yellow: mask",
        ]
        // Text at most 12 picture pixels high, smaller when the longest line would not fit.
        let longest = Double(lines.map(\.count).max() ?? 1)
        let pad = 6 * unit, size = min(12 * unit, (width - 2 * pad) / (longest * 0.55))
        let height = Double(lines.count) * size * 1.4 + 2 * pad
        var s = "<rect x=\"0\" y=\(q(top)) width=\(q(width)) height=\(q(height)) fill=\"#222\"/>\n"
        for (i, line) in lines.enumerated() {
            s +=
                "<text x=\(q(pad)) y=\(q(top + pad + size * (1.4 * Double(i) + 1))) font-size=\(q(size)) font-family=\"sans-serif\" fill=\"#fff\">\(XMLText.escape(line))</text>\n"
        }
        return (s, height)
    }

    /// The scan scaled to at most `maxSide`, as JPEG bytes.
    func thumbnail() throws -> (jpeg: [UInt8], width: Int, height: Int) {
        if let reader {
            let (w, h) = (georeference.imageWidth, georeference.imageHeight)
            let f = min(1, Double(maxSide) / Double(max(w, h)))
            let tw = max(1, Int((Double(w) * f).rounded())), th = max(1, Int((Double(h) * f).rounded()))
            let px = try reader(tw, th)
            let jpeg = try px.withUnsafeBufferPointer { p in
                try Dataset.encode(pixels: p.baseAddress!, width: tw, height: th, bands: 3, driver: "JPEG", options: ["QUALITY=80"])
            }
            return (jpeg, tw, th)
        }
        let ds = try Dataset(path: imagePath)
        let f = min(1, Double(maxSide) / Double(max(ds.width, ds.height)))
        let tw = max(1, Int((Double(ds.width) * f).rounded())), th = max(1, Int((Double(ds.height) * f).rounded()))
        let bands = ds.bandCount >= 3 ? [1, 2, 3] : [1]
        var px = [UInt8](repeating: 0, count: tw * th * bands.count)
        try px.withUnsafeMutableBufferPointer { p in
            try ds.readBytes(
                x: 0, y: 0, width: ds.width, height: ds.height, bufferWidth: tw, bufferHeight: th,
                bands: bands, resampling: .average, into: p.baseAddress!)
        }
        let jpeg = try px.withUnsafeBufferPointer { p in
            try Dataset.encode(
                pixels: p.baseAddress!, width: tw, height: th, bands: bands.count,
                driver: "JPEG", options: ["QUALITY=80"])
        }
        return (jpeg, tw, th)
    }

    /// 1, 2 or 5 × 10^k at or below `v`.
    static func nice(_ v: Double) -> Double {
        let e = pow(10, floor(log10(v)))
        return [5, 2, 1].map { $0 * e }.first { $0 <= v } ?? e
    }

    func q(_ v: Double) -> String { "\"\(Self.f(v))\"" }
    static func f(_ v: Double) -> String { String(format: "%.6g", v) }
}
