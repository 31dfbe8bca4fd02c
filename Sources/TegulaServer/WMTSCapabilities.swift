import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaTileset

/// The WMTS 1.0.0 capabilities document of `tegula serve` (OGC 07-057r7 §7.1.1,
/// `wmtsGetCapabilities_response.xsd`): each tileset a `Layer` in its tile matrix set with the
/// `TileMatrixSetLimits` of its tiles, a `ResourceURL` template for RESTful GetTile, and each
/// set used once as a `TileMatrixSet` (scale denominators, top-left corner in the CRS's axis
/// order, tile and matrix sizes). Elements in the schema's order, text XML-escaped.
struct WMTSCapabilities {
    /// The layers and their sets.
    let served: ServedLayers
    /// The base of every URL written (`http://host:port`, or `--public-url`).
    let baseURL: String

    /// The KVP endpoint (`/wmts`).
    var kvpURL: String { baseURL + "/wmts?" }

    /// A set WMTS 1.0.0 can describe: one whose rows all hold whole tiles of one width (no
    /// `variableMatrixWidths`, which came with TMS 2.0).
    static func describable(_ set: TileMatrixSet) -> Bool { set.tileMatrices.allSatisfy { $0.variableMatrixWidths == nil } }

    /// The document's bytes.
    var document: [UInt8] {
        let layers = served.layers.filter { Self.describable($0.grid.tileMatrixSet) }
        let sets = served.sets.filter(Self.describable)
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" \
            xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd" \
            version="1.0.0">
              <ows:ServiceIdentification>
                <ows:Title>tegula serve</ows:Title>
                <ows:ServiceType>OGC WMTS</ows:ServiceType>
                <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion>
              </ows:ServiceIdentification>
              <ows:ServiceProvider>
                <ows:ProviderName>Tegula</ows:ProviderName>
              </ows:ServiceProvider>
              <ows:OperationsMetadata>
            \(operation("GetCapabilities"))\(operation("GetTile"))  </ows:OperationsMetadata>
              <Contents>
            \(layers.map(layer).joined())\(sets.map { tileMatrixSet($0, upTo: Self.maxZoom(of: $0, layers)) }.joined())  </Contents>
              <ServiceMetadataURL xlink:href="\(x(baseURL + "/wmts/1.0.0/WMTSCapabilities.xml"))"/>
            </Capabilities>

            """.utf8)
    }

    /// An operation reached by KVP GET at ``kvpURL``.
    func operation(_ name: String) -> String {
        """
            <ows:Operation name="\(name)">
              <ows:DCP><ows:HTTP><ows:Get xlink:href="\(x(kvpURL))">
                <ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>KVP</ows:Value></ows:AllowedValues></ows:Constraint>
              </ows:Get></ows:HTTP></ows:DCP>
            </ows:Operation>

        """
    }

    /// One tileset's `Layer`.
    func layer(_ l: ServedLayers.Layer) -> String {
        let m = l.entry.metadata, b = m.bounds
        let abstract = m.description.map { "      <ows:Abstract>\(x($0))</ows:Abstract>\n" } ?? ""
        let limits = l.grid.limits.map { limit in
            let rows = [limit.rows.lowerBound, limit.rows.upperBound].map { l.grid.flippedRow($0, zoom: limit.zoom) }
            return """
                          <TileMatrixLimits><TileMatrix>\(limit.zoom)</TileMatrix>\
                <MinTileRow>\(rows.min()!)</MinTileRow><MaxTileRow>\(rows.max()!)</MaxTileRow>\
                <MinTileCol>\(limit.columns.lowerBound)</MinTileCol><MaxTileCol>\(limit.columns.upperBound)</MaxTileCol></TileMatrixLimits>

                """
        }
        return """
                <Layer>
                  <ows:Title>\(x(m.name.isEmpty ? l.entry.id : m.name))</ows:Title>
            \(abstract)      <ows:WGS84BoundingBox>
                    <ows:LowerCorner>\(b.west) \(b.south)</ows:LowerCorner>
                    <ows:UpperCorner>\(b.east) \(b.north)</ows:UpperCorner>
                  </ows:WGS84BoundingBox>
                  <ows:Identifier>\(x(l.entry.id))</ows:Identifier>
                  <Style isDefault="true"><ows:Identifier>\(Self.style)</ows:Identifier></Style>
                  <Format>\(m.format.contentType)</Format>
                  <TileMatrixSetLink>
                    <TileMatrixSet>\(x(l.setID))</TileMatrixSet>
                    <TileMatrixSetLimits>
            \(limits.joined())        </TileMatrixSetLimits>
                  </TileMatrixSetLink>
                  <ResourceURL format="\(m.format.contentType)" resourceType="tile" template="\(x(tileTemplate(l)))"/>
                </Layer>

            """
    }

    /// The RESTful GetTile template of a layer (07-057r7 §10.2.1).
    func tileTemplate(_ l: ServedLayers.Layer) -> String {
        "\(baseURL)/wmts/1.0.0/\(OGCAPITiles.pathSegment(l.entry.id))/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}."
            + l.entry.metadata.format.fileExtension
    }

    /// The highest zoom any of `layers` in `set` has: where the set's description stops, since
    /// GDAL's WMTS driver opens a layer at the set's last matrix unless told a zoom (WebMercatorQuad
    /// goes to 30).
    static func maxZoom(of set: TileMatrixSet, _ layers: [ServedLayers.Layer]) -> Int {
        layers.filter { $0.setID == set.id }.flatMap { $0.grid.limits.map(\.zoom) }.max() ?? set.maxZoom
    }

    /// One `TileMatrixSet`, its levels up to `maxZoom`; every level's top-left corner in the
    /// CRS's axis order.
    func tileMatrixSet(_ set: TileMatrixSet, upTo maxZoom: Int) -> String {
        let wkss = set.wellKnownScaleSetURN.map { "      <WellKnownScaleSet>\(x($0))</WellKnownScaleSet>\n" } ?? ""
        let matrices = set.tileMatrices.prefix(max(1, maxZoom - set.minZoom + 1)).map { m in
            """
                  <TileMatrix>
                    <ows:Identifier>\(x(m.id))</ows:Identifier>
                    <ScaleDenominator>\(m.scaleDenominator)</ScaleDenominator>
                    <TopLeftCorner>\(Self.topLeftCorner(set, m).map { "\($0)" }.joined(separator: " "))</TopLeftCorner>
                    <TileWidth>\(m.tileWidth)</TileWidth>
                    <TileHeight>\(m.tileHeight)</TileHeight>
                    <MatrixWidth>\(m.matrixWidth)</MatrixWidth>
                    <MatrixHeight>\(m.matrixHeight)</MatrixHeight>
                  </TileMatrix>

            """
        }
        return """
                <TileMatrixSet>
                  <ows:Identifier>\(x(set.id))</ows:Identifier>
                  <ows:SupportedCRS>\(x(set.crsURN))</ows:SupportedCRS>
            \(wkss)\(matrices.joined())    </TileMatrixSet>

            """
    }

    /// A level's top-left corner in the CRS's axis order: its point of origin as the document
    /// gives it for a top-left origin, else that point moved up by the matrix's height.
    static func topLeftCorner(_ set: TileMatrixSet, _ m: TileMatrix) -> [Double] {
        guard m.corner == .bottomLeft else { return m.pointOfOrigin }
        let o = set.origin(of: m), top = o.y + Double(m.matrixHeight) * m.tileSpanY
        return set.northingFirst ? [top, o.x] : [o.x, top]
    }

    /// The one style of every layer.
    static let style = "default"

    private func x(_ s: String) -> String { XMLText.escape(s) }
}
