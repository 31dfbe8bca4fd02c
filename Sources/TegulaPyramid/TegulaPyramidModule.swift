/// The TegulaPyramid module: see the README for what it holds.
public enum TegulaPyramidModule {}
