import TegulaGeometry

/// A map's `georeference.match:`: the reference alone (`match: REF`), or with the area a bare XYZ
/// URL template is read over (`match: {reference: URL, reference_bounds: [w, s, e, n]}`, in
/// degrees, as `tegula match --reference-bounds`, checked by ``GeoBounds/init(validating:)``).
struct MatchSpec: Sendable, Hashable, Codable, StrictDecodable {
    /// The reference: a path or a URL.
    var reference: String
    /// The area the scan shows, for a bare template.
    var bounds: GeoBounds?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case reference, bounds = "reference_bounds"
    }

    init(reference: String, bounds: GeoBounds?) {
        self.reference = reference
        self.bounds = bounds
    }

    init(from decoder: Decoder) throws {
        if let reference = try? decoder.singleValueContainer().decode(String.self) {
            self.init(reference: reference, bounds: nil)
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let reference = try c.decode(String.self, forKey: .reference)
        let list = try c.decodeIfPresent([Double].self, forKey: .bounds)
        let bounds = list.flatMap { GeoBounds(validating: $0) }
        if list != nil, bounds == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .bounds, in: c,
                debugDescription:
                    "reference_bounds must be [west, south, east, north] in degrees, west < east, south < north, e.g. [4.5, 52.2, 5.1, 52.6]")
        }
        self.init(reference: reference, bounds: bounds)
    }

    /// A reference alone as its string, as written; with bounds as the mapping.
    func encode(to encoder: Encoder) throws {
        guard let b = bounds else {
            var one = encoder.singleValueContainer()
            try one.encode(reference)
            return
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(reference, forKey: .reference)
        try c.encode([b.west, b.south, b.east, b.north], forKey: .bounds)
    }
}
