import TegulaGeometry

/// Something drawn over an area of the map (MapKit `MKOverlay`): a centre and a bounding rect.
public protocol MapOverlay {
    /// The overlay's centre (MapKit `coordinate`).
    var coordinate: Coordinate { get }
    /// The map rect that contains the whole overlay (MapKit `boundingMapRect`).
    var boundingMapRect: MapRect { get }
}

/// Something shown as a pin at one place (MapKit `MKAnnotation`).
public protocol MapAnnotation {
    /// Where the pin stands (MapKit `coordinate`).
    var coordinate: Coordinate { get }
    /// The pin's title, if any (MapKit `title`).
    var title: String? { get }
}

extension MapOverlay {
    /// True when the overlay's bounding rect overlaps `rect` (MapKit `intersects(_:)`).
    public func intersects(_ rect: MapRect) -> Bool { boundingMapRect.intersects(rect) }
}
