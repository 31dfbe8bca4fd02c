import Foundation
import Testing

@testable import TegulaGeoreference

/// The residual picture's legend is a strip below the scan: it never hides a GCP, and its text
/// shrinks to fit a narrow scan.
struct ResidualPictureTests {
    static func picture(width: Int, height: Int) throws -> ResidualPicture {
        let set = GeoreferenceFixtures.synthetic(8, width: width, height: height)
        let g = try Georeferencer.fit(set, imageWidth: width, imageHeight: height, options: FitOptions(transform: .polynomial1))
        return ResidualPicture(imagePath: "/nonexistent", georeference: g)
    }

    /// The numbers of attribute `name` in the SVG, in order.
    static func numbers(_ svg: String, _ name: String) -> [Double] {
        svg.components(separatedBy: " \(name)=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
    }

    @Test(arguments: [(1200, 900), (300, 2000)])
    func legendIsBelowTheScanAndFitsItsWidth(size: (Int, Int)) throws {
        let (w, h) = size
        let p = try Self.picture(width: w, height: h)
        let unit = Double(max(w, h)) / 600
        let (svg, height) = p.legend(scale: 2, unit: unit, top: Double(h), width: Double(w))
        #expect(height > 0)
        #expect(Self.numbers(svg, "y").allSatisfy { $0 >= Double(h) }, "legend above the bottom of the scan")
        let fonts = Self.numbers(svg, "font-size")
        let longest = Double(svg.components(separatedBy: "</text>").dropLast().map { $0.split(separator: ">").last?.count ?? 0 }.max() ?? 0)
        #expect(!fonts.isEmpty && fonts.allSatisfy { $0 * 0.55 * longest <= Double(w) }, "text wider than the scan")
    }
}
