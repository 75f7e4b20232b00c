#include "jpeg_shim.h"
int photobook_jpeg_shim_version(void) { return 1; }
