#include <hb.h>
#include <hb-ot.h>
#include <hb-subset.h>
/* Typeface calls hb-subset's flags and set kinds as HarfBuzz 6 (Debian 12) defines them, and counts on its
   glyf subsetter closing over composite glyphs' components: a HarfBuzz whose API may differ is refused when
   photobook is built, not found out in a book with blank letters. */
#if !defined(HB_VERSION_MAJOR) || HB_VERSION_MAJOR != 6
#error "photobook's Typeface module is checked against HarfBuzz 6 (Debian 12): check it against this HarfBuzz"
#endif
