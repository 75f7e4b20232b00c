// A LibRaw_abstract_datastream over a read callback (include/raw_stream.h says why).
#include "raw_stream.h"

#include <libraw/libraw.h>

// The stream relies on LibRaw 0.20's: open_datastream leaves a stream it did not open to its owner (0.20's
// open_file marks only its own for deletion), libraw_data_t.parent_class is the LibRaw object, and its parallel
// decoders read in OpenMP critical sections or under lock(). Another LibRaw (a new soname, so a rebuild) must be
// checked for all three before this line changes.
#if LIBRAW_MAJOR_VERSION != 0 || LIBRAW_MINOR_VERSION != 20
#error "CRawStream is written against LibRaw 0.20: check its stream class, open_datastream and parent_class"
#endif

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>

// libgomp's, loaded with LibRaw (Debian builds it with OpenMP); weak, so that the stream links without it.
extern "C" int omp_in_parallel(void) __attribute__((weak));

namespace {

/// How many reads may find the file's end before the stream stops LibRaw. A sound raw's decoders read past its
/// end a few times at most (a bit reader's lookahead); LibRaw 0.20 loops on counts it read from the file without
/// a bound or a cancellation check, reading past the end each time: lossy_dng_load_raw takes an opcode list's
/// count (up to 2^32) from the file and reads 16 bytes per opcode, which took minutes on a 54-KB fuzzed DNG.
constexpr int64_t readsPastEndAllowed = 1 << 16;

class CallbackStream final : public LibRaw_abstract_datastream {
public:
    CallbackStream(void *context, pbraw_read_fn read, int64_t size) : context_(context), read_(read), size_(size) {}

    int valid() override { return read_ != nullptr && size_ >= 0; }

    int read(void *destination, size_t size, size_t count) override {
        if (size == 0 || count == 0) return 0;
        size_t wanted = size * count;
        if (wanted / size != count) return 0;
        auto *out = static_cast<unsigned char *>(destination);
        size_t done = 0;
        // What the buffer holds first, then large reads straight into LibRaw's memory, small ones through the buffer.
        while (done < wanted) {
            if (position_ >= bufferStart_ && position_ < bufferStart_ + bufferLength_) {
                size_t offset = size_t(position_ - bufferStart_);
                size_t take = std::min(wanted - done, size_t(bufferLength_) - offset);
                std::memcpy(out + done, buffer_ + offset, take);
                done += take;
                position_ += int64_t(take);
                continue;
            }
            if (position_ >= size_) {
                foundEnd();
                break;
            }
            if (wanted - done >= sizeof buffer_) {
                long got = fetch(position_, out + done, long(std::min<size_t>(wanted - done, 1 << 30)));
                if (got <= 0) break;
                done += size_t(got);
                position_ += got;
            } else if (!fill()) {
                break;
            }
        }
        return int(done / size);
    }

    int seek(INT64 offset, int whence) override {
        int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? position_ : whence == SEEK_END ? size_ : -1;
        if (base < 0) return -1;
        int64_t target = base + offset;
        // As LibRaw's own streams do: a seek outside the file lands on its nearest end.
        position_ = target < 0 ? 0 : target > size_ ? size_ : target;
        return 0;
    }

    INT64 tell() override { return position_; }
    INT64 size() override { return size_; }

    int get_char() override {
        if (position_ < bufferStart_ || position_ >= bufferStart_ + bufferLength_) {
            if (!fill()) {
                if (position_ >= size_) foundEnd();
                return -1;
            }
        }
        return buffer_[position_++ - bufferStart_];
    }

    // A line with its newline kept, as LibRaw's buffer stream gives it.
    char *gets(char *line, int capacity) override {
        if (capacity <= 0) return nullptr;
        int length = 0;
        while (length < capacity - 1) {
            int c = get_char();
            if (c < 0) break;
            line[length++] = char(c);
            if (c == '\n') break;
        }
        line[length] = 0;
        return length > 0 ? line : nullptr;
    }

    int scanf_one(const char *format, void *value) override {
        // LibRaw reads one word of a text header at a time (a number, mostly): the word, then sscanf on it. As
        // LibRaw's own streams do, the delimiter after the word is left for the next read.
        int c = get_char();
        while (c > 0 && std::isspace(c)) c = get_char();
        char word[64];
        int length = 0;
        while (c > 0 && !std::isspace(c) && length < int(sizeof word) - 1) {
            word[length++] = char(c);
            c = get_char();
        }
        if (c >= 0) position_ -= 1;
        word[length] = 0;
        return std::sscanf(word, format, value);
    }

    int eof() override { return position_ >= size_; }

    // A JPEG 2000 stream inside a raw (RED cine) is not read by photobook.
    void *make_jas_stream() override { return nullptr; }

    // LibRaw's parallel decoders (CR3, Fuji) take the stream in turns through lock()/unlock().
    int lock() override {
        mutex_.lock();
        return 1;
    }
    void unlock() override { mutex_.unlock(); }

    /// True once LibRaw was stopped for reading past the file's end too often.
    bool ranPastEnd() const { return ranPastEnd_; }

private:
    /// Counts a read that found the file's end; past the allowance, stops LibRaw's decode by the exception its
    /// own checks throw for a file that ends early (unpack and open_datastream catch it and return
    /// LIBRAW_IO_ERROR). Never inside an OpenMP parallel region: an exception must not leave one.
    void foundEnd() {
        if (++readsPastEnd_ <= readsPastEndAllowed) return;
        if (omp_in_parallel != nullptr && omp_in_parallel()) return;
        ranPastEnd_ = true;
        throw LIBRAW_EXCEPTION_IO_EOF;
    }

    long fetch(int64_t offset, void *into, long count) {
        long got = read_(context_, offset, into, count);
        return got < 0 ? 0 : got;
    }

    bool fill() {
        if (position_ >= size_) return false;
        long got = fetch(position_, buffer_, long(sizeof buffer_));
        if (got <= 0) return false;
        bufferStart_ = position_;
        bufferLength_ = got;
        return true;
    }

    void *context_;
    pbraw_read_fn read_;
    int64_t size_;
    int64_t position_ = 0;
    int64_t bufferStart_ = 0;
    long bufferLength_ = 0;
    int64_t readsPastEnd_ = 0;
    bool ranPastEnd_ = false;
    std::mutex mutex_;
    unsigned char buffer_[64 * 1024];
};

}  // namespace

struct pbraw_stream {
    CallbackStream *stream;
};

extern "C" int pbraw_open(void *data, void *context, pbraw_read_fn read, int64_t size, pbraw_stream **stream) {
    *stream = nullptr;
    auto *processor = static_cast<LibRaw *>(static_cast<libraw_data_t *>(data)->parent_class);
    if (processor == nullptr) return LIBRAW_UNSPECIFIED_ERROR;
    auto *owner = new (std::nothrow) pbraw_stream{nullptr};
    if (owner == nullptr) return LIBRAW_UNSUFFICIENT_MEMORY;
    owner->stream = new (std::nothrow) CallbackStream(context, read, size);
    *stream = owner;
    if (owner->stream == nullptr) return LIBRAW_UNSUFFICIENT_MEMORY;
    try {
        return processor->open_datastream(owner->stream);
    } catch (const std::bad_alloc &) {
        return LIBRAW_UNSUFFICIENT_MEMORY;
    } catch (...) {
        return LIBRAW_UNSPECIFIED_ERROR;
    }
}

extern "C" void pbraw_stream_free(pbraw_stream *stream) {
    if (stream == nullptr) return;
    delete stream->stream;
    delete stream;
}

extern "C" int pbraw_stream_ran_past_end(const pbraw_stream *stream) {
    return stream != nullptr && stream->stream != nullptr && stream->stream->ranPastEnd();
}

extern "C" void pbraw_black_pattern(const void *data, unsigned *rows, unsigned *columns) {
    auto *processor = static_cast<const libraw_data_t *>(data);
    *rows = processor->color.cblack[4];
    *columns = processor->color.cblack[5];
}
