import TegulaSupport

/// The kinds of ``TileFormat/OptionError``, for callers and tests that branch on them.
public enum TileOptionReason: String, Sendable, Hashable {
    /// A quality outside ``TileFormat/qualities``.
    case qualityOutOfRange
    /// A quality for a format that takes none (PNG, PNG8).
    case qualityNotTaken
    /// A WebP effort outside ``WebPEffort/levels``.
    case effortOutOfRange
    /// A WebP effort for another format than WebP.
    case effortNotWebP
    /// A WebP effort for WebP made lossy by a quality.
    case effortLossy
    /// An auto-lossy format for another format than `auto`.
    case autoLossyNotAuto
}

/// TileFormat.OptionError's constructors, one per reason, so each message is written once; the
/// messages name no place (the option's flag or key is the caller's to add).
extension LocatedError where Reason == TileOptionReason {
    /// `quality` is outside 1–100.
    public static func qualityOutOfRange(_ quality: Int) -> TileFormat.OptionError {
        TileFormat.OptionError(.qualityOutOfRange, "quality \(quality) is out of range; expected 1–100")
    }

    /// `format` takes no quality.
    public static func qualityNotTaken(by format: TileFormat) -> TileFormat.OptionError {
        TileFormat.OptionError(.qualityNotTaken, "quality applies to jpg, webp and auto, not \(format.name) (lossless or palette)")
    }

    /// WebP effort `level` is outside ``WebPEffort/levels``.
    public static func effortOutOfRange(_ level: Int) -> TileFormat.OptionError {
        let levels = WebPEffort.levels
        return TileFormat.OptionError(.effortOutOfRange, "webp effort \(level) is out of range; expected \(levels.lowerBound)–\(levels.upperBound)")
    }

    /// A WebP effort given for `format`, which is not WebP.
    public static func effortNotWebP(_ format: TileFormat) -> TileFormat.OptionError {
        TileFormat.OptionError(.effortNotWebP, "webp-effort applies to format webp (lossless) only, not \(format.name)")
    }

    /// A WebP effort given with `quality`, which makes the WebP tiles lossy.
    public static func effortLossy(quality: Int) -> TileFormat.OptionError {
        TileFormat.OptionError(.effortLossy, "webp-effort applies to lossless webp only; with a quality (\(quality)) the tiles are lossy")
    }

    /// An auto-lossy format given for `format`, which is not `auto`.
    public static func autoLossyNotAuto(_ format: TileFormat) -> TileFormat.OptionError {
        TileFormat.OptionError(.autoLossyNotAuto, "auto-lossy applies to format auto only, not \(format.name)")
    }
}
