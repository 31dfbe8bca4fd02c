/// Allmaps' names for Tegula's transforms (`transformation` of a Georeference Annotation's body
/// or of a GeoreferencedMap): one table, read by the Allmaps readers and written by
/// ``GCPWriter/allmapsAnnotation(_:crs:notes:transform:mask:scanPath:service:serviceType:width:height:)``.
enum AllmapsTransformation {
    /// Every transform with Allmaps' `type` and, for a polynomial, its `options.order`.
    static let table: [(kind: TransformKind, type: String, order: Int?)] = [
        (.helmert, "helmert", nil),
        (.polynomial1, "polynomial", 1),
        (.polynomial2, "polynomial", 2),
        (.polynomial3, "polynomial", 3),
        (.projective, "projective", nil),
        (.tps, "thinPlateSpline", nil),
        (.straight, "straight", nil),
    ]

    /// `{type, options: {order}}` for `kind`, as Allmaps writes it.
    static func json(_ kind: TransformKind) -> [String: Any] {
        let entry = table.first { $0.kind == kind }!
        guard let order = entry.order else { return ["type": entry.type] }
        return ["type": entry.type, "options": ["order": order]]
    }

    /// The transform a `transformation` value names: `{type, options: {order}}` (order 1 when
    /// absent) or the bare name Allmaps also accepts ("thinPlateSpline", "polynomial2", read by
    /// ``TransformKind/init(name:)``); nil for anything unknown.
    static func kind(_ value: Any?) -> TransformKind? {
        if let name = value as? String { return TransformKind(name: name) }
        guard let t = value as? [String: Any], let type = t["type"] as? String else { return nil }
        if type == "polynomial" {
            let order = ((t["options"] as? [String: Any])?["order"]).flatMap(AllmapsReader.number) ?? 1
            guard order.isFinite, abs(order) < 1000 else { return nil }
            return table.first { $0.type == type && $0.order == Int(order) }?.kind
        }
        return table.first { $0.type == type && $0.order == nil }?.kind ?? TransformKind(name: type)
    }
}
