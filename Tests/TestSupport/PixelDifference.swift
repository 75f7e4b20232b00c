/// The largest difference between corresponding bytes (samples) of two equal-sized rasters.
package func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count, "rasters differ in size")
    var worst = 0
    for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
}

/// The mean absolute difference per sample of two equal-sized rasters, 0...255.
package func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count, "rasters differ in size")
    var sum = 0
    for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
    return Double(sum) / Double(max(a.count, 1))
}
