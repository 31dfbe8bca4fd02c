import TegulaSupport
import Testing

/// The one CSV reader: RFC 4180 fields with their positions, the GCP files' extensions (per-line
/// tab or space separators, comment lines) and errors that name line and column.
struct CSVTests {
    @Test func quotedFieldsKeepCommasQuotesAndLineEnds() throws {
        let recs = try CSV.records("a,\"b,c\",\"say \"\"hi\"\"\"\r\nx,,\"two\nlines\"\nlast")
        #expect(recs.map(\.texts) == [["a", "b,c", "say \"hi\""], ["x", "", "two\nlines"], ["last"]])
        #expect(recs.map(\.line) == [1, 2, 4])
        #expect(recs[0].fields.map(\.column) == [1, 3, 9])
        #expect(recs[0].raw == "a,\"b,c\",\"say \"\"hi\"\"\"")
        // A lone CR ends a line, as old Mac spreadsheets write it.
        #expect(try CSV.records("a,b\rc,d\r").map(\.texts) == [["a", "b"], ["c", "d"]])
    }

    @Test func perLineSeparatorsAndComments() throws {
        let text = "#CRS: PROJCS[\"x\",1]\nmapX\tmapY\n\t1\t\t2 \n\n3  4\n5,\"Kerk, toren\"\n"
        let recs = try CSV.records(text, separator: .perLine, comment: "#")
        #expect(recs[0].isComment && recs[0].raw == "#CRS: PROJCS[\"x\",1]" && recs[0].fields.isEmpty)
        #expect(recs[1].texts == ["mapX", "mapY"])
        #expect(recs[2].texts == ["1", "2 "])
        #expect(recs[3].isBlank)
        #expect(recs[4].texts == ["3", "4"])
        #expect(recs[5].texts == ["5", "Kerk, toren"])
    }

    @Test func errorsNameLineAndColumn() {
        #expect(throws: CSVError(line: 2, column: 4, "a quoted field is never closed")) {
            try CSV.records("name,input\ns1,\"scans/s1.tif\n")
        }
        #expect(throws: CSVError(line: 1, column: 4, "a quote inside an unquoted field; quote the whole field and double inner quotes")) {
            try CSV.records("a,b\"c\n")
        }
        #expect(throws: CSVError(line: 1, column: 4, "text after a closing quote; expected a comma or the end of the line")) {
            try CSV.records("\"a\"x,b\n")
        }
    }

    @Test func fieldQuotesOnlyWhenItMust() throws {
        #expect(CSV.field("plain name") == "plain name")
        #expect(CSV.field("Kerk, \"toren\"") == "\"Kerk, \"\"toren\"\"\"")
        #expect(try CSV.records("1," + CSV.field("a,\"b\"\nc")).map(\.texts) == [["1", "a,\"b\"\nc"]])
    }
}
