import TegulaMatch

extension AutoTies {
    /// A sheet's row and column in a series whose sheets are named by them: every name the same
    /// words around at least two numbers, the last two the row and the column (`r2c3`,
    /// `sheet-02-03`, `A_2_3`). Matching a sheet without GCPs tries the sheets next to it first.
    struct GridPosition: Equatable {
        let row: Int
        let column: Int

        /// Each name's position, or nil when the names do not make a grid (one without two
        /// numbers, or words that differ).
        static func of(_ names: [String]) -> [String: GridPosition]? {
            var out: [String: GridPosition] = [:]
            var words: Set<String> = []
            for name in names {
                let (skeleton, numbers) = parts(name)
                guard numbers.count >= 2 else { return nil }
                words.insert(skeleton)
                out[name] = GridPosition(row: numbers[numbers.count - 2], column: numbers[numbers.count - 1])
            }
            return words.count == 1 ? out : nil
        }

        /// The name with each run of digits as `#`, and those runs' values.
        static func parts(_ name: String) -> (String, [Int]) {
            var skeleton = "", numbers: [Int] = [], run = ""
            for ch in name + " " {
                if ch.isASCII, ch.isNumber {
                    run.append(ch)
                    continue
                }
                if !run.isEmpty, let n = Int(run) {
                    numbers.append(n)
                    skeleton += "#"
                }
                run = ""
                skeleton.append(ch)
            }
            return (skeleton, numbers)
        }

        /// Where `other`, one step away, lies from this position; nil when it is not one step away.
        func side(of other: GridPosition) -> SheetLocator.Side? {
            switch (other.row - row, other.column - column) {
            case (0, -1): return .left
            case (0, 1): return .right
            case (-1, 0): return .above
            case (1, 0): return .below
            default: return nil
            }
        }

        /// Rows plus columns between the two.
        func steps(to other: GridPosition) -> Int { abs(row - other.row) + abs(column - other.column) }
    }
}
