#include "png_shim.h"
int photobook_png_shim_version(void) { return 1; }
