#include <hpdf.h>
/* Internal headers Debian installs with libhpdf-dev: the font definition's cmap lookup (hpdf_fontdef.h) and the
   page-label dictionary (hpdf_page_label.h), used where the public API stops short. */
#include <hpdf_fontdef.h>
#include <hpdf_page_label.h>
/* MD5 (hpdf_encrypt.h), which libharu has for its own /ID: a book's /ID under PDF/X is a digest of its contents. */
#include <hpdf_encrypt.h>
