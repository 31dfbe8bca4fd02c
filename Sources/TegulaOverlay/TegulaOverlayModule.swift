/// The TegulaOverlay module: see the README for what it holds.
public enum TegulaOverlayModule {}
