/// The TegulaServer module: see the README for what it holds.
public enum TegulaServerModule {}
