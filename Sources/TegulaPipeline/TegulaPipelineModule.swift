/// The TegulaPipeline module: see the README for what it holds.
public enum TegulaPipelineModule {}
