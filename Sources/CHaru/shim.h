#include <hpdf.h>
/* Internal headers Debian installs with libhpdf-dev: the font definition's cmap lookup (hpdf_fontdef.h) and the
   page-label dictionary (hpdf_page_label.h), used where the public API stops short. */
#include <hpdf_fontdef.h>
#include <hpdf_page_label.h>
