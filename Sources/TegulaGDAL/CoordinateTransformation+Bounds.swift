import CGDAL

extension CoordinateTransformation {
    /// The smallest box holding the image of a box under this transformation, each edge densified
    /// with `densify` points between its corners (OCTTransformBounds; PROJ's `proj_trans_bounds`,
    /// pyproj's `transform_bounds`, which morecantile takes a tile matrix set's geographic extent
    /// from with 21). Into a geographic CRS a box across the antimeridian comes back with left >
    /// right. Nil when PROJ cannot transform it.
    public func transformBounds(_ b: (left: Double, bottom: Double, right: Double, top: Double), densify: Int = 21)
        -> (left: Double, bottom: Double, right: Double, top: Double)?
    {
        var out = (left: 0.0, bottom: 0.0, right: 0.0, top: 0.0)
        let ok = OCTTransformBounds(handle, b.left, b.bottom, b.right, b.top, &out.left, &out.bottom, &out.right, &out.top, Int32(densify))
        CPLErrorReset()
        guard ok != 0, [out.left, out.bottom, out.right, out.top].allSatisfy(\.isFinite) else { return nil }
        return out
    }
}
