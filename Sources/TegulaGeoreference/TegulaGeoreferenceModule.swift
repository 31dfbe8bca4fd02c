/// The TegulaGeoreference module: see the README for what it holds.
public enum TegulaGeoreferenceModule {}
