#include <png.h>
/* STUB: the PNG helper defines the setjmp-owning entry points here. */
int photobook_png_shim_version(void);
