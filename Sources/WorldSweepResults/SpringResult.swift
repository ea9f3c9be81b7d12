// Plain data, shared by both compilations of the run path (Package.swift).

/// One item's spring metrics (worlds.csv: `ITEM.overshoot`, `ITEM.settle_time`, `ITEM.oscillations`).
public struct SpringResult: Sendable, Hashable, Codable {
    /// The farthest the item went past its rest, on the side opposite to the one it first left
    /// to (pt); 0 if it never crossed.
    public var overshoot: Double
    /// The simulated time (s) of the last tick at which the item was more than 1 pt from rest or
    /// moving at 1 pt/s or more (0 if never); nil if it still was at the last tick.
    public var settleTime: Double?
    /// How many times the item swung through its rest: crossings from more than 1 pt on one side
    /// to more than 1 pt on the other (a spring that overshoots once and comes back: 1).
    public var oscillations: Int

    public init(overshoot: Double = 0, settleTime: Double? = nil, oscillations: Int = 0) {
        self.overshoot = overshoot; self.settleTime = settleTime; self.oscillations = oscillations
    }
}
