#include "../../CJPEG/shim.h"
/* STUB: the JPEG helper defines the setjmp-owning entry points here. */
int photobook_jpeg_shim_version(void);
