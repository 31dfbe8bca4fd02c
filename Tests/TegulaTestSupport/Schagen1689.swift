/// The real scan of the tests: Schagen's map of the Netherlands of 1689 as Marble ships it
/// (Debian's marble-qt-data, a JPEG without georeference), and the project's GCPs for it.
public enum Schagen1689 {
    /// The JPEG.
    public static let scan = "/usr/share/marble/data/maps/earth/schagen1689/schagen1689.jpg"
    /// Its GCPs, a QGIS .points file committed at pipelines/schagen1689.points.
    public static let points = PackageRoot.path("pipelines/schagen1689.points")
}
