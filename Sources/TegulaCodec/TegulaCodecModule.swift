/// The TegulaCodec module: see the README for what it holds.
public enum TegulaCodecModule {}
