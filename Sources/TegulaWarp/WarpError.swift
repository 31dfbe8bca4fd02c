/// Everything that can go wrong in the warp stage, with one-line messages.
public struct WarpError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
