/// The TegulaBundle module: see the README for what it holds.
public enum TegulaBundleModule {}
