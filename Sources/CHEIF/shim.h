// libheif 1.15.1 (Debian 12's libheif-dev): every function photobook calls is a plain C function, so Swift
// reaches them directly; only the header is needed.
#include <libheif/heif.h>
