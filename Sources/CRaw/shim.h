// LibRaw's C API, the thread-safe build (libraw_r): one libraw_data_t per decode. Linked by name rather than
// through pkg-config, whose -fopenmp SwiftPM drops with a warning (warnings fail this build).
#include <libraw/libraw.h>
