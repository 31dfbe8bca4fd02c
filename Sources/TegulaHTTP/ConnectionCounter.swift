/// What counts a service's open connections (`tegula serve --metrics`' gauge): ``ServerChannel``
/// calls ``connectionOpened()`` when a connection is set up and ``connectionClosed()`` when its
/// close completes.
public protocol ConnectionCounter: Sendable {
    /// Counts a connection opened.
    func connectionOpened()
    /// Counts a connection closed.
    func connectionClosed()
}
