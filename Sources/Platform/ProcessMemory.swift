#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How this process asks the C allocator for memory.
public enum ProcessMemory {
    /// Blocks of this size or more get their own mapping, returned to the system as soon as they are freed.
    public static let largeBlock = 16 << 20

    /// Makes glibc's malloc map every large block on its own (`mallopt(M_MMAP_THRESHOLD)`), for the whole process.
    ///
    /// Trap: glibc raises its mmap threshold to the size of each mapped block that is freed, up to 32 MB, so after
    /// the first decoded photo (36 MB) every photo and page buffer came from the heaps, which fragment: the resident
    /// set of a build crept from about 140 to over 200 MB as photos went by, memory freed but never given back. A
    /// fixed threshold keeps the peak at what is live (about 135 MB for 24 photos or 800); the price is the page
    /// faults of fresh mappings, about 20 ms of system time per 12-megapixel photo. The large buffers escape it
    /// (decoded photos, pages, libjpeg's coefficient blocks): Imaging's BufferPool keeps a few for the next photo.
    /// Gives the system back the free pages in the middle of malloc's heaps, every thread's (`malloc_trim(0)`): a
    /// few milliseconds, called once a photo's render has let go of everything it held.
    public static func returnFreedPages() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    public static func returnLargeBlocksAtOnce() {
        #if canImport(Glibc)
        // malloc.h is not part of Swift's Glibc module: mallopt is looked up by name, M_MMAP_THRESHOLD is its -3.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mMmapThreshold: Int32 = -3
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mMmapThreshold, Int32(largeBlock))
        #endif
    }
}
