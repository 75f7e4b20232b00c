#include <hpdf.h>
/* The PDF module reaches past libharu's public API (below, and the structures of its fonts, pages and
   encoder): a libharu whose insides may differ is refused when photobook is built, not written into a broken PDF. */
#if !defined(HPDF_VERSION_ID) || HPDF_VERSION_ID < 20300 || HPDF_VERSION_ID >= 20400
#error "photobook's PDF module reaches into libharu 2.3 (Debian 12): check it against this libharu"
#endif
/* Internal headers Debian installs with libhpdf-dev: the page-label dictionary (hpdf_page_label.h), used where the
   public API stops short. The fonts are our own objects (PDF/PDFDocument+GlyphFonts.swift), made with the object
   API and written into the page's content stream (hpdf_objects.h, hpdf_pages.h, which hpdf.h brings). */
#include <hpdf_page_label.h>
/* MD5 (hpdf_encrypt.h), which libharu has for its own /ID: a book's /ID under PDF/X is a digest of its contents. */
#include <hpdf_encrypt.h>
