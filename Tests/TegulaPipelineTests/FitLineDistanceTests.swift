import Testing

@testable import TegulaPipeline

/// The fit line a run logs for each sheet gives its leave-one-out RMSE as a person reads it.
@Suite struct FitLineDistanceTests {
    /// A sheet placed by its ties is typically tens of metres off: the line said "0 km".
    @Test func metresUnderTenKilometresAndKilometresAbove() {
        #expect(GCPGeoreferencing.distance(80.4) == "80 m")
        #expect(GCPGeoreferencing.distance(9_999) == "9999 m")
        #expect(GCPGeoreferencing.distance(10_000) == "10 km")
        #expect(GCPGeoreferencing.distance(1_234_567) == "1235 km")
    }
}
