/// The TegulaWarp module: see the README for what it holds.
public enum TegulaWarpModule {}
